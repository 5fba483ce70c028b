"""Questions in the middle of a resolution task (reroll? which territory to give
up? pay the upkeep?).  The task is rolled back, the question is asked, and the
task is replayed from its start with the same recorded dice and the answers
given so far, so every task stays one short, deterministic function."""

from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import Any

from . import registry
from .position import Position

# not rolled back when a task stops for a question: what the replay needs, and what no
# task ever changes (so need not be copied)
KEPT = frozenset({"task_dice", "task_answers", "tasks", "seats", "seed", "options",
                  "scenario_draws", "order"})


class Ask(Exception):
    """Raised inside a task when a seat must answer before the task can finish."""

    def __init__(self, item: dict[str, Any]) -> None:
        super().__init__(item["seat"])
        self.item = item


def run_task(st: Position, task: Callable[[], None], may_ask: bool) -> bool:
    """Run a task; False when it stopped for a question (and was rolled back)."""
    st.dice_i = st.answer_i = 0
    # the snapshot stays serialised: it is read back only if the task asks (seldom)
    snapshot = marshal.dumps({k: v for k, v in st.g.items() if k not in KEPT}) if may_ask else None
    mark = len(st.events)
    try:
        task()
    except Ask as question:
        assert snapshot is not None, "a task asked a question it did not announce"
        st.g.update(marshal.loads(snapshot))
        del st.events[mark:]
        st.push(question.item)
        return False
    st.g["task_dice"], st.g["task_answers"] = [], []
    return True


def die(st: Position, stream: str) -> int:
    """The task's next d12, recorded so a replay sees the same number."""
    index = st.dice_i
    st.dice_i += 1
    recorded = st.g["task_dice"]
    if index >= len(recorded):
        recorded.append(st.roll(stream))
    return recorded[index]


def ask(st: Position, seat: str, prompt: str, legal: list[str]) -> str:
    """The seat's answer, asked once and remembered for the replay."""
    index = st.answer_i
    st.answer_i += 1
    answers = st.g["task_answers"]
    if index >= len(answers):
        raise Ask({"kind": "question", "seat": seat, "prompt": prompt, "legal": legal})
    return answers[index]


def answer(st: Position, item: dict[str, Any], action: str) -> None:
    st.g["queue"].pop(0)
    st.g["task_answers"].append(action)


registry.interrupt("question", lambda st, item: item["prompt"], lambda st, item: item["legal"], answer)
