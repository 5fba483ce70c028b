"""The Python API's bad arguments: a ValueError that says what is allowed, before any game."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import pytest

import agon
from agon.referee.engine import IllegalAction

E_W = "earth-and-water"


@pytest.mark.parametrize("limit, value", [("move_time", math.nan), ("move_time", -1.0),
                                          ("game_time", math.inf), ("game_time", 1e300),
                                          ("move_time", 0)])
def test_a_time_limit_is_a_number_of_seconds_above_0_and_at_most_a_week(limit, value):
    expected = re.escape(f"{limit} takes a number of seconds above 0 (at most 604800), not {value!r}")
    with pytest.raises(ValueError, match=expected):
        agon.play(E_W, ["random", "random"], seed=1, **{limit: value})
    with pytest.raises(ValueError, match=expected):
        agon.tournament(E_W, ["random", "greedy"], games=1, **{limit: value})


def test_a_tournament_too_large_to_plan_is_refused_before_the_plan_is_made():
    with pytest.raises(ValueError, match=re.escape("games=5000001 plans 10,000,002 games")):
        agon.tournament(E_W, ["random", "greedy"], games=5_000_001)


@pytest.fixture(scope="module")
def record() -> dict:
    return agon.play(E_W, ["random", "random"], seed=3).to_json()


@pytest.mark.parametrize("named", [{"id": "../../etc/passwd"}, {"id": "/etc/passwd"},
                                   {"id": "x", "source": "/etc/passwd"}])
def test_replay_reads_the_ruleset_a_record_names_only_by_id_or_in_allowed_folders(
        record, named):
    """A record may come from anyone: its ruleset id is not a path (as in `agon replay`)."""
    with pytest.raises(agon.RulesetError) as caught:
        agon.replay({**record, "ruleset": named})
    assert "passwd" not in str(caught.value)   # never opened, never quoted


def test_replay_of_a_record_file_finds_the_ruleset_beside_it(tmp_path, record):
    (tmp_path / "game.json").write_text(json.dumps(record))
    assert agon.replay(tmp_path / "game.json")["replays"]


@pytest.mark.parametrize("call, message", [
    (lambda: agon.new_game(E_W, seed="x"), "seed is a whole number, not 'x'"),
    (lambda: agon.new_game(E_W, seed=1.5), "seed is a whole number, not 1.5"),
    (lambda: agon.new_game(E_W, players="2"), "players is a whole number, not '2'"),
    (lambda: agon.play(E_W, ["random", "random"], seed="abc"), "seed is a whole number"),
    (lambda: agon.tournament(E_W, ["random", "greedy"], games="2"), "games is a whole number"),
])
def test_counts_and_seeds_are_whole_numbers(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_a_log_dir_that_is_a_file_is_refused(tmp_path):
    taken = tmp_path / "logs"
    taken.write_text("")
    with pytest.raises(ValueError, match="log_dir .* is a file, not a folder"):
        agon.play(E_W, ["random", "random"], seed=1, log_dir=taken)


def test_a_numpy_integer_is_a_whole_number_and_plays_the_same_game():
    """Researchers draw seeds with numpy: np.int64(7) is seed 7, not a refusal."""
    np = pytest.importorskip("numpy")
    assert agon.new_game(E_W, seed=np.int64(7)).to_json() == agon.new_game(E_W, seed=7).to_json()
    assert agon.new_game("ten-thousand", np.int32(3), seed=1).pending()[0].seat == "p3"
    assert agon.play(E_W, ["random", "random"], seed=np.int64(7)).seed == 7
    assert type(agon.play(E_W, ["random", "random"], seed=np.int64(7)).seed) is int  # JSON-ready


def test_new_game_refuses_seed_none_rather_than_playing_a_game_of_seed_none():
    """seed=None used to give one fixed game, unlike play's random seed: it is refused."""
    with pytest.raises(ValueError, match=re.escape("seed is a whole number, not None")):
        agon.new_game(E_W, seed=None)


@pytest.mark.parametrize("call", [lambda: agon.play(E_W, "random", seed=1),
                                  lambda: agon.tournament(E_W, "random", games=1)])
def test_bots_given_as_one_string_are_refused_saying_a_list_or_dict(call):
    with pytest.raises(TypeError, match=r"bots is a list of bots or a dict \{(seat|name): bot\}, "
                                        r"not the string 'random'"):
        call()


def test_a_tournament_refuses_an_in_process_bot_saying_how_to_enter_it():
    class FirstLegal(agon.Bot):
        name = "first-legal"

        def choose(self, decision, view, state=None):
            return decision.legal[0]

    for bots in ({"a": "random", "b": FirstLegal}, ["random", lambda d, v: d.legal[0]]):
        with pytest.raises(TypeError, match="tournament bots are built-in names or command "
                                            "lines .* not .*; make it a program"):
            agon.tournament(E_W, bots, games=1)


