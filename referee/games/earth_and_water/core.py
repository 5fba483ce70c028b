"""The flat position of a game and the helpers every step uses.

A position is a handful of ints and small lists indexed by side (0 = Persia,
1 = Greece) and by city number, so `clone()` is a few list copies and
`to_json()` is a plain dict.  Procedures that wait for a player are *steps*
(`self.step`, `self.actor`); procedures nested inside others (a battle inside
a movement inside a card) return to their caller through `self.stack`, a list
of continuation names resumed by `resume()`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from ...engine import Event
from ...rng import Streams
from .tables import GREECE, PERSIA, WHO, Tables

# the seats an event is for, by the side it is logged `to` (-1, the last: everyone)
ONLY = (frozenset({"persia"}), frozenset({"greece"}), None)


@functools.cache   # the log asks for the same few counts all game long
def count_of(n: int, word: str) -> str:
    """'1 army', '2 armies', '3 fleets'."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def losers_text(lost: list[str]) -> str:
    if len(lost) == 2:
        return "both sides lose"
    return f"{lost[0]} loses"


@functools.cache
def score_words(vp: int) -> str:
    """The score as the log says it: 'even', 'Persia +3', 'Greece +2'."""
    if vp == 0:
        return "even"
    return f"Persia +{vp}" if vp > 0 else f"Greece +{-vp}"


def drawn_text(who: str, names: dict[int, str], cards: tuple[int, ...]) -> str:
    """'Persia draws 7 Cavalry of the Immortals, 12 Hippias' (written only when read)."""
    return f"{who} draws {', '.join([names[c] for c in cards]) or 'nothing'}"


# Fields copied by clone() and written by to_json(), grouped by how to copy them.
SCALARS = (
    "seed", "campaign", "vp", "step", "actor", "active", "over", "winner", "reason",
    "bridge", "darius_dead", "xerxes_dead", "carneia", "acropolis",
    "talents", "bought", "fleets_built", "mines", "held_card", "moves_left",
    "mv_side", "mv_kind", "mv_origin", "mv_dest", "mv_carried", "op_event", "cavalry",
    "no_naval_retreat", "b_city", "b_att", "b_origin", "b_via_sea", "b_carried",
    "b_result", "b_pstart", "b_bonus", "b_scored", "th_origin", "pc_count", "attr_left",
    "sd_then", "ev_city", "auto_out",
)
FLAT_LISTS = ("res_arm", "res_flt", "deck", "discard", "passed", "stack", "once_used", "mv_reach")
NESTED_LISTS = ("arm", "flt", "hands", "unseen")
STREAMS = ("deck", "battle", "automaton")
# Fields a copy shares as they are: the scalars, the tables, and what a step listed once
SHARED = (*SCALARS, "t", "silent", "build_options", "origin_menu", "auto_cut")


def fields_copier() -> Callable[[Any, Any], None]:
    """`copy_fields(self, other)`: every field of a position into another, the lists
    copied, written out line by line (``other.vp = self.vp`` ...) as namedtuple writes
    its methods: a loop of setattr() would make clone() three times slower."""
    lines = [f"other.{name} = self.{name}" for name in SHARED]
    lines += [f"other.{name} = self.{name}[:]" for name in FLAT_LISTS]
    lines += [f"other.{name} = [self.{name}[0][:], self.{name}[1][:]]" for name in NESTED_LISTS]
    namespace: dict[str, Any] = {}
    exec("def copy_fields(self, other):\n    " + "\n    ".join(lines), namespace)
    return namespace["copy_fields"]


copy_fields = fields_copier()


def stream_attribute(name: str) -> property:
    """An attribute reading and replacing one of a position's named streams."""
    def set_stream(self: Core, rng: random.Random) -> None:
        self.rngs[name] = rng
    return property(lambda self: self.rngs[name], set_stream)


