"""Semantic checks of an Epireia ruleset's data, beyond its JSON Schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Problem

FIGURE_ABILITIES = {"territory_attack", "battle_bonus", "on_take", "integration_bonus",
                    "token_discount", "brigand_attack", "reroll", "empire_bonus", "collection",
                    "wins_ties", "donate_prestige", "prestige_on_take"}
ADMIN_ABILITIES = {"free_token", "extra_actions", "prestige", "exchange", "gain",
                   "free_build_discount"}


def unique(items: list[dict[str, Any]], path: str, key: str = "id") -> Iterator[Problem]:
    seen = set()
    for i, item in enumerate(items):
        if item[key] in seen:
            yield Problem((path, i, key), f"duplicate {key} {item[key]!r}")
        seen.add(item[key])


def amounts(values: dict[str, Any], resources: set[str], path: tuple,
            extra: frozenset[str] = frozenset()) -> Iterator[Problem]:
    for key, n in values.items():
        if key not in resources and key not in extra:
            yield Problem(path + (key,), f"unknown resource {key!r}")
        elif isinstance(n, int) and n < 0:
            yield Problem(path + (key,), "amounts may not be negative")


def problems(data: dict[str, Any]) -> Iterator[Problem]:
    resources = set(data["resources"])
    leagues = set(data["leagues"])
    cities = {c["id"] for c in data["cities"]}
    decks = {t["id"]: t for t in data["tokens"]}
    buildings = {b["id"] for b in data["buildings"]}
    territories = {t["id"] for t in data["territories"]}
    empires = {e["id"] for e in data["empires"]}
    kinds = {t["type"] for t in data["tokens"]}
    for name in ("cities", "buildings", "figures", "tokens", "empires", "territories", "administrators"):
        yield from unique(data[name], name)
    if sorted(data["city_order"]) != sorted(cities):
        yield Problem(("city_order",), "must list every city exactly once")
    for n, seating in data["seating"].items():
        if len(seating) != int(n) or not set(seating) <= leagues:
            yield Problem(("seating", n), f"needs {n} league names from {sorted(leagues)}")
        elif int(n) >= len(leagues) and set(seating) != leagues:
            missing = ", ".join(sorted(leagues - set(seating)))
            yield Problem(("seating", n), f"seats nobody in the {missing} league: the great "
                                          "battle needs a player in each league")
    for key in ("development_order", "diplomacy_order", "empire_roll_order"):
        if sorted(data[key]) != sorted(leagues):
            yield Problem((key,), "must list both leagues")
    for i, city in enumerate(data["cities"]):
        if city.get("league") and city["league"] not in leagues:
            yield Problem(("cities", i, "league"), f"unknown league {city['league']!r}")
        if city["integration"]["token"] not in decks:
            yield Problem(("cities", i, "integration", "token"), "unknown token deck")
        if not any(f["city"] == city["id"] for f in data["figures"]):
            yield Problem(("cities", i), f"city {city['id']} has no influential figures")
    for i, fig in enumerate(data["figures"]):
        if fig["city"] not in cities:
            yield Problem(("figures", i, "city"), f"unknown city {fig['city']!r}")
        for key in fig.get("ability", {}):
            if key not in FIGURE_ABILITIES:
                yield Problem(("figures", i, "ability", key), f"unknown figure ability {key!r}")
        discount = fig.get("ability", {}).get("token_discount")
        if discount and discount["type"] not in kinds:
            yield Problem(("figures", i, "ability", "token_discount"), "unknown token type")
    for i, admin in enumerate(data["administrators"]):
        if len(admin["ability"]) != 1 or not set(admin["ability"]) <= ADMIN_ABILITIES:
            yield Problem(("administrators", i, "ability"), f"one of {sorted(ADMIN_ABILITIES)}")
    for i, b in enumerate(data["buildings"]):
        yield from amounts(b["cost"], resources, ("buildings", i, "cost"))
        if b["effect"].get("unlocks") and b["effect"]["unlocks"] not in decks:
            yield Problem(("buildings", i, "effect", "unlocks"), "unknown token deck")
    for i, t in enumerate(data["tokens"]):
        yield from amounts(t["cost"], resources, ("tokens", i, "cost"))
        if t.get("needs") and t["needs"] not in buildings:
            yield Problem(("tokens", i, "needs"), f"unknown building {t['needs']!r}")
    for i, front in enumerate(data["battlefield"]["fronts"]):
        for r, row in enumerate(front["rows"]):
            for kind in row:
                if kind not in kinds:
                    yield Problem(("battlefield", "fronts", i, "rows", r), f"unknown token type {kind!r}")
    fronts = {f["id"] for f in data["battlefield"]["fronts"]}
    if data["battlefield"]["tiebreak_front"] not in fronts:
        yield Problem(("battlefield", "tiebreak_front"), "unknown front")
    if data["battlefield"]["tiebreak_resource"] not in resources:
        yield Problem(("battlefield", "tiebreak_resource"), "unknown resource")
    for i, city in enumerate(data["cities"]):
        yield from amounts(city["integration"]["gain"], resources, ("cities", i, "integration", "gain"))
    for i, e in enumerate(data["empires"]):
        yield from amounts(e["reward"], resources, ("empires", i, "reward"), frozenset({"prestige", "token"}))
        if e["reward"].get("token") and e["reward"]["token"] not in decks:
            yield Problem(("empires", i, "reward", "token"), "unknown token deck")
        if len(e["targets"]) != 2:
            yield Problem(("empires", i, "targets"), "needs the 1-figure and 2-figure numbers")
    for i, t in enumerate(data["territories"]):
        yield from amounts(t["tax"], resources, ("territories", i, "tax"))
    yield from ability_problems(data, resources)
    top = data["prestige_track"]["max"]
    if data["start"]["prestige"] > top:
        yield Problem(("start", "prestige"), f"{data['start']['prestige']} is beyond the top "
                                             f"of the prestige track ({top})")
    if data["donate"]["min"] > data["donate"]["max"]:
        yield Problem(("donate",), f"min {data['donate']['min']} is larger than max "
                                   f"{data['donate']['max']}: nobody could donate")
    for i, bonus in enumerate(data["prestige_track"]["bonuses"]):
        if not 0 < bonus["level"] <= top:
            yield Problem(("prestige_track", "bonuses", i, "level"), f"must be within 1..{top}")
    league_sizes = {str(seating.count(league)) for seating in data["seating"].values()
                    for league in set(seating)}
    for i, s in enumerate(data["scenarios"]):
        if s["reward"] not in decks:
            yield Problem(("scenarios", i, "reward"), "unknown token deck")
        yield from constraint_problems(s.get("constraint", {}), ("scenarios", i, "constraint"),
                                       resources, territories)
        by_size = s["objective"].get("territories_held")
        for size in sorted(league_sizes - set(by_size)) if by_size is not None else ():
            yield Problem(("scenarios", i, "objective", "territories_held"),
                          f"needs a number for leagues of {size} cities")
        kind = s["objective"].get("tokens_per_city", {}).get("type")
        if kind and kind not in kinds:
            yield Problem(("scenarios", i, "objective", "tokens_per_city", "type"),
                          f"unknown token type {kind!r}")
    for act in (1, 2, 3):
        if not any(s["act"] == act for s in data["scenarios"]):
            yield Problem(("scenarios",), f"act {act} has no scenario card")
    yield from solo_problems(data, decks, cities, territories | empires, fronts)


def ability_problems(data: dict[str, Any], resources: set[str]) -> Iterator[Problem]:
    """Resources named by figures' and administrators' abilities exist."""
    for i, fig in enumerate(data["figures"]):
        for key in ("on_take", "collection"):
            yield from amounts(fig.get("ability", {}).get(key, {}), resources,
                               ("figures", i, "ability", key))
    for i, admin in enumerate(data["administrators"]):
        yield from amounts(admin["ability"].get("gain", {}), resources,
                           ("administrators", i, "ability", "gain"))


def constraint_problems(constraint: dict[str, Any], path: tuple, resources: set[str],
                        territories: set[str]) -> Iterator[Problem]:
    for t in constraint.get("brigands", []):
        if t not in territories:
            yield Problem((*path, "brigands"), f"unknown territory {t!r}")
    if "upkeep" in constraint:
        yield from amounts(constraint["upkeep"]["pay"], resources, (*path, "upkeep", "pay"))


def solo_problems(data: dict[str, Any], decks: dict, cities: set[str], places: set[str],
                  fronts: set[str]) -> Iterator[Problem]:
    solo = data.get("solo")
    if not solo:
        return
    if len(solo["d12"]) != data["die"]:
        yield Problem(("solo", "d12"), f"needs one entry per face of the d{data['die']}")
    for j, place in enumerate(solo["d12"]):
        if place not in places:
            yield Problem(("solo", "d12", j), f"unknown empire or territory {place!r}")
    for city, figure in solo["enemy_figures"].items():
        if city not in cities or not any(f["id"] == figure for f in data["figures"]):
            yield Problem(("solo", "enemy_figures", city), "unknown city or figure")
    resources, territories = set(data["resources"]), {t["id"] for t in data["territories"]}
    for i, s in enumerate(solo["scenarios"]):
        yield from constraint_problems(s.get("constraint", {}),
                                       ("solo", "scenarios", i, "constraint"), resources,
                                       territories)
    for i, augur in enumerate(solo["augurs"]):
        effect = augur["effect"]
        yield from amounts(effect.get("collection", {}), resources,
                           ("solo", "augurs", i, "effect", "collection"))
        if effect.get("brigand_raid") and effect["brigand_raid"] not in territories:
            yield Problem(("solo", "augurs", i, "effect", "brigand_raid"),
                          f"unknown territory {effect['brigand_raid']!r}")
    columns = data["battlefield"]["columns"]
    leagues = set(data["leagues"])
    for i, s in enumerate(solo["scenarios"]):
        yield from solo_card_problems(s, ("solo", "scenarios", i), cities, leagues,
                                      set(solo["enemy_figures"]))
        for front in sorted(fronts - set(s["army"])):
            yield Problem(("solo", "scenarios", i, "army"), f"no army for the {front} front")
        for front, rows in s["army"].items():
            if front not in fronts:
                yield Problem(("solo", "scenarios", i, "army", front), "unknown front")
            for r, row in enumerate(rows):
                if len(row) != columns or not set(row) <= set(decks):
                    yield Problem(("solo", "scenarios", i, "army", front, r),
                                  f"needs {columns} token decks")
    numbers = [a["number"] for a in solo["augurs"]]
    if len(set(numbers)) != len(numbers):
        yield Problem(("solo", "augurs"), "augur numbers must be unique")
    for i, s in enumerate(solo["scenarios"]):
        if s["turns"] > len(numbers):
            yield Problem(("solo", "scenarios", i, "turns"), "more turns than augur cards")


def solo_card_problems(card: dict[str, Any], path: tuple, cities: set[str], leagues: set[str],
                       with_figures: set[str]) -> Iterator[Problem]:
    """A solo scenario card names real cities and leagues, and enemies for every league."""
    if card.get("city") and card["city"] not in cities:
        yield Problem((*path, "city"), f"unknown city {card['city']!r}")
    if card.get("league") and card["league"] not in leagues:
        yield Problem((*path, "league"), f"unknown league {card['league']!r}")
    if card.get("enemies"):
        lists = [((*path, "enemies"), card["enemies"])]
    elif card.get("enemies_by_league"):
        by_league = card["enemies_by_league"]
        lists = [((*path, "enemies_by_league", lg), by_league.get(lg)) for lg in sorted(leagues)]
    else:
        yield Problem(path, "needs enemies, or enemies_by_league")
        return
    for where, enemies in lists:
        if enemies is None:
            yield Problem(where[:-1], f"needs enemies for the {where[-1]} league")
        for city in enemies or ():
            if city == card.get("city"):
                yield Problem(where, f"{city} is the scenario's own city, not an enemy")
            elif city not in with_figures:
                yield Problem(where, f"enemy city {city!r} has no figure in solo.enemy_figures")


def setup_problems(players: dict[str, Any], options: dict[str, Any],
                   data: dict[str, Any]) -> Iterator[Problem]:
    """Solo rulesets seat one player and let it choose a scenario card; the others
    need a seating, and cities enough, for every player count they allow."""
    if players.get("seats"):
        yield Problem(("players", "seats"), "Epireia names its seats p1, p2, ...: leave "
                                            "seats out")
    if data.get("solo"):
        if players["max"] != 1:
            yield Problem(("players", "max"), "a ruleset with a solo section is played by "
                                              "1 player")
        yield from scenario_option_problems(options.get("scenario"), data["solo"])
        return
    if players["min"] < 2:
        yield Problem(("players", "min"), "without a solo section Epireia needs at least "
                                          "2 players")
    for count in range(max(2, players["min"]), players["max"] + 1):
        seating = data["seating"].get(str(count))
        if seating is None:
            yield Problem(("players", "max"), f"data.seating has no seating for {count} "
                                              "players")
            continue
        if len(data["cities"]) < count:
            yield Problem(("players", "max"), f"{count} players need a city each but "
                                              f"data.cities has {len(data['cities'])}")
        for league in set(seating):
            open_to = [c for c in data["cities"] if c.get("league") in (None, league)]
            if len(open_to) < seating.count(league):
                yield Problem(("players", "max"), f"{count} players seat "
                                                  f"{seating.count(league)} {league} cities "
                                                  f"but data.cities has {len(open_to)}")


def scenario_option_problems(option: dict[str, Any] | None,
                             solo: dict[str, Any]) -> Iterator[Problem]:
    """The `scenario` option offers solo scenario cards only, one of them by default."""
    cards = [s["id"] for s in solo["scenarios"]]
    if option is None:
        yield Problem(("options",), f"a solo ruleset declares a scenario option "
                                    f"(choices: {', '.join(cards)})")
        return
    if not option.get("choices"):
        yield Problem(("options", "scenario"), f"list the scenario cards as choices: "
                                               f"{', '.join(cards)}")
    for i, choice in enumerate(option.get("choices") or ()):
        if str(choice) not in cards:
            yield Problem(("options", "scenario", "choices", i),
                          f"no solo scenario card {choice!r} (cards: {', '.join(cards)})")
    if str(option.get("default")) not in cards:
        yield Problem(("options", "scenario", "default"),
                      f"the default must be a scenario card ({', '.join(cards)})")
