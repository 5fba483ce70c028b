"""Setup: the starting position, then cities, leagues, administrators and the
secret, simultaneous choice of each starting influential figure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Decision
from ...games.epireia import registry
from ...rng import stream

if TYPE_CHECKING:
    from ...games.epireia.state import EpireiaState
    from ...games.epireia.tables import Tables


# Named random streams: token decks, act draws, players' dice, the solo enemy, the Augur deck.
STREAMS = ("tokens", "scenarios", "dice", "automaton", "augur")


def new_counters() -> dict[str, Any]:
    """What a league has done since the current scenario card was drawn."""
    return {"buildings": 0, "brigands": 0, "empires": 0, "tokens": 0,
            "tokens_by_type": {}, "maritime_taken": []}


def initial(tables: Tables, seats: list[str], seed: int, options: dict[str, Any],
            solo_scenario: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    rngs = {name: stream(seed, name) for name in STREAMS}
    leagues = tables.seating.get(str(len(seats)), [None]) if not solo_scenario else [None]
    start = tables.start
    players = {}
    for seat, league in zip(seats, leagues, strict=True):
        players[seat] = {
            "league": league, "city": None, "admin": None,
            "res": {r: start["resources"].get(r, 0) for r in tables.resources},
            "prestige": start["prestige"], "reached": list(range(start["prestige"] + 1)),
            "buildings": [], "figures": [], "pos": {}, "admin_spent": 0,
            "posts": start["trade_posts"], "actions": 0, "reroll_used": False,
        }
    decks = {}
    for deck in tables.tokens:
        pile = tables.deck_contents(deck)
        rngs["tokens"].shuffle(pile)
        decks[deck] = pile
    draws = []
    if not solo_scenario:
        for act in (1, 2, 3):
            cards = sorted(s for s, spec in tables.scenarios.items() if spec["act"] == act)
            draws.append(rngs["scenarios"].choice(cards))
    g: dict[str, Any] = {
        "seats": list(seats), "seed": seed, "options": dict(options),
        "players": players,
        "leagues": {lg: {"treasury": {r: 0 for r in tables.resources}, "reserve": [],
                         "counters": new_counters()} for lg in tables.leagues},
        "decks": decks,
        "territories": {t: {"owner": None, "brigand": False} for t in tables.territory_order},
        "integrated": {},
        "scenario": None, "scenario_draws": draws, "battle_after_turn": False,
        "turn": 0, "step": "pick-city", "order": list(seats), "idx": 0,
        "queue": [], "secret": {}, "augur": None, "selected": None, "moved": [],
        "tasks": [], "task": 0, "task_dice": [], "task_answers": [], "battle": None, "result": None,
        "solo": None, "enemy": None,
    }
    if solo_scenario:
        spec = tables.solo_scenarios[solo_scenario]
        augurs = sorted(tables.augurs)
        rngs["augur"].shuffle(augurs)
        g["solo"] = {"scenario": solo_scenario, "turns": spec["turns"],
                     "augurs": augurs[:spec["turns"]], "empire_successes": 0,
                     "objectives": None}
    return g, rngs


def actor(st: EpireiaState) -> str:
    return st.g["order"][st.g["idx"]]


def next_actor(st: EpireiaState, then: str) -> None:
    st.g["idx"] += 1
    if st.g["idx"] >= len(st.g["order"]):
        st.g["idx"] = 0
        st.g["step"] = then


# ---------------------------------------------------------------- cities
def city_choices(st: EpireiaState, seat: str) -> list[str]:
    taken = {p["city"] for p in st.g["players"].values()}
    league = st.player(seat)["league"]
    fixed = solo_spec(st).get("city") if st.g["solo"] else None
    out = []
    for city, spec in st.t.cities.items():
        if city in taken or (fixed and city != fixed):
            continue
        if league and spec.get("league") not in (None, league):
            continue
        out.append(f"city {city}")
    return out


def solo_spec(st: EpireiaState) -> dict[str, Any]:
    return st.t.solo_scenarios[st.g["solo"]["scenario"]]


def city_decisions(st: EpireiaState) -> list[Decision]:
    seat = actor(st)
    return [Decision(seat, "Choose your city", city_choices(st, seat))]


def city_apply(st: EpireiaState, seat: str, action: str) -> None:
    city = action.split()[1]
    st.player(seat)["city"] = city
    st.emit("city", f"{seat} ({st.player(seat)['league'] or 'solo'}) takes "
            f"{st.t.cities[city]['name']}", {"seat": seat, "city": city})
    next_actor(st, "pick-league" if st.g["solo"] else "pick-admin")


def city_settle(st: EpireiaState) -> bool:
    seat = actor(st)
    choices = city_choices(st, seat)
    if len(choices) == 1 and st.g["solo"]:
        city_apply(st, seat, choices[0])
        return True
    return False


# ---------------------------------------------------------------- solo league
def league_choices(st: EpireiaState, seat: str) -> list[str]:
    fixed = solo_spec(st).get("league") or st.t.cities[st.player(seat)["city"]].get("league")
    return [f"league {lg}" for lg in st.t.leagues if not fixed or lg == fixed]


def league_decisions(st: EpireiaState) -> list[Decision]:
    seat = actor(st)
    return [Decision(seat, "Choose your league", league_choices(st, seat))]


def league_apply(st: EpireiaState, seat: str, action: str) -> None:
    from ...games.epireia.solo import place_enemies
    league = action.split()[1]
    st.player(seat)["league"] = league
    st.emit("league", f"{st.name(seat)} joins the {league} league", {"seat": seat, "league": league})
    place_enemies(st, league)
    next_actor(st, "pick-admin")


def league_settle(st: EpireiaState) -> bool:
    seat = actor(st)
    choices = league_choices(st, seat)
    if len(choices) == 1:
        league_apply(st, seat, choices[0])
        return True
    return False


# ---------------------------------------------------------------- administrators
def admin_decisions(st: EpireiaState) -> list[Decision]:
    seat = actor(st)
    taken = {p["admin"] for p in st.g["players"].values()}
    legal = [f"admin {a}" for a in st.t.admins if a not in taken]
    return [Decision(seat, "Choose your administrator", legal)]


def admin_apply(st: EpireiaState, seat: str, action: str) -> None:
    admin = action.split()[1]
    st.player(seat)["admin"] = admin
    st.emit("admin", f"{st.name(seat)} takes the {st.t.admins[admin]['name']}",
            {"seat": seat, "admin": admin})
    next_actor(st, "pick-figure")


# ---------------------------------------------------------------- starting figure (secret)
def figure_decisions(st: EpireiaState) -> list[Decision]:
    out = []
    for seat in st.g["seats"]:
        if seat not in st.g["secret"]:
            city = st.player(seat)["city"]
            legal = [f"figure {f}" for f in st.t.city_figures(city)]
            out.append(Decision(seat, "Secretly choose your starting influential figure", legal))
    return out


def figure_apply(st: EpireiaState, seat: str, action: str) -> None:
    figure = action.split()[1]
    st.g["secret"][seat] = figure
    st.emit("figure-chosen", f"You secretly choose {st.t.figures[figure]['name']}",
            {"seat": seat, "figure": figure}, to=frozenset({seat}))
    st.emit("figure-waiting", f"{seat} has chosen a starting figure", {"seat": seat})
    if len(st.g["secret"]) == len(st.g["seats"]):
        for s in st.g["seats"]:
            fig = st.g["secret"][s]
            st.player(s)["figures"].append(fig)
            st.player(s)["pos"][fig] = "home"
            st.emit("figure", f"{st.name(s)} reveals {st.t.figures[fig]['name']}",
                    {"seat": s, "figure": fig})
        st.g["secret"] = {}
        st.g["step"] = "turn-start"


registry.step("pick-city", city_decisions, city_apply, city_settle)
registry.step("pick-league", league_decisions, league_apply, league_settle)
registry.step("pick-admin", admin_decisions, admin_apply)
registry.step("pick-figure", figure_decisions, figure_apply)