class Core:
    """Fields, copying, serialisation and the small helpers of a position."""

    # Every field in a slot: a position's dict would outgrow the 30 keys CPython shares
    # between instances, and then every `self.method()` would be looked up the slow way.
    __slots__ = (*SHARED, *FLAT_LISTS, *NESTED_LISTS, "rngs", "rigged_dice", "events",
                 "opening", "_pending")
    t: Tables

    def _init_fields(self, t: Tables, seed: int) -> None:
        self.t = t
        self.seed = seed
        # deck shuffles, battle dice, and the solo automaton's own die
        self.rngs = Streams.named(seed, STREAMS)
        self.auto_out = False
        self.rigged_dice: list[int] = []   # test hook: faces rolled before the dice stream
        self.campaign = int(t.setup.get("campaign", 1))
        self.vp = int(t.setup.get("score", 0))
        self.step = ""
        self.actor = PERSIA
        self.active = PERSIA
        self.over = False
        self.winner = -1
        self.reason = ""
        self.bridge = bool(t.setup.get("bridge", False))
        self.darius_dead, self.xerxes_dead = t.kings_dead >= 1, t.kings_dead >= 2
        self.carneia = self.acropolis = False
        self.talents = self.bought = self.fleets_built = 0
        self.mines = False
        self.held_card = 0
        self.moves_left = 0
        self.mv_side = self.mv_origin = self.mv_dest = -1
        self.mv_kind = ""
        self.mv_carried = 0
        self.mv_reach: list[int] = []
        self.op_event = ""
        self.cavalry = self.no_naval_retreat = False
        self.b_city = self.b_att = self.b_origin = -1
        self.b_via_sea = False
        self.b_carried = self.b_pstart = 0
        self.b_result = self.b_bonus = ""
        self.b_scored = False
        self.th_origin = -1
        self.pc_count = self.attr_left = 0
        self.sd_then = ""
        self.ev_city = -1
        self.arm = [t.start_armies[PERSIA][:], t.start_armies[GREECE][:]]
        self.flt = [t.start_fleets[PERSIA][:], t.start_fleets[GREECE][:]]
        self.hands: list[list[int]] = [[], []]
        # per side, the cards in the discard pile it never saw (the other side's face-down
        # discards): what determinize() may resample there; emptied when the pile is drawn
        self.unseen: list[list[int]] = [[], []]
        self.deck = list(t.card_numbers)
        self.discard: list[int] = []
        self.passed = [False, False]
        self.stack: list[str] = []
        self.once_used: list[str] = []
        self.res_arm = t.start_reserve_armies[:]
        self.res_flt = t.start_reserve_fleets[:]
        self.events: list[Event] = []
        # State.silent, as a field of the position: every event reads it, and an instance
        # field is read faster than the class default
        self.silent = False
        self.opening: list[Event] = []   # events before the first decision (not serialised)
        self._pending: list | None = None
        # where `actor` may raise forces during a build step (not serialised: rebuilt when needed)
        self.build_options: tuple[list[str], list[str]] | None = None
        # the origin step's choices, listed when the movement began (not serialised either)
        self.origin_menu: list[str] | None = None
        # the automaton's cut-off cities while it takes attrition losses one by one (not
        # serialised either: None outside that loop)
        self.auto_cut: list[int] | None = None

    # -- copying and serialisation -------------------------------------------------

    def _copy_into(self, other: Core) -> None:
        copy_fields(self, other)
        other.rngs = self.rngs.copy()
        other.rigged_dice = self.rigged_dice[:]
        other.events = []
        other.opening = []
        other._pending = None

    def fields_json(self, streams: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in SCALARS}
        for name in FLAT_LISTS:
            out[name] = list(getattr(self, name))
        for name in NESTED_LISTS:
            out[name] = [list(x) for x in getattr(self, name)]
        out["options"] = dict(self.t.options)
        if streams:
            out["rng"] = self.rngs.to_json()
        return out

    def position_json(self) -> dict[str, Any]:
        """Every field but the random streams: what a record's digest covers."""
        return self.fields_json(streams=False)

    def load_fields(self, t: Tables, data: dict[str, Any]) -> None:
        self.t = t
        for name in SCALARS:
            setattr(self, name, data[name])
        for name in FLAT_LISTS:
            setattr(self, name, list(data[name]))
        for name in NESTED_LISTS:
            setattr(self, name, [list(x) for x in data.get(name, ([], []))])
        self.rngs = Streams.from_json({name: data["rng"][name] for name in STREAMS})
        self.rigged_dice = []
        self.events = []
        self.silent = False
        self.opening = []
        self._pending = None
        self.build_options = None
        self.origin_menu = None
        self.auto_cut = None

    # the streams as attributes, as tests and tools set them (``s.dice_rng = Die(6, 1)``)
    deck_rng = stream_attribute("deck")
    dice_rng = stream_attribute("battle")
    auto_rng = stream_attribute("automaton")

    # -- small helpers ---------------------------------------------------------------

    def log(self, kind: str, text: str | Callable[..., str], args: tuple = (),
            data: dict[str, Any] | None = None, to: int = -1) -> None:
        """Record an event; `text` is a str.format template for `args`, or a function
        writing the line from them (see `Event`); `data` its machine-readable part;
        `to` the one side that sees it (-1: both).

        The arguments come in a tuple and a dict, not as *args and keywords: a call
        with neither takes Python's fast path, and events are made at every step.
        """
        if not self.silent:
            self.events.append(Event(kind, text, data, ONLY[to], args))

    def controls(self, side: int, city: int) -> bool:
        if self.arm[side][city]:
            return True
        if self.arm[1 - side][city]:
            return False
        return self.t.major[city] == side

    def controls_all(self, side: int, cities: list[int]) -> bool:
        """Whether `side` controls every one of `cities` (a loop, not a generator: hot path)."""
        for city in cities:
            if not self.controls(side, city):
                return False
        return True

    def add_vp(self, amount: int, why: str) -> None:
        lim = self.t.score_limit
        self.vp = max(-lim, min(lim, self.vp + amount))
        self.log("score", "{} scores {} ({}); score {}",
                 (WHO[PERSIA if amount > 0 else GREECE], abs(amount), why, self.score_text()),
                 data={"vp": self.vp})

    def score_text(self) -> str:
        return score_words(self.vp)

    def roll(self, count: int, cap: int) -> tuple[int, list[int]]:
        """Roll `count` dice; return the best capped face and the raw faces."""
        rand = self.rngs["battle"].random
        faces = []
        for _ in range(count):
            faces.append(self.rigged_dice.pop(0) if self.rigged_dice else int(rand() * 6) + 1)
        best = max(faces) if faces else 0
        return (cap if best > cap else best), faces

    def draw(self, side: int, count: int) -> list[int]:
        """Draw `count` random cards into `side`'s hand, reshuffling when needed."""
        drawn = []
        rand = self.rngs["deck"].random
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    break
                self.deck = self.discard
                self.discard = []
                self.unseen = [[], []]
                self.log("reshuffle", "The discard pile is shuffled into a new draw pile")
            i = int(rand() * len(self.deck))
            drawn.append(self.deck.pop(i))
        self.hands[side].extend(drawn)
        self.log("draw", drawn_text, (WHO[side], self.t.card_names[side], tuple(drawn)),
                 to=side, data={"cards": drawn})
        self.log("draw", "{} draws {}", (WHO[side], count_of(len(drawn), "card")), to=1 - side,
                 data={"count": len(drawn)})
        return drawn

    def card_name(self, side: int, number: int) -> str:
        return self.t.card_names[side][number]

    def discard_card(self, side: int, number: int) -> None:
        self.hands[side].remove(number)
        self.discard.append(number)

    def holds(self, side: int, effect: str) -> int:
        """The card number in `side`'s hand carrying `effect`, or 0."""
        for num in self.hands[side]:
            if self.t.cards[num][side].effect == effect:
                return num
        return 0

    def may_hold(self, side: int, effect: str) -> bool:
        """Whether to open a reaction window for `effect`.

        By default only when the card is really held.  With the option
        reaction_prompts=always (Rally the Troops) the window opens whenever
        the side might hold it: a non-empty hand and the card not face up on
        top of the discard pile, so being asked reveals nothing.
        """
        if self.holds(side, effect):
            return True
        if not self.t.always_prompt or not self.hands[side]:
            return False
        num = self.t.card_of[side].get(effect)
        return bool(num) and not (self.discard and self.discard[-1] == num)

    def react_or_decline(self, side: int, effect: str) -> list[str]:
        num = self.holds(side, effect)
        return [self.t.s_react[num], "decline"] if num else ["decline"]

    def army_cities(self, side: int) -> list[int]:
        arm = self.arm[side]
        return [c for c in range(self.t.ncity) if arm[c]]

    def resume(self) -> None:
        """Return from a finished sub-procedure to whoever started it."""
        getattr(self, "k_" + self.stack.pop())()
