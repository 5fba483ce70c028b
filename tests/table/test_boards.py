"""Boards that explain themselves: what a person at the table reads.

The board (`State.describe`), the notes beside the numbered actions
(`State.notes`) and the prompts of every game name things in words: never a
bare Python None, costs and rewards beside the actions that spend or earn
them, this turn's terrain and weather in Ten Thousand, the solo game's
objectives and enemy in Epireia.  And at the table, `back` works inside the
compound moves of every game and `hand` reads every game's cards.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator

import pytest

from agon.bots.random import RandomBot
from agon.referee.engine import Decision, State
from agon.referee.games import engine_class
from agon.referee.human import HumanPlayer
from agon.referee.lookup import find_card
from agon.referee.match import Match
from agon.referee.players import InProcessPlayer
from agon.referee.ruleset import load_ruleset, shipped_rulesets

SHIPPED = [path.stem for path in shipped_rulesets()]
NONE = re.compile(r"\bNone\b")
PYTHON = re.compile(r"[{[]'")
PLIES = 700   # per game scanned: City States' boards are long, and its games longer


def configurations() -> Iterator[tuple[str, int, dict[str, str]]]:
    """Every shipped ruleset at its fewest and most players; every solo scenario."""
    for ruleset_id in SHIPPED:
        ruleset = load_ruleset(ruleset_id)
        for players in sorted({int(ruleset.players["min"]), int(ruleset.players["max"])}):
            yield ruleset_id, players, {}
        scenario = ruleset.options.get("scenario")
        for choice in (scenario or {}).get("choices", [])[1:]:
            yield ruleset_id, 1, {"scenario": choice}


def new_game(ruleset_id: str, players: int, seed: int, options: dict | None = None) -> State:
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    return engine.new_game(engine.seats(players), seed, options or {})


def seats_of(ruleset_id: str, players: int) -> list[str]:
    ruleset = load_ruleset(ruleset_id)
    return engine_class(ruleset.engine)(ruleset).seats(players)


def random_plies(state: State, seed: int, plies: int = PLIES) -> Iterator[State]:
    """`state` before each of up to `plies` random actions, and at the end."""
    chooser = random.Random(seed)
    for _ in range(plies):
        yield state
        pending = state.pending()
        if not pending:
            return
        decision = pending[0]
        state.apply(decision.seat, chooser.choice(list(decision.legal)))
    yield state


@pytest.mark.parametrize("ruleset_id,players,options",
                         list(configurations()), ids=lambda v: str(v) if v != {} else "")
def test_no_bare_none_on_any_board_menu_or_prompt(ruleset_id, players, options):
    prompts: set[str] = set()
    shown: set[str] = set()    # board lines and menu notes
    for seed in (1, 2):
        state = new_game(ruleset_id, players, seed, options)
        seats = seats_of(ruleset_id, players)
        for st in random_plies(state, seed):
            for decision in st.pending():
                prompts.add(decision.prompt)
                shown.update(f"{a}: {note}" for a, note in st.notes(decision).items())
            for seat in seats:
                shown.update(st.describe(seat).splitlines())
    bare = sorted(line for line in prompts | shown if NONE.search(line))
    assert not bare, f"{len(bare)} lines say None, e.g. {bare[:3]}"
    # nor a Python dict or list written as it is stored
    raw = sorted(line for line in prompts | shown if PYTHON.search(line))
    assert not raw, f"{len(raw)} lines show Python values, e.g. {raw[:3]}"


# -- Epireia ------------------------------------------------------------------------------

def play_until(state: State, wanted, seed: int = 1, plies: int = 3000):
    """The first decision `wanted(state, decision)` accepts in a random game."""
    for st in random_plies(state, seed, plies):
        for decision in st.pending():
            if wanted(st, decision):
                return st, decision
    raise AssertionError("no such decision in the game")


def test_the_starting_figure_menu_gives_attack_sea_and_ability():
    state, decision = play_until(new_game("epireia", 3, 2),
                                 lambda st, d: d.legal[0].startswith("figure "))
    notes = state.notes(decision)
    for action in decision.legal:
        spec = state.t.figures[action.split()[1]]
        note = notes[action]
        assert note.startswith(f"Attack {spec['attack']}"), note
        assert ("sea" in note.split(".")[0]) == bool(spec["sea"]), note
        if spec.get("ability"):          # the ability in words, not only the numbers
            assert len(note.split(". ", 1)) == 2 and "no ability" not in note, note


@pytest.mark.parametrize("options, persian_fleet", [({}, 2), ({"cheap_fleets": True}, 1)])
def test_earth_and_water_raising_menu_gives_each_cost_and_the_talents_it_takes(options,
                                                                              persian_fleet):
    """5.1, 5.2: a fleet costs Persia 2 talents (1 with cheap fleets), Greece 1."""
    for seat, fleet in (("persia", persian_fleet), ("greece", 1)):
        state, decision = play_until(
            new_game("earth-and-water", 2, 3, options),
            lambda st, d, seat=seat: d.seat == seat and any(a.startswith("raise_fleet")
                                                            for a in d.legal))
        notes = state.notes(decision)
        fleet_action = next(a for a in decision.legal if a.startswith("raise_fleet"))
        army_action = next(a for a in decision.legal if a.startswith("raise_army"))
        assert notes[army_action] == "costs 1 talent"
        assert notes[fleet_action] == f"costs {fleet} talent{'s' if fleet > 1 else ''}"
        before = state.talents
        state.apply(seat, fleet_action)
        assert before - state.talents == fleet   # the note is what is paid


def test_city_states_home_menu_says_what_each_home_starts_with():
    """3: a home on the coast starts with armies, rowers and fleets, an inland one with
    armies only; the choice is made before anything else is rolled."""
    state = new_game("city-states", 2, 1)
    decision = state.pending()[0]
    notes = state.notes(decision)
    kinds = {notes[action].split(":")[0] for action in decision.legal}
    assert kinds == {"on the coast", "inland"}
    for action in decision.legal:
        city = state.t.index[action.split()[1]]
        units = state.t.coastal_units if state.t.coastal[city] else state.t.landlocked_units
        assert f"{units['army']} armies" in notes[action]
        assert ("fleets" in notes[action]) == bool(units.get("fleet")), notes[action]


@pytest.mark.parametrize("choice", ["spare", "plunder", "raze"])
def test_city_states_taking_a_city_names_it_and_says_what_each_choice_leaves(choice):
    """9.8: plundering leaves 3 razed markers, destroying 6, sparing none; the note is
    what the city then carries."""
    state, decision = play_until(new_game("city-states", 2, 1),
                                 lambda st, d: st.step == "plunder", plies=20000)
    taken = state.p_city
    assert decision.prompt.endswith(f"({state.t.names[taken]})")
    note = state.notes(decision)[choice]
    state.apply(decision.seat, choice)
    markers = state.razed[taken]
    said = f"{markers} razed markers" if markers else "no razed marker"
    assert said in note, note
    assert ("D6 gold" in note) == (choice != "spare")


def test_ten_thousand_roll_window_says_what_the_roll_gives_if_everyone_passes():
    """A player deciding whether to play a card on a roll sees what it gives as it stands
    (the prompt said only the total): the note is what then happens, for every kind of
    table (a row, an attack, men lost, spaces marched)."""
    kinds: set[str] = set()
    for seed in range(1, 40):
        state, chooser = new_game("ten-thousand", 3, seed), random.Random(seed)
        while (decisions := state.pending()) and len(kinds) < 4:
            decision = decisions[0]
            outcome = state.rules.tables[state.window.table].outcome if state.window else ""
            if outcome and outcome not in kinds and "pass" in decision.legal:
                kinds.add(outcome)
                note = state.notes(decision)["pass"]
                assert note.startswith("as it stands: "), note
                told = note.removeprefix("as it stands: ").removeprefix(
                    f"{state.window.roller} ")
                after, texts = state.clone(), []
                while after.window is not None:
                    texts += [e.text for e in after.apply(after.pending()[0].seat, "pass")]
                assert told in texts[0], (outcome, note, texts[0])
            state.apply(decision.seat, chooser.choice(decision.legal))
    assert kinds == {"rows", "attack", "loss", "move"}


def test_ten_thousand_optional_roll_says_what_it_does_and_costs():
    """'Forage this turn?' came with no word of what foraging gives or costs (Travel)."""
    state, decision = play_until(new_game("ten-thousand", 1, 1),
                                 lambda st, d: d.legal == ["forage", "skip"])
    note = state.notes(decision)["forage"]
    section = next(s for s in load_ruleset("ten-thousand").rules if s["id"] == "phase-forage")
    assert note == " ".join(section["text"].split())
    assert "Travel" in note and "Food" in note


def amounts_said(counts: dict[str, int]) -> list[str]:
    return [f"{n} {resource}" for resource, n in counts.items() if n]


def test_development_menu_gives_costs_and_diplomacy_menu_thresholds_rewards_and_taxes():
    state, decision = play_until(new_game("epireia", 2, 1),
                                 lambda st, d: any(a.startswith("build ") for a in d.legal))
    notes = state.notes(decision)
    for action in (a for a in decision.legal if a.startswith("build ")):
        cost = state.t.buildings[action.split()[1]]["cost"]
        assert notes[action].startswith("costs "), notes[action]
        assert all(part in notes[action] for part in amounts_said(cost)), notes[action]
    state, decision = play_until(new_game("epireia", 2, 1),
                                 lambda st, d: any(a.startswith("to ") for a in d.legal))
    notes = state.notes(decision)
    for action in (a for a in decision.legal if a.startswith("to ")):
        place = action.split()[1]
        if place in state.t.territories:
            tax = state.t.territories[place]["tax"]
            assert all(part in notes[action] for part in amounts_said(tax)), notes[action]
        elif place in state.t.empires:
            assert re.search(r"roll \d+\+ alone, \d+\+ if both", notes[action]), notes[action]
            reward = state.t.empires[place]["reward"]
            resources = {r: n for r, n in reward.items() if r in state.t.resources}
            assert all(part in notes[action] for part in amounts_said(resources))


def test_the_solo_board_shows_objectives_the_augur_card_and_the_enemy_army():
    state, _ = play_until(new_game("epireia-solo", 1, 3, {"scenario": "S2"}),
                          lambda st, d: st.view("p1")["solo"]["augur"])
    board = state.describe("p1")
    solo = state.view("p1")["solo"]
    number = solo["augur"]
    augur = state.t.augurs[number]
    text = " ".join(state.t.rule_text[f"augur-{number}"].split())
    assert f"Augur card {number}, {augur['name']}: {text}" in board
    assert "Objectives at the end:" in board
    assert "Prestige 10 (now " in board          # S2: reach Prestige 10
    assert "religious buildings 3 (now " in board   # and three religious buildings
    army = next(line for line in board.splitlines() if "Enemy army" in line)
    assert all(front["id"] in army for front in state.t.fronts)
    assert "p1 None" not in board and "augur None" not in board


# -- Ten Thousand --------------------------------------------------------------------------

def test_ten_thousand_names_this_turns_terrain_and_weather_and_explains_its_codes():
    state, decision = play_until(new_game("ten-thousand", 2, 2),
                                 lambda st, d: st.turn and {"route", "weather"} <= set(st.turn.rows))
    board = state.describe(decision.seat)
    route = state.rules.tables["route"].rows[state.turn.rows["route"]]["result"]
    weather = state.rules.tables["weather"].rows[state.turn.rows["weather"]]["result"]
    assert f"terrain: {route}" in board and f"weather: {weather}" in board
    assert not re.search(r"\b(FT|ST|MT|AT)\b", board)    # tokens in full words
    assert re.search(r"\d+ food, \d+ starvation, \d+ mutiny, \d+ anger", board)
    codes = next(line for line in board.splitlines() if line.startswith("Codes: "))
    hand = state.view(decision.seat)["hand"]
    for code in {c for card in hand for c in re.findall(r"\b[A-Z]{2}\b", card["text"])}:
        assert f"{code} {state.rules.roll_names[code]}" in codes


# -- at the table: back and hand in every game --------------------------------------------

class Typist:
    """Types `1`, then `back` every third prompt, then quits after `prompts` prompts."""

    def __init__(self, prompts: int = 120) -> None:
        self.prompts, self.typed = prompts, 0

    def readline(self) -> str:
        self.typed += 1
        if self.typed > self.prompts:   # quit, and confirm
            return "quit\n" if self.typed == self.prompts + 1 else "y\n"
        return "back\n" if self.typed % 3 == 2 else "1\n"


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_back_takes_back_a_choice_inside_a_move_in_every_game(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    seats = engine.seats(min(2, int(ruleset.players["max"])))
    shown = io.StringIO()
    person = HumanPlayer(stdin=Typist(), stdout=shown, ruleset=ruleset)

    def remake(seat: str) -> InProcessPlayer:
        return InProcessPlayer(RandomBot(7))

    players = {seat: person if seat == seats[0] else remake(seat) for seat in seats}
    record = Match(engine, players, seed=5, options={}, remake=remake).run()
    out = shown.getvalue()
    taken = re.findall(rf"Taking back 1 move\(s\): {seats[0]} (.+)", out)
    assert len(taken) >= 5, out[-2000:]
    refusals = re.findall(r"Cannot back: (.+)", out)
    allowed = ("moved after your last choice", "no take-back across a revealed secret",
               "you have not moved yet")
    assert all(any(reason in line for reason in allowed) for line in refusals), refusals
    assert record.result is not None


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_hand_shows_the_text_of_every_card_held_in_every_game(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    players = min(2, int(ruleset.players["max"]))
    state = new_game(ruleset_id, players, 4)
    seat = state.pending()[0].seat
    hand = []
    for st in random_plies(state, 4, 3000):
        hand = st.view(seat).get("hand") or []
        if len(hand) >= 2 or not st.pending():
            break
    shown = io.StringIO()
    person = HumanPlayer(stdin=io.StringIO("hand\n1\n"), stdout=shown, ruleset=ruleset)
    person.choose(1, Decision(seat, "Your move", ["pass"]), state.view(seat), {}, 10)
    out = shown.getvalue()
    if "hand" not in state.view(seat):
        assert "You hold no cards in this game." in out
        return
    assert hand, f"{seat} never held two cards"
    assert f"Your hand ({len(hand)}):" in out
    for entry in hand:
        number = entry["number"] if isinstance(entry, dict) else entry
        if isinstance(number, str):   # City States: a card id, numbered in data.cards
            number = next(c["number"] for c in ruleset.data["cards"] if c["id"] == number)
        card = find_card(ruleset.rules, number)
        assert card is not None
        assert f"#{number} {card['title']}" in out
        assert " ".join(card["text"].split()[:5]) in " ".join(out.split())


def card_number(ruleset, word: str) -> int | None:
    """The card an action's second word names: a number, or a City States card id."""
    if word.isdigit():
        return int(word)
    return next((c["number"] for c in ruleset.data.get("cards") or []
                 if isinstance(c, dict) and c.get("id") == word), None)


@pytest.mark.parametrize("ruleset_id", [r for r in SHIPPED if not r.startswith("epireia")])
def test_the_menu_says_what_each_card_played_does(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    players = min(2, int(ruleset.players["max"]))
    state, decision = play_until(new_game(ruleset_id, players, 3),
                                 lambda st, d: any(a.startswith("play ") for a in d.legal))
    notes = state.notes(decision)
    for action in (a for a in decision.legal if a.startswith("play ")):
        card = find_card(ruleset.rules, card_number(ruleset, action.split()[1]))
        assert card is not None, action
        name, _, effect = notes[action].partition(": ")
        name = name.removesuffix(", played for one movement instead of its event")
        assert name and name in card["title"], (action, notes[action])
        assert effect or action.endswith(" move"), (action, notes[action])
