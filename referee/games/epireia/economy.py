"""Prestige and military tokens: the bookkeeping every phase shares."""

from __future__ import annotations

from typing import Any

from .position import Position
from .recruit import offer_recruit
from .resources import Cost, gain, worded


def add_prestige(st: Position, seat: str, amount: int, why: str) -> None:
    """Move a player's Prestige; levels reached for the first time trigger their bonus."""
    player = st.player(seat)
    top = st.t.track["max"]
    old = player["prestige"]
    new = max(0, min(top, old + amount))
    player["prestige"] = new
    if new != old:
        st.emit("prestige", "{} {} {} Prestige ({}): now {}", {"seat": seat, "prestige": new},
                args=(st.name(seat), "gains" if new > old else "loses", abs(new - old), why, new))
    for level in range(old + 1, new + 1):
        if level in st.t.bonuses and level not in player["reached"]:
            player["reached"].append(level)
            trigger_bonus(st, seat, st.t.bonuses[level])


def trigger_bonus(st: Position, seat: str, bonus: dict[str, Any]) -> None:
    level = bonus["level"]
    if "gain" in bonus:
        gain(st, seat, bonus["gain"])
        st.emit("bonus", worded, {"seat": seat, "level": level},
                args=("{} reaches Prestige {}: gains {}", st.name(seat), level, bonus["gain"]))
        return
    if "recruit_figure" in bonus:
        offer_recruit(st, seat, bonus["recruit_figure"]["cost"], f"Prestige {level}")
        return
    kind = next(k for k in ("bonus_build", "free_token", "bonus_produce", "choose_resources")
                if k in bonus)
    st.push({"kind": kind, "seat": seat, "level": level, "spec": bonus[kind], "auto_single": True})


def token_cost(st: Position, seat: str, deck: str) -> Cost:
    """A token's price for this player: figure discounts, then this turn's surcharge."""
    return token_price(st.t.tokens[deck], token_discounts(st, seat), token_surcharge(st))


def token_discounts(st: Position, seat: str) -> list[dict[str, Any]]:
    """The token discounts of the player's figures, in figure order."""
    discounts = st.t.token_discounts
    return [discounts[f] for f in st.player(seat)["figures"] if f in discounts]


def token_surcharge(st: Position) -> int:
    return st.augur_effect().get("token_surcharge", 0)


def token_price(spec: dict[str, Any], discounts: list[dict[str, Any]], surcharge: int) -> Cost:
    cost = dict(spec["cost"])
    for discount in discounts:
        if discount["type"] == spec["type"]:
            for r in cost:
                cost[r] = max(0, cost[r] - discount["amount"])
    if surcharge:
        for r in cost:
            cost[r] += surcharge
    return cost


def may_produce(st: Position, seat: str, deck: str) -> bool:
    if not st.g["decks"][deck]:
        return False
    needs = st.t.token_needs[deck]
    return not needs or needs in st.player(seat)["buildings"]


def draw_token(st: Position, deck: str) -> dict[str, Any] | None:
    pile = st.g["decks"][deck]
    if not pile:
        return None
    return {"deck": deck, "power": pile.pop()}


def give_token(st: Position, league: str, deck: str, seat: str | None, why: str) -> bool:
    """Draw a token into a league's reserve; False when the deck is empty."""
    token = draw_token(st, deck)
    if token is None:
        st.emit("token", f"{why}: the {deck} deck is empty, no token", {"deck": deck})
        return False
    st.g["leagues"][league]["reserve"].append(token)
    count_token(st, league, deck)
    who = st.name(seat) if seat else f"The {league} league"
    st.emit("token", "{} adds a {} token to the reserve ({})",
            {"league": league, "deck": deck, "seat": seat}, args=(who, deck, why))
    st.emit("token-power", "The new {} token has power {}",
            {"deck": deck, "power": token["power"]}, to=st.league_seats(league),
            args=(deck, token["power"]))
    return True


def count_token(st: Position, league: str, deck: str) -> None:
    counters = st.g["leagues"][league]["counters"]
    counters["tokens"] += 1
    kind = st.t.tokens[deck]["type"]
    counters["tokens_by_type"][kind] = counters["tokens_by_type"].get(kind, 0) + 1
