"""What each seat may see, and determinization (the terminal's board is `board`)."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from .position import Position, copy_g

PLACEMENT_TRIES = 20   # random deals of face-down battle tokens tried before keeping the real one


def member(st: Position, seat: str, league: str) -> bool:
    return seat in st.g["players"] and st.player(seat)["league"] == league


def token_view(token: dict[str, Any] | None, visible: bool) -> dict[str, Any] | None:
    if token is None:
        return None
    return dict(token) if visible else {"deck": token["deck"]}


def player_view(st: Position, seat: str, viewer: str) -> dict[str, Any]:
    p = st.player(seat)
    out = {k: p[k] for k in ("league", "city", "admin", "prestige", "buildings", "posts")}
    out["resources"] = dict(p["res"])
    out["figures"] = list(p["figures"])
    out["positions"] = dict(p["pos"])
    out["admin_uses_spent"] = p["admin_spent"]
    out["actions_left"] = p["actions"]
    if st.g["step"] == "pick-figure" and seat == viewer and seat in st.g["secret"]:
        out["secret_figure"] = st.g["secret"][seat]
    return out


def scenario_view(st: Position) -> dict[str, Any] | None:
    scenario = st.g["scenario"]
    if not scenario:
        return None
    spec = st.t.scenarios[scenario["id"]]
    return {**scenario, "name": spec["name"], "objective": spec["objective"],
            "reward": spec["reward"], "constraint": spec.get("constraint", {})}


def battle_view(st: Position, viewer: str) -> dict[str, Any] | None:
    b = st.g["battle"]
    if not b:
        return None
    out: dict[str, Any] = {"step": st.g["step"], "fronts": dict(b["fronts"]),
                           "columns": dict(b["columns"]), "sides": {}}
    for side in b["sides"]:
        mine = member(st, viewer, side)
        placed = {}
        for key, token in b["placed"][side].items():
            column = key.rsplit("-", 1)[0]
            if mine or column in b["revealed"]:
                placed[key] = dict(token)
        figs = dict(b["figs"][side]) if mine or b["figures_revealed"] else {}
        info: dict[str, Any] = {"placed": placed, "figures": figs, "engaged": list(b["engaged"][side])}
        if mine and side in b["pool"]:
            info["pool"] = [dict(t) for t in b["pool"][side]]
        out["sides"][side] = info
    return out


def view(st: Position, seat: str) -> dict[str, Any]:
    g = st.g
    leagues = {}
    for name, league in g["leagues"].items():
        mine = member(st, seat, name)
        leagues[name] = {"seats": st.ordered(name), "treasury": dict(league["treasury"]),
                         "reserve": [token_view(t, mine) for t in league["reserve"]],
                         "counters": league["counters"]}
    out: dict[str, Any] = {
        "seat": seat, "turn": g["turn"], "step": g["step"],
        "scenario": scenario_view(st),
        "players": {s: player_view(st, s, seat) for s in g["seats"]},
        "leagues": leagues,
        "decks": {d: len(pile) for d, pile in g["decks"].items()},
        "territories": {t: dict(spot) for t, spot in g["territories"].items()},
        "integrated": {c: {"league": v["league"],
                           "token": token_view(v["token"], member(st, seat, v["league"]))}
                       for c, v in g["integrated"].items()},
        "battle": battle_view(st, seat),
        "pending": [d.seat for d in st.pending()],
    }
    if g["solo"]:
        solo = g["solo"]
        out["solo"] = {"scenario": solo["scenario"], "turns": solo["turns"],
                       "augurs_left": max(0, solo["turns"] - g["turn"]),
                       "augur": g["augur"], "empire_successes": solo["empire_successes"],
                       "objectives": solo["objectives"]}
    if g["enemy"]:
        enemy = g["enemy"]
        out["enemy"] = {"league": enemy["league"], "cities": enemy["cities"], "positions": dict(enemy["pos"]),
                        "army": {k: {"deck": t["deck"]} for k, t in enemy["army"].items()}}
    if g["result"]:
        out["result"] = g["result"]
    # a copy: the parts above taken as they are (buildings, counters, objectives ...) are
    # the position's own lists, and a caller who edits the view must not edit the game
    return copy_g(out)


def determinize(st: Position, seat: str, rng: random.Random) -> Position:
    """Resample what `seat` cannot know and reseed every stream from `rng`.

    Hidden: the order of the token piles, the powers of tokens face down outside
    its league (reserves, integrated cities, the battle, the solo enemy's army),
    the other league's figures not yet revealed in the battle, future act cards,
    future Augur cards, and the other seats' secret starting figures.
    """
    copy_state = st.clone()
    g = copy_state.g
    # deck -> where its unseen powers lie: (pile, index) or (token, "power")
    hidden: dict[str, list[tuple[Any, Any]]] = {}
    for deck, pile in g["decks"].items():
        hidden.setdefault(deck, []).extend((pile, i) for i in range(len(pile)))
    battle = g["battle"]
    # tokens already face up in the battle are seen by everyone
    seen_ids = {id(token) for side in battle["sides"]
                for key, token in battle["placed"][side].items()
                if key.rsplit("-", 1)[0] in battle["revealed"]} if battle else set()

    def hide(token: dict[str, Any] | None) -> None:
        if token and id(token) not in seen_ids:
            seen_ids.add(id(token))
            hidden.setdefault(token["deck"], []).append((token, "power"))

    for name, league in g["leagues"].items():
        if not member(st, seat, name):
            for token in league["reserve"]:
                hide(token)
            for city in g["integrated"].values():
                if city["league"] == name:
                    hide(city["token"])
    if battle:
        for side in battle["sides"]:
            if member(st, seat, side):
                continue
            if side in battle["pool"]:   # a league (the solo enemy's army is printed)
                resample_placement(copy_state, side, rng)
            for token in battle["pool"].get(side, []):
                hide(token)
            for token in battle["placed"][side].values():
                hide(token)
            if not battle["figures_revealed"] and battle["figs"][side]:
                battle["figs"][side] = resample_figures(copy_state, side, rng)
    if g["enemy"]:
        for token in g["enemy"]["army"].values():
            hide(token)
    for spots in hidden.values():
        values = [where[key] for where, key in spots]
        rng.shuffle(values)
        for (where, key), value in zip(spots, values, strict=True):
            where[key] = value
    scenario = g["scenario"]
    drawn = scenario["act"] if scenario else 0
    for act in range(drawn + 1, 4):
        cards = sorted(s for s, spec in st.t.scenarios.items() if spec["act"] == act)
        if g["scenario_draws"]:
            g["scenario_draws"][act - 1] = rng.choice(cards)
    if g["solo"]:
        resample_augurs(copy_state, rng)
    for other in list(g["secret"]):
        if other != seat:
            g["secret"][other] = rng.choice(st.t.city_figures(st.player(other)["city"]))
    g["seed"] = rng.getrandbits(63)
    copy_state.rng.reseed(rng)   # each stream built when first rolled
    return copy_state


def resample_placement(st: Position, side: str, rng: random.Random) -> None:
    """Which of the league's tokens lie on its face-down slots, drawn anew.

    Each slot takes a token of a type it allows; the rest go back to the pool.
    Which slots are filled stays, and so does what everyone can tell from the
    slot the league is choosing for: a token that fits it is kept back in the
    pool, since a slot nothing fits is passed over (`battle.token_settle`).  A
    deal that fits is found in a few tries.
    """
    b = st.g["battle"]
    placed = b["placed"][side]
    keys = [k for k in placed if k.rsplit("-", 1)[0] not in b["revealed"]]
    spare = [placed[k] for k in keys] + b["pool"][side]
    # (what fits, slot key or None for the token kept back), the narrowest first,
    # so that a slot taking two types does not use up the only token of another's
    wants: list[tuple[Collection[str], str | None]] = []
    for key in keys:
        front, _, row = key.rsplit("-", 2)
        wants.append((st.t.slot_types(front, int(row) - 1), key))
    if b["slot"][side] < len(st.t.slots()):
        wants.append((st.t.slot_kinds[b["slot"][side]], None))
    wants.sort(key=lambda want: len(want[0]))
    for _ in range(PLACEMENT_TRIES):
        left = list(spare)
        rng.shuffle(left)
        chosen = {}
        for kinds, key in wants:
            token = _take(st, left, kinds)
            if token is None:
                break
            chosen[key] = token
        else:
            kept = chosen.pop(None, None)
            placed.update(chosen)
            b["pool"][side] = left if kept is None else [*left, kept]
            return


def _take(st: Position, tokens: list[dict[str, Any]], kinds: Collection[str]) -> dict[str, Any] | None:
    """The first of `tokens` of a type in `kinds`, taken out of the list (None: none fits)."""
    deck_type = st.t.deck_type
    for at, token in enumerate(tokens):
        if deck_type[token["deck"]] in kinds:
            return tokens.pop(at)   # by position: equal tokens are distinct objects
    return None


def resample_figures(st: Position, side: str, rng: random.Random) -> dict[str, str]:
    """Which of the league's figures lie face down on its filled fronts, drawn anew."""
    fronts = list(st.g["battle"]["figs"][side])
    figures = [f for s in st.ordered(side) for f in st.player(s)["figures"]]
    return dict(zip(fronts, rng.sample(figures, len(fronts)), strict=True))


def resample_augurs(st: Position, rng: random.Random) -> None:
    """The Augur cards still to come, drawn anew from those not revealed yet."""
    solo = st.g["solo"]
    augurs = solo["augurs"]
    shown = augurs.index(st.g["augur"]) + 1 if st.g["augur"] in augurs else 0
    unseen = sorted(set(st.t.augurs) - set(augurs[:shown]))
    solo["augurs"] = augurs[:shown] + rng.sample(unseen, len(augurs) - shown)
