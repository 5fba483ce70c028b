"""Immutable tables built once from the ruleset's `data` (map, costs, cards).

Everything the engine reads at play time is an int or a list indexed by city
number or side number (0 = Persia, 1 = Greece), so the hot paths never touch a
dict keyed by name.  Action strings are pre-built here for the same reason.
"""

from __future__ import annotations

from typing import Any

SIDES = ("persia", "greece")
WHO = ("Persia", "Greece")   # the sides as a sentence names them
PERSIA, GREECE = 0, 1
BIG = 99   # more than any count of armies or roads: "no limit", "no road leads there"

# Effect ids a card half may name; the engine has one handler per id.
EFFECTS = (
    "none", "mines_of_laurion", "cavalry", "ionian_revolt", "tribute", "wrath_of_poseidon",
    "miltiades", "carneia", "themistocles", "immortals", "pausanias", "ostracism", "oracle",
    "great_king", "leonidas", "royal_road", "artemisia", "hippias", "evangelion",
    "separate_peace", "melas_zomos", "sudden_death", "molon_labe", "defection_of_thebes",
    "triremes", "syracuse", "three_hundred", "acropolis", "desertion", "pacification",
)
# Reactions and automatic cards are never played as an event on one's own turn.
NOT_ON_TURN = frozenset({
    "none", "miltiades", "themistocles", "immortals", "pausanias", "artemisia",
    "sudden_death", "molon_labe", "three_hundred",
})


class CardHalf:
    """One side's half of a card, as the engine reads it."""

    __slots__ = ("number", "name", "effect", "params", "sparta", "once", "text",
                 "ok_method", "ev_method")

    def __init__(self, number: int, spec: dict[str, Any]) -> None:
        self.number = number
        self.name: str = spec["name"]
        self.effect: str = spec.get("effect", "none")
        self.params: dict[str, Any] = dict(spec.get("params") or {})
        self.sparta: bool = bool(spec.get("sparta", False))
        self.once: bool = bool(spec.get("once", False))
        self.text: str = spec.get("text", "")
        # the state's methods that say whether the event may be played, and play it
        self.ok_method = "ok_" + self.effect
        self.ev_method = "ev_" + self.effect


