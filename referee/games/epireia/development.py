"""Development phase: donate, build, produce and the administrator's free uses."""

from __future__ import annotations

from ...engine import Decision
from . import registry
from .diplomacy import start_diplomacy
from .economy import (
    add_prestige,
    give_token,
    token_cost,
    token_price,
    token_surcharge,
)
from .payment import affordable_buildings, buildable, building_surcharge, start_payment
from .position import Position
from .resources import gain, pay, worded
from .setup import actor
from .tables import Tables


def admin_uses_left(st: Position, seat: str) -> int:
    p = st.g["players"][seat]
    built = p["buildings"]
    uses = 0
    for building, count in st.t.admin_uses.items():   # the few buildings that give uses
        if building in built:
            uses += count
    return max(0, uses - p["admin_spent"])


def production_blocked(st: Position) -> bool:
    if not st.g.get("solo"):   # only a solo scenario blocks production
        return False
    return st.g["turn"] in st.solo_constraint().get("no_production_turns", [])


def donate_options(st: Position, seat: str) -> list[str]:
    res = st.g["players"][seat]["res"]
    banned = st.all_constraints().get("no_donation", ())
    by_amount = st.t.donations_up_to
    out: list[str] = []
    for r, actions in by_amount.items():
        if r not in banned:
            held = res[r]
            out += actions[held] if held < len(actions) else actions[-1]
    return out


def produce_options(st: Position, seat: str) -> list[str]:
    if production_blocked(st):
        return []
    p = st.g["players"][seat]
    decks, built, res = st.g["decks"], p["buildings"], p["res"]
    treasury = st.g["leagues"][p["league"]]["treasury"]
    discounted = tuple(filter(st.t.token_discounts.__contains__, p["figures"]))
    out = []
    for deck, needs, own_action, league_action, cost in token_prices(
            st.t, discounted, token_surcharge(st)):
        if not decks[deck] or (needs and needs not in built):   # as `may_produce`
            continue
        for r, n in cost:   # as `can_pay`
            if res[r] < n:
                break
        else:
            out.append(own_action)
        for r, n in cost:
            if treasury[r] < n:
                break
        else:
            out.append(league_action)
    return out


def token_prices(t: Tables, figures: tuple[str, ...],
                 surcharge: int) -> list[tuple[str, str | None, str, str, tuple]]:
    """`produce_rows`, each with the token's price as (resource, amount) pairs for a buyer
    with these discounting `figures` and this `surcharge`: worked out once per ruleset
    and terms."""
    key = (figures, surcharge)
    found = t.token_prices.get(key)
    if found is None:
        discounts = [t.token_discounts[f] for f in figures]
        found = t.token_prices[key] = [
            (deck, needs, own, league, tuple(token_price(t.tokens[deck], discounts, surcharge).items()))
            for deck, needs, own, league in t.produce_rows]
    return found


def build_options(st: Position, seat: str) -> list[str]:
    p = st.g["players"][seat]
    built, actions = p["buildings"], st.t.build_actions
    # as `buildable`, each action string at once
    return [actions[b] for b in affordable_buildings(st.t, p["res"], 0, building_surcharge(st))
            if b not in built]


def admin_options(st: Position, seat: str) -> list[str]:
    if not admin_uses_left(st, seat):
        return []
    p = st.g["players"][seat]
    ability = st.t.admins[p["admin"]]["ability"]
    res = p["res"]
    if "free_token" in ability:
        level = ability["free_token"]
        return [f"admin token {d}" for d, spec in st.t.tokens.items()
                if spec["level"] == level and st.g["decks"][d]]
    if "extra_actions" in ability:
        return ["admin action"]
    if "prestige" in ability:
        return ["admin prestige"]
    if "exchange" in ability:
        return ["admin exchange"] if any(res.values()) else []
    if "gain" in ability:
        return ["admin gain"]
    if "free_build_discount" in ability:
        return [f"admin build {b}" for b in buildable(st, seat, ability["free_build_discount"])]
    return []


def has_option(st: Position, seat: str) -> bool:
    """Whether `seat` may do anything but pass (`legal` lists it all; this stops at the
    first kind of option found)."""
    if st.g["players"][seat]["actions"] > 0:
        for listing in ACTION_OPTIONS.values():
            if listing(st, seat):
                return True
    return bool(admin_options(st, seat))


def legal(st: Position, seat: str) -> list[str]:
    out: list[str] = []
    if st.g["players"][seat]["actions"] > 0:
        for listing in ACTION_OPTIONS.values():
            out += listing(st, seat)
    out += admin_options(st, seat)
    out.append("pass")
    return out


