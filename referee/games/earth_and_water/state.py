"""`EarthAndWaterState`: the agon State interface over the step mixins."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from ...engine import Decision, Event, IllegalAction, Result, State, random_source, seat_index
from .automaton import AutomatonSteps
from .battle import Battles
from .board import action_notes, describe_board
from .cards import CardEvents
from .core import count_of
from .movement import Movement
from .prep import Preparation
from .supply import Supply
from .tables import GREECE, PERSIA, SIDES, Tables
from .turns import Turns

PROMPTS = {
    "buy": "Buy cards (1 talent each), then done to draw them",
    "build": "Raise armies and fleets with your remaining talents, then done",
    "sd_sacrifice": "The king dies: choose the army that goes on his portrait",
    "turn": "Your turn: play a card for its event or a movement, or pass",
    "origin": "Choose where the movement starts",
    "dest_land": "March: destination and number of armies",
    "dest_sea": "Sail: destination, fleets and armies carried",
    "themistocles": "Persia has sailed: play Themistocles?",
    "them_pay": "Themistocles: choose the army that goes on his portrait",
    "them_origin": "Themistocles: choose the port your fleets sail from",
    "them_dest": "Themistocles: destination and number of fleets",
    "bridge": "Your army holds Abydos: destroy the pontoon bridge?",
    "land_react": "A land battle begins: play a battle card?",
    "milt_pay": "Miltiades: choose the army that goes on his portrait",
    "immortals": "Your last army here has fallen: play The Immortals?",
    "l_att_retreat": "Land battle: retreat or continue",
    "l_def_retreat": "Land battle: retreat or continue",
    "artemisia": "Persia lost a fleet: play Artemisia?",
    "n_att_retreat": "Naval battle: retreat or continue",
    "n_def_retreat": "Naval battle: retreat or continue",
    "remove": "Choose the city to remove a Persian army from",
    "remove_fleet": "Choose the port to remove a Persian fleet from",
    "leo_pay": "Leonidas: choose the army that goes on his portrait",
    "syracuse": "Choose a port for the next fleet from Syracuse",
    "tribute": "Choose the city that offers earth and water",
    "molon": "Persia took a tribute: play Molon Labe?",
    "royal_road": "The Royal Road: choose the city (and the armies to place)",
    "hippias": "Hippias: choose the Greek card to discard",
    "defection": "Defection of Thebes: choose where the Greek armies in Thebai go",
    "pacification": "Pacification: discard cards one by one, then done to draw that many plus one",
    "sup_cards": "Supply: discard down to your hand limit, then done",
    "attrit": "Attrition: choose the city that loses an army",
    "auto_discard": "PERS.IA destroyed one of your armies: discard a card",
}


class EarthAndWaterState(AutomatonSteps, Supply, CardEvents, Battles, Movement, Turns,
                         Preparation, State):
    """One position of a two-player game of 300: Earth & Water."""

    def __init__(self, tables: Tables, seed: int, start: bool = True) -> None:
        self._init_fields(tables, seed)
        if start:
            self.start_campaign()
            self.after_action()
            self.opening = self.events[:]   # relayed by the referee via setup_events()

    # -- the agon State interface --------------------------------------------------------------

    def setup_events(self) -> list[Event]:
        return list(self.opening)

    def pending(self) -> list[Decision]:
        if self._pending is None:
            if self.over:
                self._pending = []
            else:
                step = self.step
                legal, prompt, count = ASK[step]
                if count is None:
                    decision = Decision(SIDES[self.actor], prompt, legal(self))
                else:   # a counted prompt is written when read: search bots never read it
                    decision = Decision(SIDES[self.actor], counted_prompt, legal(self),
                                        (step, count(self)))
                self._pending = [decision]
        return self._pending

    def apply(self, seat: str, action: str) -> list[Event]:
        pending = self._pending or self.pending()
        if not pending:
            raise IllegalAction("the game is over")
        decision = pending[0]
        if seat != decision.seat:
            raise IllegalAction(f"it is {decision.seat}'s decision, not {seat}'s")
        if not decision.offers(action):
            raise IllegalAction(f"{action!r} is not legal now ({decision.prompt})")
        self.events = []
        if self.opening:
            self.opening = []
        self._pending = None
        words = self.t.action_words.get(action)
        if words is None:   # split once per action string: the same few come back all game
            words = self.t.action_words[action] = action.split()
        DO[self.step](self, words)
        if self.t.between_actions:
            self.after_action()
        return self.events

    def after_action(self) -> None:
        """Rules that act between decisions: instant victory, an automaton's moves."""
        self.check_instant_victory()
        if self.t.automaton is not None:
            self.t.automaton.run(self)   # plays its side's steps until a seat must decide

    def check_instant_victory(self) -> None:
        """A side wins at once with armies in every enemy major city and the enemy in none
        of them (a city counts once the battle there is over).  Checked after every step
        of a solo game: one loop, no call per side."""
        if self.over:
            return
        arm, majors = self.arm, self.t.majors
        for side in self.t.instant_sides:
            mine, theirs = arm[side], arm[1 - side]
            for city in majors[1 - side]:
                if not mine[city] or theirs[city]:
                    break
            else:   # no enemy major missing
                self.automatic_victory(side)
                return

    def result(self) -> Result | None:
        if not self.over:
            return None
        vp = float(self.vp)
        scores = {"persia": vp, "greece": 0.0 - vp}   # 0.0 - 0.0 is 0.0, not -0.0
        auto = self.t.automaton
        if auto is not None:   # solo: the one seat wins, draws or loses against the rules
            seat = SIDES[1 - auto.side]
            points = 0.5 if self.winner < 0 else 1.0 if self.winner != auto.side else 0.0
            return Result(scores={seat: scores[seat]},
                          ranks={seat: 1 if points else 2}, reason=self.reason,
                          points={seat: points})
        if self.winner < 0:
            ranks = {"persia": 1, "greece": 1}
        else:
            ranks = {SIDES[self.winner]: 1, SIDES[1 - self.winner]: 2}
        return Result(scores=scores, ranks=ranks, reason=self.reason)

    def clone(self) -> EarthAndWaterState:
        other = EarthAndWaterState.__new__(EarthAndWaterState)
        self._copy_into(other)
        return other

    def to_json(self) -> dict[str, Any]:
        return self.fields_json()

    def determinize(self, seat: str, rng: random.Random | int) -> EarthAndWaterState:
        """Deal the cards `seat` cannot see anew and reseed every stream from `rng`.

        The pool is the other hand, the draw pile and the other side's face-down
        discards (never the top of the pile, which is face up).  An open reaction
        window of the other side is kept consistent: it only opens on a card held.
        """
        side = seat_index(SIDES, seat)
        rng = random_source(rng)
        opp = 1 - side
        other = self.clone()
        unseen = set(self.unseen[side])
        top = len(self.discard) - 1
        slots = [i for i, num in enumerate(self.discard) if num in unseen and i != top]
        # While Persia picks a card with Hippias it is looking at the Greek hand.
        shown = self.step == "hippias" and self.actor == side
        hidden_hand = [] if shown else self.hands[opp]
        pool = self.deck + hidden_hand + [self.discard[i] for i in slots]
        count = len(hidden_hand)
        window = (self.step in REACTION_STEPS and self.actor == opp and not self.t.always_prompt
                  and len(LEGAL[self.step](self)) > 1)
        for _ in range(WINDOW_TRIES):
            rng.shuffle(pool)
            other.hands[opp] = pool[:count] if not shown else list(self.hands[opp])
            if not window or len(LEGAL[self.step](other)) > 1:
                break
        for i, num in zip(slots, pool[count:], strict=False):
            other.discard[i] = num
        other.unseen[side] = [other.discard[i] for i in slots]
        if top >= 0 and self.discard[top] in unseen:
            other.unseen[side].append(self.discard[top])
        other.deck = pool[count + len(slots):]
        other.seed = rng.getrandbits(63)
        other.rngs.reseed(rng)
        other.rigged_dice = []
        return other

    def view(self, seat: str) -> dict[str, Any]:
        side = seat_index(SIDES, seat)
        t = self.t
        persia_armies, greece_armies = self.arm[PERSIA], self.arm[GREECE]
        persia_fleets, greece_fleets = self.flt[PERSIA], self.flt[GREECE]
        cities = []
        for c, name in enumerate(t.names):   # `controls` inlined: search bots read many views
            persia, greece = persia_armies[c], greece_armies[c]
            cities.append({
                "name": name,
                "persia_armies": persia, "greece_armies": greece,
                "persia_fleets": persia_fleets[c], "greece_fleets": greece_fleets[c],
                "control": ("persia" if persia else "greece" if greece else
                            SIDES[t.major[c]] if t.major[c] >= 0 else None),
            })
        # a reaction window the other side is in would tell that it holds the card
        secret = self.step in REACTION_STEPS and self.actor != side
        return {
            "seat": seat,
            "campaign": self.campaign,
            "score": self.vp,
            "step": "" if secret else self.step,
            "to_act": None if self.over or secret else SIDES[self.actor],
            "turn": SIDES[self.active],
            "cities": cities,
            "reserve": {s: {"armies": self.res_arm[i], "fleets": self.res_flt[i]}
                        for i, s in enumerate(SIDES)},
            "hand": sorted(self.hands[side]),
            "hand_counts": {s: len(self.hands[i]) for i, s in enumerate(SIDES)},
            "deck_count": len(self.deck),
            "discard_count": len(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            "bridge": self.bridge,
            "carneia": self.carneia,
            "acropolis": self.acropolis,
            "darius_dead": self.darius_dead,
            "xerxes_dead": self.xerxes_dead,
            "used": list(self.once_used),
            "passed": {s: self.passed[i] for i, s in enumerate(SIDES)},
            "talents": self.talents if self.step in ("buy", "build") else None,
        }

    def describe(self, seat: str) -> str:
        return describe_board(self, seat)

    def notes(self, decision: Decision) -> dict[str, str]:
        return action_notes(self, decision.seat, list(decision.legal))


@functools.cache
def counted_prompt(step: str, count: int) -> str:
    """A step's prompt with the count it depends on: talents, hand limit, armies to go."""
    if step in TALENT_STEPS:
        return f"{PROMPTS[step]} ({count_of(count, 'talent')} left)"
    if step == "sup_cards":
        return f"{PROMPTS[step]} (limit {count})"
    return f"{PROMPTS[step]} ({count_of(count, 'army')} to go)"


TALENT_STEPS = frozenset({"buy", "build"})
# steps whose prompt says a number read from the position: step -> that number
PROMPT_COUNTS: dict[str, Callable[[EarthAndWaterState], int]] = {
    "buy": attrgetter("talents"),
    "build": attrgetter("talents"),
    "sup_cards": lambda state: state.t.hand_limit[state.actor],
    "attrit": attrgetter("attr_left"),
}
WINDOW_TRIES = 500   # reshuffles to find a hand that holds the card of an open window
REACTION_STEPS = frozenset({"themistocles", "land_react", "artemisia", "immortals", "molon"})

# step name -> the functions listing its legal actions and applying one of them
LEGAL = {step: getattr(EarthAndWaterState, "legal_" + step) for step in PROMPTS}
DO = {step: getattr(EarthAndWaterState, "do_" + step) for step in PROMPTS}
# step name -> what pending() asks there: its legal actions, its prompt, the count in the prompt
ASK = {step: (LEGAL[step], PROMPTS[step], PROMPT_COUNTS.get(step)) for step in PROMPTS}


def load_state(tables: Tables, data: dict[str, Any]) -> EarthAndWaterState:
    state = EarthAndWaterState.__new__(EarthAndWaterState)
    state.load_fields(tables, data)
    return state
