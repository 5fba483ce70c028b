"""Battle odds: the engine's dice against exactly computed probabilities."""

from __future__ import annotations

import itertools
import math
import random
from functools import cache

import pytest

P, G = 0, 1
SAMPLES = 6000


def round_odds(p_dice: int, g_dice: int, cap: int) -> dict[str, float]:
    """Exact chances that Persia loses, Greece loses, or both lose one round."""
    counts = {"persia": 0, "greece": 0, "both": 0}
    for faces in itertools.product(range(1, 7), repeat=p_dice + g_dice):
        p = min(cap, max(faces[:p_dice]))
        g = max(faces[p_dice:])
        counts["persia" if p < g else "greece" if g < p else "both"] += 1
    total = 6 ** (p_dice + g_dice)
    return {k: v / total for k, v in counts.items()}


def within(freq: float, prob: float, n: int) -> bool:
    """Inside 4.5 standard errors (the samples are seeded, so this cannot flake)."""
    return abs(freq - prob) <= 4.5 * math.sqrt(prob * (1 - prob) / n) + 1e-9


# (city where Persia attacks, its origin, Persian armies, Greek armies, Persian die cap)
CASES = [
    ("Thebai", "Larissa", 1, 1, 4),
    ("Thebai", "Larissa", 3, 2, 4),
    ("Thebai", "Larissa", 5, 4, 4),
    ("Ephesos", "Abydos", 1, 1, 5),
    ("Ephesos", "Abydos", 3, 2, 5),
    ("Ephesos", "Abydos", 2, 3, 5),
]


@pytest.mark.parametrize("city, origin, pa, ga, cap", CASES)
def test_first_round_frequencies(board, play, city, origin, pa, ga, cap):
    # both sides keep a card, so play stops at Greece's turn right after the battle
    start = board.empty(turn=P, hands=([2, 3], [7]), pa={origin: pa}, ga={city: ga, "Sparta": 1})
    play(start, "play 2 move", f"origin_land {origin}")
    seen = {"persia": 0, "greece": 0, "both": 0}
    for i in range(SAMPLES):
        s = start.clone()
        s.dice_rng = random.Random(i)
        play(s, f"move_land {city} {pa}")
        p_lost = pa - s.arm[P][s.t.index[city]]
        g_lost = ga - s.arm[G][s.t.index[city]]
        seen["both" if p_lost and g_lost else "persia" if p_lost else "greece"] += 1
    exact = round_odds(min(3, pa), min(3, ga), cap)
    for key, prob in exact.items():
        assert within(seen[key] / SAMPLES, prob, SAMPLES), (key, seen, exact)


def test_the_asia_cap_helps_persia():
    assert round_odds(3, 3, 5)["greece"] > round_odds(3, 3, 4)["greece"]
    # one die each, capped at 4: Persia wins with 2-3 over a lower die or 4-6 over 1-3
    assert round_odds(1, 1, 4)["greece"] == pytest.approx(12 / 36)
    assert round_odds(1, 1, 5)["greece"] == pytest.approx(14 / 36)


@cache
def persia_wins(pa: int, ga: int, cap: int) -> float:
    """Chance that Persia wipes out Greece when nobody ever retreats."""
    if ga == 0:
        return 1.0 if pa > 0 else 0.0
    if pa == 0:
        return 0.0
    odds = round_odds(min(3, pa), min(3, ga), cap)
    return (odds["persia"] * persia_wins(pa - 1, ga, cap)
            + odds["greece"] * persia_wins(pa, ga - 1, cap)
            + odds["both"] * persia_wins(pa - 1, ga - 1, cap))


def test_whole_battle_without_retreats(board, play):
    start = board.empty(turn=P, hands=([2, 3], [7]), pa={"Larissa": 4}, ga={"Thebai": 2, "Sparta": 1})
    play(start, "play 2 move", "origin_land Larissa")
    wins = 0
    n = 3000
    for i in range(n):
        s = start.clone()
        s.dice_rng = random.Random(10_000 + i)
        play(s, "move_land Thebai 4")
        while s.step in ("l_att_retreat", "l_def_retreat"):
            play(s, "continue")
        wins += s.arm[G][s.t.index["Thebai"]] == 0 and s.arm[P][s.t.index["Thebai"]] > 0
    assert within(wins / n, persia_wins(4, 2, 4), n)
