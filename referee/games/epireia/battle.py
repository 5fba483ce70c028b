"""The great battle: face-down placement of tokens and figures (both leagues
at once, in secret), the reveal, then column-by-column fighting with the
engage decisions, fronts, and the final tie-breaks."""

from __future__ import annotations

from typing import Any

from ...engine import Decision, Result
from . import registry
from .position import Position


def slot_key(front: str, column: int, row: int) -> str:
    return f"{front}-{column + 1}-{row + 1}"


def battle_sides(st: Position) -> list[str]:
    if st.g["solo"]:
        return [st.league_of(st.g["seats"][0]), "enemy"]
    return list(st.t.leagues)


def start_battle(st: Position) -> None:
    sides = battle_sides(st)
    pools: dict[str, list[dict[str, Any]]] = {}
    for side in sides:
        if side == "enemy":
            continue
        pool = list(st.g["leagues"][side]["reserve"])
        pool += [c["token"] for c in st.g["integrated"].values() if c["league"] == side and c["token"]]
        pools[side] = pool
    placed: dict[str, dict[str, Any]] = {side: {} for side in sides}
    slot = {side: 0 for side in sides}
    if st.g["enemy"]:
        placed["enemy"] = dict(st.g["enemy"]["army"])
        slot["enemy"] = len(st.t.slots())
    st.g["battle"] = {
        "sides": sides, "pool": pools, "placed": placed, "slot": slot,
        "placer": {side: 0 for side in sides}, "figs": {side: {} for side in sides},
        "fig_front": {side: 0 if side != "enemy" else len(st.t.fronts) for side in sides},
        "figures_revealed": False, "front": 0, "column": 0, "asks": [], "answers": {},
        "engaged": {side: [] for side in sides}, "base": {}, "columns": {}, "fronts": {},
        "revealed": [],
    }
    st.g["step"] = "battle-tokens"
    for side in sides:
        if side != "enemy":
            st.emit("gather", f"The {side} league gathers {len(pools[side])} military tokens",
                    {"side": side, "tokens": len(pools[side])})


def placer(st: Position, side: str) -> str:
    seats = st.ordered(side)
    return seats[st.g["battle"]["placer"][side] % len(seats)]


# ---------------------------------------------------------------- tokens, face down
def token_options(st: Position, side: str) -> list[str]:
    b = st.g["battle"]
    kinds = st.t.slot_kinds[b["slot"][side]]
    deck_type = st.t.deck_type
    return sorted({f"place {token['deck']} {token['power']}" for token in b["pool"][side]
                   if deck_type[token["deck"]] in kinds})


def any_token_fits(st: Position, side: str) -> bool:
    """Whether `token_options` lists anything, without writing the actions."""
    b = st.g["battle"]
    kinds = st.t.slot_kinds[b["slot"][side]]
    deck_type = st.t.deck_type
    for token in b["pool"][side]:
        if deck_type[token["deck"]] in kinds:
            return True
    return False


def token_decisions(st: Position) -> list[Decision]:
    out = []
    b = st.g["battle"]
    for side in b["sides"]:
        if b["slot"][side] < len(st.t.slots()):
            front, column, row = st.t.slots()[b["slot"][side]]
            out.append(Decision(placer(st, side), "Great battle: token face down for {} column {} "
                                "row {}", token_options(st, side) + ["empty"],
                                args=(front, column + 1, row + 1)))
    return out


def token_apply(st: Position, seat: str, action: str) -> None:
    b = st.g["battle"]
    side = st.league_of(seat)
    key = slot_key(*st.t.slots()[b["slot"][side]])
    if action != "empty":
        _, deck, power = action.split()
        pool = b["pool"][side]
        token = next(t for t in pool if t["deck"] == deck and t["power"] == int(power))
        pool.remove(token)
        b["placed"][side][key] = token
        text, args = "{} places {} (power {}) face down on {}", (st.name(seat), deck, power, key)
    else:
        text, args = "{} leaves {} empty", (st.name(seat), key)
    st.emit("place", text, {"seat": seat, "slot": key, "action": action}, to=st.league_seats(side),
            args=args)
    b["slot"][side] += 1
    b["placer"][side] += 1


def token_settle(st: Position) -> bool:
    b = st.g["battle"]
    slots = st.t.slots()
    moved = False
    for side in b["sides"]:
        while b["slot"][side] < len(slots) and not any_token_fits(st, side):
            b["slot"][side] += 1
            moved = True
    if all(b["slot"][side] >= len(slots) for side in b["sides"]):
        st.g["step"] = "battle-figures"
        return True
    return moved


# ---------------------------------------------------------------- figures, face down
def league_figures(st: Position, side: str) -> list[str]:
    used = set(st.g["battle"]["figs"][side].values())
    return [f for s in st.ordered(side) for f in st.player(s)["figures"] if f not in used]


def owner_of(st: Position, figure: str) -> str:
    return next(s for s in st.g["seats"] if figure in st.player(s)["figures"])


