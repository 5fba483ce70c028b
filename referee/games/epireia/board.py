"""The board in words for a person at a terminal (`State.describe`).

Built from the seat's own view and the ruleset's tables, so it shows nothing
the seat may not know.  Names are the ruleset's (Corinth, Cavalry I,
Pericles), never raw ids, and nothing is left unsaid as a bare None.
"""

from __future__ import annotations

from typing import Any

from .diplomacy import place_name
from .position import Position
from .views import view

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
STEPS = {  # what each step of the state machine is called at the table
    "pick-city": "setup: choosing cities", "pick-league": "setup: choosing a league",
    "pick-admin": "setup: choosing administrators",
    "pick-figure": "setup: secretly choosing a starting figure",
    "turn-start": "the turn begins", "develop": "development phase",
    "diplomacy": "diplomacy phase", "resolution": "resolution phase",
    "turn-end": "the turn ends", "battle-tokens": "great battle: placing tokens",
    "battle-figures": "great battle: placing figures", "battle-fight": "great battle: fighting",
    "over": "the game is over",
}


def amounts(st: Position, counts: dict[str, int]) -> str:
    """`2 wood, 1 wheat` in the ruleset's resource order; `nothing` for none."""
    order = [r for r in st.t.resources if counts.get(r)] + [
        r for r in counts if r not in st.t.resources and counts[r]]
    return ", ".join(f"{counts[r]} {r}" for r in order) or "nothing"


def token_name(st: Position, deck: str) -> str:
    spec = st.t.tokens[deck]
    return f"{spec['type'].capitalize()} {ROMAN.get(spec['level'], spec['level'])}"


def figure_name(st: Position, figure: str) -> str:
    return st.t.figures[figure]["name"]


def figure_short(st: Position, figure: str) -> str:
    """`Themistocles (attack 2, sea)`."""
    spec = st.t.figures[figure]
    return f"{spec['name']} (attack {spec['attack']}, {'sea' if spec['sea'] else 'land'})"


def where(st: Position, place: str) -> str:
    """Where a figure stands: `home`, or the place's name."""
    return "home" if place == "home" else place_name(st, place)


def describe(st: Position, seat: str) -> str:
    v = view(st, seat)
    lines = [headline(st, v)]
    lines += scenario_lines(st, v)
    if v.get("solo"):
        lines += solo_lines(st, v)
    lines.append("Players:")
    for s, p in v["players"].items():
        lines += player_lines(st, s, p)
    lines.append("Leagues:")
    for name, league in v["leagues"].items():
        if league["seats"]:
            lines.append(league_line(st, v, name, league))
    lines += territory_lines(st, v)
    if v["battle"]:
        lines += battle_lines(st, v["battle"])
    return "\n".join(lines)


def headline(st: Position, v: dict[str, Any]) -> str:
    step = STEPS.get(v["step"], v["step"].replace("-", " "))
    turn = f"Turn {v['turn']}" if v["turn"] else "Before the first turn"
    acting = ", ".join(v["pending"])
    return f"{turn}: {step}" + (f" ({acting} to act)" if acting else "")


def scenario_lines(st: Position, v: dict[str, Any]) -> list[str]:
    sc = v["scenario"]
    if not sc:
        return []
    done = f" (completed by the {sc['winner']} league)" if sc["done"] and sc["winner"] else \
        " (completed)" if sc["done"] else ""
    text = st.t.rule_text.get(sc["id"])   # objective, reward and constraint in words
    return [f"Act {ROMAN.get(sc['act'], sc['act'])}: {sc['name']}{done}",
            f"  {' '.join(text.split())}" if text else f"  Reward: {token_name(st, sc['reward'])}"]


def solo_lines(st: Position, v: dict[str, Any]) -> list[str]:
    solo, spec = v["solo"], st.t.solo_scenarios[v["solo"]["scenario"]]
    turn = min(max(v["turn"], 1), solo["turns"])
    lines = [f"Solo scenario {spec['id']} {spec['name']}: turn {turn} of {solo['turns']}",
             "  Objectives at the end: " + "; ".join(objective_words(st, v))]
    number = solo["augur"]
    if number:
        card = st.t.augurs[number]
        text = st.t.rule_text.get(f"augur-{number}", "")
        lines.append(f"  Augur card {number}, {card['name']}: {' '.join(text.split())}")
    else:
        lines.append("  No Augur card in play (one is turned up as each turn begins)")
    enemy = v.get("enemy")
    if enemy:
        figures = ", ".join(f"{figure_short(st, f)} at {where(st, pos)}"
                            for f, pos in enemy["positions"].items())
        cities = ", ".join(st.t.cities[c]["name"] for c in enemy["cities"])
        lines.append(f"  Enemy ({enemy['league']} league): {cities}; figures {figures}")
        lines.append("  Enemy army (fixed; powers hidden): " + army_words(st, enemy["army"]))
    return lines