def test_a_tournament_takes_a_ruleset_load_ruleset_returned():
    table = agon.tournament(agon.load_ruleset(E_W), ["random", "r2=random"], games=1)
    assert table["games"] == 2


def test_a_tournament_of_no_games_says_games_not_the_command_line_flag():
    with pytest.raises(ValueError, match=re.escape("games must be at least 1, not 0")):
        agon.tournament(E_W, ["random", "greedy"], games=0)


def test_default_seeds_are_ones_no_bot_can_guess_as_in_the_commands(monkeypatch):
    """As `agon play` and `agon tournament` (red-team finding 1): a game's default seed
    has 63 random bits, and a tournament's master seed is drawn at random unless given,
    and shown in its table so that the same games can be played again."""
    import agon.referee.schedule as schedule

    drawn = iter([2**62 + 5, 2**62 + 6])
    monkeypatch.setattr(schedule, "fresh_seed", lambda: next(drawn))
    assert agon.play(E_W, ["random", "random"]).seed == 2**62 + 5
    table = agon.tournament(E_W, ["random", "r2=random"], games=1)
    assert table["seed"] == 2**62 + 6
    again = agon.tournament(E_W, ["random", "r2=random"], games=1, seed=2**62 + 6)
    assert again["bots"] == table["bots"]


def test_replay_takes_a_record_as_json_text_too(record):
    """docs/api.md: replay takes "a file, its JSON, or what play returned"; JSON text
    used to be taken for a file name ('{"format": ...: no such file')."""
    assert agon.replay(json.dumps(record))["replays"]


@pytest.mark.parametrize("given", [5, [1, 2], None])
def test_replay_refuses_what_is_no_record_saying_what_it_takes(given):
    """An int used to be opened as a file descriptor ('5: ... Bad file descriptor')."""
    with pytest.raises(TypeError, match=re.escape(
            "replay takes a record file, its JSON (text or dict) or what play returned, "
            f"not {type(given).__name__}")):
        agon.replay(given)


EVERY_RULESET = [E_W, "earth-and-water-solo", "ten-thousand", "city-states", "epireia",
                 "epireia-solo"]


@pytest.mark.parametrize("ruleset", EVERY_RULESET)
def test_a_seat_the_game_does_not_have_is_named_with_the_seats_it_has(ruleset):
    """A bare 'tuple.index(x): x not in tuple' came out of two engines; Ten Thousand and
    Epireia answered a view of 'sparta' as if it were a seat."""
    state = agon.new_game(ruleset, seed=1)
    for ask in (lambda: state.view("sparta"), lambda: state.determinize("sparta", None),
                lambda: state.describe("sparta")):
        with pytest.raises(ValueError, match=r"unknown seat 'sparta' \(seats: \w+(, \w+)*\)"):
            ask()


@pytest.mark.parametrize("ruleset", EVERY_RULESET)
def test_an_action_after_the_end_is_refused_because_the_game_is_over(ruleset):
    """Epireia said "'pass' is not a legal action for p1 now", as if the game went on."""
    state = agon.new_game(ruleset, seed=1)
    chooser = random.Random(1)
    while decisions := state.pending():
        seat = decisions[0].seat
        state.apply(seat, chooser.choice(decisions[0].legal))
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(seat, "pass")


