"""The operations phase: alternating turns, passing, playing a card."""

from __future__ import annotations

from .core import Core
from .tables import PERSIA, WHO, CardHalf


class Turns(Core):
    """Step `turn`; the two-passes rule; the end of one player's action."""

    def start_operations(self) -> None:
        self.passed = [False, False]
        self.auto_out = False
        self.log("operations", "Operations begin")
        self.start_turn(PERSIA)

    def start_turn(self, side: int) -> None:
        self.active = side
        auto = self.t.automaton
        if not self.hands[side] and (auto is None or auto.side != side):   # an automaton says why
            self.passed[side] = True
            self.log("pass", "{} has no cards and passes", (WHO[side],))
            self.after_turn()
            return
        self.step, self.actor = "turn", side

    def after_turn(self) -> None:
        """One side's action (and all reactions to it) is over."""
        self.op_event = ""
        self.cavalry = self.no_naval_retreat = False
        if self.passed[0] and self.passed[1]:
            self.log("operations_end", "Two passes in a row end the operations")
            self.start_supply()
        else:
            self.start_turn(1 - self.active)

    def finish_action(self) -> None:
        self.after_turn()

    def k_end_turn(self) -> None:
        self.after_turn()

    def legal_turn(self) -> list[str]:
        side, t = self.actor, self.t
        out = ["pass"]
        can_move = self.can_move(side)
        events = t.turn_events[side]
        for num in sorted(self.hands[side]):
            half = events.get(num)
            if half is not None and self.event_ok(side, half):
                out.append(t.s_play_event[num])
            if can_move:
                out.append(t.s_play_move[num])
        return out

    def event_ok(self, side: int, half: CardHalf) -> bool:
        """Whether the event of `half` (one a side may play on its turn) may be played now."""
        if half.sparta and self.carneia:
            return False
        if half.once and half.effect in self.once_used:
            return False
        return getattr(self, half.ok_method)(side)

    def do_turn(self, args: list[str]) -> None:
        side = self.actor
        who = WHO[side]
        if args[0] == "pass":
            self.passed[side] = True
            self.log("pass", "{} passes", (who,))
            self.after_turn()
            return
        self.passed[side] = False
        num = int(args[1])
        half = self.t.cards[num][side]
        self.hands[side].remove(num)
        if args[2] == "event":
            if half.effect == "mines_of_laurion":
                self.held_card = num   # kept out of the discard pile until it is done
            else:
                self.discard.append(num)
            self.log("play", "{} plays {} {} for its event", (who, num, half.name),
                     data={"card": num, "use": "event"})
            getattr(self, half.ev_method)(side, num)
        else:
            self.discard.append(num)
            self.log("play", "{} plays card {} for a movement", (who, num),
                     data={"card": num, "use": "move"})
            self.stack.append("end_turn")
            self.begin_move(side, "move")