def figure_decisions(st: Position) -> list[Decision]:
    out = []
    b = st.g["battle"]
    for side in b["sides"]:
        index = b["fig_front"][side]
        if index < len(st.t.fronts):
            front = st.t.fronts[index]["id"]
            figures = league_figures(st, side)
            legal = [f"commit {f}" for f in figures]
            if len(figures) < len(st.t.fronts) - index:   # not enough for every front left
                legal.append("empty")
            out.append(Decision(placer(st, side), "Great battle: figure face down on the {}", legal,
                                args=(front,)))
    return out


def figure_apply(st: Position, seat: str, action: str) -> None:
    b = st.g["battle"]
    side = st.league_of(seat)
    front = st.t.fronts[b["fig_front"][side]]["id"]
    if action == "empty":
        st.emit("place", "{} leaves the {} without a figure", {"seat": seat, "front": front},
                to=st.league_seats(side), args=(st.name(seat), front))
    else:
        figure = action.split()[1]
        b["figs"][side][front] = figure
        st.emit("place", "{} puts {} face down on the {}",
                {"seat": seat, "front": front, "figure": figure}, to=st.league_seats(side),
                args=(st.name(seat), st.t.figures[figure]["name"], front))
    b["fig_front"][side] += 1
    b["placer"][side] += 1


def figure_settle(st: Position) -> bool:
    b = st.g["battle"]
    moved = False
    for side in b["sides"]:
        if b["fig_front"][side] < len(st.t.fronts) and not league_figures(st, side):
            b["fig_front"][side] = len(st.t.fronts)
            moved = True
    if all(b["fig_front"][side] >= len(st.t.fronts) for side in b["sides"]):
        b["figures_revealed"] = True
        for side in b["sides"]:
            for front, figure in b["figs"][side].items():
                st.emit("reveal", f"The {side} league reveals {st.t.figures[figure]['name']} "
                        f"on the {front}", {"side": side, "front": front, "figure": figure})
        st.g["step"] = "battle-fight"
        return True
    return moved


# ---------------------------------------------------------------- fighting
def current_front(st: Position) -> str:
    return st.t.fronts[st.g["battle"]["front"]]["id"]


def column_power(st: Position, side: str, front: str, column: int) -> int:
    placed = st.g["battle"]["placed"][side]
    rows = len(next(f for f in st.t.fronts if f["id"] == front)["rows"])
    return sum(placed.get(slot_key(front, column, r), {}).get("power", 0) for r in range(rows))


def figure_power(st: Position, figure: str, front: str) -> int:
    bonus = st.t.ability(figure).get("battle_bonus")
    extra = bonus["amount"] if bonus and bonus["front"] == front else 0
    return st.t.figures[figure]["attack"] + extra


def can_engage(st: Position, side: str) -> bool:
    b = st.g["battle"]
    front = current_front(st)
    return front in b["figs"][side] and front not in b["engaged"][side]


def other(st: Position, side: str) -> str:
    return next(s for s in st.g["battle"]["sides"] if s != side)


def open_column(st: Position) -> None:
    b = st.g["battle"]
    front, column = current_front(st), b["column"]
    base = {side: column_power(st, side, front, column) for side in b["sides"]}
    b["base"] = base
    b["answers"] = {}
    b["revealed"].append(f"{front}-{column + 1}")
    detail = "; ".join(f"{side} {base[side]}" for side in b["sides"])
    rows = len(st.t.fronts[b["front"]]["rows"])
    st.emit("column", f"{front.capitalize()} column {column + 1} revealed: {detail}",
            {"front": front, "column": column + 1, "power": base,
             "tokens": {side: [b["placed"][side].get(slot_key(front, column, r))
                               for r in range(rows)] for side in b["sides"]}})
    a, c = b["sides"]
    if base[a] != base[c]:
        first = a if base[a] < base[c] else c
    else:
        previous = b["columns"].get(f"{front}-{column}") if column else None
        first = other(st, previous) if previous else st.t.battlefield["first_decider"]
        if first not in b["sides"]:
            first = b["sides"][0]
    b["asks"] = [[first, "first"]]


def fight_decisions(st: Position) -> list[Decision]:
    b = st.g["battle"]
    if not b["asks"]:
        return []
    side, stage = b["asks"][0]
    front = current_front(st)
    figure = b["figs"][side][front]
    # the totals as they stand, with any figure the other league has engaged already
    totals = tuple((s, b["base"][s] + b["answers"].get(s, 0)) for s in b["sides"])
    return [Decision(owner_of(st, figure), engage_prompt, ["engage", "hold"],
                     args=(front, b["column"] + 1, totals, st.t.figures[figure]["name"]))]


def engage_prompt(front: str, column: int, totals: tuple[tuple[str, int], ...], name: str) -> str:
    listed = ", ".join(f"{league} {total}" for league, total in totals)
    return f"{front.capitalize()} column {column}: totals {listed}; engage {name}?"


def fight_apply(st: Position, seat: str, action: str) -> None:
    b = st.g["battle"]
    side, stage = b["asks"].pop(0)
    answer(st, side, stage, action == "engage")


