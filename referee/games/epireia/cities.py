"""Integrating unplayed Greek cities, and reclaiming them from the other league."""

from __future__ import annotations

from .contests import by_side, conflict, send_home, single_roll, strongest
from .economy import count_token
from .position import Position
from .resources import gain

Pairs = list[tuple[str, str]]


def resolve_city(st: Position, city: str) -> None:
    present = st.occupants(city)
    if not present:
        return
    spec = st.t.cities[city]
    sides = by_side(st, present)
    won = conflict(st, sides, spec["name"], None) if len(sides) > 1 else next(iter(sides))
    if won is not None:
        integrate(st, city, sides[won])
    send_home(st, present)


def integrate(st: Position, city: str, pairs: Pairs) -> None:
    spec = st.t.cities[city]
    roller = strongest(st, pairs)
    figure = next(f for s, f in pairs if s == roller)
    league = st.league_of(roller)
    bonus = sum(st.t.buildings[b]["effect"].get("integration_bonus", 0)
                for b in st.player(roller)["buildings"])
    bonus += st.t.ability(figure).get("integration_bonus", 0)
    target = spec["integration"]["target"]
    value = single_roll(st, roller, lambda v: v + bonus >= target,
                        f"{spec['name']} needs {target - bonus}")
    ok = value + bonus >= target
    st.emit("integration", "{} courts {}: {} + {} against {}: {}",
            {"seat": roller, "city": city, "roll": value, "bonus": bonus, "success": ok},
            args=(st.name(roller), spec["name"], value, bonus, target,
                  "success" if ok else "refused"))
    if not ok:
        return
    gain(st, roller, spec["integration"]["gain"])
    held = st.g["integrated"].get(city)
    if held:
        token = held["token"]
        st.emit("reclaim", f"The {league} league takes {spec['name']} from the {held['league']} league",
                {"city": city, "league": league})
    else:
        deck = spec["integration"]["token"]
        pile = st.g["decks"][deck]
        token = {"deck": deck, "power": pile.pop()} if pile else None
    st.g["integrated"][city] = {"league": league, "token": token}
    if token:
        count_token(st, league, token["deck"])
        st.emit("token", f"{spec['name']} brings a {token['deck']} token to the {league} league",
                {"city": city, "deck": token["deck"], "league": league})
