"""The board in words for a person at a terminal (`describe`), and what the menu
says beside each action (`notes`).

Tokens are written out in full (food, starvation, mutiny, anger); the roll
codes that cards use (TR, BR ...) are explained in a legend under the hand;
this turn's terrain (the Route roll) and weather, and every other roll made
this turn, are named with their effects.  All of it is public or the seat's
own: the rolls are made in the open, the hand is the seat's.
"""

from __future__ import annotations

import re
from typing import Any

from ...engine import Decision
from .army import Window, modified_total
from .position import Position
from .rules import GameRules, Table

CODE = re.compile(r"\b[A-Z]{2}\b")


def describe(state: Position, seat: str, view: dict[str, Any]) -> str:
    rules = state.rules
    lines = [headline(rules, view)]
    if state.turn and state.turn.rows:
        lines.append(f"This turn ({state.turn.seat}): " + this_turn(state))
    for s, a in view["armies"].items():
        t = a["tokens"]
        where = (f"arrived on turn {a['arrived']}" if a["arrived"] else
                 "destroyed" if a["destroyed"] else f"space {a['space']}")
        tokens = ", ".join(f"{t[token]} {token}" for token in rules.token_codes)
        leader = state.rules.leader_by_id[a["leader"]].name if a["leader"] else "no leader yet"
        lines.append(f"  {s} ({leader}): {a['men']} men, {where}; {tokens}; {a['hand']} cards")
    window = view["window"]
    if window:
        mods = "".join(f", {label} {value:+d}" for label, value in window["modifiers"])
        dice = " + ".join(map(str, window["dice"]))
        lines.append(f"  {window['roller']}'s {rules.roll_names[window['roll']]}: dice {dice}"
                     f"{mods} = {window['total']}")
    hand = ", ".join(f"{c['number']} {c['name']} ({c['text']})" for c in view["hand"])
    lines.append(f"Your hand: {hand or 'empty'}")
    legend = legend_for(rules, [c["text"] for c in view["hand"]]
                        + ([window["roll"]] if window else []))
    if legend:
        lines.append(f"Codes: {legend}")
    return "\n".join(lines)


def headline(rules: GameRules, view: dict[str, Any]) -> str:
    if not view["current"]:
        return f"Time Track space {view['round']}"
    phase = next(p["name"] for p in rules.phases if p["id"] == view["phase"])
    return f"Time Track space {view['round']}: {view['current']}'s turn, {phase}"


def this_turn(state: Position) -> str:
    """Each roll made this turn with its result and the columns it sets (terrain, weather)."""
    rules, turn = state.rules, state.turn
    assert turn is not None
    said = []
    for table_id, index in turn.rows.items():
        table = rules.tables[table_id]
        row = table.rows[index]
        columns = ", ".join(f"{name} {value:+d}" for name, value in row.get("columns", {}).items()
                            if value)
        said.append(f"{table.label or rules.roll_names[table.roll]}: {row['result']}"
                    + (f" ({columns})" if columns else ""))
    for flag in turn.flags:   # what last turn left for this one
        if flag in rules.carried_from:
            label, result = rules.carried_from[flag]
            said.append(f"last turn's {label} was {result}")
    return "; ".join(said)


def legend_for(rules: GameRules, texts: list[str]) -> str:
    """`BR Battle Roll, FT food token ...` for every code the texts use."""
    names = {**rules.roll_names, **{code: f"{token} token"
                                    for token, code in rules.token_codes.items()}}
    used = sorted({code for text in texts for code in CODE.findall(text) if code in names})
    return ", ".join(f"{code} {names[code]}" for code in used)


def notes(state: Position, decision: Decision) -> dict[str, str]:
    """A card's name and printed text beside `play N ...`; a leader's power beside `leader ...`;
    beside `pass` in a roll's window, what the roll gives as it stands; beside an optional
    roll, its phase's rule."""
    rules, out = state.rules, {}
    if state.window is not None and "pass" in decision.legal:
        out["pass"] = f"as it stands: {standing_outcome(state, state.window)}"
    if state.step == "choose":   # an optional roll (forage): its phase's rule
        out.update({tid: rules.phase_texts[tid] for tid in decision.legal
                    if tid in rules.phase_texts})
    leader_texts = rules.leader_texts
    for action in decision.legal:
        words = action.split()
        if words[0] == "play" and len(words) > 1 and words[1].isdigit():
            card = rules.cards.get(int(words[1]))
            if card:
                out[action] = f"{card.name}: {card.text}"
        elif words[0] == "leader" and len(words) == 2:
            # choosing a leader (`leader menon`), or using yours on a roll (`leader reroll`)
            leader = words[1] if words[1] in leader_texts else \
                state.armies[decision.seat].leader
            if leader in leader_texts:
                out[action] = leader_texts[leader]
    return out


def standing_outcome(state: Position, window: Window) -> str:
    """What the roll in `window` gives if nobody changes it: its table's row, an attack's
    hit or miss, the men lost or the spaces marched (as `rolls.settle` applies it)."""
    table: Table = state.rules.tables[window.table]
    total = modified_total(window.dice, window.mods)
    if table.outcome == "rows":
        return table.rows[table.scan_row(total)]["result"]
    if table.outcome == "attack":
        hit = table.hits(state.armies[window.roller].tokens[table.only_token], total)
        effect = table.hit_effect if hit else table.miss_effect
        return effect.result if effect is not None else ""
    if table.outcome == "loss":
        return f"{window.roller} loses {max(0, total) * table.men_per_point} men"
    return f"{window.roller} marches {max(0, total)} spaces"
