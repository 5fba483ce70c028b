"""docs/api.md's PettingZoo example runs, and does what the page says."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def pettingzoo_examples() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    part = text.split("\n## PettingZoo", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", part, re.S)


def test_the_pettingzoo_example_plays_a_game_to_the_end(capsys):
    examples = pettingzoo_examples()
    assert examples, "docs/api.md has no Python example under ## PettingZoo"
    scope: dict = {}
    exec(compile(examples[0], str(PAGE), "exec"), scope)
    rewards = scope["rewards"]
    assert set(rewards) == {"persia", "greece"}
    assert sorted(rewards.values()) in ([0.0, 1.0], [0.5, 0.5])   # one side wins, or a draw
    assert str(rewards) in capsys.readouterr().out


def test_the_trained_agent_example_plays_a_built_in_bot_without_a_forfeit(capsys):
    examples = pettingzoo_examples()
    assert len(examples) >= 2, "docs/api.md lost its example of a trained agent in agon.play"
    scope: dict = {}
    exec(compile(examples[1], str(PAGE), "exec"), scope)
    record = scope["record"]
    assert record.forfeits == {} and set(record.result.points) == {"persia", "greece"}
    assert str(record.result.points) in capsys.readouterr().out