def test_editing_a_records_json_leaves_the_record_as_it_was():
    record = agon.play(E_W, ["random", "random"], seed=3)
    before = json.dumps(record.to_json(), sort_keys=True)
    edited = record.to_json()
    edited["actions"][0][1] = "edited"
    del edited["actions"][1:]
    edited["seats"]["persia"]["name"] = "edited"
    edited["options"]["cheap_fleets"] = "edited"
    assert json.dumps(record.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("ruleset", EVERY_RULESET)
def test_a_sample_of_the_hidden_cards_takes_a_generator_or_a_whole_number(ruleset):
    """`determinize(seat, 5)` was an AttributeError deep in an engine ('int' object has
    no attribute 'shuffle'): a number seeds the sample, the same number the same one."""
    state = agon.new_game(ruleset, seed=1)
    seat = state.pending()[0].seat
    assert state.determinize(seat, 5).to_json() == state.determinize(seat, 5).to_json() \
        == state.determinize(seat, random.Random(5)).to_json()
    with pytest.raises(TypeError, match="determinize takes a random.Random or a whole "
                                        "number to seed one, not str"):
        state.determinize(seat, "5")


@pytest.mark.parametrize("ruleset", EVERY_RULESET)
def test_a_bot_that_adds_its_answer_to_the_legal_list_forfeits_for_an_illegal_action(ruleset):
    """A function bot's `decision.legal` was the engine's own list: appending its answer
    made it legal, and the engine played it (Earth & Water went on with it, City States
    crashed play() with a KeyError)."""
    def cheat(decision, view):
        decision.legal.append("win now")
        return "win now"

    record = agon.play(ruleset, [cheat] if "solo" in ruleset else [cheat, "random"], seed=2)
    first = next(iter(record.seats))
    assert record.forfeits[first]["reason"] == "illegal"
    assert "'win now' is not a legal action" in record.forfeits[first]["detail"]
    assert all(action != "win now" for _, action in record.actions)


def test_a_bot_that_empties_the_legal_list_still_plays_the_legal_action_it_chose():
    """Emptying `decision.legal` inside choose() emptied the referee's list too: the
    bot forfeited for 'buy_card', a legal action."""
    def tidy(decision, view):
        action = decision.legal[0]
        decision.legal.clear()
        return action

    record = agon.play(E_W, [tidy, "random"], seed=2)
    assert record.forfeits == {}
    assert record.actions[0] == ["persia", "buy_card"]


class _Unprintable:
    def __str__(self):
        raise RuntimeError("no words")

    __repr__ = __str__


class _Touchy(str):
    def __eq__(self, other):
        raise RuntimeError("no comparing")

    __hash__ = str.__hash__


@pytest.mark.parametrize("answer, named", [(_Unprintable(), "a _Unprintable"), (3, "a int")])
def test_a_bot_answering_with_no_action_string_forfeits_and_the_game_goes_on(answer, named):
    """An answer whose __str__ raised escaped play() with the bot's exception."""
    record = agon.play(E_W, [lambda d, v: answer, "random"], seed=2)
    assert record.forfeits["persia"]["reason"] == "illegal"
    assert f"answered {named}, not an action" in record.forfeits["persia"]["detail"]
    assert record.result is not None


def test_a_str_subclass_answer_is_played_as_the_plain_action_it_spells():
    record = agon.play(E_W, [lambda d, v: _Touchy(d.legal[0]), "random"], seed=2)
    assert record.forfeits == {} and record.actions[0] == ["persia", "buy_card"]


def test_a_tournament_on_no_worker_is_refused():
    with pytest.raises(ValueError, match=re.escape("jobs must be at least 1, not 0")):
        agon.tournament(E_W, ["random", "greedy"], games=1, jobs=0)


def test_one_rulesets_folder_given_as_a_string_is_searched_as_that_folder(tmp_path):
    """`rulesets_path="house"` searched the folders 'h', 'o', 'u', 's', 'e' (a string is
    iterable) and said the house ruleset did not exist."""
    shipped = Path(agon.load_ruleset(E_W).source).read_text()
    house = tmp_path / "house"
    house.mkdir()
    (house / "e-and-w-house.yaml").write_text(shipped.replace("id: earth-and-water",
                                                              "id: e-and-w-house", 1))
    for given in (str(house), house, [str(house)]):
        assert agon.load_ruleset("e-and-w-house", rulesets_path=given).id == "e-and-w-house"
    record = agon.play(agon.load_ruleset("e-and-w-house", rulesets_path=[house]),
                       ["random", "random"], seed=4)
    assert agon.replay(record.to_json(), rulesets_path=str(house))["replays"]


@pytest.mark.parametrize("ruleset", EVERY_RULESET)
def test_loading_what_is_no_position_of_the_game_says_so(ruleset):
    """`engine.load(None)`, `load({})` or another game's position was a KeyError ('seed',
    'g') or an AttributeError ('NoneType' object has no attribute 'get') in the engine."""
    from agon.referee.games import engine_class

    rs = agon.load_ruleset(ruleset)
    engine = engine_class(rs.engine)(rs)
    state = agon.new_game(ruleset, seed=1)
    assert engine.load(json.loads(json.dumps(state.to_json()))).pending() == state.pending()
    other = "ten-thousand" if rs.engine != "ten-thousand" else "epireia"
    for given in (None, "x", {}, agon.new_game(other, seed=1).to_json()):
        with pytest.raises(ValueError, match=f"not a position of {ruleset} "):
            engine.load(given)


@pytest.mark.parametrize("ruleset", EVERY_RULESET)
def test_editing_a_decisions_legal_list_leaves_what_is_legal_as_it_was(ruleset):
    """`pending()[0].legal` was the list the engine checked actions against: an action
    appended to it was played (Ten Thousand then said the game was over, City States
    raised a KeyError), one removed from it was refused though legal."""
    state = agon.new_game(ruleset, seed=1)
    decision = state.pending()[0]
    first = decision.legal[0]
    decision.legal.append("win now")
    decision.legal.remove(first)
    with pytest.raises(IllegalAction, match="'win now' is not"):
        state.apply(decision.seat, "win now")
    assert state.pending()
    state.apply(decision.seat, first)
