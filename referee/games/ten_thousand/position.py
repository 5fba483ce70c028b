"""One position of a Ten Thousand game: what it holds, how it is copied and written.

The rules that move a position on live in `flow` (the turn) and `rolls` (roll
windows); `state` puts the agon State interface on top of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine import Decision, Event
from ...rng import Streams
from .army import Army, Turn, Window
from .rules import GameRules, Leader


class Position:
    """The armies, the deck and the turn in progress, plus the helpers every rule uses."""

    def __init__(self, rules: GameRules, seats: list[str], seed: int,
                 options: dict[str, Any]) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.dice_streams = {seat: f"dice:{seat}" for seat in seats}   # each seat's stream name
        # who sees a private event of a seat's: that seat alone, or everyone else
        self.seat_only = {seat: frozenset([seat]) for seat in seats}
        self.seat_others = {seat: frozenset(self.seats) - {seat} for seat in seats}
        self.seed = seed
        self.options = dict(options)
        # option penalising_cards: such cards never hit their own holder
        self.opponents_only = self.options.get("penalising_cards") == "opponents-only"
        self.order: list[str] = list(seats)      # turn order, first player first
        self.armies: dict[str, Army] = {}
        self.round = rules.time_start            # the neutral pawn's Time-Track space
        self.step = "leader"                     # leader | phase | window | choose | discard | over
        self.leader_queue: list[str] = []
        self.turn: Turn | None = None
        self.window: Window | None = None
        self.deck: list[int] = []
        self.discard: list[int] = []
        # seat -> cards it put face down on the discard pile (a hand left with the march):
        # hidden from the others, resampled by determinize(); emptied at a reshuffle
        self.face_down: dict[str, list[int]] = {}
        self.arrivals = 0
        self.asking: Decision | None = None
        # deck, setup (the first-player roll) and one dice stream per seat
        self.rngs = Streams()
        self.events: list[Event] = []
        # State.silent, held by the position itself: read at every event, and the class
        # default costs a slower lookup
        self.silent = False

    # ----- helpers used by flow and rolls -----------------------------------------
    def emit(self, kind: str, text: str | Callable[..., str], args: tuple,
             data: dict[str, Any] | Callable[..., dict[str, Any]],
             to: frozenset[str] | None = None) -> None:
        """Record an event: `text` is a template for `args` (see `Event`), `data` its
        machine-readable part (or, for the events of every turn, a function of `args`
        that builds it when first read), `to` who sees it (None: everyone).

        Arguments in a tuple and a dict, not as *args and **keywords: a step emits
        several events, and packing keywords cost more than the rest of a silent emit.
        """
        if not self.silent:
            self.events.append(Event(kind, text, data, to, args))

    def ask(self, seat: str, prompt: str | Callable[..., str], legal: list[str],
            args: tuple = ()) -> None:
        """Ask `seat` to choose among `legal`; `prompt` is a template for `args` (see
        `Decision`), written only if someone reads it."""
        self.asking = Decision(seat, prompt, legal, args)

    def dice(self, seat: str):
        return self.rngs[self.dice_streams[seat]]

    def marching(self) -> list[str]:
        return [seat for seat in self.order if self.armies[seat].marching]

    def card_holders(self) -> list[str]:
        """Seats that take part in card windows: the marching ones, plus arrived
        armies still holding penalising cards (option finished_play_penalising)."""
        return [seat for seat in self.order
                if self.armies[seat].marching or self.armies[seat].hand]

    def hand_limit(self, seat: str) -> int:
        leader = self.rules.leader_by_id.get(self.armies[seat].leader or "")
        return self.rules.hand_limit + (leader.hand_limit_bonus if leader else 0)

    def leader(self, seat: str) -> Leader:
        return self.rules.leader_by_id.get(self.armies[seat].leader or "", self.rules.unnamed)

    # ----- copying and persistence -------------------------------------------------
    def copy(self) -> Position:
        """An independent copy; the rules, seats and options are shared (never changed)."""
        other = self.__class__.__new__(self.__class__)
        other.rules, other.seats, other.seed, other.options = (
            self.rules, self.seats, self.seed, self.options)
        other.dice_streams = self.dice_streams
        other.seat_only, other.seat_others = self.seat_only, self.seat_others
        other.opponents_only = self.opponents_only
        other.order = self.order[:]
        other.armies = {seat: army.copy() for seat, army in self.armies.items()}
        other.round, other.step, other.arrivals = self.round, self.step, self.arrivals
        other.leader_queue = self.leader_queue[:]
        other.turn = self.turn.copy() if self.turn else None
        other.window = self.window.copy() if self.window else None
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.face_down = {seat: cards[:] for seat, cards in self.face_down.items()}
        other.asking = self.asking   # a Decision is never changed once asked
        other.rngs = self.rngs.copy()
        other.events = self.events[:]
        other.silent = self.silent
        return other

    def to_json(self) -> dict[str, Any]:
        asking = self.asking
        return {
            "game": "ten-thousand", "seats": list(self.seats), "seed": self.seed,
            "options": dict(self.options), "order": list(self.order), "round": self.round,
            "step": self.step, "leader_queue": list(self.leader_queue),
            "armies": [self.armies[s].to_json() for s in self.seats],
            "turn": self.turn.to_json() if self.turn else None,
            "window": self.window.to_json() if self.window else None,
            "deck": list(self.deck), "discard": list(self.discard), "arrivals": self.arrivals,
            "face_down": {s: list(cards) for s, cards in self.face_down.items()},
            "asking": None if asking is None else
            {"seat": asking.seat, "prompt": asking.prompt, "legal": list(asking.legal)},
            "rngs": self.rngs.to_json(),
        }

    @classmethod
    def from_json(cls, rules: GameRules, data: dict[str, Any]) -> Position:
        state = cls(rules, data["seats"], data["seed"], data["options"])
        state.order = list(data["order"])
        state.round = data["round"]
        state.step = data["step"]
        state.leader_queue = list(data["leader_queue"])
        state.armies = {a["seat"]: Army.from_json(a) for a in data["armies"]}
        state.turn = Turn.from_json(data["turn"]) if data["turn"] else None
        state.window = Window.from_json(data["window"]) if data["window"] else None
        state.deck = list(data["deck"])
        state.discard = list(data["discard"])
        state.arrivals = data["arrivals"]
        state.face_down = {s: list(cards) for s, cards in data.get("face_down", {}).items()}
        asking = data["asking"]
        state.asking = None if asking is None else Decision(asking["seat"], asking["prompt"],
                                                            list(asking["legal"]))
        state.rngs = Streams.from_json(data["rngs"])
        return state