def allows(st: Position, seat: str, action: str) -> bool:
    """Whether `seat` may develop with `action` (only its kind of option is listed)."""
    if seat != actor(st):
        return False
    verb = action.partition(" ")[0]
    if verb == "pass":
        return True
    if verb == "admin":
        return action in admin_options(st, seat)
    listing = ACTION_OPTIONS.get(verb)
    return listing is not None and st.player(seat)["actions"] > 0 and action in listing(st, seat)


def decisions(st: Position) -> list[Decision]:
    seat = actor(st)
    left = st.g["players"][seat]["actions"]
    return [Decision(seat, "Development: {} action(s) left", legal(st, seat), args=(left,))]


def settle(st: Position) -> bool:
    seat = actor(st)
    if not has_option(st, seat):   # nothing to do but pass
        end_turn(st, seat)
        return True
    return False


def end_turn(st: Position, seat: str) -> None:
    st.player(seat)["actions"] = 0
    st.g["idx"] += 1
    if st.g["idx"] >= len(st.g["order"]):
        start_diplomacy(st)


def apply(st: Position, seat: str, action: str) -> None:
    words = action.split()
    if words[0] == "pass":
        st.emit("pass", "{} ends their development", {"seat": seat}, args=(st.name(seat),))
        end_turn(st, seat)
    elif words[0] == "admin":
        use_admin(st, seat, words[1:])
    else:
        st.player(seat)["actions"] -= 1
        ACTIONS[words[0]](st, seat, words[1:])


def donate(st: Position, seat: str, args: list[str]) -> None:
    resource, amount = args[0], int(args[1])
    p = st.player(seat)
    league = st.g["leagues"][p["league"]]
    p["res"][resource] -= amount
    cap = st.t.caps["league"]
    league["treasury"][resource] = min(cap, league["treasury"][resource] + amount)
    st.emit("donate", "{} donates {} {} to the {} treasury",
            {"seat": seat, "resource": resource, "amount": amount},
            args=(st.name(seat), amount, resource, p["league"]))
    prestige = 0
    if amount >= st.constraint().get("donate_min_for_prestige", 0):
        prestige = st.t.donate["prestige"]
        for figure in p["figures"]:
            prestige += st.t.ability(figure).get("donate_prestige", 0)
        prestige += st.augur_effect().get("donate_prestige", 0)
    if prestige:
        add_prestige(st, seat, prestige, "donation")


def build(st: Position, seat: str, args: list[str], discount: int = 0) -> None:
    building = args[0]
    start_payment(st, {"kind": "pay", "seat": seat, "cost": dict(st.t.buildings[building]["cost"]),
                       "discount": discount, "surcharge": building_surcharge(st),
                       "then": {"build": building}})


def produce(st: Position, seat: str, args: list[str]) -> None:
    deck = args[0]
    source = "league" if len(args) > 1 else "own"
    cost = token_cost(st, seat, deck)
    wallet = (st.g["leagues"][st.league_of(seat)]["treasury"] if source == "league"
              else st.player(seat)["res"])
    pay(wallet, cost)
    st.emit("produce", worded, {"seat": seat, "deck": deck, "source": source},
            args=("{} pays {} ({}) for a {} token", st.name(seat), cost, source, deck))
    give_token(st, st.league_of(seat), deck, seat, "production")


def use_admin(st: Position, seat: str, args: list[str]) -> None:
    p = st.player(seat)
    p["admin_spent"] += 1
    ability = st.t.admins[p["admin"]]["ability"]
    name = st.t.admins[p["admin"]]["name"]
    st.emit("admin-use", "{} uses the {}", {"seat": seat, "admin": p["admin"]},
            args=(st.name(seat), name))
    kind = args[0]
    if kind == "token":
        give_token(st, p["league"], args[1], seat, name)
    elif kind == "action":
        p["actions"] += ability["extra_actions"]
    elif kind == "prestige":
        add_prestige(st, seat, ability["prestige"], name)
    elif kind == "exchange":
        st.g["queue"].insert(0, {"kind": "exchange", "seat": seat, "left": ability["exchange"]})
    elif kind == "gain":
        gain(st, seat, ability["gain"])
    elif kind == "build":
        build(st, seat, args[1:], discount=ability["free_build_discount"])


# the options that cost an action, by the verb of their action strings, in listing order
ACTION_OPTIONS = {"donate": donate_options, "build": build_options, "produce": produce_options}
# how each of them is taken
ACTIONS = {"donate": donate, "build": build, "produce": produce}

registry.step("develop", decisions, apply, settle, allows)
