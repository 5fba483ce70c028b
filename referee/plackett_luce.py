"""Plackett-Luce ratings for games of three or more sides, with openskill.

openskill implements Weng and Lin's Bayesian approximation (JMLR 12, 2011,
algorithm 4): each bot's skill is a normal belief (mu, sigma), prior
(25, 25/3); after each game every belief moves towards what the game's
ranking says under the Plackett-Luce model, in which the first place is won
with probability proportional to exp(skill / c) and each later place among
those left in the same way.  Tied sides share their place; a team's skill is
the sum of its members'.  The *ordinal* mu - 3 sigma is a conservative
rating: the bot is very probably at least that strong.

Bots do not change during a tournament, so the model's drift term tau (which
lets sigma grow again between games so that old games count less) is 0.  The
updates are not commutative: games are fed in schedule order, so a resumed
or parallel tournament gets the same ratings as a straight one.  Another
order of the same games moves each mu by up to about one sigma (measured:
four copies of one bot, whose seat alone decides each game, end 1 to 1.5
sigma apart after 24 to 72 games), so mus closer than about two sigmas do
not tell two bots apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

ORDINAL_SIGMAS = 3.0


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - ORDINAL_SIGMAS * self.sigma


class PlackettLuceRatings:
    """Ratings fed one game at a time."""

    def __init__(self, names: list[str]) -> None:
        self.model = PlackettLuce(tau=0.0)
        self.ratings = {name: self.model.rating(name=name) for name in names}

    def add_game(self, sides: list[list[str]], ranks: list[int]) -> None:
        """One game: the bots of each side, and each side's rank (1 first; equal = tie)."""
        teams = [[self.ratings[name] for name in side] for side in sides]
        updated = self.model.rate(teams, ranks=[float(rank) for rank in ranks])
        for side, new in zip(sides, updated, strict=True):
            for name, rating in zip(side, new, strict=True):
                self.ratings[name] = rating

    def skills(self) -> dict[str, Skill]:
        return {name: Skill(r.mu, r.sigma) for name, r in self.ratings.items()}
