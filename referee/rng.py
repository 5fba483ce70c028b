"""Named random streams derived from one game seed.

Each kind of chance (deck shuffles, battle dice, an automaton's rolls) draws
from its own stream, so two games on the same seed keep the same deck order and
the same automaton dice even when the players' choices diverge.
"""

from __future__ import annotations

import random


def stream(seed: int, name: str) -> random.Random:
    """A generator for one named stream of the game with this seed.

    Seeding with a string hashes it with SHA-512, which is stable across
    Python processes (unlike hash()).
    """
    return random.Random(f"agon:{seed}:{name}")


def rng_state(rng: random.Random) -> list:
    """JSON-ready snapshot of a generator's state."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_state(state: list) -> random.Random:
    rng = random.Random()
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))
    return rng
