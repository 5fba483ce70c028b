"""One game: ask the pending seats, apply their actions, enforce the limits.

The loop never trusts a player: an answer that is late, malformed or not in
the legal list forfeits the seat (a `BotFault` with a reason code), and the
game still ends with a valid result and record.

A game may also start from a record's first actions (`prefix`: a saved game
resumed), and a person at the table may take moves back: the match then
replays the record without them (`takeback`, `rewind`), re-creating the bots
that saw what is taken back (`remake`).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Collection
from contextlib import ExitStack
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .engine import Decision, Engine, Event, Result, State
from .players import BotFault, Limits, Player, Resign
from .protocol import shown
from .records import GameRecord, forfeit_result, sides_of, state_digest
from .rng import stream
from .ruleset import RULESETS_DIR
from .ruleset_model import Ruleset
from .suggest import did_you_mean
from .takeback import Refused, Rewind, SecretWatch, seen

RULESET_COPY = "ruleset.json"  # a ruleset that is not shipped, in each bot's own directory
_NO_VIEW: dict[str, Any] = {}  # what a player that reads no view is passed (never filled)
_NO_CLOCK: dict[str, float] = {}
_now = time.perf_counter
# A game still going after this many actions never ends: a custom ruleset lets it
# go on for ever (no shipped game comes near: the longest seen, a 6-player City
# States game, took about 5,500).  It is stopped rather than left to run.
MOST_ACTIONS = 1_000_000

EventHook = Callable[[Event], None]
Remake = Callable[[str], Player]  # a seat's player anew, at the start of the game


class EndlessGame(Exception):
    """A game stopped at `MOST_ACTIONS` actions without an end; the message says so."""

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(
            f"the game did not end within {MOST_ACTIONS:,} actions: {ruleset.id} "
            f"({ruleset.source}) lets it go on for ever, so it was stopped (is there a way "
            "for every phase and turn to end?)")


@dataclass(frozen=True)
class TakeBack:
    """What a take-back would do: go back to the first `to` actions, undoing `undone`."""

    to: int
    undone: list[list[str]]


@lru_cache(maxsize=4096)   # a tournament asks twice per game and seat, and again for the pair
def player_seed(game_seed: int, seat: str) -> int:
    """The seed of the bot in `seat`: drawn from the game seed and the seat.

    Every player gets it (in-process bots when they are made, programs in the
    hello and `newgame`); it never reveals the game seed.  It does not depend
    on who sits there, so two copies of one deterministic bot play mirror games
    when they swap seats, and `agon play --seed` replays any tournament game.
    """
    return stream(game_seed, f"bot:{seat}").randrange(1 << 31)


class Match:
    """The referee for one game between `players` (seat -> Player)."""

    def __init__(self, engine: Engine, players: dict[str, Player], *, seed: int,
                 options: dict[str, Any], limits: Limits | None = None,
                 on_event: EventHook | None = None, prefix: list[list[str]] | None = None,
                 remake: Remake | None = None, resume: dict[str, Any] | None = None) -> None:
        """`prefix`: actions already played (a record resumed); `remake`: a seat's player
        anew, for take-backs (only players marked `replayable` are remade); `resume`:
        what an unfinished record keeps to seat the same players again."""
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
        self._fallback: random.Random | None = None  # default policy for forfeited seats
        self._sampler: random.Random | None = None  # worlds handed to search bots
        self.ask_id = 0
        self._note_needs()
        self.prefix = [list(a) for a in prefix or []]
        self.remake = remake
        self.resume = resume
        self.started = time.perf_counter()
        # taking back: seat -> how many actions it has been told about; person -> the
        # actions that revealed a secret to them, with the reason (see referee.takeback)
        self.told: dict[str, int] = dict.fromkeys(self.seats, 0)
        self.sealed: dict[str, list[tuple[int, str]]] = {s: [] for s in self._people()}
        self.watch = SecretWatch(stream(seed, "secrets")) if self.sealed else None

    # -- the game loop -------------------------------------------------------

    def run(self) -> GameRecord:
        """Play the game to its end; every player is ended (`Player.end_game`) or,
        when the game cannot go on (an engine error, an interrupt), closed."""
        started = self.started = time.perf_counter()
        try:
            state = self._open()
            while True:
                try:
                    self._play(state)
                    break
                except Rewind as rewind:
                    state = self._rewind(rewind.to)
            result = self._final_result(state)
            told = {**result.to_json(), "forfeits": self.forfeits}
            for seat, player in self.players.items():
                self._safely(seat, player.finish, told)
            seats = {seat: p.identity() for seat, p in self.players.items()}
        except BaseException:
            for player in self.players.values():
                player.close()
            raise
        for player in self.players.values():
            player.end_game()
        return GameRecord(
            ruleset=self.engine.ruleset, options=self.options, seed=self.seed,
            seats=seats, teams=self.teams, actions=self.actions, result=result,
            forfeits=self.forfeits, duration=time.perf_counter() - started,
            state_sha256=state_digest(state),
        )

    def _play(self, state: State) -> None:
        answer = self._answer
        quiet = self._quiet()
        while not (self.forfeits and self._decided_by_forfeit()):
            if quiet and not self.forfeits:
                self._play_quietly(state)   # back here at simultaneous decisions or the end
            decisions = state.pending()
            if not decisions:
                return
            if len(decisions) == 1:   # the usual case, kept short: one seat to move
                decision = decisions[0]
                action = answer(state, decision)
                if action is not None and not (self.forfeits and self._decided_by_forfeit()):
                    self._apply(state, decision.seat, action)
                continue
            # Simultaneous decisions: every answer is collected before any
            # is applied, so no seat learns another's secret choice early.
            chosen = [(d.seat, answer(state, d)) for d in decisions]
            for seat, action in chosen:
                if action is not None and not self._decided_by_forfeit():
                    self._apply(state, seat, action)

    def _quiet(self) -> bool:
        """Whether every seat is `plain` (`_note_needs`) and nobody hears the events: a
        tournament of bots that read neither views nor events, which `_play_quietly`
        plays."""
        return (not self.forfeits and not self._heard()
                and len(self.plain) == len(self.seats))

    def _play_quietly(self, state: State) -> None:
        """`_play` for a `_quiet` game while one seat is to move at a time: each answer
        timed and judged as `_answer` does, then applied, with nothing else to do (no
        view, no event, no watcher; a clock for the players that read it).  It returns,
        asking nobody, at the game's end or simultaneous decisions, and after a forfeit:
        `_play` goes on from there."""
        pending, apply, played = state.pending, state.apply, self.actions.append
        players, used, limits = self.players, self.used, self.limits
        game, grace, move = limits.game, limits.grace, limits.move
        room = MOST_ACTIONS - len(self.actions)  # actions before the game counts as endless
        while not self.forfeits:
            if room <= 0:
                raise EndlessGame(self.engine.ruleset)
            decisions = pending()
            if len(decisions) != 1:
                return
            decision = decisions[0]
            seat = decision.seat
            player = players[seat]
            self.ask_id += 1
            remaining = game - used[seat]
            clock = {"move": move, "remaining": round(remaining, 3)} \
                if player.wants_clock else _NO_CLOCK
            timeout = self._allowance(remaining) if player.deadline else 0.0
            began = _now()
            try:
                action = player.choose(self.ask_id, decision, _NO_VIEW, clock, timeout)
                spent = _now() - began
                used[seat] += spent
                if spent > grace or action not in decision.legal:   # rare: judged in full
                    self._judge(decision, player, action, spent, remaining)
            except BotFault as fault:
                action = self._forfeited(state, decision, fault)
                if action is None or self._decided_by_forfeit():
                    return
            apply(seat, action)
            played([seat, action])
            room -= 1

    def _start_players(self) -> None:
        """Greet every seat, then start each: programs still up from the last game get
        ready for this one side by side (`Player.greet`)."""
        hellos = {seat: self._greet(seat, player) for seat, player in self.players.items()}
        for seat, player in self.players.items():
            self._start(seat, player, hellos[seat])
        self._note_needs()  # a program says in its `ready` what it skips

    def _start(self, seat: str, player: Player, hello: dict[str, Any] | None = None) -> None:
        """Start the seat's player (greeted with `hello`, or greeted now)."""
        if hello is None:
            hello = self._greet(seat, player)
        if seat in self.forfeits:
            return
        try:
            player.start(hello, self.limits)
        except BotFault as fault:
            self._forfeit(seat, fault)

    def _greet(self, seat: str, player: Player) -> dict[str, Any]:
        """Give the player its files and greet it: the hello, which `_start` passes on."""
        hello = hello_for(self.engine, self.seats, seat, self.seed, self.options, self.limits)
        _, files = ruleset_hello(self.engine.ruleset)
        join = getattr(player, "join_table", None)
        if join is not None:   # a person: they may take back, save, draw the map
            join(self)
        try:
            if files:
                player.give(files)
            player.greet(hello, self.limits)
        except BotFault as fault:
            self._forfeit(seat, fault)
        return hello

    def _answer(self, state: State, decision: Decision) -> str | None:
        """The seat's legal action, or the default policy's once it forfeited."""
        seat = decision.seat
        if seat in self.forfeits:
            return self.fallback.choice(decision.legal)
        player = self.players[seat]
        self.ask_id += 1
        remaining = self.limits.game - self.used[seat]
        try:
            if seat in self.asked_at_once:
                began = _now()
                action = player.choose(self.ask_id, decision, _NO_VIEW, _NO_CLOCK, 0.0)
                spent = _now() - began
            else:
                action, spent = self._ask(state, decision, player, remaining)
            self.used[seat] += spent
            self._judge(decision, player, action, spent, remaining)
        except BotFault as fault:
            return self._forfeited(state, decision, fault)
        return action

    def _judge(self, decision: Decision, player: Player, action: str, spent: float,
               remaining: float) -> None:
        """Raise the BotFault of an answer that came too late or is not legal."""
        # only a slow answer is compared with its allowance (at least the grace)
        if spent > self.limits.grace and not player.interactive:  # people have no clock
            allowed = self._allowance(remaining)
            if spent > allowed:
                raise BotFault("timeout", f"answered after {spent:.2f} s "
                                          f"(limit {allowed:.2f} s)")
        if action not in decision.legal:
            raise BotFault("illegal", f"{shown(str(action))} is not a legal action of "
                                      f"ask {self.ask_id}")

    def _forfeited(self, state: State, decision: Decision, fault: BotFault) -> str | None:
        """The seat forfeits; the default policy's action instead of its answer, or None
        when the forfeit decides the game."""
        self._forfeit(decision.seat, fault)
        return self._answer(state, decision) if not self._decided_by_forfeit() else None

    def _ask(self, state: State, decision: Decision, player: Player,
             remaining: float) -> tuple[str, float]:
        """The player's answer and the seconds it took, with the board, clock, view
        and sampled world it reads prepared first."""
        seat = decision.seat
        clock = {"move": self.limits.move, "remaining": round(remaining, 3)} \
            if player.wants_clock else _NO_CLOCK
        interactive = player.interactive
        if interactive:
            player.board(state.describe(seat), state.notes(decision))
        world = state.determinize(seat, self.sampler).silence() if player.wants_state else None
        view = state.view(seat) if player.wants_view else _NO_VIEW
        timeout = self._allowance(remaining)
        began = _now()
        try:
            if self.sealed and not interactive:   # people watch a bot think
                with self._thinking(seat):
                    action = player.choose(self.ask_id, decision, view, clock, timeout,
                                           state=world)
            else:
                action = player.choose(self.ask_id, decision, view, clock, timeout,
                                       state=world)
        except Resign as resign:
            raise BotFault("resign", str(resign)) from None
        return action, _now() - began

    def _allowance(self, remaining: float) -> float:
        """Seconds a seat with `remaining` on its game clock may take for one answer."""
        limits = self.limits
        return max(0.0, min(limits.move, remaining)) + limits.grace

    @property
    def fallback(self) -> random.Random:
        """The default policy's stream, made when a seat first forfeits."""
        if self._fallback is None:
            self._fallback = stream(self.seed, "forfeit")
        return self._fallback

    @property
    def sampler(self) -> random.Random:
        if self._sampler is None:
            self._sampler = stream(self.seed, "determinize")
        return self._sampler

    def _apply(self, state: State, seat: str, action: str) -> None:
        if len(self.actions) >= MOST_ACTIONS:
            raise EndlessGame(self.engine.ruleset)
        watched = self._watch_before(state) if self.watch is not None else None
        events = state.apply(seat, action)
        self.actions.append([seat, action])
        if watched:
            self._watch_after(watched, state, seat, action, events)
        if events and self._heard():
            for event in events:
                self._publish(event)

    def _note_needs(self) -> None:
        """Who hears the events (bots that ignore them are not told); who is `plain`: a
        bot that reads no view and no world (with nobody at the table watching it
        think); and who is asked at once: a plain in-process bot that reads no clock
        either, timed once it answers."""
        players = self.players.items()
        self.listeners = [(seat, p) for seat, p in players if p.wants_events]
        self.plain = set() if self._people() else {
            seat for seat, p in players if not (p.interactive or p.wants_state or p.wants_view)}
        self.asked_at_once = {seat for seat in self.plain
                              if not (self.players[seat].deadline
                                      or self.players[seat].wants_clock)}

    def _heard(self) -> bool:
        """Whether anyone reads this game's events.  When nobody does (built-in bots
        that ignore them, no watcher, no person), the referee's own position builds
        none: the record keeps actions, not events, and the digest covers no event."""
        return bool(self.listeners or self.on_event or self.sealed)

    def _publish(self, event: Event) -> None:
        if self.on_event:
            self.on_event(event)
        if self.sealed:  # a person may take back: remember who was told of what
            for seat in self.seats:
                if seat not in self.forfeits and event.visible_to(seat):
                    self.told[seat] = len(self.actions)
        message = None
        for seat, player in self.listeners:
            if seat not in self.forfeits and event.visible_to(seat):
                if message is None:
                    message = event.to_json()
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


    # -- people at the table: taking back, resuming, saving ---------------------

    def _people(self) -> list[str]:
        return [s for s, p in self.players.items() if p.interactive]

    def _thinking(self, seat: str) -> ExitStack:
        """What the people at the table show while `seat`'s bot decides (a spinner)."""
        stack = ExitStack()
        for other, player in self.players.items():
            show = getattr(player, "thinking", None)
            if show is not None and other not in self.forfeits:
                stack.enter_context(show(seat))
        return stack

    def _watch_before(self, state: State) -> dict[str, list[State]]:
        """Worlds drawn for each person before an action, to see if it reveals a secret."""
        if self.watch is None:
            return {}
        return {p: self.watch.worlds(state, p) for p in self.sealed if p not in self.forfeits}

    def _watch_after(self, watched: dict[str, list[State]], state: State, seat: str,
                     action: str, events: list[Event]) -> None:
        assert self.watch is not None or not watched
        at = len(self.actions) - 1
        for person, worlds in watched.items():
            if self.watch.revealed(worlds, seat, action, seen(events, state, person), person):
                whose = "your" if seat == person else f"{seat}'s"
                self.sealed[person].append((at, f"{whose} `{action}` (move {at + 1}) showed you "
                                                f"what you could not know before (a die, a "
                                                f"card, a hidden choice)"))

    def takeback(self, seat: str, within_move: bool = False) -> TakeBack:
        """What `seat`'s undo (or, `within_move`, back) would take back; Refused says why not.

        Undo takes back the seat's last action and everything after it; back
        only when nobody else has acted since.  Refused across a revealed
        secret, a forfeit, another person's move, or a program that has seen
        what would be taken back (a program cannot be set back).
        """
        mine = [i for i, (s, _) in enumerate(self.actions) if s == seat]
        if not mine:
            raise Refused("you have not moved yet: there is nothing to take back")
        to = mine[-1]
        undone = self.actions[to:]
        others = sorted({s for s, _ in undone if s != seat})
        if within_move and others:
            raise Refused(f"{', '.join(others)} moved after your last choice: `back` goes back "
                          "only inside the move you are making (`undo` takes back their "
                          "replies too)")
        people = [s for s in others if s in self.sealed]
        if people:
            raise Refused(f"{people[0]} has moved since: nobody takes back another person's move")
        late = sorted(s for s, f in self.forfeits.items() if f["after_actions"] > to)
        if late:
            raise Refused(f"{late[0]} forfeited since: a forfeit is not taken back")
        for at, why in self.sealed.get(seat, []):
            if at >= to:
                raise Refused(f"no take-back across a revealed secret: {why}")
        for other in sorted(self._stale(to) - {seat}):
            player = self.players[other]
            if not (self.remake and getattr(player, "replayable", False)):
                raise Refused(f"{other} is played by {player.identity().get('name', other)}, "
                              "which cannot be set back to an earlier position (it has seen "
                              "the moves since)")
        return TakeBack(to, [list(a) for a in undone])

    def _stale(self, to: int) -> set[str]:
        """Seats that were told of, or made, any of the actions after the first `to`."""
        acted = {s for s, _ in self.actions[to:]}
        return {s for s in self.seats if self.told[s] > to or s in acted}

    def _rewind(self, to: int) -> State:
        """Set the game back to its first `to` actions (checked by `takeback`)."""
        stale = self._stale(to) if to < len(self.actions) else set()
        state, history = self._replayed(self.actions[:to])
        self.actions = self.actions[:to]
        for seat in self.seats:
            player = self.players[seat]
            if seat in self.sealed:
                player.rewound([e.to_json() for e in history if e.visible_to(seat)])
            elif seat in stale and seat not in self.forfeits:
                player.close()
                assert self.remake is not None
                self.players[seat] = player = self.remake(seat)
                self._start(seat, player)
                self._note_needs()
                self._tell(seat, history)
            self.told[seat] = min(self.told[seat], to)
        for marks in self.sealed.values():
            marks[:] = [(at, why) for at, why in marks if at < to]
        return state

    def _open(self) -> State:
        """The game's first position, or the one its `prefix` reaches, told to every seat."""
        if not self.prefix:
            state = self.engine.new_game(self.seats, self.seed, self.options)
            self._start_players()
            for event in state.setup_events():
                self._publish(event)
            if not self._heard():
                state.silence()
            return state
        state, history = self._replayed(self.prefix)
        self.actions = [list(a) for a in self.prefix]
        self._start_players()
        for seat in self.seats:
            if seat in self.sealed:
                self.players[seat].rewound([e.to_json() for e in history if e.visible_to(seat)])
                self.sealed[seat].append((len(self.actions) - 1, "the game was resumed after "
                                          "that move: what came before cannot be taken back"))
            elif seat not in self.forfeits:
                self._tell(seat, history)
        return state

    def _tell(self, seat: str, history: list[Event]) -> None:
        """Tell a player that joins a game under way what its seat has seen so far."""
        for event in history:
            if event.visible_to(seat) and seat not in self.forfeits \
                    and self.players[seat].wants_events:
                self._safely(seat, self.players[seat].event, event.to_json())
        self.told[seat] = len(self.actions)

    def _replayed(self, actions: list[list[str]]) -> tuple[State, list[Event]]:
        """The position after `actions` from this game's seed, and every event on the way."""
        state = self.engine.new_game(self.seats, self.seed, self.options)
        events = state.setup_events()
        for number, (seat, action) in enumerate(actions, 1):
            if seat not in {d.seat for d in state.pending()}:
                raise ValueError(f"action {number}: {seat} is not to move ({action!r})")
            events += state.apply(seat, action)
        return state, events

    def record_so_far(self) -> GameRecord:
        """The record of the game as it stands: unfinished, to save and resume."""
        state, _ = self._replayed(self.actions)
        return GameRecord(
            ruleset=self.engine.ruleset, options=self.options, seed=self.seed,
            seats={seat: p.identity() for seat, p in self.players.items()},
            teams=self.teams, actions=[list(a) for a in self.actions], result=None,
            forfeits=dict(self.forfeits), duration=time.perf_counter() - self.started,
            state_sha256=state_digest(state), resume=self.resume or {},
        )