def objective_words(st: Position, v: dict[str, Any]) -> list[str]:
    """Each solo objective with where the player stands now."""
    seat = st.g["seats"][0]
    p = v["players"][seat]
    out = []
    for objective in st.t.solo_scenarios[v["solo"]["scenario"]]["objectives"]:
        if "prestige" in objective:
            want, now, what = objective["prestige"], p["prestige"], "Prestige"
        elif "territories_held" in objective:
            sea = objective.get("maritime", False)
            want = objective["territories_held"]
            now = sum(1 for t, spot in v["territories"].items() if spot["owner"] == seat
                      and (not sea or st.t.territories[t]["maritime"]))
            what = "sea territories held" if sea else "territories held"
        elif "buildings" in objective:
            kind = objective["buildings"]["category"]
            want = objective["buildings"]["count"]
            now = sum(1 for b in p["buildings"] if st.t.buildings[b]["category"] == kind)
            what = f"{kind} buildings"
        else:
            want, now = objective["empire_successes"], v["solo"]["empire_successes"]
            what = "successful empire negotiations"
        out.append(f"{what} {want} (now {now}{', met' if now >= want else ''})")
    return out


def army_words(st: Position, army: dict[str, Any]) -> str:
    """The solo enemy's fixed army, front by front: front row / rear row, column by column."""
    fronts = []
    for front in st.t.fronts:
        rows = []
        for row in range(len(front["rows"])):
            decks = [army[f"{front['id']}-{c + 1}-{row + 1}"]["deck"]
                     for c in range(st.t.battlefield["columns"])
                     if f"{front['id']}-{c + 1}-{row + 1}" in army]
            rows.append(", ".join(token_name(st, d) for d in decks) or "empty")
        fronts.append(f"{front['id']} {' / '.join(rows)}")
    return "; ".join(fronts)


def player_lines(st: Position, seat: str, p: dict[str, Any]) -> list[str]:
    city = st.t.cities[p["city"]]["name"] if p["city"] else "no city yet"
    league = f"{p['league']} league" if p["league"] else "no league yet"
    admin = (f"{st.t.admins[p['admin']]['name']} administrator" if p["admin"]
             else "no administrator yet")
    res = ", ".join(f"{r} {n}" for r, n in p["resources"].items())
    lines = [f"  {seat} {city} ({league}, {admin}): {res}; Prestige {p['prestige']}; "
             f"{p['actions_left']} action(s) left this phase" if p["actions_left"] else
             f"  {seat} {city} ({league}, {admin}): {res}; Prestige {p['prestige']}"]
    buildings = ", ".join(st.t.buildings[b]["name"] for b in p["buildings"]) or "none"
    figures = ", ".join(f"{figure_short(st, f)} at {where(st, p['positions'][f])}"
                        for f in p["figures"]) or "none in play"
    lines.append(f"      buildings: {buildings}; figures: {figures}")
    if p.get("secret_figure"):
        lines.append(f"      your secret starting figure: {figure_short(st, p['secret_figure'])}")
    return lines


def league_line(st: Position, v: dict[str, Any], name: str, league: dict[str, Any]) -> str:
    treasury = ", ".join(f"{r} {n}" for r, n in league["treasury"].items())
    reserve = ", ".join(token_name(st, t["deck"]) + (f" (power {t['power']})" if "power" in t
                                                    else "")
                        for t in league["reserve"]) or "none"
    cities = ", ".join(st.t.cities[c]["name"] for c, held in v["integrated"].items()
                       if held["league"] == name)
    integrated = f"; Greek cities integrated: {cities}" if cities else ""
    return f"  {name}: treasury {treasury}; reserve {reserve}{integrated}"


def territory_lines(st: Position, v: dict[str, Any]) -> list[str]:
    lines = ["Territories (tax paid once to whoever takes it):"]
    for territory, spot in v["territories"].items():
        spec = st.t.territories[territory]
        holder = f"held by {spot['owner']}" if spot["owner"] else "free"
        if spot["brigand"]:
            holder += ", brigands"
        sea = ", by sea only" if spec["maritime"] else ""
        lines.append(f"  {spec['name']:<17} {amounts(st, spec['tax']):<26} {holder}{sea}")
    return lines


def battle_lines(st: Position, battle: dict[str, Any]) -> list[str]:
    def won(key: str, winner: str | None) -> str:
        return f"{key.replace('-', ' column ')} {f'won by {winner}' if winner else 'tied'}"

    fronts = "; ".join(won(front, w) for front, w in battle["fronts"].items())
    columns = "; ".join(won(column, w) for column, w in battle["columns"].items())
    lines = [f"Great battle: {fronts or 'no front decided yet'}"
             + (f" (columns: {columns})" if columns else "")]
    for side, info in battle["sides"].items():
        placed = ", ".join(f"{slot} {token_name(st, t['deck'])}"
                           + (f" ({t['power']})" if "power" in t else "")
                           for slot, t in info["placed"].items()) or "nothing seen yet"
        lines.append(f"  {side}: {placed}")
    return lines
