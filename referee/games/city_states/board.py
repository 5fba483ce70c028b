"""The text board a terminal player sees before each decision (`State.describe`).

Built from `view(seat)` and the tables, so it shows exactly what that seat may
know: whose turn and which phase, every player's gold, income and upkeep, each
stack with its space, the cities with their sieges and markers, leaders off the
map, the seat's own hand (and hands it has spied), a battle being fought.
"""

from __future__ import annotations

from typing import Any

from .core import pieces_text

PHASES = {"setup": "setup", "draw": "1 draw", "revenue": "2 revenue", "upkeep": "3 upkeep",
          "recruit": "4 recruit", "diplomacy": "5 diplomacy", "first_move": "6 first move",
          "sea_battle": "7 sea battle", "land_battle": "8 land battle",
          "second_move": "9 second move", "over": "game over"}


def count(n: int, word: str, many: str = "") -> str:
    if n == 1:
        return f"1 {word}"
    return f"{n} {many or word + 's'}"


def stack_text(space: dict[str, Any]) -> str:
    parts = []
    for key, word, many in (("armies", "army", "armies"), ("rowers", "rowers", "rowers"),
                            ("fleets", "fleet", ""), ("transports", "transport", ""),
                            ("baggage", "baggage", "baggage")):
        if space[key]:
            parts.append(count(space[key], word, many))
    if space["starvation"]:
        parts.append(f"starving x{space['starvation']}")
    return ", ".join(parts)


def describe_board(state: Any, seat: str) -> str:
    view = state.view(seat)
    t = state.t
    index = t.index
    lines = [headline(view)]
    lines += player_lines(state, view)
    lines += stack_lines(state, view)
    lines += city_lines(state, view)
    off = [f"{ld['name']} ({ld['player']}, {ld['state']}"
           + (f" until turn {ld['back_in_turn']}" if ld["state"] == "exiled" else "") + ")"
           for ld in view["leaders"] if ld["state"] in ("exiled", "captive")]
    if off:
        lines.append("Leaders off the map: " + ", ".join(off))
    if view.get("battle"):
        b = view["battle"]
        played = ", ".join(f"{t.cards[t.card_by_id[c['card']]].name} ({c['side']})"
                           for c in b["cards"]) or "none yet"
        lines.append(f"Battle for {t.names[index[b['space']]]}: {b['attacker']} attacks "
                     f"{b['defender']} from {', '.join(t.names[index[x]] for x in b['from'])}; "
                     f"cards played: {played}")
    if view.get("group"):
        g = view["group"]
        lines.append(f"Moving group from {t.names[index[g['from']]]}: {state.group_text()}"
                     + (f" (+{g['bonus_moves']} move points)" if g["bonus_moves"] else ""))
    if view["truce"]:
        lines.append(f"Truce until the end of {view['truce']['player']}'s next turn")
    for who, spaces in view["hesitant"].items():
        lines.append(f"{who} may not attack from " + ", ".join(t.names[index[s]] for s in spaces))
    lines += hand_lines(state, view)
    return "\n".join(lines)


def headline(view: dict[str, Any]) -> str:
    phase = PHASES.get(view["phase"], view["phase"])
    if view["phase"] == "setup":
        return f"City States: setup, choosing home cities; you are {view['seat']}"
    if view["phase"] == "over":
        return f"City States: the game is over after turn {view['turn']}; you are {view['seat']}"
    return (f"City States: turn {view['turn']} of {view['turns']}, {view['active']} plays, "
            f"phase {phase}; you are {view['seat']}")


def player_lines(state: Any, view: dict[str, Any]) -> list[str]:
    t = state.t
    rows = ["Players (in turn order):"]
    for name in view["order"]:
        info = view["players"][name]
        p = state.seats.index(name)
        if info["out"]:
            rows.append(f"  {name:<4} out of the game")
            continue
        home = t.names[t.index[info["home"]]] if info["home"] else "-"
        if info["home"] and not info["holds_home"]:
            home += " (lost)"
        traits = ", ".join(t.traits[k].name for k in info["traits"]) or "-"
        cities = len(state.cities_of(p))
        rows.append(f"  {name:<4} gold {info['gold']:>3}, income {state.expected_income(p):>2}, "
                    f"upkeep {state.upkeep_due(p):>2}, cities {cities:>2}, cards {info['cards']}; "
                    f"home {home}" + ("; frozen next turn" if info["frozen"] else ""))
        rows.append(f"       traits: {traits}")
    return rows


