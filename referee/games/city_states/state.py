"""`CityStatesState`: the agon State interface over the step mixins."""

from __future__ import annotations

import random
from typing import Any

from ...engine import Decision, Event, IllegalAction, Result, State, random_source, seat_index
from .board import action_notes, describe_board
from .cards import Cards
from .core import LEADER_STATES, group_words
from .diplomacy import Diplomacy
from .draw import Draw
from .end import End
from .land_battle import LandBattles
from .movement import Movement
from .recruit import Recruit
from .revenue import Revenue
from .sea_battle import SeaBattles
from .second_move import SecondMove
from .setup import Setup
from .tables import Tables
from .turns import Turns
from .upkeep import Upkeep

PROMPTS = {
    "home": "Choose your home city",
    "discard": "Over your hand limit: discard a card",
    "cards": "Play a card on your own turn, or done",
    "target": "Choose the target of the card",
    "recruit": "Recruit: choose a city, or done",
    "recruit_in": "Recruit in this city: a unit, baggage, or done",
    "deny": "An opponent's diplomacy phase begins: play a card taking one of their rolls?",
    "diplomacy": "Diplomacy: roll at a city, play a card, or done",
    "executions": "A city of yours revolts: play Executions?",
    "move": "Move: choose a space to move a group from (move: by land, sail: by sea), or done",
    "route": "Move the group: a destination, leave units behind, play a card, or stay",
    "attack": "Battle: choose a target, or done",
    "attack_with": "Keep a stack out of the attack (hold), or fight",
    "battle_card": "Battle: play a battle card, or pass",
    "retreat": "Your beaten units retreat one by one: choose where this one goes",
    "plunder": "You took a city: spare, plunder or raze it",
    "captive": "You hold a captured leader: execute him or ask a ransom",
    "ransom": "Your leader is held for ransom: pay or refuse",
}
# What some prompts add in brackets, filled in by `prompt_values` ...
DETAILS = {
    "diplomacy": " ({} rolls left)",
    "battle_card": " ({})",
    "attack_with": " ({})",
    "target": " ({})",
    "recruit_in": " ({}, {} gold)",
    "recruit": " ({} gold)",
    "deny": " ({}, {} rolls)",
    "ransom": " ({})",
    "captive": " ({})",
    "retreat": " ({} from {}; {} to go)",
    "plunder": " ({})",
}


def route_prompt(arm: int, row: int, flt: int, trn: int, bag: int, leaders: tuple,
                 place: str) -> str:
    return f"{PROMPTS['route']} ({group_words(arm, row, flt, trn, bag, leaders)} in {place})"


# ... so that a prompt is a template written only when read (search bots never read one).
PROMPT_TEXTS = {step: route_prompt if step == "route" else text + DETAILS.get(step, "")
                for step, text in PROMPTS.items()}
# Windows that open only when the seat holds a card for them (option reaction_prompts=held):
# other seats are never told whose decision one of these is.
REACTION_STEPS = frozenset({"battle_card", "deny", "executions"})
WINDOW_TRIES = 200


