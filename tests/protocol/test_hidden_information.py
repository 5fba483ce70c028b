"""Nothing a seat may not see reaches its bot: transcripts of a real game, scanned.

Earth & Water hides each side's hand. Every card is renamed to a unique
marker (the ruleset is data, so only the names change); then, at the moment
each line is sent to one side's program, the markers of the cards the other
side holds must not be in it, nor the other side's hand as a list.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import sys
from pathlib import Path

import pytest

import agon.bots.examples
from agon.referee.games import engine_class
from agon.referee.match import run_match
from agon.referee.players import Limits, SubprocessPlayer
from agon.referee.ruleset import load_ruleset

# the docs' example reads every view and event (bots.random skips both)
LISTENING_BOT = [sys.executable, str(Path(agon.bots.examples.__file__).parent / "minimal_bot.py"),
                 "--seed"]


def marked_ruleset():
    ruleset = load_ruleset("earth-and-water")
    data = copy.deepcopy(ruleset.data)
    for card in data["cards"]:
        for side in ("greece", "persia"):
            card[side]["name"] = f"CARD{card['number']:02d}{side[0].upper()}"
    return dataclasses.replace(ruleset, data=data)


class Watched(SubprocessPlayer):
    """A program whose every outgoing line is checked against the live game."""

    def __init__(self, seat: str, other: str, game: dict, log_dir: Path) -> None:
        super().__init__([*LISTENING_BOT, str(len(seat))], log_dir=log_dir, transcript=True)
        self.seat, self.other, self.game = seat, other, game
        self.lines_checked = 0
        self.secrets_seen = 0
        note = self.lines.sent   # every line sent is noted: checked there too

        def note_and_check(line: bytes) -> None:
            note(line)
            self.check(line)

        self.lines.sent = note_and_check  # type: ignore[method-assign]

    def check(self, line: bytes) -> None:
        state = self.game.get("state")
        if state is None:
            return
        hidden = list(state.view(self.other)["hand"])  # what the other side holds now
        text = line.decode()
        for number in hidden:
            for side in "GP":
                assert f"CARD{number:02d}{side}" not in text, (self.seat, number, text[:200])
        if len(hidden) >= 2:
            assert json.dumps(hidden, separators=(",", ":")) not in text, (self.seat, hidden)
        self.lines_checked += 1
        self.secrets_seen += bool(hidden)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_neither_side_ever_sees_the_other_sides_hand(tmp_path, seed, sandbox_mode):
    ruleset = marked_ruleset()
    engine = engine_class(ruleset.engine)(ruleset)
    game: dict = {}
    new_game = engine.new_game

    def remembering_new_game(*args, **kwargs):
        game["state"] = new_game(*args, **kwargs)
        return game["state"]

    engine.new_game = remembering_new_game
    players = {"persia": Watched("persia", "greece", game, tmp_path),
               "greece": Watched("greece", "persia", game, tmp_path)}
    record = run_match(engine, players, seed=seed, options=ruleset.resolve_options({}),
                       limits=Limits(handshake=5, move=5, game=60))
    assert record.forfeits == {}
    for player in players.values():
        assert player.secrets_seen > 5  # the other side did hold cards while we watched
    # the markers are not vacuous: a side's own draws name its cards to it
    transcripts = [(tmp_path / f"{seat}.transcript").read_text() for seat in players]
    assert any(re.search(r"> event .*draws \d+ CARD\d\d", text) for text in transcripts)
