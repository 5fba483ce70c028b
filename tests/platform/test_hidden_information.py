"""A seat's wire messages never name a card in the opponent's hand."""

from __future__ import annotations

from typing import Any

from bots.random import RandomBot
from referee.engine import Decision
from referee.games import engine_class
from referee.match import Match
from referee.players import InProcessPlayer
from referee.protocol import Ask, EventMsg, encode_str
from referee.ruleset import load_ruleset


class WireSpy(InProcessPlayer):
    """A random bot that keeps every line the referee would send it."""

    def __init__(self, seed: int) -> None:
        super().__init__(RandomBot(seed))
        self.lines: list[tuple[int, str]] = []  # (actions applied so far, line)
        self.match: Match | None = None

    def _now(self) -> int:
        return len(self.match.actions)

    def event(self, event: dict[str, Any]) -> None:
        self.lines.append((self._now(), encode_str(EventMsg(event))))
        super().event(event)

    def choose(self, ask_id: int, decision: Decision, view, clock, timeout) -> str:
        ask = Ask(ask_id, decision.legal, decision.prompt, view, clock)
        self.lines.append((self._now(), encode_str(ask)))
        return super().choose(ask_id, decision, view, clock, timeout)


def card_names(ruleset, number: int) -> list[str]:
    card = next(c for c in ruleset.data["cards"] if c["number"] == number)
    return [card["greece"]["name"], card["persia"]["name"]]


def hands_over_time(engine, record) -> list[dict[str, list[int]]]:
    """Each seat's hand after 0, 1, 2 ... actions, by replaying the record."""
    state = engine.new_game(list(record.seats), record.seed, record.options)
    hands = [{seat: list(state.view(seat)["hand"]) for seat in record.seats}]
    for seat, action in record.actions:
        state.apply(seat, action)
        hands.append({s: list(state.view(s)["hand"]) for s in record.seats})
    return hands


def test_no_line_sent_to_a_seat_names_a_card_the_opponent_holds():
    ruleset = load_ruleset("earth-and-water")
    engine = engine_class(ruleset.engine)(ruleset)
    checked = 0
    for seed in range(6):
        spies = {"persia": WireSpy(seed), "greece": WireSpy(seed + 100)}
        match = Match(engine, spies, seed=seed, options=ruleset.resolve_options())
        for spy in spies.values():
            spy.match = match
        record = match.run()
        hands = hands_over_time(engine, record)
        for seat, spy in spies.items():
            other = "greece" if seat == "persia" else "persia"
            for applied, line in spy.lines:
                for number in hands[applied][other]:
                    for name in card_names(ruleset, number):
                        assert name not in line, f"{seat} saw {other}'s {name}: {line[:200]}"
                        checked += 1
    assert checked > 200  # hands were actually held while lines were sent


def test_the_scan_would_see_a_leak():
    """Sensitivity: a seat's own lines do name the cards it holds."""
    ruleset = load_ruleset("earth-and-water")
    engine = engine_class(ruleset.engine)(ruleset)
    spies = {"persia": WireSpy(1), "greece": WireSpy(2)}
    match = Match(engine, spies, seed=3, options=ruleset.resolve_options())
    for spy in spies.values():
        spy.match = match
    record = match.run()
    hands = hands_over_time(engine, record)
    seen_own = sum(
        any(name in line for number in hands[applied][seat] for name in card_names(ruleset, number))
        for seat, spy in spies.items() for applied, line in spy.lines if line.startswith("ask"))
    assert seen_own > 10
