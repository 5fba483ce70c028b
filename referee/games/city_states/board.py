"""The text board a terminal player sees before each decision (`State.describe`)."""

from __future__ import annotations

import json
from typing import Any


def describe_board(state: Any, seat: str) -> str:
    return json.dumps(state.view(seat), indent=1)