def answer(st: Position, side: str, stage: str, engage: bool) -> None:
    b = st.g["battle"]
    front = current_front(st)
    if engage:
        figure = b["figs"][side][front]
        b["engaged"][side].append(front)
        b["answers"][side] = figure_power(st, figure, front)
        st.emit("engage", "The {} league engages {} (+{})", {"side": side, "front": front,
                                                             "figure": figure},
                args=(side, st.t.figures[figure]["name"], b["answers"][side]))
    if stage == "first":
        b["asks"].append([other(st, side), "second" if engage else "second-after-pass"])
    elif stage == "second-after-pass" and engage:
        b["asks"].append([other(st, side), "last"])


def fight_settle(st: Position) -> bool:
    b = st.g["battle"]
    if not b["base"]:
        open_column(st)
        return True
    while b["asks"]:
        side, stage = b["asks"][0]
        if can_engage(st, side):
            return False
        b["asks"].pop(0)
        answer(st, side, stage, False)
    close_column(st)
    return True


def close_column(st: Position) -> None:
    b = st.g["battle"]
    front, column = current_front(st), b["column"]
    totals = {s: b["base"][s] + b["answers"].get(s, 0) for s in b["sides"]}
    a, c = b["sides"]
    winner = None if totals[a] == totals[c] else (a if totals[a] > totals[c] else c)
    b["columns"][f"{front}-{column + 1}"] = winner
    st.emit("column-won", "{} column {}: {} against {}: {} wins",
            {"front": front, "column": column + 1, "totals": totals, "winner": winner},
            args=(front.capitalize(), column + 1, totals[a], totals[c], winner or "nobody"))
    b["base"] = {}
    b["column"] += 1
    if b["column"] < st.t.battlefield["columns"]:
        return
    wins = {s: sum(1 for k, w in b["columns"].items() if k.startswith(front + "-") and w == s)
            for s in b["sides"]}
    front_winner = None if wins[a] == wins[c] else (a if wins[a] > wins[c] else c)
    b["fronts"][front] = front_winner
    st.emit("front", f"The {front}: {front_winner + ' wins' if front_winner else 'nobody wins'}",
            {"front": front, "winner": front_winner})
    b["column"] = 0
    b["front"] += 1
    if b["front"] >= len(st.t.fronts):
        finish(st)


def finish(st: Position) -> None:
    st.g["step"] = "over"
    if st.g["solo"]:
        solo_result(st)
        return
    b = st.g["battle"]
    a, c = b["sides"]
    fronts = {s: sum(1 for w in b["fronts"].values() if w == s) for s in (a, c)}
    winner, reason = decide(st, fronts)
    teams = {s: st.ordered(s) for s in (a, c)}
    scores = {seat: float(fronts[st.league_of(seat)]) for seat in st.g["seats"]}
    ranks = {seat: 1 if winner in (None, st.league_of(seat)) else 2 for seat in st.g["seats"]}
    st.emit("game-over", reason, {"winner": winner, "fronts": fronts})
    st.g["result"] = Result(scores, ranks, reason, teams=teams).to_json()


def solo_result(st: Position) -> None:
    b = st.g["battle"]
    seat = st.g["seats"][0]
    mine, enemy = b["sides"]
    won = sum(1 for w in b["fronts"].values() if w == mine)
    lost = sum(1 for w in b["fronts"].values() if w == enemy)
    win = won > lost
    reason = f"{'Victory' if win else 'Defeat'} in the final battle: fronts {won} to {lost}"
    st.emit("game-over", reason, {"fronts": [won, lost]})
    st.g["result"] = Result({seat: float(won)}, {seat: 1 if win else 2}, reason,
                            points={seat: 1.0 if win else 0.0}).to_json()


def decide(st: Position, fronts: dict[str, int]) -> tuple[str | None, str]:
    a, c = list(fronts)
    count = f"fronts {a} {fronts[a]}, {c} {fronts[c]}"
    if fronts[a] != fronts[c]:
        winner = a if fronts[a] > fronts[c] else c
        return winner, f"The {winner} league wins the great battle ({count})"
    sea = st.g["battle"]["fronts"].get(st.t.battlefield["tiebreak_front"])
    if sea:
        return sea, f"The {sea} league wins on the maritime front ({count})"
    resource = st.t.battlefield["tiebreak_resource"]
    for label, measure in (("Prestige", league_prestige), (resource, league_resource)):
        values = {s: measure(st, s) for s in (a, c)}
        if values[a] != values[c]:
            winner = a if values[a] > values[c] else c
            return winner, f"The {winner} league wins on {label} {values[winner]} ({count})"
    return None, f"The great battle is drawn ({count}, Prestige and copper equal)"


def league_prestige(st: Position, league: str) -> int:
    return sum(st.player(s)["prestige"] for s in st.ordered(league))


def league_resource(st: Position, league: str) -> int:
    """The final tie-break resource held by a league's players and its treasury."""
    resource = st.t.battlefield["tiebreak_resource"]
    return (sum(st.player(s)["res"][resource] for s in st.ordered(league))
            + st.g["leagues"][league]["treasury"][resource])


registry.step("battle-tokens", token_decisions, token_apply, token_settle)
registry.step("battle-figures", figure_decisions, figure_apply, figure_settle)
registry.step("battle-fight", fight_decisions, fight_apply, fight_settle)