def hello_for(engine: Engine, seats: list[str], seat: str, seed: int, options: dict[str, Any],
              limits: Limits) -> dict[str, Any]:
    """The hello (or `newgame`) of the player in `seat` of the game `seed` between `seats`."""
    ruleset = engine.ruleset
    hello = {
        "game": ruleset.engine, "seat": seat, "seats": seats,
        "seed": player_seed(seed, seat), "ruleset": ruleset_hello(ruleset)[0],
        "options": options, "limits": limits.to_json(),
    }
    teams = engine.teams(seats)
    if teams:
        hello["teams"] = teams
    return hello


def ruleset_hello(ruleset: Ruleset) -> tuple[dict[str, Any], dict[str, bytes]]:
    """What the hello says of the ruleset, and the files each bot's directory gets.

    The hello names no path: a shipped ruleset is known by its id (and sha256);
    any other is copied into the bot's directory as JSON, its `extends` merged
    in (so its own sha256 differs from the hello's, which names the original).
    Worked out once per ruleset (a tournament asks game after game).
    """
    key = (ruleset.sha256, ruleset.source)
    if key not in _HELLOS:
        told = {"id": ruleset.id, "version": ruleset.version, "sha256": ruleset.sha256}
        source = Path(ruleset.source)
        if not ruleset.raw or source.is_file() and source.resolve().parent == RULESETS_DIR:
            _HELLOS[key] = told, {}
        else:
            _HELLOS[key] = {**told, "file": RULESET_COPY}, {RULESET_COPY: _ruleset_json(ruleset)}
    return _HELLOS[key]


_HELLOS: dict[tuple[str, str], tuple[dict[str, Any], dict[str, bytes]]] = {}


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
        names = ruleset.players.get("seats") or engine.seats(high)   # p1 ... pN
        named = f" ({', '.join(names)})" if low == high else \
            f" (seats {', '.join(names[:low])} ... {names[-1]})"
        noun = "player" if high == 1 else "players"
        raise ValueError(f"{ruleset.id} needs {counts} {noun}{named}, not {count}")
    return engine.seats(count)


def seat_order(engine: Engine, names: Collection[str]) -> list[str]:
    """The seats of a game with a player for each of `names`, in the engine's order.

    ValueError, saying what the ruleset allows, for a player count it is not
    played by or a seat it does not have.
    """
    ruleset = engine.ruleset
    if ruleset.players["min"] == ruleset.players["max"] != len(names):
        every = engine.seats(ruleset.players["max"])
        missing = [seat for seat in every if seat not in names]
        if names and set(names) < set(every):   # some seats named, the others forgotten
            raise ValueError(f"{ruleset.id} needs a player in each of its seats "
                             f"({', '.join(every)}): none is given for {', '.join(missing)}")
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
