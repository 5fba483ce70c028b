"""What the engine remembers about each army, and about the turn in progress."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(slots=True)
class Army:
    """One player's army: men, pawn, tokens, hand and leader."""

    seat: str
    men: int
    space: int
    tokens: dict[str, int]
    hand: list[int] = field(default_factory=list)
    leader: str | None = None
    arrived: int | None = None        # Time-Track space on arrival = turns taken
    arrival_seq: int | None = None    # 0 for the first army to arrive, 1 next ...
    destroyed: bool = False
    # turn flags its next turn starts with, set by a row of this turn (`next_turn_flags`:
    # Harsh weather now makes next turn's Exposure roll worse)
    next_turn_flags: list[str] = field(default_factory=list)

    @property
    def marching(self) -> bool:
        return self.arrived is None and not self.destroyed

    def gain(self, token: str, amount: int) -> None:
        """Add (or with a negative amount remove) tokens; counts never go below zero."""
        self.tokens[token] = max(0, self.tokens[token] + amount)

    def copy(self) -> Army:
        return Army(self.seat, self.men, self.space, dict(self.tokens), self.hand[:], self.leader,
                    self.arrived, self.arrival_seq, self.destroyed, self.next_turn_flags[:])

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Army:
        return cls(**{**data, "tokens": dict(data["tokens"]), "hand": list(data["hand"]),
                      "next_turn_flags": list(data["next_turn_flags"])})


@dataclass(slots=True)
class Turn:
    """The turn in progress: whose, which phase, and what happened so far."""

    seat: str
    start_space: int
    phase: int = 0
    flags: list[str] = field(default_factory=list)   # attacked, harsh, satrap, foraged ...
    rows: dict[str, int] = field(default_factory=dict)  # table id -> row index rolled
    rolls_left: int = 1        # rolls still due in this phase (extra Rally rolls add)
    chosen: bool = False       # an optional phase (forage) has been decided
    rerolls_left: int = 0      # leader power (Xenophon)
    adjusts_left: int = 0      # leader power (Clearatus)
    order: list[str] = field(default_factory=list)  # card holders, this player first (fixed)

    def next_phase(self) -> None:
        self.phase += 1
        self.rolls_left = 1
        self.chosen = False

    def copy(self) -> Turn:
        # `order` is never changed once the turn starts: it is shared
        return Turn(self.seat, self.start_space, self.phase, self.flags[:], dict(self.rows),
                    self.rolls_left, self.chosen, self.rerolls_left, self.adjusts_left,
                    self.order)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Turn:
        return cls(**{**data, "flags": list(data["flags"]), "rows": dict(data["rows"]),
                      "order": list(data["order"])})


@dataclass(slots=True)
class Window:
    """An open roll: dice thrown, result not applied yet; cards may still change it."""

    roller: str
    table: str
    dice: list[int]
    mods: list[list]            # [label, value] pairs, standing ones first
    order: list[str]            # who may play, roller first then round the table (fixed)
    pos: int = 0                # index in order of the seat to ask next
    passes: int = 0             # seats in a row that have passed

    @property
    def total(self) -> int:
        return modified_total(self.dice, self.mods)

    def copy(self) -> Window:
        # a modifier pair, a list of dice and the order are never changed: they are shared
        return Window(self.roller, self.table, self.dice, self.mods[:], self.order,
                      self.pos, self.passes)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Window:
        return cls(**{**data, "dice": list(data["dice"]),
                      "mods": [list(m) for m in data["mods"]], "order": list(data["order"])})


def modified_total(dice: list[int], mods: list[list]) -> int:
    """The dice plus every [label, value] modifier."""
    total = sum(dice)
    for _, value in mods:
        total += value
    return total
