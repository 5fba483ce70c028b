"""Phase 1, draw (rule 9.1): two cards, the hand limit, then the own-turn cards.

Steps `discard` (down to the hand limit) and `cards` (play cards that act on
one's own turn, rule 12; skipped when none can be played).
"""

from __future__ import annotations

from .leaders import Leaders


class Draw(Leaders):
    """Drawing, discarding down to the limit, and the own-turn card window."""

    def phase_draw(self) -> None:
        p = self.active
        self.phase = "draw"
        self.draw(p, self.t.draw_cards)
        self.stack.append("cards_window")
        self.keep_hand_limit(p)

    def keep_hand_limit(self, p: int) -> None:
        """Let p discard down to his hand limit, then resume."""
        if len(self.hands[p]) > self.hand_limit(p):
            self.wait("discard", p)
        else:
            self.resume()

    def legal_discard(self) -> list[str]:
        s = self.t.s_discard
        return [s[n] for n in sorted(self.hands[self.actor])]

    def do_discard(self, args: list[str]) -> None:
        p = self.actor
        num = self.t.card_by_id[args[1]]
        self.discard_card(p, num)
        self.log("discard", f"{self.seats[p]} discards {self.card_name(num)} (hand limit)",
                 seat=self.seats[p], card=args[1])
        self.keep_hand_limit(p)

    # -- the own-turn card window --------------------------------------------------------

    def k_cards_window(self) -> None:
        self.open_cards_window()

    def open_cards_window(self) -> None:
        legal = self.legal_cards_of(self.active)
        if len(legal) > 1:
            self.ask("cards", self.active, legal)
        else:
            self.phase_revenue()

    def legal_cards_of(self, p: int) -> list[str]:
        s = self.t.s_play
        return ["done"] + [s[n] for n in sorted(self.hands[p]) if self.turn_card_ok(p, n)]

    def legal_cards(self) -> list[str]:
        return self.legal_cards_of(self.actor)

    def do_cards(self, args: list[str]) -> None:
        if args[0] == "done":
            self.phase_revenue()
            return
        self.stack.append("cards_window")
        self.play_card(self.actor, self.t.card_by_id[args[1]])
