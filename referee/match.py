"""One game: ask the pending seats, apply their actions, enforce the limits.

The loop never trusts a player: an answer that is late, malformed or not in
the legal list forfeits the seat (a `BotFault` with a reason code), and the
game still ends with a valid result and record.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from .engine import Decision, Engine, Event, Result, State
from .players import BotFault, Limits, Player, Resign
from .protocol import shown
from .records import GameRecord, forfeit_result, sides_of
from .rng import stream
from .ruleset import RULESETS_DIR
from .ruleset_model import Ruleset
from .signing import digest
from .suggest import did_you_mean

RULESET_COPY = "ruleset.json"  # a ruleset that is not shipped, in each bot's own directory

EventHook = Callable[[Event], None]


class Match:
    """The referee for one game between `players` (seat -> Player)."""

    def __init__(self, engine: Engine, players: dict[str, Player], *, seed: int,
                 options: dict[str, Any], limits: Limits | None = None,
                 on_event: EventHook | None = None) -> None:
        self.engine = engine
        self.players = players
        self.seats = list(players)
        self.seed = seed
        self.options = options
        self.limits = limits or Limits()
        self.on_event = on_event
        self.teams = engine.teams(self.seats)
        self.actions: list[list[str]] = []
        self.forfeits: dict[str, dict[str, str]] = {}
        self.used: dict[str, float] = dict.fromkeys(self.seats, 0.0)
        self.fallback = stream(seed, "forfeit")  # default policy for forfeited seats
        self.sampler = stream(seed, "determinize")  # worlds handed to search bots
        self.ask_id = 0

    # -- the game loop -------------------------------------------------------

    def run(self) -> GameRecord:
        started = time.perf_counter()
        state = self.engine.new_game(self.seats, self.seed, self.options)
        try:
            self._start_players()
            for event in state.setup_events():
                self._publish(event)
            while not self._decided_by_forfeit():
                decisions = state.pending()
                if not decisions:
                    break
                # Simultaneous decisions: every answer is collected before any
                # is applied, so no seat learns another's secret choice early.
                chosen = [(d.seat, self._answer(state, d)) for d in decisions]
                for seat, action in chosen:
                    if action is not None and not self._decided_by_forfeit():
                        self._apply(state, seat, action)
            result = self._final_result(state)
            for seat, player in self.players.items():
                self._safely(seat, player.finish, {**result.to_json(), "forfeits": self.forfeits})
        finally:
            for player in self.players.values():
                player.close()
        return GameRecord(
            ruleset=self.engine.ruleset, options=self.options, seed=self.seed,
            seats={seat: p.identity() for seat, p in self.players.items()},
            teams=self.teams, actions=self.actions, result=result,
            forfeits=self.forfeits, duration=time.perf_counter() - started,
            state_sha256=digest(state.to_json()),
        )

    def _start_players(self) -> None:
        ruleset = self.engine.ruleset
        told, files = ruleset_hello(ruleset)
        for seat, player in self.players.items():
            hello = {
                "game": ruleset.engine, "seat": seat, "seats": self.seats, "ruleset": told,
                "options": self.options, "limits": self.limits.to_json(),
            }
            if self.teams:
                hello["teams"] = self.teams
            try:
                if files:
                    player.give(files)
                player.start(hello, self.limits)
            except BotFault as fault:
                self._forfeit(seat, fault)

    def _answer(self, state: State, decision: Decision) -> str | None:
        """The seat's legal action, or the default policy's once it forfeited."""
        seat = decision.seat
        if seat in self.forfeits:
            return self.fallback.choice(decision.legal)
        player = self.players[seat]
        self.ask_id += 1
        remaining = self.limits.game - self.used[seat]
        timeout = max(0.0, min(self.limits.move, remaining)) + self.limits.grace
        clock = {"move": self.limits.move, "remaining": round(remaining, 3)}
        interactive = getattr(player, "interactive", False)
        if interactive:
            player.board(state.describe(seat))
        world = state.determinize(seat, self.sampler) if player.wants_state else None
        began = time.perf_counter()
        try:
            try:
                action = player.choose(self.ask_id, decision, state.view(seat), clock, timeout,
                                       state=world)
            except Resign as resign:
                raise BotFault("resign", str(resign)) from None
            spent = time.perf_counter() - began
            self.used[seat] += spent
            if spent > timeout and not interactive:  # people have no clock
                raise BotFault("timeout", f"answered after {spent:.2f} s (limit {timeout:.2f} s)")
            if action not in decision.legal:
                raise BotFault("illegal", f"{shown(str(action))} is not a legal action of "
                                          f"ask {self.ask_id}")
        except BotFault as fault:
            self._forfeit(seat, fault)
            return self._answer(state, decision) if not self._decided_by_forfeit() else None
        return action

    def _apply(self, state: State, seat: str, action: str) -> None:
        events = state.apply(seat, action)
        self.actions.append([seat, action])
        for event in events:
            self._publish(event)

    def _publish(self, event: Event) -> None:
        if self.on_event:
            self.on_event(event)
        message = event.to_json()
        for seat, player in self.players.items():
            if seat not in self.forfeits and event.visible_to(seat):
                self._safely(seat, player.event, message)

    def _safely(self, seat: str, call: Callable[[Any], None], arg: Any) -> None:
        """Notify a player; a fault while notifying forfeits it like any other."""
        try:
            call(arg)
        except BotFault as fault:
            if seat not in self.forfeits:
                self._forfeit(seat, fault)

    # -- forfeits ------------------------------------------------------------

    def _forfeit(self, seat: str, fault: BotFault) -> None:
        self.forfeits[seat] = {"reason": fault.reason, "detail": fault.detail,
                               "after_actions": len(self.actions)}
        self.players[seat].stop()
        if self.on_event:
            self.on_event(Event("forfeit", f"{seat} forfeits ({fault.reason}: {fault.detail})",
                                {"seat": seat, "reason": fault.reason}))

    def _decided_by_forfeit(self) -> bool:
        """Two sides (or one): a forfeit ends the game at once.

        With three or more sides the forfeiting seat ranks last and the
        default policy plays its moves until the others finish.
        """
        return bool(self.forfeits) and len(sides_of(self.seats, self.teams)) <= 2

    def _final_result(self, state: State) -> Result:
        engine_result = None if self._decided_by_forfeit() else state.result()
        return forfeit_result(self.seats, self.teams, engine_result, self.forfeits)


def ruleset_hello(ruleset: Ruleset) -> tuple[dict[str, Any], dict[str, bytes]]:
    """What the hello says of the ruleset, and the files each bot's directory gets.

    The hello names no path: a shipped ruleset is known by its id (and sha256);
    any other is copied into the bot's directory as JSON, its `extends` merged
    in (so its own sha256 differs from the hello's, which names the original).
    """
    told = {"id": ruleset.id, "version": ruleset.version, "sha256": ruleset.sha256}
    source = Path(ruleset.source)
    if not ruleset.raw or source.is_file() and source.resolve().parent == RULESETS_DIR:
        return told, {}
    return {**told, "file": RULESET_COPY}, {RULESET_COPY: _ruleset_json(ruleset)}


_COPIES: dict[str, bytes] = {}  # sha256 -> the JSON copy, made once per ruleset


def _ruleset_json(ruleset: Ruleset) -> bytes:
    if ruleset.sha256 not in _COPIES:
        document = {k: v for k, v in ruleset.raw.items() if k != "extends"}
        _COPIES[ruleset.sha256] = json.dumps(document, separators=(",", ":")).encode()
    return _COPIES[ruleset.sha256]


def game_seats(engine: Engine, count: int) -> list[str]:
    """The seats of a game of `count` players; ValueError when the ruleset is not
    played by that many."""
    ruleset = engine.ruleset
    low, high = ruleset.players["min"], ruleset.players["max"]
    if not low <= count <= high:
        counts = str(low) if low == high else f"{low} to {high}"
        fixed = ruleset.players.get("seats")
        named = f" ({', '.join(fixed)})" if fixed else ""
        raise ValueError(f"{ruleset.id} needs {counts} players{named}, not {count}")
    return engine.seats(count)


def seat_order(engine: Engine, names: Collection[str]) -> list[str]:
    """The seats of a game with a player for each of `names`, in the engine's order.

    ValueError, saying what the ruleset allows, for a player count it is not
    played by or a seat it does not have.
    """
    seats = game_seats(engine, len(names))
    unknown = sorted(set(names) - set(seats))
    if unknown:
        raise ValueError(f"unknown seat {unknown[0]!r} in {engine.ruleset.id}"
                         f"{did_you_mean(unknown[0], seats)}; its seats are {', '.join(seats)}")
    return seats


def run_match(engine: Engine, players: dict[str, Player], *, seed: int,
              options: dict[str, Any], limits: Limits | None = None,
              on_event: EventHook | None = None) -> GameRecord:
    """Referee one game and return its record."""
    return Match(engine, players, seed=seed, options=options, limits=limits,
                 on_event=on_event).run()
