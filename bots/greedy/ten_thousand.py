"""Xenophon and the Ten Thousand judged from one seat's view: men, food, anger, distance.

A finished army scores its men divided by the turns it took (destroyed: 0).
For an army still marching the evaluation projects that score: the turns
left from the distance to the sea (slower with Anger tokens, which bring
attacks), the men it will lose on the way (a steady toll, more with Anger and
Mutiny tokens, Starvation tokens now, and hungry turns beyond its food).  A
roll whose window is open counts at its current total, read on its table
(spaces marched, men lost, tokens won or lost), so a card that changes a roll
is judged by what the roll will then do.  While the army's own Travel roll is
still to come this turn, what is already known to change it (foraging, a
satrap met, an attack, the weather or the terrain when their rolls are open)
moves the army by the difference it makes to the roll's expected spaces: a
forage is paid for in distance, not only rewarded in food.  Several armies:
each one's chance to beat the others from the projected scores; alone: the
chance of reaching the benchmark score; the further from the sea, the less
sure either is.

The rates below were measured on random games of the shipped ruleset (about
1.8 spaces and 230 men a turn); they need only be about right: a search
corrects them, and greedy play only compares positions one move apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agon.referee.ruleset_model import Ruleset

from .evaluator import Evaluator, logistic, shares

TURNS_PER_SPACE = 0.57      # turns a space of distance costs
TURNS_PER_ANGER = 0.23      # and each Anger token (attacks slow the march)
MEN_PER_TURN = 230          # men lost a turn on the way
MEN_PER_ANGER_TURN = 10     # more per Anger token a turn
MEN_PER_MUTINY_TURN = 9     # more per Mutiny token a turn
MEN_PER_STARVATION = 140    # each Starvation token held now
MEN_PER_HUNGRY_TURN = 60    # each turn left beyond the food held
ATTACK_MEN = 350            # what an attack (flag `attacked`) is expected to cost
TRAVEL_BASE = -0.6          # the Travel roll's usual terrain and weather modifier
SCORE_SCALE = 20.0          # a projected score lead of this much is a 73% favourite ...
SCALE_PER_ROOT_TURN = 6.0   # ... plus this times the root of the turns left: far from the
                            # sea a projection is less sure, and a lead not yet won


@dataclass
class March:
    """One army's numbers as the projection reads them."""

    men: float
    space: float
    food: int
    starvation: int
    mutiny: int
    anger: int
    travel: float = 0.0     # known modifiers of this turn's Travel roll to come
    flags: set[str] = field(default_factory=set)


