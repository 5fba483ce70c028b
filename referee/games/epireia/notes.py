"""What a person's menu says beside each action (`State.notes`): costs, rewards,
thresholds, taxes, and a figure's attack, sea icon and ability.

The words come from the ruleset: its tables for the numbers, its rule
sections (whose ids are the data's ids) for abilities and effects.  Only what
the seat may know is used: public tables, its own stock and figures.
"""

from __future__ import annotations

from collections.abc import Callable

from ...engine import Decision
from .board import amounts, token_name
from .economy import token_cost
from .empires import empire_targets
from .payment import building_surcharge
from .position import Position


def notes(st: Position, decision: Decision) -> dict[str, str]:
    seat = decision.seat
    out = {}
    for action in decision.legal:
        verb, _, rest = action.partition(" ")
        explain = NOTES.get(verb)
        note = explain(st, seat, rest) if explain and rest else None
        if note:
            out[action] = note
    return out


def rule_words(st: Position, section: str) -> str | None:
    text = st.t.rule_text.get(section)
    return " ".join(text.split()) if text else None


def figure_note(st: Position, seat: str, figure: str) -> str | None:
    """`Attack 2, sea. Wooden walls: ...` (the figure's rule section)."""
    if figure not in st.t.figures:
        return None
    spec = st.t.figures[figure]
    return rule_words(st, figure) or f"Attack {spec['attack']}, {'sea' if spec['sea'] else 'land'}"


def city_note(st: Position, seat: str, city: str) -> str | None:
    if city not in st.t.cities:
        return None
    spec = st.t.cities[city]
    league = f"{spec['league']} league only; " if spec.get("league") else ""
    figures = ", ".join(f"{f['name']} {f['attack']}{' sea' if f['sea'] else ''}"
                        for f in st.t.figures.values() if f["city"] == city)
    return f"{league}figures (attack): {figures}"


def admin_note(st: Position, seat: str, rest: str) -> str | None:
    """Choosing an administrator, or using yours (`admin token D`, `admin build B`)."""
    kind, _, arg = rest.partition(" ")
    if kind in st.t.admins:
        return rule_words(st, kind)
    if kind == "token":
        return f"free: a {token_name(st, arg)} token ({powers(st, arg)})"
    if kind == "build":
        discount = st.t.admins[st.player(seat)["admin"]]["ability"].get("free_build_discount", 0)
        return building_note(st, seat, arg, discount) + "; costs no action"
    return rule_words(st, st.player(seat)["admin"])


def building_note(st: Position, seat: str, building: str, discount: int = 0) -> str:
    spec = st.t.buildings[building]
    cost = f"costs {amounts(st, spec['cost'])}"
    if discount:
        cost += f", {discount} less of your choice"
    surcharge = building_surcharge(st)
    if surcharge:
        cost += f", plus {surcharge} of your choice this turn"
    effect = rule_words(st, building) or ""
    if effect.startswith("Costs ") and ". " in effect:   # the price is said above, as it stands
        effect = effect.split(". ", 1)[1]
    return f"{cost}; {effect}" if effect else cost


def build_note(st: Position, seat: str, building: str) -> str | None:
    if building not in st.t.buildings:
        return None
    item = st.g["queue"][0] if st.g["queue"] else {}
    discount = item.get("spec", {}).get("discount", 0) if item.get("kind") == "bonus_build" else 0
    return building_note(st, seat, building, discount)


def produce_note(st: Position, seat: str, rest: str) -> str | None:
    deck, _, source = rest.partition(" ")
    if deck not in st.t.tokens:
        return None
    paid = "from the league treasury" if source == "league" else "from your stock"
    return f"costs {amounts(st, token_cost(st, seat, deck))} {paid}; {powers(st, deck)}"


def take_note(st: Position, seat: str, deck: str) -> str | None:
    return f"free; {powers(st, deck)}" if deck in st.t.tokens else None


def powers(st: Position, deck: str) -> str:
    values = sorted({int(p) for p in st.t.tokens[deck]["powers"]})
    return "power " + " or ".join(map(str, values))


def donate_note(st: Position, seat: str, rest: str) -> str | None:
    resource, _, amount = rest.partition(" ")
    if not amount.isdigit():
        return None
    if int(amount) < st.constraint().get("donate_min_for_prestige", 0):
        return "no Prestige this act (a donation needs more to earn it)"
    prestige = st.t.donate["prestige"]
    prestige += sum(st.t.ability(f).get("donate_prestige", 0) for f in st.player(seat)["figures"])
    prestige += st.augur_effect().get("donate_prestige", 0)
    return f"+{prestige} Prestige"


def destination_note(st: Position, seat: str, place: str) -> str | None:
    """Where a figure may go: an empire's rolls and reward, a territory's tax, a city's roll."""
    if place in st.t.empires:
        spec = st.t.empires[place]
        alone, shared = empire_targets(st, place)
        reward = amounts(st, {r: n for r, n in spec["reward"].items() if r in st.t.resources})
        extras = [f"{spec['reward']['prestige']} Prestige"] if spec["reward"].get("prestige") else []
        if spec["reward"].get("token"):
            extras.append(f"a {token_name(st, spec['reward']['token'])} token")
        return (f"empire: roll {alone}+ alone, {shared}+ if both leagues come; reward "
                + ", ".join([reward, *extras]))
    if place in st.t.territories:
        spot = st.g["territories"][place]
        held = f"; held by {spot['owner']}" if spot["owner"] else ""
        brigands = "; brigands there" if spot["brigand"] else ""
        return f"territory: tax {amounts(st, st.t.territories[place]['tax'])}{held}{brigands}"
    if place in st.t.cities:
        spec = st.t.cities[place]["integration"]
        return (f"Greek city: roll {spec['target']}+ to win its {token_name(st, spec['token'])}"
                f" token and {amounts(st, spec['gain'])}")
    return None


def release_note(st: Position, seat: str, territory: str) -> str | None:
    if territory not in st.t.territories:
        return None
    league = st.league_of(seat)
    guards = [st.t.figures[f]["name"] for s, f in st.occupants(territory)
              if s != "enemy" and st.league_of(s) == league]
    home = f"; {', '.join(guards)} {'goes' if len(guards) == 1 else 'go'} home" if guards else ""
    return f"give up a territory taxed {amounts(st, st.t.territories[territory]['tax'])}{home}"


NOTES: dict[str, Callable[[Position, str, str], str | None]] = {
    "city": city_note, "admin": admin_note, "figure": figure_note, "recruit": figure_note,
    "send": figure_note, "commit": figure_note, "build": build_note, "produce": produce_note,
    "take": take_note, "donate": donate_note, "to": destination_note, "release": release_note,
}
