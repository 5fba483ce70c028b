"""Solo mode: enemy cities and their fixed army, Augur cards, enemy figures
moved by the d12 table, the objective check and the solo result."""

from __future__ import annotations

from typing import Any

from ...engine import Result
from .battle import slot_key, start_battle
from .economy import add_prestige, draw_token
from .position import Position
from .scenarios import place_brigand


def spec(st: Position) -> dict[str, Any]:
    return st.t.solo_scenarios[st.g["solo"]["scenario"]]


def place_enemies(st: Position, league: str) -> None:
    """The card's enemy cities, their single figure each, their army and any starting brigands."""
    card = spec(st)
    cities = card.get("enemies") or card["enemies_by_league"][league]
    figures = [st.t.solo["enemy_figures"][c] for c in cities]
    army: dict[str, Any] = {}
    for front in st.t.fronts:
        for row, decks in enumerate(card["army"][front["id"]]):
            for column, deck in enumerate(decks):
                token = draw_token(st, deck)
                if token:
                    army[slot_key(front["id"], column, row)] = token
    st.g["enemy"] = {"league": next(lg for lg in st.t.leagues if lg != league),
                     "cities": cities, "pos": {f: "home" for f in figures}, "army": army}
    names = ", ".join(f"{st.t.cities[c]['name']} ({st.t.figures[f]['name']})"
                      for c, f in zip(cities, figures, strict=True))
    st.emit("enemy", f"Enemy cities: {names}; their army of {len(army)} tokens stands ready",
            {"cities": cities, "figures": figures})
    for territory in card.get("constraint", {}).get("brigands", []):
        place_brigand(st, territory)


def reveal_augur(st: Position) -> None:
    solo = st.g["solo"]
    number = solo["augurs"][st.g["turn"] - 1]
    st.g["augur"] = number
    card = st.t.augurs[number]
    effect = card["effect"]
    st.emit("augur", f"Augur card {number}: {card['name']}", {"augur": number})
    seat = st.g["seats"][0]
    if effect.get("prestige"):
        add_prestige(st, seat, effect["prestige"], card["name"])
    if effect.get("lose_resource"):
        st.push({"kind": "strife", "seat": seat, "spec": effect["lose_resource"]})
    if effect.get("brigand_raid"):
        place_brigand(st, raid_target(st, seat, effect["brigand_raid"]))


def raid_target(st: Position, seat: str, default: str) -> str:
    mine = [t for t in st.t.territory_order if st.g["territories"][t]["owner"] == seat
            and not st.t.territories[t]["maritime"]]
    if not mine:
        return default
    return max(mine, key=lambda t: (sum(st.t.territories[t]["tax"].values()),
                                    -st.t.territory_order.index(t)))


def is_sea(st: Position, place: str) -> bool:
    if place in st.t.empires:
        return st.t.empires[place]["sea"]
    return st.t.territories[place]["maritime"]


def move_enemies(st: Position) -> None:
    table = st.t.solo["d12"]
    storm = st.augur_effect().get("sea_closed")
    for figure in st.g["enemy"]["pos"]:
        roll = st.roll("automaton")
        place = table[roll - 1]
        name = st.t.figures[figure]["name"]
        if storm and is_sea(st, place):
            st.emit("enemy-move", f"Enemy {name} rolls {roll} ({place}) but the storm keeps them home",
                    {"figure": figure, "roll": roll, "to": "home"})
            continue
        st.g["enemy"]["pos"][figure] = place
        st.emit("enemy-move", f"Enemy {name} rolls {roll} and goes to {place}",
                {"figure": figure, "roll": roll, "to": place})


def objectives_status(st: Position) -> list[bool]:
    seat = st.g["seats"][0]
    p = st.player(seat)
    out = []
    for objective in spec(st)["objectives"]:
        if "prestige" in objective:
            out.append(p["prestige"] >= objective["prestige"])
        elif "territories_held" in objective:
            sea_only = objective.get("maritime", False)
            held = [t for t, s in st.g["territories"].items() if s["owner"] == seat
                    and (not sea_only or st.t.territories[t]["maritime"])]
            out.append(len(held) >= objective["territories_held"])
        elif "buildings" in objective:
            want = objective["buildings"]
            built = [b for b in p["buildings"] if st.t.buildings[b]["category"] == want["category"]]
            out.append(len(built) >= want["count"])
        elif "empire_successes" in objective:
            out.append(st.g["solo"]["empire_successes"] >= objective["empire_successes"])
        else:
            raise ValueError(f"unknown solo objective {objective}")
    return out


def solo_turn_end(st: Position) -> None:
    solo = st.g["solo"]
    st.g["augur"] = None
    if st.g["turn"] < solo["turns"]:
        st.g["step"] = "turn-start"
        return
    status = objectives_status(st)
    solo["objectives"] = status
    seat = st.g["seats"][0]
    if not all(status):
        st.g["step"] = "over"
        reason = f"Objectives not met after {solo['turns']} turns ({sum(status)}/{len(status)})"
        st.emit("game-over", reason, {"objectives": status})
        st.g["result"] = Result({seat: 0.0}, {seat: 2}, reason, points={seat: 0.0}).to_json()
        return
    st.emit("battle", "Every objective is met: the final battle begins", {})
    start_battle(st)
