"""One position of a Ten Thousand game and the State interface around it.

The turn sequence lives in `flow`, roll windows in `rolls`; this module holds
the data, validates actions and answers the referee's questions.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from ...engine import Decision, Event, IllegalAction, Result, State
from ...games.ten_thousand import flow, rolls, scoring
from ...games.ten_thousand.army import Army, Turn, Window
from ...games.ten_thousand.deck import draw
from ...games.ten_thousand.rules import GameRules
from ...rng import rng_from_state, rng_state, stream

RESAMPLE_TRIES = 500   # deals tried to find one where the seat asked in a window can act


class TenThousandState(State):
    def __init__(self, rules: GameRules, seats: list[str], seed: int,
                 options: dict[str, Any]) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.seed = seed
        self.options = dict(options)
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
        self.rngs: dict[str, random.Random] = {}
        self.events: list[Event] = []

    # ----- setup -----------------------------------------------------------------
    def setup(self) -> None:
        """Shuffle, deal, roll for first player, then ask for leaders."""
        rules = self.rules
        self.rngs = {"deck": stream(self.seed, "deck"), "setup": stream(self.seed, "setup")}
        for seat in self.seats:
            self.rngs[f"dice:{seat}"] = stream(self.seed, f"dice:{seat}")
        self.deck = list(rules.deck)
        self.rngs["deck"].shuffle(self.deck)
        start = rules.start
        for seat in self.seats:
            tokens = {token: 0 for token in rules.token_codes}
            tokens["food"] = start["food"]
            self.armies[seat] = Army(seat=seat, men=start["men"], space=start["space"],
                                     tokens=tokens)
        first = flow.roll_for_first(self)
        i = self.seats.index(first)
        self.order = self.seats[i:] + self.seats[:i]
        for seat in self.order:
            draw(self, seat, start["cards"])
        self.leader_queue = list(self.order)
        flow.advance(self)

    # ----- helpers used by flow and rolls -----------------------------------------
    def emit(self, kind: str, text: str, to: frozenset[str] | None = None, **data: Any) -> None:
        self.events.append(Event(kind, text, data, to))

    def ask(self, seat: str, prompt: str, legal: list[str]) -> None:
        self.asking = Decision(seat, prompt, legal)

    def dice(self, seat: str) -> random.Random:
        return self.rngs[f"dice:{seat}"]

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

    def leader(self, seat: str):
        return self.rules.leader_by_id.get(self.armies[seat].leader or "", self.rules.unnamed)

    def resume(self) -> list[Event]:
        """Run the automatic steps after a position was edited by hand.

        For tests and analysis tools that build a position field by field.
        """
        self.events = []
        flow.advance(self)
        events, self.events = self.events, []
        return events

    # ----- the State interface -------------------------------------------------------
    def setup_events(self) -> list[Event]:
        # Until the first action, `events` holds what setup did (the opening draws).
        return list(self.events)

    def pending(self) -> list[Decision]:
        return [self.asking] if self.asking is not None else []

    def apply(self, seat: str, action: str) -> list[Event]:
        asking = self.asking
        if asking is None:
            raise IllegalAction("the game is over")
        if seat != asking.seat:
            raise IllegalAction(f"it is {asking.seat}'s decision, not {seat}'s")
        if action not in asking.legal:
            raise IllegalAction(f"{action!r} is not legal now; legal: {', '.join(asking.legal)}")
        self.events = []
        self.asking = None
        if self.step == "window":
            rolls.answer(self, seat, action)
        else:
            flow.answer(self, seat, action)
        flow.advance(self)
        events, self.events = self.events, []
        return events

    def result(self) -> Result | None:
        if self.step != "over":
            return None
        return scoring.result(self)

    def clone(self) -> TenThousandState:
        return copy.deepcopy(self, {id(self.rules): self.rules})

    def view(self, seat: str) -> dict[str, Any]:
        rules = self.rules
        armies = {}
        for s in self.order:
            army = self.armies[s]
            armies[s] = {"men": army.men, "space": army.space, "tokens": dict(army.tokens),
                         "leader": army.leader, "hand": len(army.hand),
                         "arrived": army.arrived, "destroyed": army.destroyed}
        out: dict[str, Any] = {
            "seat": seat, "round": self.round, "order": list(self.order),
            "current": self.turn.seat if self.turn else None,
            "phase": rules.phases[self.turn.phase]["id"] if self.turn else None,
            "flags": list(self.turn.flags) if self.turn else [],
            "armies": armies, "deck": len(self.deck), "discard": len(self.discard),
            "hand": [{"number": n, "name": rules.cards[n].name, "text": rules.cards[n].text}
                     for n in self.armies[seat].hand] if seat in self.armies else [],
            "window": None,
        }
        if self.window:
            w = self.window
            out["window"] = {"roller": w.roller, "roll": rules.tables[w.table].roll,
                             "table": w.table, "dice": list(w.dice),
                             "modifiers": [list(m) for m in w.mods], "total": w.total}
        return out

    def describe(self, seat: str) -> str:
        view = self.view(seat)
        lines = [f"Time Track space {view['round']}; {view['current']} is in the "
                 f"{view['phase']} phase" if view["current"] else f"Time Track {view['round']}"]
        if view["flags"]:
            lines[0] += f" (this turn: {', '.join(view['flags'])})"
        for s, a in view["armies"].items():
            t = a["tokens"]
            where = (f"arrived on turn {a['arrived']}" if a["arrived"] else
                     "destroyed" if a["destroyed"] else f"space {a['space']}")
            lines.append(f"  {s} ({a['leader'] or 'no leader yet'}): {a['men']} men, {where}, "
                         f"FT {t['food']} ST {t['starvation']} MT {t['mutiny']} AT {t['anger']}, "
                         f"{a['hand']} cards")
        if view["window"]:
            w = view["window"]
            mods = "".join(f", {label} {value:+d}" for label, value in w["modifiers"])
            lines.append(f"  {w['roller']}'s {self.rules.roll_names[w['roll']]}: dice "
                         f"{w['dice']}{mods} = {w['total']}")
        hand = ", ".join(f"{c['number']} {c['name']} ({c['text']})" for c in view["hand"])
        lines.append(f"Your hand: {hand or 'empty'}")
        return "\n".join(lines)

    def determinize(self, seat: str, rng: random.Random) -> TenThousandState:
        """Deal anew the cards `seat` cannot see and reseed every stream from `rng`.

        Hidden: the other hands, the deck and the others' face-down discards.  A
        decision another seat is taking on its hand (a roll window, a discard) is
        listed again from its new hand, and a window only asks a seat that could
        act there, as the real one does.
        """
        other = self.clone()
        others = [s for s in self.seats if s != seat]
        counts = {s: len(self.armies[s].hand) for s in others}
        down = {s: list(self.face_down.get(s, [])) for s in others if self.face_down.get(s)}
        pool = list(self.deck)
        for s in others:
            pool += self.armies[s].hand
        for cards in down.values():
            pool += cards
            for number in cards:
                other.discard.remove(number)
        for _ in range(RESAMPLE_TRIES):
            rng.shuffle(pool)
            rest = self._deal(other, counts, pool)
            if self._reask(other, seat):
                break
        for s, cards in down.items():
            other.face_down[s], rest = rest[:len(cards)], rest[len(cards):]
            other.discard += other.face_down[s]
        other.deck = rest
        other.events = []   # the opening draws, which name the real cards
        other.seed = rng.getrandbits(63)
        other.rngs = {name: random.Random(rng.getrandbits(64)) for name in sorted(self.rngs)}
        return other

    @staticmethod
    def _deal(other: TenThousandState, counts: dict[str, int], pool: list[int]) -> list[int]:
        """Deal the shuffled pool to the other hands; return what is left.

        An army off the march keeps only penalising cards (option
        finished_play_penalising), so its hand is dealt from those first.
        """
        rest = list(pool)
        for s, count in counts.items():
            if not other.armies[s].marching and count:
                kept = [n for n in rest if other.rules.cards[n].penalising][:count]
                for number in kept:
                    rest.remove(number)
                other.armies[s].hand = kept
        for s, count in counts.items():
            if other.armies[s].marching or not count:
                other.armies[s].hand, rest = rest[:count], rest[count:]
        return rest

    @staticmethod
    def _reask(other: TenThousandState, seat: str) -> bool:
        """List another seat's pending choice from its resampled hand; False if it has none."""
        asking = other.asking
        if asking is None or asking.seat == seat:
            return True
        hand = other.armies[asking.seat].hand
        if other.step == "window":
            actions = rolls.seat_actions(other, asking.seat)
            other.asking = Decision(asking.seat, asking.prompt, actions + ["pass"])
            return bool(actions)
        if other.step == "discard":
            other.asking = Decision(asking.seat, asking.prompt,
                                    [f"discard {n}" for n in sorted(set(hand))])
        return True

    # ----- persistence ----------------------------------------------------------------
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
            "rngs": {name: rng_state(rng) for name, rng in self.rngs.items()},
        }

    @classmethod
    def from_json(cls, rules: GameRules, data: dict[str, Any]) -> TenThousandState:
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
        state.rngs = {name: rng_from_state(s) for name, s in data["rngs"].items()}
        return state
