"""The schedule: who plays whom, in which seats, on which seeds."""

from __future__ import annotations

from collections import Counter, defaultdict

from agon.referee.tournament import Entrant, derive_seed, make_plan, seat_assignments, setup


def test_seeds_are_derived_deterministically_from_the_master_seed():
    assert [derive_seed(7, i) for i in range(5)] == [derive_seed(7, i) for i in range(5)]
    assert len({derive_seed(7, i) for i in range(100)}) == 100
    assert [derive_seed(7, i) for i in range(5)] != [derive_seed(8, i) for i in range(5)]
    assert all(0 <= derive_seed(s, i) < 2**63 for s in range(3) for i in range(3))
    # all 63 bits: a bot cannot tabulate its own seed against every game seed
    assert max(derive_seed(1, i) for i in range(100)) > 2**62


def test_duel_every_pairing_plays_both_seatings_on_the_same_seeds():
    plan = make_plan(["persia", "greece"], None, ["a", "b", "c"], games=4, seed=3)
    assert plan.kind == "duel"
    assert len(plan.tasks) == 3 * 2 * 4  # pairings x seat assignments x seeds
    seatings = defaultdict(set)  # pairing -> {(seed, persia, greece)}
    for task in plan.tasks:
        seats = dict(task.seating)
        assert task.seed == derive_seed(3, task.seed_index)
        seatings[frozenset(seats.values())].add((task.seed, seats["persia"], seats["greece"]))
    assert len(seatings) == 3
    seeds = {derive_seed(3, i) for i in range(4)}
    for pairing, games in seatings.items():
        x, y = sorted(pairing)
        assert games == {(s, x, y) for s in seeds} | {(s, y, x) for s in seeds}


def test_keys_are_unique_and_indices_follow_the_schedule():
    plan = make_plan(["p1", "p2", "p3"], None, ["a", "b", "c", "d"], games=3, seed=1)
    assert len({t.key for t in plan.tasks}) == len(plan.tasks)
    assert [t.index for t in plan.tasks] == list(range(len(plan.tasks)))
    # seed-major: a half-finished tournament has played every pairing evenly
    assert [t.seed_index for t in plan.tasks] == sorted(t.seed_index for t in plan.tasks)


def test_three_players_rotate_through_every_seat_order():
    plan = make_plan(["p1", "p2", "p3"], None, ["a", "b", "c", "d"], games=2, seed=1)
    assert plan.kind == "multiplayer"
    assert len(plan.tasks) == 4 * 6 * 2  # C(4,3) groups x 3! orders x seeds
    seat_counts = Counter((seat, bot) for t in plan.tasks for seat, bot in t.seating)
    assert set(seat_counts.values()) == {len(plan.tasks) * 3 // (3 * 4)}  # all equal


def test_four_seats_play_every_permutation_so_every_partnership_meets():
    orders = seat_assignments(("a", "b", "c", "d"))
    assert len(orders) == 24
    partners = {frozenset(order[0::2]) for order in orders}  # odd seats as one team
    assert len(partners) == 6


def test_five_or_more_seats_use_a_balanced_set_of_rotations():
    plan = make_plan([f"p{i}" for i in range(1, 6)], None, list("abcde"), games=1, seed=1)
    assert len(plan.tasks) == 5
    seat_counts = Counter((seat, bot) for t in plan.tasks for seat, bot in t.seating)
    assert len(seat_counts) == 25 and set(seat_counts.values()) == {1}


def test_solo_every_bot_plays_the_same_seeds():
    plan = make_plan(["hero"], None, ["a", "b", "c"], games=5, seed=9)
    assert plan.kind == "solo"
    seeds = defaultdict(list)
    for task in plan.tasks:
        seeds[dict(task.seating)["hero"]].append(task.seed)
    assert seeds["a"] == seeds["b"] == seeds["c"] == [derive_seed(9, i) for i in range(5)]


def test_a_gauntlet_plays_one_bot_against_each_other_and_no_other_pairing():
    plan = make_plan(["persia", "greece"], None, ["hero", "a", "b", "c"], games=2, seed=1,
                     gauntlet="hero")
    pairings = Counter(frozenset(bot for _, bot in t.seating) for t in plan.tasks)
    assert pairings == {frozenset({"hero", x}): 4 for x in "abc"}  # 2 seeds x 2 seatings
    assert len(plan.tasks) == 3 * 2 * 2


def test_a_gauntlet_of_three_seats_plays_every_group_that_includes_the_bot():
    plan = make_plan(["p1", "p2", "p3"], None, ["hero", "a", "b", "c"], games=1, seed=1,
                     gauntlet="hero")
    groups = {frozenset(bot for _, bot in t.seating) for t in plan.tasks}
    # C(3, 2) = 3 groups of hero and two others, each in 3! = 6 seat orders
    assert groups == {frozenset({"hero", x, y}) for x, y in (("a", "b"), ("a", "c"), ("b", "c"))}
    assert len(plan.tasks) == 3 * 6
    seats_of_hero = Counter(seat for t in plan.tasks for seat, bot in t.seating if bot == "hero")
    assert seats_of_hero == {"p1": 6, "p2": 6, "p3": 6}


def test_a_unit_is_one_seed_of_one_group_in_every_seating():
    plan = make_plan(["persia", "greece"], None, ["a", "b", "c"], games=2, seed=1)
    units = Counter(task.unit for task in plan.tasks)
    assert len(units) == 3 * 2 and set(units.values()) == {2}  # 3 pairings x 2 seeds, 2 games


def test_the_title_counts_in_the_singular_and_the_plural():
    one = setup("earth-and-water-solo", [Entrant("r", "random")], games=1, seed=3)
    assert "1 bot, 1 game (1 seed, solo), seed 3" in one.summary("solo", 1, 1)["title"]
    two = setup("earth-and-water", [Entrant("a", "random"), Entrant("b", "random")],
                games=2, seed=3)
    assert "2 bots, 3 of 4 games (2 seeds," in two.summary("duel", 4, 3)["title"]
