"""Integrating unplayed Greek cities, and reclaiming them from the other league."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.epireia.contests import by_side, conflict, send_home, single_roll, strongest
from ...games.epireia.diplomacy import occupants
from ...games.epireia.economy import count_token, gain

if TYPE_CHECKING:
    from ...games.epireia.state import EpireiaState

Pairs = list[tuple[str, str]]


def resolve_city(st: EpireiaState, city: str) -> None:
    present = occupants(st, city)
    if not present:
        return
    spec = st.t.cities[city]
    sides = by_side(st, present)
    won = conflict(st, sides, spec["name"], None) if len(sides) > 1 else next(iter(sides))
    if won is not None:
        integrate(st, city, sides[won])
    send_home(st, present)


def integrate(st: EpireiaState, city: str, pairs: Pairs) -> None:
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
    st.emit("integration", f"{st.name(roller)} courts {spec['name']}: {value} + {bonus} against "
            f"{target}: {'success' if ok else 'refused'}",
            {"seat": roller, "city": city, "roll": value, "bonus": bonus, "success": ok})
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