class TenThousandEvaluator(Evaluator):
    engine = "ten-thousand"

    def __init__(self, ruleset: Ruleset, seats: Sequence[str],
                 teams: dict[str, list[str]] | None = None) -> None:
        super().__init__(ruleset, seats, teams)
        self.finish = self.data["tracks"]["distance"]["finish"]
        self.tables = self.data["tables"]
        self.benchmark = self.data.get("scoring", {}).get("solo", {}).get("win", 200)
        phases = self.data["phases"]
        travel = next(i for i, phase in enumerate(phases)
                      if self.tables.get(phase.get("table"), {}).get("outcome") == "move")
        self.travel_table = phases[travel]["table"]
        self.before_travel = {phase["id"] for phase in phases[:travel + 1]}
        table = self.tables[self.travel_table]
        self.travel_dice = int(table.get("dice", 1))
        self.travel_flags = {mod["flag"]: mod["value"] for mod in table.get("modifiers", ())
                             if mod["when"] == "flag"}
        self.usual_travel = self.expected_travel(TRAVEL_BASE)

    def values(self, view: dict[str, Any]) -> dict[str, float]:
        scores = {seat: self.projected_score(view, seat) for seat in view["armies"]}
        distance = max((self.finish - army["space"] for army in view["armies"].values()
                        if army["arrived"] is None and not army["destroyed"]), default=0)
        scale = SCORE_SCALE + SCALE_PER_ROOT_TURN * math.sqrt(max(0, distance) * TURNS_PER_SPACE)
        if len(scores) == 1:
            seat, score = next(iter(scores.items()))
            return {seat: logistic((score - self.benchmark) / scale)}
        return shares(scores, scale)

    def projected_score(self, view: dict[str, Any], seat: str) -> float:
        army = view["armies"][seat]
        if army["destroyed"]:
            return 0.0
        if army["arrived"] is not None:
            return army["men"] / max(1, army["arrived"])
        tokens = army["tokens"]
        march = March(army["men"], army["space"], tokens["food"], tokens["starvation"],
                      tokens["mutiny"], tokens["anger"])
        window = view.get("window")
        if window and window["roller"] == seat:
            self.settle_window(march, window)
        if self.travel_to_come(view, seat):
            march.flags.update(view["flags"])
            known = march.travel + sum(self.travel_flags.get(flag, 0) for flag in march.flags)
            march.space += self.expected_travel(TRAVEL_BASE + known) - self.usual_travel
        if march.space >= self.finish:
            return max(0.0, march.men) / max(1, view["round"])
        turns = TURNS_PER_SPACE * (self.finish - march.space) + TURNS_PER_ANGER * march.anger
        loss = turns * (MEN_PER_TURN + MEN_PER_ANGER_TURN * march.anger
                        + MEN_PER_MUTINY_TURN * march.mutiny) \
            + MEN_PER_STARVATION * march.starvation \
            + MEN_PER_HUNGRY_TURN * max(0.0, turns - march.food)
        return max(0.0, march.men - loss) / (view["round"] + turns)

    def travel_to_come(self, view: dict[str, Any], seat: str) -> bool:
        """Whether `seat`'s Travel roll of the turn under way is still to be thrown."""
        window = view.get("window")
        return view["current"] == seat and view["phase"] in self.before_travel \
            and not (window and window["table"] == self.travel_table)

    def expected_travel(self, modifier: float) -> float:
        """The spaces a Travel roll moves on average with `modifier` (never below 0)."""
        outcomes = [0.0]
        for _ in range(self.travel_dice):
            outcomes = [total + face for total in outcomes for face in range(1, 7)]
        return sum(max(0.0, total + modifier) for total in outcomes) / len(outcomes)

    def settle_window(self, march: March, window: dict[str, Any]) -> None:
        """What the open roll does to `march` if its total stands."""
        table = self.tables.get(window["table"], {})
        total = window["total"]
        outcome = table.get("outcome")
        if outcome == "rows":
            self.apply_row(march, row_at(table["rows"], total))
        elif outcome == "attack":
            self.apply_row(march, table["hit"] if total <= march.anger else table["miss"])
        elif outcome == "loss":
            march.men -= max(0, total) * table.get("men_per_point", 100)
        elif outcome == "move":
            march.space += max(0, total)

    def apply_row(self, march: March, row: dict[str, Any]) -> None:
        for token in row.get("discard_all", ()):
            setattr(march, token, 0)
        for token, amount in row.get("gain", {}).items():
            setattr(march, token, max(0, getattr(march, token) + amount))
        for token, amount in row.get("lose", {}).items():
            setattr(march, token, max(0, getattr(march, token) - amount))
        loss = row.get("lose_men", 0)
        if isinstance(loss, dict):
            loss = (3.5 * loss["dice"] + loss.get("add", 0)) * loss["times"]
        march.men -= loss
        # a route or weather row and the flags a row raises change this turn's travel roll
        march.travel += row.get("columns", {}).get("travel", 0)
        march.flags.update(row.get("flags", ()))
        if "attacked" in row.get("flags", ()):
            march.men -= ATTACK_MEN


def row_at(rows: list[dict[str, Any]], total: int) -> dict[str, Any]:
    """The row a total falls in; totals off the table read its end rows."""
    if total <= rows[0]["min"]:
        return rows[0]
    for row in rows:
        if row["min"] <= total <= row["max"]:
            return row
    return rows[-1]