def stack_lines(state: Any, view: dict[str, Any]) -> list[str]:
    t = state.t
    leaders: dict[str, list[str]] = {}
    for ld in view["leaders"]:
        if ld["state"] == "free" and ld["space"]:
            skills = "/".join(t.skills[k].name for k in ld["skills"])
            leaders.setdefault(ld["space"], []).append(f"{ld['name']} ({skills})")
    rows = ["Stacks:"]
    for space in sorted(view["spaces"], key=lambda x: (x["player"], x["id"])):
        s = t.index[space["id"]]
        units = stack_text(space)
        named = leaders.get(space["id"], [])
        where = f"{t.names[s]} ({t.terrain_name[s].lower()})"
        rows.append(f"  {space['player']:<4} {where:<36} " + "; ".join(
            x for x in (units, ", ".join(named)) if x))
    return rows


def city_lines(state: Any, view: dict[str, Any]) -> list[str]:
    t = state.t
    rows = ["Cities (owner, income, trait, markers):"]
    neutral = []
    for city in view["cities"]:
        s = t.index[city["id"]]
        trait = t.traits[city["trait"]].name if city["trait"] else ""
        marks = [m for m, on in (("hostile", city["hostile"]), ("besieged", city["besieged"]),
                                 ("no income next", city["no_income"])) if on]
        if city["razed"]:
            marks.append(f"razed x{city['razed']}")
        if not city["owner"]:
            neutral.append(f"{t.names[s]} {city['income']}"
                           + (f" {trait}" if trait else "")
                           + (f" [{', '.join(marks)}]" if marks else ""))
            continue
        owner = city["owner"]
        home = state.home[state.seats.index(owner)] == s
        rows.append(f"  {t.names[s]:<20} {owner:<4} {'home' if home else 'minor':<5} "
                    f"{city['income']:>2}  {trait:<17} {' '.join(marks)}".rstrip())
    rows.append("  neutral: " + "; ".join(neutral))
    return rows


def hand_lines(state: Any, view: dict[str, Any]) -> list[str]:
    t = state.t
    rows = [f"Your hand ({len(view['hand'])}):"]
    for card_id in view["hand"]:
        num = t.card_by_id[card_id]
        rows.append(f"  {t.cards[num].name}: {t.card_text.get(num, '')}")
    for who, cards in view["known_hands"].items():
        rows.append(f"{who} was seen holding: "
                    + ", ".join(t.cards[t.card_by_id[c]].name for c in cards))
    others = ", ".join(f"{name} {info['cards']}" for name, info in view["players"].items()
                       if name != view["seat"])
    rows.append(f"Cards held by the others: {others}; deck {view['deck']}, "
                f"discard pile {len(view['discard'])}")
    return rows


def action_notes(state: Any, legal: list[str]) -> dict[str, str]:
    """Beside `play CARD` and `discard CARD`: the card's name and what it does; beside a
    home city, what it starts with; beside spare, plunder and raze, what each brings."""
    t = state.t
    out = {}
    if state.step == "plunder":
        out.update(taking_notes(state))
    for action in legal:
        verb, _, card = action.partition(" ")
        if verb == "home" and card in t.index:
            out[action] = home_note(state, t.index[card])
        if verb in ("play", "discard") and card in t.card_by_id:
            number = t.card_by_id[card]
            text = t.card_text.get(number, "")
            out[action] = f"{t.cards[number].name}: {text}" if text else t.cards[number].name
    return out


def home_note(state: Any, city: int) -> str:
    """What a home city starts with (3: by the coast or not), and its land neighbours, which
    no later player may take as a home."""
    t = state.t
    units = t.coastal_units if t.coastal[city] else t.landlocked_units
    start = pieces_text(*(units.get(kind, 0)
                          for kind in ("army", "rowers", "fleet", "transport", "baggage")))
    neighbours = ", ".join(t.names[s] for s in t.land_adj[city] if not t.sea[s])
    where = "on the coast" if t.coastal[city] else "inland"
    return f"{where}: starts with {start}; next to {neighbours}"


def taking_notes(state: Any) -> dict[str, str]:
    """What sparing, plundering and destroying the city just taken bring (9.8, D14: a city
    ends with the markers of the choice in all, never fewer than it has)."""
    t, city = state.t, state.p_city
    has = state.razed[city]
    gold = f"{t.plunder_gold[0]}D{t.plunder_gold[1]} gold"
    plunder, destroy = (max(has, n) for n in (t.plunder_razed, t.destroy_razed))
    left = f"it keeps its {count(has, 'razed marker')}" if has else "no razed marker"
    return {"spare": f"no gold; {left}",
            "plunder": f"{gold}; {t.names[city]} ends with {count(plunder, 'razed marker')} "
                       "(7: while it has any, it earns and recruits nothing; it sheds one a turn)",
            "raze": f"{gold}; {t.names[city]} ends with {count(destroy, 'razed marker')}"}
