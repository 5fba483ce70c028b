"""Earth & Water judged from one side's view: control, supply and the score track.

The score track moves at each campaign's scoring by the difference of the
city points each side controls (majors 2, others 1), and a side that holds
both enemy majors wins outright.  So the evaluation projects the final score:
the track now, plus this campaign's difference in control (which the coming
scoring adds, and which tends to persist into later campaigns), plus the
armies and fleets on the board that will fight for control later, counted
after the attrition that supply will impose.  Armies in a home whose roads
lead nowhere else (Persia's Asia) fight only once they can leave it: by the
bridge, or one aboard each fleet in their ports; the others count for little.
The projected margin becomes a chance of winning, less sure the more scorings
are to come.  Solo (Greece against PERS.IA) reads the same way, from Greece's
side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agon.referee.ruleset_model import Ruleset

from .evaluator import Evaluator, logistic

SIDES = ("persia", "greece")
ARMIES = {side: f"{side}_armies" for side in SIDES}   # the view's keys of a city's pieces
FLEETS = {side: f"{side}_fleets" for side in SIDES}
MARGIN_SCALE = 1.6      # a projected margin of this many points is a 73% favourite ...
SCALE_PER_CAMPAIGN = 0.6  # ... plus this for each scoring to come: a projection is less sure
PERSISTENCE = 0.6       # share of today's control difference expected at each later scoring
ARMY_WEIGHT = 0.12      # points of future margin per army on the board, per campaign left
FLEET_WEIGHT = 0.15     # the same per fleet
CARD_WEIGHT = 0.08      # per card kept in hand after the operations
OPERATION_GAIN = 0.5    # points of this campaign's scoring one card to play is worth ...
OPERATION_DECAY = 0.75  # ... the next card a quarter less: a hand has only so many good moves
AFTER_OPERATIONS = ("sup_cards", "attrit")   # steps where a hand is no longer played
GREEK_ARMY_WORTH = 2.0  # Greek dice count up to 6, Persian to 4: one Greek army ~ two Persian
STRANDED_WORTH = 0.25   # an army that cannot leave its home (no bridge, no fleet) counts so


class EarthAndWaterEvaluator(Evaluator):
    engine = "earth-and-water"

    def __init__(self, ruleset: Ruleset, seats: Sequence[str],
                 teams: dict[str, list[str]] | None = None) -> None:
        super().__init__(ruleset, seats, teams)
        cities = self.data["cities"]
        self.points = {c["name"]: c["value"] for c in cities}
        self.food = {c["name"]: c["amphorae"] for c in cities}
        self.majors = {side: {c["name"] for c in cities if c.get("major") == side}
                       for side in SIDES}
        self.campaigns = self.data["campaigns"]
        always_fed = self.data.get("supply", {}).get("home_cities_always_fed", {})
        self.fed_home = {side: self.majors[side] if always_fed.get(side) else set()
                         for side in SIDES}
        acropolis = [card["persia"] for card in self.data.get("cards", [])
                     if card.get("persia", {}).get("effect") == "acropolis"]
        self.burning = acropolis[0].get("params", {}).get("city") if acropolis else None
        self.bridge_ends = set(self.data.get("bridge", {}).get("between", ()))
        self.enclosed = {side: enclosed_home(self.majors[side], self.data.get("roads", {}))
                         for side in SIDES}
        self.homes = [(side, self.fed_home[side], self.enclosed[side]) for side in SIDES]

    def values(self, view: dict[str, Any]) -> dict[str, float]:
        persia = self.persia_chance(view)
        return {seat: persia if seat == "persia" else 1.0 - persia for seat in self.seats}

    def persia_chance(self, view: dict[str, Any]) -> float:
        forces = {side: Forces() for side in SIDES}
        for city in view["cities"]:
            self.count(city, forces)
        if self.majors["greece"] <= forces["persia"].control:
            return 0.95   # both Greek majors: Persia wins at the scoring (solo: at once)
        if self.majors["persia"] <= forces["greece"].control:
            return 0.05
        later = max(0, self.campaigns - view["campaign"])
        return logistic(self.margin(view, forces) / (MARGIN_SCALE + SCALE_PER_CAMPAIGN * later))

    def count(self, city: dict[str, Any], forces: dict[str, Forces]) -> None:
        """Add one city's pieces and control to each side's forces."""
        name = city["name"]
        if city["control"]:
            forces[city["control"]].control.add(name)
        for side, fed_home, enclosed in self.homes:
            side_forces = forces[side]
            armies, fleets = city[ARMIES[side]], city[FLEETS[side]]
            side_forces.fleets += fleets
            if name in fed_home:
                side_forces.at_home += armies
            else:
                side_forces.away += armies
            if name in enclosed:
                side_forces.shut_in += armies - fleets

    def margin(self, view: dict[str, Any], forces: dict[str, Forces]) -> float:
        """The projected final score track (Persia positive)."""
        scored = {side: sum(self.points[c] for c in forces[side].control
                            if not (view["acropolis"] and c == self.burning)) for side in SIDES}
        later = max(0, self.campaigns - view["campaign"])   # scorings after this campaign's
        margin = view["score"] + (scored["persia"] - scored["greece"]) * (1 + PERSISTENCE * later)
        armies = {side: self.fighting_armies(view, side, forces[side]) for side in SIDES}
        hands = view["hand_counts"]
        future = ARMY_WEIGHT * (armies["persia"] - GREEK_ARMY_WORTH * armies["greece"]) \
            + FLEET_WEIGHT * (forces["persia"].fleets - forces["greece"].fleets)
        if view["step"] in AFTER_OPERATIONS:
            future += CARD_WEIGHT * (hands["persia"] - hands["greece"])
        else:   # cards still to play this campaign are its moves: each may take a city
            margin += (operations(hands["persia"]) - operations(hands["greece"])) \
                * (1 + PERSISTENCE * later)
        return margin + future * (later + 0.5)

    def fighting_armies(self, view: dict[str, Any], side: str, forces: Forces) -> float:
        """Armies on the board the side keeps once supply removes the unfed (8.2), those
        unable to leave an enclosed home counted for less."""
        fed = sum(self.food[c] for c in forces.control if c not in self.fed_home[side])
        kept = forces.at_home + min(forces.away, fed)
        if self.enclosed[side] and not (view["bridge"] and self.enclosed[side] & self.bridge_ends):
            kept -= (1 - STRANDED_WORTH) * max(0, forces.shut_in)
        return kept


@dataclass
class Forces:
    """One side's pieces and cities, as the evaluation counts them."""

    control: set[str] = field(default_factory=set)
    at_home: int = 0     # armies in home cities that are always fed
    away: int = 0        # armies elsewhere, fed by the cities held
    fleets: int = 0
    shut_in: int = 0     # armies in an enclosed home beyond the fleets there to carry them


def enclosed_home(majors: set[str], roads: dict[str, list[str]]) -> set[str]:
    """The side's major cities when their roads lead only to each other (else none):
    armies there leave by sea, or by the bridge."""
    reached = set(majors)
    for city in majors:
        reached.update(roads.get(city, ()))
    return set(majors) if reached == majors else set()


def operations(cards: int) -> float:
    """Points of this campaign's scoring a hand of `cards` may win, each card less than the last."""
    return OPERATION_GAIN * (1 - OPERATION_DECAY ** cards) / (1 - OPERATION_DECAY)
