"""The game turn and the player-turn: the nine phases in order (rule 9).

Each `phase_*` method either opens a step (a player must decide) or runs the
phase to its end and calls the next one.  A frozen player (Political Rivalry,
Social Division) skips his moves and battles; a truce skips every battle.
"""

from __future__ import annotations

from .leaders import Leaders


class Turns(Leaders):
    """Game turns, player-turns, the end of a turn, players leaving the game."""

    def begin_game_turn(self) -> None:
        self.cur = 0
        if self.turn >= self.t.turns:   # the last turn stays the turn shown at the end
            self.finish(f"{self.t.turns} game turns are over")
            return
        self.turn += 1
        self.log("game_turn", f"Game turn {self.turn} of {self.t.turns}", turn=self.turn)
        shed = self.t.razed_per_turn
        for s in self.t.cities:
            if self.owner[s] < 0 and self.razed[s]:
                self.razed[s] = max(0, self.razed[s] - shed)
        self.start_player_turn()

    def start_player_turn(self) -> None:
        p = self.order[self.cur]
        if self.out[p]:
            self.next_player()
            return
        self.active = p
        self.last_loser = -1
        self.log("player_turn", f"Turn {self.turn}: {self.seats[p]} plays "
                 f"({self.gold[p]} gold)", seat=self.seats[p], turn=self.turn)
        self.return_exiles(p)
        self.phase_draw()

    # the phases after diplomacy, in order ------------------------------------------------

    def may_move(self) -> bool:
        return not self.frozen[self.active]

    def may_attack(self) -> bool:
        return not self.frozen[self.active] and self.truce_left == 0

    def phase_first_move(self) -> None:
        self.begin_moves("first_move", "after_first_move")

    def k_after_first_move(self) -> None:
        self.phase_sea_battle()

    def phase_sea_battle(self) -> None:
        self.begin_attacks(sea=True)

    def k_after_sea_battles(self) -> None:
        self.phase_land_battle()

    def phase_land_battle(self) -> None:
        self.begin_attacks(sea=False)

    def k_after_land_battles(self) -> None:
        self.phase_second_move()

    def phase_second_move(self) -> None:
        self.begin_moves("second_move", "after_second_move")

    def k_after_second_move(self) -> None:
        self.navigation_rolls()
        self.end_player_turn()

    # -- the end of a player-turn --------------------------------------------------------

    def end_player_turn(self) -> None:
        p = self.active
        self.frozen[p] = False
        self.hesitant[p] = []
        if self.truce_owner == p and self.truce_left:
            self.truce_left -= 1
            if not self.truce_left:
                self.truce_owner = -1
                self.log("truce_ends", f"{self.seats[p]}'s truce is over", seat=self.seats[p])
        for q in self.order:
            if not self.out[q] and self.is_out(q):
                self.out[q] = True
                for num in list(self.hands[q]):
                    self.discard_card(q, num)
                self.log("out", f"{self.seats[q]} has no city, unit or leader left and is out "
                         "of the game", seat=self.seats[q])
                if self.truce_owner == q:   # his next turn, which ends it, never comes
                    self.truce_owner, self.truce_left = -1, 0
                    self.log("truce_ends", f"{self.seats[q]}'s truce is over",
                             seat=self.seats[q])
        left = sum(1 for q in self.order if not self.out[q])
        if left <= 1:   # the last ones may fall together: then nobody is left
            self.finish("only one player is left" if left else "no player is left")
            return
        self.next_player()

    def next_player(self) -> None:
        self.cur += 1
        if self.cur >= self.np:
            self.begin_game_turn()
        else:
            self.start_player_turn()
