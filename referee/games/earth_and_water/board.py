"""The text board a terminal player sees before each decision (`State.describe`).

Built only from `view(seat)` plus the names of the seat's own cards and of the
face-up discard, so it shows exactly what that seat may know.
"""

from __future__ import annotations

from typing import Any

from .core import count_of
from .tables import GREECE, PERSIA, SIDES

PHASES = {"buy": "preparation", "build": "preparation", "sd_sacrifice": "preparation",
          "sup_cards": "supply", "attrit": "supply", "": "game over"}
MAJOR_MARK = ("P", "G")


def pieces(armies: int, fleets: int) -> str:
    parts = [count_of(n, word) for n, word in ((armies, "army"), (fleets, "fleet")) if n]
    return ", ".join(parts) or "."


def city_rows(state: Any, view: dict[str, Any]) -> list[str]:
    t = state.t
    rows = [f"  {'City':<14}{'Control':<9}{'Persia':<21}Greece"]
    for c, city in enumerate(view["cities"]):
        mark = (MAJOR_MARK[t.major[c]] if t.major[c] >= 0 else " ") + ("~" if t.port[c] else " ")
        owner = (city["control"] or ".").capitalize()
        rows.append(f"  {city['name']:<10} {mark} {owner:<8} "
                    f"{pieces(city['persia_armies'], city['persia_fleets']):<20} "
                    f"{pieces(city['greece_armies'], city['greece_fleets'])}".rstrip())
    rows.append("  (P / G: Persian / Greek major city, worth 2; ~: port)")
    return rows


def headline(state: Any, view: dict[str, Any]) -> str:
    t = state.t
    phase = PHASES.get(view["step"], "operations")
    parts = [f"Campaign {view['campaign']} of {t.campaigns} ({phase})",
             f"score {state.score_text()}",
             f"bridge {'built' if view['bridge'] else 'down'}"]
    if view["carneia"]:
        parts.append("Carneia: Sparta's cards blocked")
    if view["acropolis"]:
        parts.append("Acropolis burnt")
    return " | ".join(parts)


def status_lines(state: Any, seat: str, view: dict[str, Any]) -> list[str]:
    t = state.t
    side = SIDES.index(seat)
    other = 1 - side
    auto = t.automaton
    other_name = auto.name if auto is not None and auto.side == other else SIDES[other].capitalize()
    hand = ", ".join(state.card_name(side, n) for n in view["hand"]) or "none"
    top = view["discard_top"]
    persia_points, greece_points = state.city_points()
    lines = [
        f"Cities held now score Persia {persia_points}, Greece {greece_points}",
        f"Your hand ({len(view['hand'])}): {hand}",
        f"{other_name} holds {count_of(view['hand_counts'][SIDES[other]], 'card')}; draw pile "
        f"{view['deck_count']}, discard pile {view['discard_count']}"
        + (f" (face up: {top} {t.cards[top][PERSIA].name} / {t.cards[top][GREECE].name})"
           if top else ""),
    ]
    res = view["reserve"]
    mine = res[seat]
    reserve = f"Your reserve: {count_of(mine['armies'], 'army')}, {count_of(mine['fleets'], 'fleet')}"
    if auto is None:
        theirs = res[SIDES[other]]
        reserve += (f"; {SIDES[other].capitalize()}'s: {count_of(theirs['armies'], 'army')}, "
                    f"{count_of(theirs['fleets'], 'fleet')}")
    lines.append(reserve)
    notes = []
    if view["used"]:
        notes.append("used once-only cards: " + ", ".join(sorted(view["used"])))
    if phase_is_operations(view):
        passed = [name for name, did in view["passed"].items() if did]
        if auto is not None and state.auto_out:
            notes.append(f"{auto.name} sits out the rest of this phase")
        elif passed:
            notes.append("passed last turn: " + ", ".join(p.capitalize() for p in passed))
    if notes:
        text = "; ".join(notes)
        lines.append(text[0].upper() + text[1:])
    return lines


def phase_is_operations(view: dict[str, Any]) -> bool:
    return PHASES.get(view["step"], "operations") == "operations"


def describe_board(state: Any, seat: str) -> str:
    view = state.view(seat)
    lines = [headline(state, view)]
    lines += city_rows(state, view)
    lines += status_lines(state, seat, view)
    return "\n".join(lines)


def action_notes(state: Any, seat: str, legal: list[str]) -> dict[str, str]:
    """Beside each card action, the card's name and, for an event, what it does; beside
    each raising action, its cost (the prompt gives only the talents left)."""
    side = SIDES.index(seat)
    costs = raising_costs(state, side)
    out = {}
    for action in legal:
        words = action.split()
        if words[0] in costs:
            out[action] = costs[words[0]]
            continue
        if words[0] not in ("play", "discard") or len(words) < 2 or not words[1].isdigit():
            continue
        number = int(words[1])
        if number not in state.t.cards:
            continue
        half = state.t.cards[number][side]
        if words[-1] == "move":
            out[action] = f"{half.name}, played for one movement instead of its event"
        else:
            out[action] = f"{half.name}: {half.text}" if half.text else half.name
    return out


def raising_costs(state: Any, side: int) -> dict[str, str]:
    """What each raising verb costs `side`, from the ruleset's tables (5, 5.1, 5.2)."""
    t = state.t
    return {"raise_army": f"costs {count_of(t.army_cost[side], 'talent')}",
            "raise_fleet": f"costs {count_of(t.fleet_cost[side], 'talent')}",
            "build_bridge": f"costs {count_of(t.bridge_cost, 'talent')}: the pontoon bridge joins "
                            f"{t.names[t.bridge_ends[0]]} and {t.names[t.bridge_ends[1]]}"}
