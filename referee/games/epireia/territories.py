"""Territory conflicts, brigands and taking a territory."""

from __future__ import annotations

from . import questions
from .contests import (
    ability,
    attack,
    by_side,
    conflict,
    die,
    send_home,
    single_roll,
    strongest,
)
from .economy import add_prestige
from .position import Position
from .resources import fmt, gain, worded

Pairs = list[tuple[str, str]]


def resolve_territory(st: Position, territory: str) -> None:
    present = st.occupants(territory)
    if not present:
        return
    name = st.t.territories[territory]["name"]
    sides = by_side(st, present)
    fought = len(sides) > 1
    if fought:
        won = conflict(st, sides, name, territory)
        if won is None:
            return
        winners = sides[won]
    else:
        winners = next(iter(sides.values()))
    spot = st.g["territories"][territory]
    beaten = spot["brigand"]
    if beaten and not beat_brigands(st, territory, winners):
        return
    if winners[0][0] == "enemy":
        if fought or spot["owner"] not in st.g["players"]:  # an undefended holding of yours stays
            enemy_takes(st, territory)
    else:
        take(st, territory, winners, beaten)


def beat_brigands(st: Position, territory: str, pairs: Pairs) -> bool:
    strength = sum(attack(st, f) + ability(st, s, f).get("brigand_attack", 0) for s, f in pairs)
    target = st.t.brigand_target(strength)
    roller = strongest(st, pairs)
    if target is None:
        ok, value = False, 0
    elif roller == "enemy":
        value = die(st, roller)
        ok = value >= target
    else:
        value = single_roll(st, roller, lambda v: v >= target, f"brigands need {target}")
        ok = value >= target
    name = st.t.territories[territory]["name"]
    who = "The enemy" if roller == "enemy" else st.name(roller)
    st.emit("brigands", "{} attacks the brigands on {} with attack {}: rolls {} against {}: {}",
            {"territory": territory, "seat": roller, "roll": value, "target": target, "success": ok},
            args=(who, name, strength, value, target, "victory" if ok else "repelled"))
    if not ok:
        send_home(st, pairs)
        return False
    st.g["territories"][territory]["brigand"] = False
    if roller != "enemy":
        st.g["leagues"][st.league_of(roller)]["counters"]["brigands"] += 1
    return True


def release_owner(st: Position, territory: str) -> None:
    spot = st.g["territories"][territory]
    if spot["owner"] in st.g["players"]:
        st.player(spot["owner"])["posts"] += 1
    spot["owner"] = None


def enemy_takes(st: Position, territory: str) -> None:
    if st.g["territories"][territory]["owner"] == "enemy":
        return
    release_owner(st, territory)
    st.g["territories"][territory]["owner"] = "enemy"
    st.emit("take", f"The enemy takes {st.t.territories[territory]['name']}",
            {"territory": territory, "seat": "enemy"})


def free_a_post(st: Position, seat: str, keep: str) -> None:
    """No city token left: the player gives up one of their other territories."""
    mine = [t for t in st.t.territory_order
            if st.g["territories"][t]["owner"] == seat and t != keep]
    options = [f"release {t}" for t in mine]
    choice = options[0] if len(options) == 1 else questions.ask(
        st, seat, f"No city token left to take {st.t.territories[keep]['name']}: "
        "which territory do you give up?", options)
    chosen = choice.split()[1]
    release_owner(st, chosen)
    st.emit("release", f"{st.name(seat)} withdraws from {st.t.territories[chosen]['name']} "
            "to free a city token", {"seat": seat, "territory": chosen})
    # the league's figures that guarded it leave with the token: left standing there they
    # would take it back at every resolution without moving, and collect its tax each time
    league = st.league_of(seat)
    send_home(st, [(s, f) for s, f in st.occupants(chosen)
                   if s != "enemy" and st.league_of(s) == league])


def take(st: Position, territory: str, pairs: Pairs, beaten: bool = False) -> None:
    """The strongest figure's player takes the territory; `beaten`: its brigands were just
    defeated by these figures."""
    spot = st.g["territories"][territory]
    taker = strongest(st, pairs)
    league = st.league_of(taker)
    if spot["owner"] in st.members(league):
        return
    release_owner(st, territory)
    if st.player(taker)["posts"] <= 0:
        free_a_post(st, taker, territory)
    st.player(taker)["posts"] -= 1
    spot["owner"] = taker
    spec = st.t.territories[territory]
    gain(st, taker, spec["tax"])
    st.emit("take", worded, {"seat": taker, "territory": territory},
            args=("{} takes {} and collects {}", st.name(taker), spec["name"], spec["tax"]))
    if spec["maritime"]:
        taken = st.g["leagues"][league]["counters"]["maritime_taken"]
        if territory not in taken:
            taken.append(territory)
    for seat, figure in pairs:
        ability = st.t.ability(figure)
        if ability.get("on_take") and seat == taker:
            gain(st, seat, ability["on_take"])
            st.emit("ability", f"{st.t.figures[figure]['name']} brings {fmt(ability['on_take'])}",
                    {"seat": seat, "figure": figure})
        # Eupolemos (D3): one Prestige when his player takes the territory, or when he helped
        # defeat its brigands although a partner takes it (once, not once for each)
        if ability.get("prestige_on_take") and (seat == taker or beaten):
            add_prestige(st, seat, ability["prestige_on_take"], st.t.figures[figure]["name"])
