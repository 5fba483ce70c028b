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


# -- whole battles of every kind, fought to the end, against exact distributions ---------

def final_odds(att_side: int, pa: int, ga: int, cap: int, greek_dice: int = 0,
               carried: int = 0) -> dict[tuple[int, int, int], float]:
    """Exact chances of each end (Persians left, Greeks left, carried armies left) of a
    battle nobody retreats from.  `greek_dice`: a battle card's fixed count (else one
    die per unit, 3 at most); `carried`: armies aboard the attacker's fleets, lost once
    the fleets are fewer (7.2)."""
    out: dict[tuple[int, int, int], float] = {}

    def fight(pa: int, ga: int, aboard: int, chance: float) -> None:
        if not pa or not ga:
            end = (pa, ga, aboard if (ga if att_side == G else pa) else 0)
            out[end] = out.get(end, 0.0) + chance
            return
        odds = round_odds(min(3, pa), greek_dice or min(3, ga), cap)
        for lost, p_loss, g_loss in (("persia", 1, 0), ("greece", 0, 1), ("both", 1, 1)):
            left_p, left_g = pa - p_loss, ga - g_loss
            fleets = left_g if att_side == G else left_p
            fight(left_p, left_g, min(aboard, fleets), chance * odds[lost])

    fight(pa, ga, carried, 1.0)
    return out


def fought_to_the_end(s) -> None:
    """Decline every card and retreat from nothing until the battle is over."""
    while s.step in ("land_react", "l_att_retreat", "l_def_retreat", "n_att_retreat",
                     "n_def_retreat", "artemisia"):
        s.apply(s.pending()[0].seat, "decline" if s.step in ("land_react", "artemisia")
                else "continue")


# name -> (builder arguments, actions before the dice, last action, where, naval, odds)
WHOLE = {
    "naval, Persia attacks 3 against 2": (
        dict(turn=P, hands=([2, 3], [7]), pf={"Ephesos": 3}, gf={"Naxos": 2}, ga={"Sparta": 1}),
        ["play 2 move", "origin_sea Ephesos"], "move_sea Naxos 3 0", "Naxos", True,
        final_odds(P, 3, 2, 4)),
    "naval in Asia, Greece carries 3 armies on 3 fleets against 2": (
        dict(turn=G, hands=([2], [7, 3]), pf={"Ephesos": 2}, pa={"Abydos": 1},
             gf={"Athenai": 3}, ga={"Athenai": 3}),
        ["play 7 move", "origin_sea Athenai"], "move_sea Ephesos 3 3", "Ephesos", True,
        final_odds(G, 2, 3, 5, carried=3)),
    "Cavalry of Mardonius, 3 against 3": (
        dict(turn=P, hands=([1, 3], [7]), pa={"Larissa": 3}, ga={"Thebai": 3, "Sparta": 1}),
        ["play 1 event", "origin_land Larissa"], "move_land Thebai 3", "Thebai", False,
        final_odds(P, 3, 3, 6)),
    "Miltiades, 3 against 1 rolling 3 dice": (
        dict(turn=P, hands=([2, 3], [4, 7]), pa={"Larissa": 3}, ga={"Thebai": 1, "Sparta": 1}),
        ["play 2 move", "origin_land Larissa", "move_land Thebai 3"], "react 4", "Thebai",
        False, final_odds(P, 3, 1, 4, greek_dice=3)),
    "300 Spartans, 4 against 2 rolling 3 dice": (
        dict(turn=P, hands=([2, 3], [15, 7]), pa={"Larissa": 4}, ga={"Thebai": 2, "Sparta": 1}),
        ["play 2 move", "origin_land Larissa", "move_land Thebai 4"], "react 15", "Thebai",
        False, final_odds(P, 4, 2, 4, greek_dice=3)),
    "Leonidas, 1 army rolling 2 dice against 2": (
        dict(turn=G, hands=([2], [8, 7]), pa={"Thebai": 2}, ga={"Athenai": 2}),
        ["play 8 event", "origin_land Athenai"], "move_land Thebai 1", "Thebai", False,
        final_odds(G, 2, 1, 4, greek_dice=2)),
}


@pytest.mark.parametrize("name", list(WHOLE))
def test_whole_battle_outcomes_match_the_rulebook_procedure(board, play, name):
    pieces, before, last, where, naval, exact = WHOLE[name]
    start = board.empty(**pieces)
    play(start, *before)
    n = 2000
    seen: dict[tuple[int, int, int], int] = {}
    for i in range(n):
        s = start.clone()
        s.dice_rng = random.Random(50_000 + i)
        play(s, last)
        fought_to_the_end(s)
        city = s.t.index[where]
        units = s.flt if naval else s.arm
        landed = s.arm[G][city] if naval else 0   # the Greek armies carried ashore
        end = (units[P][city], units[G][city], landed)
        seen[end] = seen.get(end, 0) + 1
    assert set(seen) <= set(exact), (seen, exact)
    for end, prob in exact.items():
        assert within(seen.get(end, 0) / n, prob, n), (name, end, seen, exact)
