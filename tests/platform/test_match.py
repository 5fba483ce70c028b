"""The match loop: simultaneous secrets, forfeits, teams, solo, records."""

from __future__ import annotations

import time
from typing import Any

from agon.bots.random import RandomBot
from agon.referee.engine import Decision
from agon.referee.match import run_match
from agon.referee.players import BotFault, InProcessPlayer, Limits, Player
from agon.referee.records import replay


class Scripted(Player):
    """A player that answers from a script and remembers what it saw."""

    def __init__(self, answers: list[str] | None = None, fault: BotFault | None = None,
                 fault_at: int = 1) -> None:
        self.answers = list(answers or [])
        self.fault, self.fault_at = fault, fault_at
        self.seen: list[dict[str, Any]] = []
        self.views: list[dict[str, Any]] = []
        self.asked = 0
        self.closed = False

    def start(self, hello, limits) -> None:
        self.hello = hello
        if self.fault and self.fault_at == 0:
            raise self.fault

    def event(self, event) -> None:
        self.seen.append(event)

    def choose(self, ask_id: int, decision: Decision, view, clock, timeout, state=None) -> str:
        self.asked += 1
        self.views.append(view)
        if self.fault and self.asked == self.fault_at:
            raise self.fault
        return self.answers.pop(0) if self.answers else decision.legal[0]

    def close(self) -> None:
        self.closed = True


def randoms(seats: list[str], seed: int = 1) -> dict[str, Player]:
    return {seat: InProcessPlayer(RandomBot(seed + i)) for i, seat in enumerate(seats)}


def test_secret_bids_are_not_seen_by_the_other_seat_before_the_reveal(toy):
    p1, p2 = Scripted(["bid 3"]), Scripted(["bid 1"])
    run_match(toy, {"p1": p1, "p2": p2}, seed=1, options={"target": 1})
    # p2 was asked before p1's bid was applied, so its view shows no bid yet
    assert p2.views[0]["bids_in"] == 0
    assert all(e.get("bid") != 3 for e in p2.seen if e["type"] == "bid")
    reveal = next(e for e in p2.seen if e["type"] == "reveal")
    assert reveal["bids"] == {"p1": 3, "p2": 1} and reveal["winner"] == "p1"


def test_two_seat_forfeit_ends_the_game_and_the_other_seat_wins(toy):
    crash = Scripted(fault=BotFault("crash", "exited with status 1"), fault_at=2)
    record = run_match(toy, {"p1": crash, "p2": Scripted()}, seed=3, options={"target": 50})
    assert record.forfeits["p1"]["reason"] == "crash"
    assert record.result.ranks == {"p1": 2, "p2": 1}
    assert record.result.points == {"p1": 0.0, "p2": 1.0}
    assert crash.closed
    assert replay(record.to_json(), toy.ruleset).verified


def test_handshake_failure_forfeits_before_any_move(toy):
    mute = Scripted(fault=BotFault("handshake", "no ready line"), fault_at=0)
    record = run_match(toy, {"p1": Scripted(), "p2": mute}, seed=3, options={})
    assert record.forfeits["p2"]["reason"] == "handshake" and record.actions == []
    assert record.result.points["p1"] == 1.0


def test_illegal_answer_forfeits_with_reason_illegal(toy):
    liar = Scripted(["bid 9"])
    record = run_match(toy, {"p1": liar, "p2": Scripted()}, seed=1, options={})
    assert record.forfeits["p1"]["reason"] == "illegal"
    assert "bid 9" in record.forfeits["p1"]["detail"]


def test_slow_answer_is_a_timeout(toy):
    class Slow(Scripted):
        def choose(self, *args, **kwargs):
            import time
            time.sleep(0.05)
            return "bid 1"
    limits = Limits(move=0.01, grace=0.0)
    record = run_match(toy, {"p1": Slow(), "p2": Scripted()}, seed=1, options={}, limits=limits)
    assert record.forfeits["p1"]["reason"] == "timeout"


class SlowRandom(RandomBot):
    """The random bot, taking `delay` seconds an answer: it reads only the legal list,
    so the referee asks it without a view or clock and times it once it answers."""

    def __init__(self, seed: int, delay: float) -> None:
        super().__init__(seed)
        self.delay = delay

    def choose(self, decision, view, state=None):
        time.sleep(self.delay)
        return super().choose(decision, view, state)


def test_slow_builtin_bot_that_reads_only_the_legal_list_is_a_timeout(toy):
    players = {"p1": InProcessPlayer(SlowRandom(1, 0.05)), "p2": Scripted()}
    record = run_match(toy, players, seed=1, options={}, limits=Limits(move=0.01, grace=0.0))
    assert record.forfeits["p1"]["reason"] == "timeout"
    assert "limit 0.01 s" in record.forfeits["p1"]["detail"]


def test_builtin_bot_is_held_to_what_is_left_of_its_game_clock(toy):
    players = {"p1": InProcessPlayer(SlowRandom(1, 0.03)), "p2": Scripted()}
    limits = Limits(move=10.0, game=0.07, grace=0.0)
    record = run_match(toy, players, seed=1, options={"target": 50}, limits=limits)
    assert record.forfeits["p1"]["reason"] == "timeout"
    assert record.forfeits["p1"]["after_actions"] >= 2   # two answers fit in the game clock


