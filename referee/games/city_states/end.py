"""The end of the game (rule 14): cities held, Historians, and the tie-breaks."""

from __future__ import annotations

from ...engine import Result
from .leaders import Leaders


class End(Leaders):
    """The victory count and the result."""

    def standing(self, p: int) -> tuple[int, int, int, int]:
        """What ranks p: victory points, then whether he is still in the game (a player
        who is out never outranks one left in it: D22), then base incomes, then gold."""
        return (self.victory_points(p), 0 if self.out[p] else 1, self.base_income_total(p),
                self.gold[p])

    def finish(self, reason: str) -> None:
        self.over = True
        self.wait("", self.actor)
        self.phase = "over"
        self.reason = reason
        rows = sorted(range(self.np), key=lambda p: self.standing(p), reverse=True)
        said = "; ".join(self.standing_text(p) for p in rows)
        self.log("game_over", f"The game ends: {reason}. Cities held: {said}", reason=reason)

    def standing_text(self, p: int) -> str:
        """'p2 3 (income 12, gold 4)', or '(out, income 0, gold 9)' for a player who is out."""
        out = "out, " if self.out[p] else ""
        return (f"{self.seats[p]} {self.victory_points(p)} ({out}income "
                f"{self.base_income_total(p)}, gold {self.gold[p]})")

    def final_result(self) -> Result:
        standings = {self.seats[p]: self.standing(p) for p in range(self.np)}
        ordered = sorted(standings.values(), reverse=True)
        ranks = {seat: 1 + ordered.index(value) for seat, value in standings.items()}
        scores = {seat: float(value[0]) for seat, value in standings.items()}
        best = [seat for seat, rank in ranks.items() if rank == 1]
        if len(best) > 1:
            return Result(scores, ranks, f"{self.reason}; {', '.join(best)} share the victory")
        return Result(scores, ranks, f"{self.reason}; {self.why_first(best[0], standings)}")

    @staticmethod
    def why_first(winner: str, standings: dict[str, tuple[int, int, int, int]]) -> str:
        """What put `winner` first: the most points, or the first tie-break that parted
        him from those level with him on points (rule 14, D22)."""
        mine = standings[winner]
        level = [value for seat, value in standings.items()
                 if seat != winner and value[0] == mine[0]]
        if not level:
            return f"{winner} controls the most cities"
        rival = max(level)   # the one he parted from last: second
        at = next(at for at in (1, 2, 3) if mine[at] != rival[at])   # (all equal: shared)
        if at == 1:
            return f"{winner} wins the tie on cities ({mine[0]} each) by being still in the game"
        how = "base incomes" if at == 2 else "gold"
        return (f"{winner} wins the tie on cities ({mine[0]} each) on {how} "
                f"({mine[at]} to {rival[at]})")