class CityStatesState(Draw, Cards, Revenue, Upkeep, Recruit, Diplomacy, Movement, SeaBattles,
                      LandBattles, SecondMove, End, Turns, Setup, State):
    """One position of a game of City States."""

    def __init__(self, tables: Tables, seats: list[str], seed: int, start: bool = True) -> None:
        self._init_fields(tables, seats, seed)
        if start:
            self.start_setup()
            self.opening = self.events[:]   # relayed by the referee via setup_events()

    # -- the agon State interface --------------------------------------------------------------

    def setup_events(self) -> list[Event]:
        return list(self.opening)

    def pending(self) -> list[Decision]:
        if self._pending is None:
            self._pending = [] if self.over else [self.decision(LEGAL[self.step](self))]
        return self._pending

    def decision(self, legal: list[str]) -> Decision:
        """The open step's decision, with these legal actions."""
        return Decision(self.seats[self.actor], PROMPT_TEXTS[self.step], legal,
                        self.prompt_values())

    def prompt_values(self) -> tuple:
        """What the open step's prompt template is filled in with."""
        step, t = self.step, self.t
        if step == "route":
            return self.group_parts() + (t.names[self.g_from],)
        if step not in DETAILS:
            return ()   # the most frequent steps (move) are told no more
        if step == "diplomacy":
            return (self.dip_left,)
        if step in ("battle_card", "attack_with"):
            return (t.names[self.b_target],)
        if step == "target":
            return (self.card_name(self.c_card),)
        if step == "recruit_in":
            return (t.names[self.rc_city], self.gold[self.actor])
        if step == "recruit":
            return (self.gold[self.actor],)
        if step == "deny":
            return (self.seats[self.active], self.dip_left)
        if step == "ransom":
            return (self.l_name[self.r_leader],)
        if step == "plunder":
            return (t.names[self.p_city],)
        if step == "captive":
            return (self.leader_text(self.captives[0]),)
        if step == "retreat":
            return self.retreat_values()
        return ()

    def apply(self, seat: str, action: str) -> list[Event]:
        pending = self._pending if self._pending is not None else self.pending()
        if not pending:
            raise IllegalAction("the game is over")
        decision = pending[0]
        if seat != decision.seat:
            raise IllegalAction(f"it is {decision.seat}'s decision, not {seat}'s")
        if not decision.offers(action):
            raise IllegalAction(f"{action!r} is not legal now ({decision.prompt})")
        self.events = []
        self.opening = []
        self._pending = None
        DO[self.step](self, action.split())
        return self.events

    def result(self) -> Result | None:
        return self.final_result() if self.over else None

    def clone(self) -> CityStatesState:
        other = CityStatesState.__new__(CityStatesState)
        self._copy_into(other)
        return other

    def to_json(self) -> dict[str, Any]:
        return self.fields_json()

    def determinize(self, seat: str, rng: random.Random | int) -> CityStatesState:
        """Deal the cards `seat` cannot see anew and reseed every stream from `rng`.

        The pool is the deck and the other hands, less the cards `seat` knows
        are held (seen with Spy and not played since).  An open reaction window
        of another seat is kept consistent: in the held mode it only opens on a
        card held.  What other seats saw of hands they do not hold is dropped.
        """
        me = seat_index(self.seats, seat)
        rng = random_source(rng)
        np = self.np
        other = self.clone()
        holders = [q for q in range(np) if q != me]
        keep = {q: [c for c in self.hands[q] if c in self.known[me * np + q]] for q in holders}
        pool = self.deck + [c for q in holders for c in self.hands[q] if c not in keep[q]]
        window = (self.step in REACTION_STEPS and self.actor != me and not self.t.always_ask
                  and not self.over)
        for _ in range(WINDOW_TRIES):
            rng.shuffle(pool)
            i = 0
            for q in holders:
                k = len(self.hands[q]) - len(keep[q])
                other.hands[q] = keep[q] + pool[i:i + k]
                i += k
            other._pending = None
            if not window or len(LEGAL[self.step](other)) > 1:
                break
        other.deck = pool[i:]
        for v in holders:
            for h in holders:
                other.known[v * np + h] = []
        other.rngs.reseed(rng)   # deck, then dice: one 64-bit seed each
        other.rigged = []
        other._pending = None
        return other

    # -- what a seat sees ------------------------------------------------------------------------

    def view(self, seat: str) -> dict[str, Any]:
        me = seat_index(self.seats, seat)
        t, np = self.t, self.np
        cards = t.cards
        secret = self.step in REACTION_STEPS and self.actor != me
        players = {}
        for p, name in enumerate(self.seats):
            players[name] = {
                "gold": self.gold[p],
                "home": t.ids[self.home[p]] if self.home[p] >= 0 else "",
                "holds_home": self.holds_home(p),
                "cards": len(self.hands[p]),
                "traits": list(self.traits[p]),
                "out": self.out[p],
                "frozen": self.frozen[p],
            }
        spaces = []
        for s in range(t.n):
            if self.occ[s] >= 0:
                spaces.append({"id": t.ids[s], "player": self.seats[self.occ[s]],
                               "armies": self.arm[s], "rowers": self.row[s],
                               "fleets": self.flt[s], "transports": self.trn[s],
                               "baggage": self.bag[s], "starvation": self.starve[s]})
        cities = []
        for s in t.cities:
            owner = self.owner[s]
            cities.append({"id": t.ids[s], "owner": self.seats[owner] if owner >= 0 else "",
                           "hostile": self.hostile[s], "razed": self.razed[s],
                           "income": self.income[s], "trait": self.mtrait[s],
                           "besieged": self.besieged(s), "no_income": self.noinc[s]})
        leaders = []
        for i in range(len(self.l_owner)):
            s = self.l_space[i]
            leaders.append({"name": self.l_name[i], "player": self.seats[self.l_owner[i]],
                            "space": t.ids[s] if s >= 0 else "",
                            "state": LEADER_STATES[self.l_state[i]],
                            "skills": list(self.l_skills[i]), "lost_battle": self.l_lost[i],
                            "back_in_turn": self.l_back[i]})
        known = {self.seats[h]: sorted(cards[c].id for c in self.known[me * np + h])
                 for h in range(np) if h != me and self.known[me * np + h]}
        out: dict[str, Any] = {
            "seat": seat,
            "turn": self.turn,
            "turns": t.turns,
            "phase": self.phase,
            "active": self.seats[self.active],
            "step": "" if secret or self.over else self.step,
            "to_act": "" if secret or self.over else self.seats[self.actor],
            "order": [self.seats[p] for p in self.order],
            "players": players,
            "hand": sorted(cards[c].id for c in self.hands[me]),
            "known_hands": known,
            "deck": len(self.deck),
            "discard": [cards[c].id for c in self.discard],
            "spaces": spaces,
            "cities": cities,
            "leaders": leaders,
            "truce": {"player": self.seats[self.truce_owner], "turn_ends_left": self.truce_left}
            if self.truce_left else {},
            "hesitant": {self.seats[p]: [t.ids[s] for s in self.hesitant[p]]
                         for p in range(np) if self.hesitant[p]},
        }
        if self.b_target >= 0:
            out["battle"] = {
                "space": t.ids[self.b_target], "sea": self.b_sea,
                "attacker": "rebels" if self.b_rebels else self.seats[self.b_att],
                "defender": self.seats[self.b_def] if self.b_def >= 0 else "neutral",
                "from": [t.ids[o] for o in self.b_origins if o not in self.b_held],
                "cards": [{"card": cards[abs(c)].id,
                           "side": "attacker" if c > 0 else "defender"} for c in self.b_cards],
            }
        if self.g_from >= 0 and self.step == "route":
            out["group"] = {"from": t.ids[self.g_from], "by_sea": self.g_sea,
                            "armies": self.g_arm, "rowers": self.g_row, "fleets": self.g_flt,
                            "transports": self.g_trn, "baggage": self.g_bag,
                            "leaders": [self.l_name[i] for i in self.g_ldr],
                            "bonus_moves": self.g_bonus}
        return out

    def describe(self, seat: str) -> str:
        return describe_board(self, seat)

    def notes(self, decision: Decision) -> dict[str, str]:
        return action_notes(self, list(decision.legal))


# step name -> the functions listing its legal actions and applying one of them
LEGAL = {step: getattr(CityStatesState, "legal_" + step) for step in PROMPTS}
DO = {step: getattr(CityStatesState, "do_" + step) for step in PROMPTS}


def load_state(tables: Tables, data: dict[str, Any]) -> CityStatesState:
    state = CityStatesState.__new__(CityStatesState)
    state.load_fields(tables, data)
    return state
