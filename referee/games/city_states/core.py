"""The flat position of a game and the helpers every phase uses.

A position is ints, strings and lists: units are counts per space (only one
player's units ever share a space, `occ` says whose), cities are lists by space
number, leaders are parallel lists by leader number.  `clone()` is a few list
copies and `to_json()` a plain dict.  A procedure that waits for a player is a
*step* (`self.step`, `self.actor`); a procedure nested in another (a battle in a
phase, a ransom in a battle) returns to its caller through `self.stack`, a list
of continuation names that `resume()` pops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine import Event
from ...rng import Streams
from .tables import ANY_TIME_CARDS, Tables

NOBODY = -1
# l_state values
FREE, EXILED, DEAD, CAPTIVE = 0, 1, 2, 3
LEADER_STATES = ("free", "exiled", "dead", "captive")

# Fields copied by clone() and written by to_json(), grouped by how to copy them.
SCALARS = (
    "np", "turn", "cur", "phase", "step", "actor", "active", "over", "reason", "setup_i",
    "next_name", "g_from", "g_sea", "g_arm", "g_row", "g_flt", "g_trn", "g_bag", "g_bonus",
    "g_relief", "g_keep", "g_left_rowers", "b_target", "b_att", "b_def", "b_sea", "b_turn",
    "b_passes", "b_neutral", "b_rebels", "c_card", "rv_city", "rv_rebels", "r_leader", "r_price", "r_captor", "truce_owner",
    "truce_left", "dip_left", "deny_i", "p_city", "rc_city", "last_loser", "rt_space", "rt_player",
    "rt_sea",
)
FLAT_LISTS = (
    "seats", "occ", "arm", "row", "flt", "trn", "bag", "starve", "owner", "hostile", "razed",
    "noinc", "income", "mtrait", "silver", "mv_arm", "mv_row", "mv_flt", "mv_trn", "attacked",
    "order", "gold", "home", "out", "frozen", "deck", "discard", "stack", "b_origins", "b_held",
    "b_cards", "g_ldr", "captives", "captors", "l_owner", "l_space", "l_state", "l_name",
    "l_back", "l_lost", "l_moved", "rc_cities", "rc_left", "rc_bags",
)
NESTED_LISTS = ("hands", "traits", "known", "hesitant", "l_skills")
STREAMS = ("deck", "dice")


def positions(values: list, value: Any) -> list[int]:
    """The indices where `values` holds `value`, in order (count and index scan in C)."""
    out = []
    i = -1
    for _ in range(values.count(value)):
        i = values.index(value, i + 1)
        out.append(i)
    return out


def plural(n: int, word: str, many: str = "") -> str:
    """'1 army', '2 armies', '3 fleets', '2 rowers'."""
    if n == 1:
        return f"1 {word}"
    if many:
        return f"{n} {many}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def pieces_text(arm: int, row: int, flt: int, trn: int, bag: int) -> str:
    """'2 armies, 1 rowers, 3 baggage' (kinds with none are left out)."""
    parts = []
    for n, word, many in ((arm, "army", ""), (row, "rowers", "rowers"), (flt, "fleet", ""),
                          (trn, "transport", ""), (bag, "baggage", "baggage")):
        if n:
            parts.append(plural(n, word, many))
    return ", ".join(parts)


def group_words(arm: int, row: int, flt: int, trn: int, bag: int, leaders: tuple) -> str:
    """'2 armies, 1 fleet, Kimon': a moving group's units and leaders ('nothing' if none)."""
    text = pieces_text(arm, row, flt, trn, bag)
    return ", ".join(([text] if text else []) + list(leaders)) or "nothing"


