"""The agon State interface of a Ten Thousand game, over its `Position`.

The turn sequence lives in `flow`, roll windows in `rolls`; this module starts
games, validates actions and answers the referee's questions.
"""

from __future__ import annotations

import random
from typing import Any

from ...engine import Decision, Event, IllegalAction, Result, State, random_source, seat_index
from ...rng import Streams
from . import board, flow, rolls, scoring
from .army import Army
from .deck import draw
from .position import Position

RESAMPLE_TRIES = 500   # deals tried to find one where the seat asked in a window can act


class TenThousandState(Position, State):
    """One game of Ten Thousand, as the referee and bots see it.

    Search bots pay little per step: ``clone()`` copies a few lists, random
    streams are copied only when a copy rolls them, and event texts are
    written only when someone reads them.
    """

    # ----- setup -----------------------------------------------------------------
    def setup(self) -> None:
        """Shuffle, deal, roll for first player, then ask for leaders."""
        rules = self.rules
        self.rngs = Streams.named(self.seed, ["deck", "setup", *self.dice_streams.values()])
        self.deck = list(rules.deck)
        self.rngs["deck"].shuffle(self.deck)
        start = rules.start
        for seat in self.seats:
            # the tokens `start` names (food), none of the others
            tokens = {token: start.get(token, 0) for token in rules.token_names}
            self.armies[seat] = Army(seat=seat, men=start["men"], space=start["space"],
                                     tokens=tokens)
        first = flow.roll_for_first(self)
        i = self.seats.index(first)
        self.order = self.seats[i:] + self.seats[:i]
        for seat in self.order:
            draw(self, seat, start["cards"])
        self.leader_queue = list(self.order)
        flow.advance(self)

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
        if not asking.offers(action):
            raise IllegalAction(f"{action!r} is not legal now; legal: {', '.join(asking.offered)}")
        if self.events:   # what setup did, until the first action
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
        return self.copy()

    def view(self, seat: str) -> dict[str, Any]:
        seat_index(self.seats, seat)   # an unknown seat is refused, as in every game
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
                     for n in self.armies[seat].hand],
            "window": None,
        }
        if self.window:
            w = self.window
            out["window"] = {"roller": w.roller, "roll": rules.tables[w.table].roll,
                             "table": w.table, "dice": list(w.dice),
                             "modifiers": [list(m) for m in w.mods], "total": w.total}
        return out

    def describe(self, seat: str) -> str:
        return board.describe(self, seat, self.view(seat))

    def notes(self, decision: Decision) -> dict[str, str]:
        return board.notes(self, decision)

    def determinize(self, seat: str, rng: random.Random | int) -> TenThousandState:
        """Deal anew the cards `seat` cannot see and reseed every stream from `rng`.

        Hidden: the other hands, the deck and the others' face-down discards.  A
        decision another seat is taking on its hand (a roll window, a discard) is
        listed again from its new hand, and a window only asks a seat that could
        act there, as the real one does.
        """
        seat_index(self.seats, seat)
        rng = random_source(rng)
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
        other.rngs.reseed(rng)
        return other

    @staticmethod
    def _deal(other: TenThousandState, counts: dict[str, int], pool: list[int]) -> list[int]:
        """Deal the shuffled pool to the other hands; return what is left.

        An army off the march keeps only penalising cards (option
        finished_play_penalising), so its hand is dealt from those first.
        Once a turn has begun only the marching player can hold a penalising
        token card: everyone else's were played when the turn started.
        """
        rules = other.rules
        current = other.turn.seat if other.turn is not None else None
        banned = rules.forced_token_cards if current is not None else frozenset()
        rest = list(pool)
        for s, count in counts.items():
            if not other.armies[s].marching and count:
                kept = [n for n in rest if rules.cards[n].penalising and n not in banned][:count]
                for number in kept:
                    rest.remove(number)
                other.armies[s].hand = kept
        for s, count in counts.items():
            if other.armies[s].marching or not count:
                if s == current or not banned:
                    other.armies[s].hand, rest = rest[:count], rest[count:]
                    continue
                hand = [n for n in rest if n not in banned][:count]
                for number in hand:
                    rest.remove(number)
                other.armies[s].hand = hand
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
                                    [other.rules.discard_action[n] for n in sorted(set(hand))])
        return True
