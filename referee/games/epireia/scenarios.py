"""Scenario cards: drawing an act, its constraint on reveal, and the objective check."""

from __future__ import annotations

from typing import Any

from . import registry
from .economy import give_token
from .position import Position
from .start import new_counters

PLAYING_STEPS = ("turn-start", "develop", "diplomacy", "resolution")


def draw_next_act(st: Position) -> None:
    current = st.g["scenario"]
    act = 1 if current is None else current["act"] + 1
    card = st.g["scenario_draws"][act - 1]
    spec = st.t.scenarios[card]
    st.g["scenario"] = {"id": card, "act": act, "done": False, "winner": None}
    for league in st.g["leagues"].values():
        league["counters"] = new_counters()
    st.emit("scenario", f"Act {act}: {spec['name']} is revealed", {"act": act, "scenario": card})
    for territory in spec.get("constraint", {}).get("brigands", []):
        place_brigand(st, territory)


def place_brigand(st: Position, territory: str) -> None:
    """A brigand token lands on a territory, removing any city token there."""
    spot = st.g["territories"][territory]
    owner = spot["owner"]
    if owner in st.g["players"]:
        st.player(owner)["posts"] += 1
    spot["owner"] = None
    spot["brigand"] = True
    st.emit("brigand", f"Brigands seize {st.t.territories[territory]['name']}",
            {"territory": territory})


def held(st: Position, league: str, maritime: bool | None = None,
         seats: list[str] | None = None) -> list[str]:
    """The territories `league` holds (of one kind if `maritime` is given)."""
    if seats is None:
        seats = st.ordered(league)
    return [t for t, spot in st.g["territories"].items() if spot["owner"] in seats
            and (maritime is None or st.t.territories[t]["maritime"] == maritime)]


def objective_met(st: Position, league: str, objective: dict[str, Any],
                  seats: list[str] | None = None) -> bool:
    """Whether `league` (its `seats`, in seat order, if known) meets `objective` now."""
    if seats is None:
        seats = st.ordered(league)
    size = len(seats)
    counters = st.g["leagues"][league]["counters"]
    if "prestige_every_city" in objective:
        return all(st.player(s)["prestige"] >= objective["prestige_every_city"] for s in seats)
    if "treasury_per_city" in objective:
        return sum(st.g["leagues"][league]["treasury"].values()) >= objective["treasury_per_city"] * size
    if "territories_held" in objective:
        return len(held(st, league, seats=seats)) >= objective["territories_held"][str(size)]
    if "buildings_per_city" in objective:
        return counters["buildings"] >= objective["buildings_per_city"] * size
    if "brigands_defeated" in objective:
        return counters["brigands"] >= objective["brigands_defeated"]
    if "empire_successes_per_city" in objective:
        return counters["empires"] >= objective["empire_successes_per_city"] * size
    if "tokens_per_city" in objective:
        spec = objective["tokens_per_city"]
        kind = spec.get("type")
        if kind and any(st.g["decks"][d] for d, tok in st.t.tokens.items() if tok["type"] == kind):
            count = counters["tokens_by_type"].get(kind, 0)
        else:
            count = counters["tokens"]
        return count >= spec["count"] * size
    if "maritime_taken_and_held" in objective:
        mine = set(held(st, league, maritime=True, seats=seats))
        return len(mine & set(counters["maritime_taken"])) >= objective["maritime_taken_and_held"]
    raise ValueError(f"unknown objective {objective}")


def check(st: Position) -> None:
    """The first league to meet the active objective takes the reward (Peloponnesian first)."""
    scenario = st.g["scenario"]
    if not scenario or scenario["done"] or st.g["step"] not in PLAYING_STEPS:
        return
    spec = st.t.scenarios[scenario["id"]]
    players = st.g["players"]
    by_league: dict[str, list[str]] = {}   # each league's seats in seat order, in one pass
    for seat in st.g["seats"]:
        by_league.setdefault(players[seat]["league"], []).append(seat)
    for league in reversed(st.t.leagues):
        seats = by_league.get(league)
        if seats and objective_met(st, league, spec["objective"], seats):
            scenario["done"] = True
            scenario["winner"] = league
            st.emit("objective", f"The {league} league completes {spec['name']}",
                    {"league": league, "scenario": scenario["id"]})
            give_token(st, league, spec["reward"], None, f"reward of {spec['name']}")
            if scenario["act"] >= 3:
                st.g["battle_after_turn"] = True
            return


registry.CHECKS.append(check)