class Illegal(RandomBot):
    def choose(self, decision, view, state=None):
        return "bid 9"


class Broken(RandomBot):
    def choose(self, decision, view, state=None):
        raise RuntimeError("a bug")


def test_builtin_bots_playing_each_other_are_held_to_the_same_rules(toy):
    # bots that read nothing but the legal list, alone at the table: the quickest loop
    options = {"turns": True}
    slow = {"p1": InProcessPlayer(RandomBot(1)), "p2": InProcessPlayer(SlowRandom(2, 0.05))}
    record = run_match(toy, slow, seed=1, options=options, limits=Limits(move=0.01, grace=0.0))
    assert record.forfeits["p2"]["reason"] == "timeout" and record.result.ranks["p1"] == 1
    illegal = {"p1": InProcessPlayer(RandomBot(1)), "p2": InProcessPlayer(Illegal(2))}
    record = run_match(toy, illegal, seed=1, options=options)
    assert record.forfeits["p2"]["reason"] == "illegal" and "'bid 9'" in \
        record.forfeits["p2"]["detail"]
    for turns in (True, False):   # one after the other, or simultaneous bids
        players = {"p1": InProcessPlayer(Broken(1)), **randoms(["p2", "p3"])}
        record = run_match(toy, players, seed=5, options={"target": 8, "turns": turns})
        assert record.forfeits["p1"]["reason"] == "crash" and "a bug" in \
            record.forfeits["p1"]["detail"]
        assert max(record.result.scores.values()) >= 8  # played out by the default policy
        assert record.result.ranks["p1"] == 3
        assert replay(record.to_json(), toy.ruleset).verified


def test_three_seats_play_on_after_a_forfeit_and_the_forfeiter_ranks_last(toy):
    crash = Scripted(fault=BotFault("crash", "segfault"), fault_at=1)
    players = {"p1": crash, **{k: v for k, v in randoms(["p2", "p3"]).items()}}
    record = run_match(toy, players, seed=5, options={"target": 8})
    assert max(record.result.scores.values()) >= 8  # the game was played out
    assert record.result.ranks["p1"] == 3
    assert sorted([record.result.ranks["p2"], record.result.ranks["p3"]]) in ([1, 2], [1, 1])
    assert replay(record.to_json(), toy.ruleset).verified


def test_team_results_are_shared_and_a_forfeit_loses_for_the_team(toy_teams):
    record = run_match(toy_teams, randoms(["p1", "p2", "p3", "p4"]), seed=2, options={})
    ranks = record.result.ranks
    assert ranks["p1"] == ranks["p3"] and ranks["p2"] == ranks["p4"]
    assert record.teams == {"odd": ["p1", "p3"], "even": ["p2", "p4"]}
    crash = Scripted(fault=BotFault("crash", "gone"), fault_at=1)
    players = {**randoms(["p1", "p2", "p4"]), "p3": crash}
    players = {s: players[s] for s in ["p1", "p2", "p3", "p4"]}
    record = run_match(toy_teams, players, seed=2, options={})
    assert record.result.points == {"p1": 0.0, "p2": 1.0, "p3": 0.0, "p4": 1.0}


def test_solo_game_scores_points_against_the_rules(toy):
    record = run_match(toy, randoms(["p1"]), seed=4, options={"target": 5})
    assert record.result.points["p1"] in (0.0, 0.5, 1.0)
    crash = Scripted(fault=BotFault("crash", "gone"), fault_at=1)
    record = run_match(toy, {"p1": crash}, seed=4, options={})
    assert record.result.points == {"p1": 0.0}


def test_same_seed_same_actions_same_record(toy):
    first = run_match(toy, randoms(["p1", "p2", "p3"]), seed=11, options={}).to_json()
    again = run_match(toy, randoms(["p1", "p2", "p3"]), seed=11, options={}).to_json()
    assert first["actions"] == again["actions"] and first["result"] == again["result"]


def test_tampered_record_is_not_verified(toy):
    record = run_match(toy, randoms(["p1", "p2"]), seed=9, options={}).to_json()
    assert replay(record, toy.ruleset).verified
    record["result"]["ranks"] = {seat: 1 for seat in record["result"]["ranks"]}
    outcome = replay(record, toy.ruleset)
    assert not outcome.verified and "ranks" in outcome.problems[0]


def test_every_seat_is_greeted_before_any_is_awaited(toy):
    """Programs get ready side by side: the referee greets each seat, then waits for each."""
    calls: list[tuple[str, str]] = []

    class Greeted(Scripted):
        def greet(self, hello, limits) -> None:
            calls.append(("greet", hello["seat"]))

        def start(self, hello, limits) -> None:
            calls.append(("start", hello["seat"]))
            super().start(hello, limits)

    run_match(toy, {"p1": Greeted(["bid 3"]), "p2": Greeted(["bid 1"])}, seed=1,
              options={"target": 1})
    assert calls == [("greet", "p1"), ("greet", "p2"), ("start", "p1"), ("start", "p2")]