class Tables:
    """The board and rules numbers of one ruleset with its options applied."""

    def __init__(self, data: dict[str, Any], options: dict[str, Any]) -> None:
        self.options = dict(options)
        cities = data["cities"]
        self.names: list[str] = [c["name"] for c in cities]
        self.index: dict[str, int] = {n: i for i, n in enumerate(self.names)}
        n = len(cities)
        self.ncity = n
        self.port: list[bool] = [bool(c.get("port")) for c in cities]
        self.ports: list[int] = [i for i in range(n) if self.port[i]]
        self.major: list[int] = [SIDES.index(c["major"]) if c.get("major") else -1 for c in cities]
        self.majors: tuple[list[int], list[int]] = (
            [i for i in range(n) if self.major[i] == PERSIA],
            [i for i in range(n) if self.major[i] == GREECE],
        )
        self.amphorae: list[int] = [int(c["amphorae"]) for c in cities]
        self.value: list[int] = [int(c["value"]) for c in cities]
        self.campaigns = int(data["campaigns"])
        self.score_limit = int(data["score_limit"])
        self._build_roads(data)
        self._build_pieces(data)
        self._build_costs(data, options)
        self._build_battle(data)
        self._build_cards(data)
        self.forced_spend = bool(options.get("forced_spend", False))
        self.always_prompt = options.get("reaction_prompts", "held") == "always"
        # sides that win at once, at any moment, on holding both enemy majors (solo rules)
        instant = (data.get("victory") or {}).get("instant", [])
        self.instant_victory = [s in instant for s in SIDES]
        self.instant_sides = [side for side, name in enumerate(SIDES) if name in instant]
        # a rules automaton playing one side (solo); None in the two-player game.
        # The engine attaches it (`attach_automaton`): it is built from these tables.
        self.automaton: Any = None
        self.between_actions = any(self.instant_victory)
        self.setup = data["setup"]
        self._build_start()
        self._build_strings()
        # (origin, fleets, lift) -> every sail from there: filled as games ask (see sail_actions)
        self._sail_actions: dict[tuple[int, int, int], list[str]] = {}
        # (start, bridge) -> the road distance of every city from `start` (see road_distances)
        self._road_distances: dict[tuple[int, bool], list[int]] = {}
        # a legal action played -> its words, read by the steps and never changed
        self.action_words: dict[str, list[str]] = {}

    def attach_automaton(self, automaton: Any) -> None:
        """Let `automaton` play its side; checks between actions become necessary."""
        self.automaton = automaton
        self.between_actions = True

    def _build_roads(self, data: dict[str, Any]) -> None:
        n = self.ncity
        base = [[self.index[m] for m in data["roads"].get(name, [])] for name in self.names]
        a, b = (self.index[x] for x in data["bridge"]["between"])
        self.bridge_ends = (a, b)
        self.bridge_cost = int(data["bridge"]["cost"])
        with_bridge = [list(x) for x in base]
        with_bridge[a].append(b)
        with_bridge[b].append(a)
        self.adj: tuple[list[list[int]], list[list[int]]] = (base, with_bridge)
        self.has_roads: tuple[list[bool], list[bool]] = (
            [bool(base[i]) for i in range(n)], [bool(with_bridge[i]) for i in range(n)])

    def _build_pieces(self, data: dict[str, Any]) -> None:
        pieces = data["pieces"]
        self.total_armies = [int(pieces[s]["armies"]) for s in SIDES]
        self.total_fleets = [int(pieces[s]["fleets"]) for s in SIDES]

    def _build_start(self) -> None:
        """The opening position's pieces, per side and city (copied by every new game)."""
        setup = self.setup
        self.start_armies = [[0] * self.ncity, [0] * self.ncity]
        self.start_fleets = [[0] * self.ncity, [0] * self.ncity]
        for side, name in enumerate(SIDES):
            for city, k in setup[name].get("armies", {}).items():
                self.start_armies[side][self.index[city]] += int(k)
            for city, k in setup[name].get("fleets", {}).items():
                self.start_fleets[side][self.index[city]] += int(k)
        self.kings_dead = int(setup.get("kings_dead", 0))
        self.start_reserve_armies = [self.total_armies[s] - sum(self.start_armies[s])
                                     for s in (PERSIA, GREECE)]
        self.start_reserve_armies[PERSIA] -= self.kings_dead   # on the dead kings' portraits
        self.start_reserve_fleets = [self.total_fleets[s] - sum(self.start_fleets[s])
                                     for s in (PERSIA, GREECE)]

    def _build_costs(self, data: dict[str, Any], options: dict[str, Any]) -> None:
        prep = data["preparation"]
        cheap = bool(options.get("cheap_fleets", False))
        self.budget = [int(prep[s]["budget"]) for s in SIDES]
        self.budget_kept = int(prep["persia"].get("budget_with_kept_card", prep["persia"]["budget"]))
        self.card_cost = [int(prep[s]["card_cost"]) for s in SIDES]
        self.max_cards = [int(prep[s]["max_cards"]) for s in SIDES]
        self.army_cost = [int(prep[s]["army_cost"]) for s in SIDES]
        self.fleet_cost = [
            int(prep[s].get("cheap_fleet_cost", prep[s]["fleet_cost"]) if cheap else prep[s]["fleet_cost"])
            for s in SIDES]
        self.max_fleets = [int(prep[s]["max_fleets"]) for s in SIDES]
        supply = data["supply"]
        self.hand_limit = [int(supply["hand_limit"][s]) for s in SIDES]
        fed = supply.get("home_cities_always_fed", {})
        self.home_fed = [bool(fed.get(s, False)) for s in SIDES]
        # per side, the cities whose armies count for attrition (not home cities fed anyway)
        self.fed_cities = tuple([c for c in range(self.ncity)
                                 if not (self.home_fed[s] and self.major[c] == s)]
                                for s in (PERSIA, GREECE))
        # per side, its own major cities among those: an empty one still feeds armies
        self.fed_majors = tuple([c for c in self.fed_cities[s] if self.major[c] == s]
                                for s in (PERSIA, GREECE))

    def _build_battle(self, data: dict[str, Any]) -> None:
        battle = data["battle"]
        self.max_dice = int(battle["max_dice"])
        self.dice_cap = [int(battle["dice_cap"][s]) for s in SIDES]
        self.home_cap = [int(battle["home_dice_cap"][s]) for s in SIDES]
        self.max_transport = int(battle["max_transport"])
        may = battle.get("may_retreat", {})
        self.may_retreat = [bool(may.get(s, True)) for s in SIDES]
        # said when a battle starts, e.g. "; Persia never retreats" (solo)
        self.retreat_note = "".join(f"; {s.capitalize()} never retreats"
                                    for s, ok in zip(SIDES, self.may_retreat, strict=True) if not ok)
        # cap[side][city]: the highest value a die of `side` counts for there
        self.cap = [[self.home_cap[s] if self.major[c] == s else self.dice_cap[s]
                     for c in range(self.ncity)] for s in range(2)]

    def _build_cards(self, data: dict[str, Any]) -> None:
        self.cards: dict[int, tuple[CardHalf, CardHalf]] = {}
        for spec in data["cards"]:
            num = int(spec["number"])
            self.cards[num] = (CardHalf(num, spec["persia"]), CardHalf(num, spec["greece"]))
        self.card_numbers = sorted(self.cards)
        # effect id -> card number, per side (first card carrying it)
        self.card_of: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for num in self.card_numbers:
            for side in (PERSIA, GREECE):
                self.card_of[side].setdefault(self.cards[num][side].effect, num)
        self.sparta_cards = frozenset(n for n in self.card_numbers if self.cards[n][GREECE].sparta)
        # per side, the card halves that may be played as an event on one's own turn
        self.turn_events: tuple[dict[int, CardHalf], dict[int, CardHalf]] = tuple(
            {n: self.cards[n][side] for n in self.card_numbers
             if self.cards[n][side].effect not in NOT_ON_TURN}
            for side in (PERSIA, GREECE))
        # cities named by card effects (a ruleset may move them)
        self.carneia_city = self.city_param(PERSIA, "carneia", "Sparta")
        self.melas_city = self.city_param(GREECE, "melas_zomos", "Sparta")
        self.defection_city = self.city_param(PERSIA, "defection_of_thebes", "Thebai")
        self.acropolis_city = self.city_param(PERSIA, "acropolis", "Athenai")

    def city_param(self, side: int, effect: str, default: str) -> int:
        num = self.card_of[side].get(effect)
        name = self.cards[num][side].params.get("city", default) if num else default
        return self.index.get(name, -1)

    def param(self, side: int, effect: str, key: str, default: int) -> int:
        num = self.card_of[side].get(effect)
        if num is None:
            return default
        return int(self.cards[num][side].params.get(key, default))

    def sail_actions(self, origin: int, fleets: int, lift: int) -> list[str]:
        """Every `move_sea` from `origin` with 1..`fleets` fleets, each carrying at most one
        army and all together at most `lift`: built once per combination and shared, so a
        caller copies it before changing it."""
        key = (origin, fleets, lift)
        actions = self._sail_actions.get(key)
        if actions is None:
            s = self.s_move_sea
            actions = self._sail_actions[key] = [
                action for port in self.ports if port != origin
                for f in range(1, fleets + 1) for action in s[port][f][:min(f, lift) + 1]]
        return actions

    def road_distances(self, start: int, bridge: bool) -> list[int]:
        """How many roads lead from `start` to each city (BIG: none), with or without the
        pontoon bridge: worked out once per city and shared, so a caller must not change it."""
        key = (start, bridge)
        dist = self._road_distances.get(key)
        if dist is None:
            adj = self.adj[bridge]
            dist = self._road_distances[key] = [BIG] * self.ncity
            dist[start] = 0
            todo = [start]
            for city in todo:
                for nxt in adj[city]:
                    if dist[nxt] == BIG:
                        dist[nxt] = dist[city] + 1
                        todo.append(nxt)
        return dist

    def _build_strings(self) -> None:
        names = self.names
        top = max(self.total_armies) + 1
        self.s_move_land = [[f"move_land {c} {k}" for k in range(top)] for c in names]
        ftop = max(self.total_fleets) + 1
        self.s_move_sea = [[[f"move_sea {c} {f} {a}" for a in range(self.max_transport + 1)]
                            for f in range(ftop)] for c in names]
        self.s_origin_land = [f"origin_land {c}" for c in names]
        self.s_origin_sea = [f"origin_sea {c}" for c in names]
        self.s_raise_army = [f"raise_army {c}" for c in names]
        self.s_raise_fleet = [f"raise_fleet {c}" for c in names]
        for verb in ("retreat", "retreat_sea", "sacrifice", "place", "remove", "relocate",
                     "place_fleet", "attrit"):
            setattr(self, "s_" + verb, [f"{verb} {c}" for c in names])
        self.s_play_event = {n: f"play {n} event" for n in self.card_numbers}
        self.s_play_move = {n: f"play {n} move" for n in self.card_numbers}
        self.s_discard = {n: f"discard {n}" for n in self.card_numbers}
        self.s_react = {n: f"react {n}" for n in self.card_numbers}
        # "7 Cavalry of the Immortals": a card as the log names it, per side
        self.card_names = tuple({n: f"{n} {self.cards[n][side].name}" for n in self.card_numbers}
                                for side in (PERSIA, GREECE))
