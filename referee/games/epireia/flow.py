"""Turn sequencing: start of turn, phase changes, end of turn."""

from __future__ import annotations

from . import registry
from .battle import start_battle
from .position import Position
from .scenarios import draw_next_act
from .setup import league_order
from .solo import reveal_augur, solo_turn_end


def turn_start(st: Position) -> bool:
    g = st.g
    g["turn"] += 1
    st.emit("turn", "Turn {} begins", {"turn": g["turn"]}, args=(g["turn"],))
    scenario = g["scenario"]
    if not g["solo"] and (scenario is None or (scenario["done"] and scenario["act"] < 3)):
        draw_next_act(st)
    actions = st.t.actions_per_turn
    if g["solo"]:
        reveal_augur(st)
        actions = st.augur_effect().get("actions", actions)
    for p in g["players"].values():
        p["actions"] = actions
        p["reroll_used"] = False
    g["step"] = "develop"
    g["order"] = league_order(st, st.t.data["development_order"])
    g["idx"] = 0
    return True


def turn_end(st: Position) -> bool:
    g = st.g
    if g["solo"]:
        solo_turn_end(st)
        return True
    cap = g["options"].get("max_turns") or 20
    if g["battle_after_turn"] or g["turn"] >= cap:
        why = "Act III is complete" if g["battle_after_turn"] else f"turn {g['turn']} is the last"
        st.emit("battle", f"{why}: the great battle begins", {})
        start_battle(st)
    else:
        g["step"] = "turn-start"
    return True


registry.step("turn-start", settle=turn_start)
registry.step("turn-end", settle=turn_end)
