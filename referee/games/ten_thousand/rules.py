"""The ruleset's `data` compiled into read-only objects the engine consults.

Nothing here holds game numbers of its own: every table, card and leader comes
from agon.rulesets/ten-thousand.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

ROW_MARGIN = 30   # modifiers that take a total this far past a table's rows are looked up slowly


@dataclass(frozen=True, slots=True)
class CardOption:
    """One effect a card can be played for ("A or B" cards have two)."""

    effect: str          # modify | tokens | reroll | extra_roll | draw
    target: str          # self | opponent | any
    roll: str = ""       # roll code (modify, reroll, extra_roll); "any" for any roll
    amount: int = 0
    tokens: tuple[tuple[str, int], ...] = ()
    count: int = 0
    label: str = ""      # short word used in actions: "BR+1", "FT+1", "reroll"
    removes: tuple[str, ...] = ()   # tokens the option takes away: playable only if held


@dataclass(frozen=True, slots=True)
class Card:
    number: int
    name: str
    text: str
    kind: str
    options: tuple[CardOption, ...]
    penalising: bool   # every effect hurts another player: it may not be kept


@dataclass(frozen=True, slots=True)
class RollCards:
    """The cards that act in the window of one roll (`GameRules.roll_cards[roll]`).

    `own` and `others` map a card number to each of its options playable there,
    by the roller or by another seat, as (tokens the option removes, so playable
    only while they are held; its action ``play N LABEL``).  `forced` maps a
    penalising card number to the option it must be played for on this roll.
    A hand holding none of `roller_cards` (the roller's) or `others_cards` has
    nothing to do in the window: when no hand has, the roll stands unasked.
    The frozensets are the quickest to test a hand against.
    """

    own: dict[int, tuple[tuple[tuple[str, ...], str], ...]]
    others: dict[int, tuple[tuple[tuple[str, ...], str], ...]]
    forced: dict[int, CardOption]
    roller_cards: frozenset[int]
    others_cards: frozenset[int]
    others_playable: frozenset[int]   # the keys of `others`
    forced_cards: frozenset[int]      # the keys of `forced`


@dataclass(frozen=True, slots=True)
class Leader:
    id: str
    name: str
    rerolls_per_turn: int = 0
    adjusts_per_turn: int = 0
    adjust_by: int = 0
    hand_limit_bonus: int = 0
    roll_modifiers: dict[str, int] = field(default_factory=dict)
    adjust_actions: tuple[str, ...] = ()   # "leader +N", "leader -N", spelled once


@dataclass(frozen=True, slots=True)
class Table:
    """One roll table: which roll it is, dice, standing modifiers, outcome."""

    id: str
    roll: str
    dice: int
    outcome: str                         # rows | attack | loss | move
    rows: tuple[dict[str, Any], ...] = ()
    modifiers: tuple[dict[str, Any], ...] = ()
    only_if: dict[str, str] | None = None
    optional: bool = False
    choice_flags: tuple[str, ...] = ()   # turn flags set by choosing an optional roll
    men_per_point: int = 0
    hit: dict[str, Any] | None = None
    miss: dict[str, Any] | None = None
    label: str = ""                      # what the board calls its result (terrain, weather)
    roll_name: str = ""                  # the roll's name in words ("Route Roll")
    # worked out once from the data above, for the roll that happens every phase:
    # total -> its row (`scan_row`) for every total a roll can plausibly come to: a dict
    # read is quicker than a call, on the path of nearly every phase
    row_of: dict[int, int] = field(default_factory=dict)
    row_effects: tuple[RowEffect, ...] = ()   # rows, compiled
    hit_effect: RowEffect | None = None
    miss_effect: RowEffect | None = None
    only_flag: str = ""    # only_if: rolled only with this turn flag set ...
    only_token: str = ""   # ... or while the roller holds this token
    standing: tuple[Modifier, ...] = ()   # modifiers, compiled
    # leader id -> (leader's name, bonus): the leaders whose power modifies this roll
    leader_bonus: dict[str, tuple[str, int]] = field(default_factory=dict)
    modified: bool = False   # has standing modifiers or leader bonuses to look at
    cards: RollCards | None = None   # the cards that act in this roll's window

    def hits(self, held: int, total: int) -> bool:
        """An attack table's roll against `held` tokens (Anger): a hit when the total is at
        most their count; none held, no attack (X-06.2)."""
        return 0 < held and total <= held

    def scan_row(self, total: int) -> int:
        """The row a modified result falls in, read off the rows; results off the table
        use its end rows."""
        if total <= self.rows[0]["min"]:
            return 0
        for i, row in enumerate(self.rows):
            if row["min"] <= total <= row["max"]:
                return i
        return len(self.rows) - 1


@dataclass(frozen=True, slots=True)
class Modifier:
    """One of a table's standing modifiers (`rolls.standing_modifiers` reads it)."""

    when: str      # always | flag | space_at_most | column | has_token | per_token
    label: str
    value: int = 0
    flag: str = ""
    token: str = ""
    space: int = 0
    table: str = ""                 # column: the table whose rolled row gives the value ...
    columns: tuple[int, ...] = ()   # ... this column's value in each of its rows


@dataclass(frozen=True, slots=True)
class RowEffect:
    """What one table row does, compiled from its data (`rolls.apply_row` reads it)."""

    result: str
    discard_all: tuple[str, ...]
    tokens: tuple[tuple[str, int], ...]   # gains, then losses as negative amounts
    flags: tuple[str, ...]
    next_turn_flags: tuple[str, ...]      # flags the army's next turn starts with
    lose_men: int                         # a fixed loss ...
    loss_dice: tuple[int, int, int] | None   # ... or (dice, add, times): (sum + add) * times

    @classmethod
    def of(cls, row: dict[str, Any]) -> RowEffect:
        loss = row.get("lose_men", 0)
        dice = (loss["dice"], loss.get("add", 0), loss["times"]) if isinstance(loss, dict) else None
        return cls(result=row["result"], discard_all=tuple(row.get("discard_all", ())),
                   tokens=(*row.get("gain", {}).items(),
                           *((token, -n) for token, n in row.get("lose", {}).items())),
                   flags=tuple(row.get("flags", ())),
                   next_turn_flags=tuple(row.get("next_turn_flags", ())),
                   lose_men=0 if dice else loss,
                   loss_dice=dice)


def option_fits_roll(opt: CardOption, roll: str, own: bool) -> bool:
    """May a (non-penalising) card option be played in the window of `roll`?

    `own` is true for the roller, who is always the player whose turn it is
    (only the marching player rolls), so own-turn cards need `own` as well.
    Whether there is a token to remove is checked at play time.
    """
    effect = opt.effect
    if effect == "modify":
        if opt.roll != roll:
            return False
        return own if opt.target == "self" else (not own if opt.target == "opponent" else True)
    if effect == "reroll":
        if opt.roll not in (roll, "any"):
            return False
        return own if opt.target == "self" else True
    if effect == "extra_roll":
        return own and opt.roll == roll
    if effect == "tokens":
        return own and opt.target == "self"   # gifts to yourself, any time in your own turn
    if effect == "draw":
        return own
    return False


def option_label(opt: dict[str, Any], codes: dict[str, str]) -> str:
    effect = opt["effect"]
    if effect == "modify":
        return f"{opt['roll']}{opt['amount']:+d}"
    if effect == "tokens":
        return "&".join(f"{codes[t]}{n:+d}" for t, n in opt["tokens"].items())
    if effect == "reroll":
        return "reroll"
    if effect == "extra_roll":
        return f"extra-{opt['roll']}"
    return f"draw{opt['count']}"


class GameRules:
    """Everything the engine reads from a ruleset, built once per engine."""

    def __init__(self, data: dict[str, Any], sections: list[dict[str, Any]] | None = None) -> None:
        """`sections`: the ruleset's rule sections, for the leaders' powers in words."""
        self.data = data
        self.start = data["start"]
        self.distance = data["tracks"]["distance"]
        self.time_start = data["tracks"]["time"]["start"]
        self.draw_per_turn = data["hand"]["draw_per_turn"]
        self.hand_limit = data["hand"]["limit"]
        self.token_codes: dict[str, str] = data["tokens"]
        self.token_names = tuple(self.token_codes)   # the token kinds, in the data's order
        self.roll_names: dict[str, str] = data["rolls"]
        self.phases: list[dict[str, Any]] = data["phases"]
        self.consumption = data["consumption"]
        self.leaders = [_leader(spec) for spec in data["leaders"]]
        self.leader_by_id = {lead.id: lead for lead in self.leaders}
        unnamed = data["unnamed_leader"]
        self.unnamed = Leader(id=unnamed["id"], name=unnamed["name"])
        self.leader_by_id[self.unnamed.id] = self.unnamed
        titled = {section["title"]: section["text"] for section in sections or []}
        self.leader_texts = {lead.id: " ".join(titled[lead.name].split())
                             for lead in self.leaders if lead.name in titled}
        # table id -> its phase's rule in words, for a player choosing an optional roll
        by_id = {section["id"]: section["text"] for section in sections or []}
        self.phase_texts = {tid: " ".join(by_id[f"phase-{tid}"].split())
                            for tid in data["tables"] if f"phase-{tid}" in by_id}
        self.solo = data["scoring"]["solo"]
        self.cards = {c["number"]: self._card(c) for c in data["cards"]}
        self.deck = sorted(self.cards)
        self._index_cards()
        self.tables = {tid: self._table(tid, spec, data["tables"])
                       for tid, spec in data["tables"].items()}
        # a flag carried into the army's next turn -> (the table's label, the row's result)
        # that set it: how the board says what last turn brought ("weather", "Harsh")
        self.carried_from = {
            flag: (table.label or self.roll_names[table.roll], row["result"])
            for table in self.tables.values() for row in table.rows
            for flag in row.get("next_turn_flags", ())}
        # per phase: its step and the table it rolls on (None for draw, consumption, end)
        self.phase_plan: list[tuple[str, Table | None]] = [
            (phase["step"], self.tables.get(phase.get("table", ""))) for phase in self.phases]

    def _table(self, tid: str, spec: dict[str, Any], tables: dict[str, Any]) -> Table:
        """One table, with what its roll's window needs: the leaders' bonuses, the cards."""
        roll = spec["roll"]
        bonus = {lead.id: (lead.name, lead.roll_modifiers[roll]) for lead in self.leaders
                 if lead.roll_modifiers.get(roll)}
        table = _table(tid, spec, tables, self.roll_names)
        return replace(table, leader_bonus=bonus, modified=bool(table.standing or bonus),
                       cards=self.roll_cards[roll])

    def _card(self, spec: dict[str, Any]) -> Card:
        options = tuple(
            CardOption(effect=o["effect"], target=o["target"], roll=o.get("roll", ""),
                       amount=o.get("amount", 0), tokens=tuple(o.get("tokens", {}).items()),
                       count=o.get("count", 0), label=option_label(o, self.token_codes),
                       removes=tuple(t for t, n in o.get("tokens", {}).items() if n <= 0)
                       if o["effect"] == "tokens" else ())
            for o in spec["options"])
        penalising = all(opt.target == "opponent" for opt in options)
        return Card(spec["number"], spec["name"], spec["text"], spec["kind"], options, penalising)

    def _index_cards(self) -> None:
        """Which cards act in which roll's window (`roll_cards`), worked out once for speed."""
        self.roll_cards = {roll: self._roll_cards(roll) for roll in self.roll_names}
        self.forced_tokens = {
            number: opt for number, card in self.cards.items() if card.penalising
            for opt in card.options if opt.effect == "tokens"}
        self.forced_token_cards = frozenset(self.forced_tokens)
        self.discard_action = {number: f"discard {number}" for number in self.cards}
        # `play N LABEL` -> (card N, its option LABEL): read once a card is played
        self.card_plays: dict[str, tuple[Card, CardOption]] = {}
        for number, card in self.cards.items():
            for opt in card.options:
                self.card_plays.setdefault(f"play {number} {opt.label}", (card, opt))

    def _roll_cards(self, roll: str) -> RollCards:
        def playable(own: bool) -> dict[int, tuple[tuple[tuple[str, ...], str], ...]]:
            fits = {}
            for number, card in self.cards.items():
                actions = tuple((opt.removes, f"play {number} {opt.label}") for opt in card.options
                                if not card.penalising and option_fits_roll(opt, roll, own))
                if actions:
                    fits[number] = actions
            return fits

        own, others = playable(True), playable(False)
        forced = {number: opt for number, card in self.cards.items() if card.penalising
                  for opt in card.options if opt.effect == "modify" and opt.roll == roll}
        return RollCards(own=own, others=others, forced=forced,
                         roller_cards=frozenset(own) | frozenset(forced),
                         others_cards=frozenset(others) | frozenset(forced),
                         others_playable=frozenset(others), forced_cards=frozenset(forced))


def _table(tid: str, spec: dict[str, Any], tables: dict[str, Any],
           roll_names: dict[str, str]) -> Table:
    """One table from its data (`tables`: every table's data, which column modifiers read)."""
    only_if = spec.get("only_if")
    table = Table(id=tid, roll=spec["roll"], dice=spec["dice"], outcome=spec["outcome"],
                  rows=tuple(spec.get("rows", ())), modifiers=tuple(spec.get("modifiers", ())),
                  only_if=only_if, optional=spec.get("optional", False),
                  choice_flags=tuple(spec.get("choice_flags", ())),
                  men_per_point=spec.get("men_per_point", 0), hit=spec.get("hit"),
                  miss=spec.get("miss"), label=spec.get("label", ""),
                  roll_name=roll_names.get(spec["roll"], spec["roll"]),
                  row_effects=tuple(RowEffect.of(row) for row in spec.get("rows", ())),
                  hit_effect=RowEffect.of(spec["hit"]) if spec.get("hit") else None,
                  miss_effect=RowEffect.of(spec["miss"]) if spec.get("miss") else None,
                  only_flag=(only_if or {}).get("flag", ""),
                  only_token=(only_if or {}).get("token", ""))
    table = replace(table, standing=tuple(
        Modifier(when=mod["when"], label=mod["label"], value=mod.get("value", 0),
                 flag=mod.get("flag", ""), token=mod.get("token", ""),
                 space=mod.get("space", 0), table=mod.get("table", ""),
                 columns=tuple(row.get("columns", {}).get(mod["column"], 0)
                               for row in tables[mod["table"]].get("rows", ()))
                 if mod["when"] == "column" else ())
        for mod in table.modifiers))
    if table.rows:
        low, high = table.rows[0]["min"], max(row["max"] for row in table.rows)
        table = replace(table, row_of={total: table.scan_row(total)
                                       for total in range(low - ROW_MARGIN, high + ROW_MARGIN + 1)})
    return table


def _leader(spec: dict[str, Any]) -> Leader:
    step = spec.get("adjust_by", 0)
    return Leader(id=spec["id"], name=spec["name"],
                  rerolls_per_turn=spec.get("rerolls_per_turn", 0),
                  adjusts_per_turn=spec.get("adjusts_per_turn", 0),
                  adjust_by=step,
                  adjust_actions=(f"leader +{step}", f"leader -{step}") if step else (),
                  hand_limit_bonus=spec.get("hand_limit_bonus", 0),
                  roll_modifiers=dict(spec.get("roll_modifiers", {})))