class Core:
    """Fields, copying, serialisation, dice, the deck and the event log."""

    t: Tables

    def _init_fields(self, t: Tables, seats: list[str], seed: int) -> None:
        n, np = t.n, len(seats)
        self.t = t
        self.np = np
        self.seats = list(seats)
        self.only = [frozenset([s]) for s in seats]
        self.rngs = Streams.named(seed, STREAMS)   # deck draws and every die
        self.rigged: list[int] = []   # test hook: faces rolled before the dice stream
        self.turn = 0
        self.cur = 0
        self.phase = "setup"
        self.step = ""
        self.actor = self.active = 0
        self.over = False
        self.reason = ""
        self.setup_i = 0
        self.next_name = 0
        # the group being moved
        self.g_from = -1
        self.g_sea = False
        self.g_arm = self.g_row = self.g_flt = self.g_trn = self.g_bag = self.g_bonus = 0
        self.g_relief = 0   # the part of g_bonus that may only relieve a besieged city
        self.g_keep = 0   # baggage the player chose to leave behind
        self.g_left_rowers = False   # rowers were left behind: none may be taken back (D23)
        self.g_ldr: list[int] = []
        # the battle being fought
        self.b_target = self.b_att = self.b_def = -1
        self.b_sea = self.b_neutral = self.b_rebels = False
        self.b_turn = self.b_passes = 0
        self.b_origins: list[int] = []
        self.b_held: list[int] = []
        self.b_cards: list[int] = []   # card numbers played, attacker's as +n, defender's as -n
        self.rt_space = self.rt_player = -1   # a defender's survivors waiting to retreat
        self.rt_sea = False
        self.last_loser = -1
        # a card waiting for its target, a revolt, a ransom, a city just taken, recruiting
        self.c_card = 0
        self.rv_city = self.rv_rebels = -1
        self.r_leader = self.r_price = self.r_captor = -1
        self.p_city = -1
        self.rc_city = -1
        self.rc_cities: list[int] = []   # cities still able to recruit this phase ...
        self.rc_left: list[int] = []     # ... the units each may still raise ...
        self.rc_bags: list[int] = []     # ... and the baggage
        self.captives: list[int] = []
        self.captors: list[int] = []
        self.truce_owner = -1
        self.truce_left = 0
        self.dip_left = 0
        self.deny_i = 0
        # units by space
        self.occ = [NOBODY] * n
        self.arm = [0] * n
        self.row = [0] * n
        self.flt = [0] * n
        self.trn = [0] * n
        self.bag = [0] * n
        self.starve = [0] * n
        self.mv_arm = [0] * n
        self.mv_row = [0] * n
        self.mv_flt = [0] * n
        self.mv_trn = [0] * n
        self.attacked = [False] * n
        # cities by space
        self.owner = [NOBODY] * n
        self.hostile = [False] * n
        self.razed = [0] * n
        self.noinc = [False] * n
        self.income = [0] * n
        self.mtrait = [""] * n
        self.silver = [False] * n
        # players
        self.order = list(range(np))
        self.gold = [0] * np
        self.home = [-1] * np
        self.out = [False] * np
        self.frozen = [False] * np
        self.hands: list[list[int]] = [[] for _ in range(np)]
        self.traits: list[list[str]] = [[] for _ in range(np)]
        # known[viewer * np + holder]: cards of holder's hand viewer has seen (Spy)
        self.known: list[list[int]] = [[] for _ in range(np * np)]
        self.hesitant: list[list[int]] = [[] for _ in range(np)]
        # leaders, by leader number
        self.l_owner: list[int] = []
        self.l_space: list[int] = []
        self.l_state: list[int] = []
        self.l_name: list[str] = []
        self.l_skills: list[list[str]] = []
        self.l_back: list[int] = []
        self.l_lost: list[bool] = []
        self.l_moved: list[bool] = []
        # cards
        self.deck = list(t.card_numbers)
        self.discard: list[int] = []
        self.stack: list[str] = []
        self.events: list[Event] = []
        self.opening: list[Event] = []   # events before the first decision (not serialised)
        self._pending: list | None = None

    # -- copying and serialisation -------------------------------------------------

    def _copy_into(self, other: Core) -> None:
        d = other.__dict__
        src = self.__dict__
        for name in SCALARS:
            d[name] = src[name]
        for name in FLAT_LISTS:
            d[name] = src[name][:]
        for name in NESTED_LISTS:
            d[name] = [x[:] for x in src[name]]
        other.t = self.t
        other.only = self.only
        other.silent = self.silent
        other.rngs = self.rngs.copy()
        other.rigged = self.rigged[:]
        other.events = []
        other.opening = []
        other._pending = None

    def fields_json(self, streams: bool = True) -> dict[str, Any]:
        src = self.__dict__
        out: dict[str, Any] = {name: src[name] for name in SCALARS}
        for name in FLAT_LISTS:
            out[name] = list(src[name])
        for name in NESTED_LISTS:
            out[name] = [list(x) for x in src[name]]
        out["options"] = dict(self.t.options)
        if streams:
            out["rng"] = self.rngs.to_json()
        return out

    def position_json(self) -> dict[str, Any]:
        """Every field but the random streams: what a record's digest covers."""
        return self.fields_json(streams=False)

    def load_fields(self, t: Tables, data: dict[str, Any]) -> None:
        self.t = t
        d = self.__dict__
        for name in SCALARS:
            d[name] = data[name]
        for name in FLAT_LISTS:
            d[name] = list(data[name])
        for name in NESTED_LISTS:
            d[name] = [list(x) for x in data[name]]
        self.only = [frozenset([s]) for s in self.seats]
        self.rngs = Streams.from_json({name: data["rng"][name] for name in STREAMS})
        self.rigged = []
        self.events = []
        self.opening = []
        self._pending = None

    # -- events ----------------------------------------------------------------------

    def log(self, kind: str, text: str, to: int = -1, **data: Any) -> None:
        """An event for everyone, or only for player `to`."""
        if not self.silent:
            self.events.append(Event(kind, text, data, None if to < 0 else self.only[to]))

    def log_later(self, kind: str, text: Callable[..., str], args: tuple, **data: Any) -> None:
        """An event for everyone whose text `text(*args)` is written only if it is read."""
        if not self.silent:
            self.events.append(Event(kind, text, data, None, args))

    def log_except(self, kind: str, text: str, hidden: int, **data: Any) -> None:
        """An event for everyone but player `hidden`."""
        if not self.silent:
            seen = frozenset(s for i, s in enumerate(self.seats) if i != hidden)
            self.events.append(Event(kind, text, data, seen))

    # -- dice --------------------------------------------------------------------------

    def d(self, sides: int) -> int:
        """One die of `sides` faces (rigged faces first: a test hook)."""
        if self.rigged:
            return self.rigged.pop(0)
        return int(self.rngs["dice"].random() * sides) + 1

    def dice(self, count: int, sides: int) -> int:
        total = 0
        for _ in range(count):
            total += self.d(sides)
        return total

    def roll_table(self, key: str, modifier: int = 0) -> tuple[int, Any]:
        """Roll a table's die (plus `modifier`) and read the result: (roll, result)."""
        table = self.t.tables[key]
        die = table.die
        if die == "d66":
            roll = 10 * self.d(6) + self.d(6)
        else:
            roll = self.d(int(die[1:]))
        roll += modifier
        return roll, table.read(roll)

    # -- cards ----------------------------------------------------------------------------

    def card_name(self, num: int) -> str:
        return self.t.cards[num].name

    def draw(self, p: int, count: int) -> list[int]:
        """Draw `count` cards at random into p's hand, reshuffling the discards when needed."""
        drawn = []
        rand = self.rngs["deck"].random
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    break
                self.deck = self.discard
                self.discard = []
                self.log("reshuffle", "The discard pile is shuffled into a new deck")
            i = int(rand() * len(self.deck))
            drawn.append(self.deck.pop(i))
        self.hands[p].extend(drawn)
        who = self.seats[p]
        names = ", ".join(self.t.cards[c].name for c in drawn)
        self.log("draw", f"You draw {names or 'nothing'}", p, seat=who, cards=drawn)
        self.log_except("draw", f"{who} draws {plural(len(drawn), 'card')}", p, seat=who,
                        count=len(drawn))
        return drawn

    def gold_cards(self, p: int) -> list[str]:
        """`play <card>` for each card p holds that may be played at any time in his turn."""
        cards, s = self.t.cards, self.t.s_play
        return [s[n] for n in sorted(self.hands[p]) if cards[n].kind in ANY_TIME_CARDS]

    def any_time_cards(self, p: int, legal: list[str]) -> list[str]:
        """`legal` with p's gold cards added when it offers a choice already (C-16: gold
        cards at any time in one's own turn, so beside any other choice of it)."""
        return legal + self.gold_cards(p) if len(legal) > 1 else legal

    def discard_card(self, p: int, num: int) -> None:
        """A card leaves p's hand face up: nobody needs to remember it as held any more."""
        self.hands[p].remove(num)
        self.discard.append(num)
        np = self.np
        for viewer in range(np):
            seen = self.known[viewer * np + p]
            if num in seen:
                seen.remove(num)

    def wait(self, step: str, actor: int) -> None:
        """Open `step` for `actor`; its legal list is built when asked for."""
        self.step, self.actor = step, actor
        self._pending = None

    def ask(self, step: str, actor: int, legal: list[str]) -> None:
        """Open `step` for `actor` with a legal list already built (it is not built twice)."""
        self.step, self.actor = step, actor
        self._pending = [self.decision(legal)]

    def resume(self) -> None:
        """Return from a finished sub-procedure to whoever started it."""
        getattr(self, "k_" + self.stack.pop())()
