"""Map pictures and replay pages: their sizes and build times for one random game per ruleset.

Prints, per shipped ruleset: the actions of a seeded random game, the bytes of
the bare map SVG and of the map at the game's end, the bytes of its replay
page, and the seconds the page took to build (replay and drawing).
"""

from __future__ import annotations

import random
import time

from agon.referee.games import engine_class
from agon.referee.pictures import map_svg
from agon.referee.replay_page import replay_page
from agon.referee.ruleset import load_ruleset, shipped_rulesets

PLAYERS = {"earth-and-water": 2, "epireia": 3, "ten-thousand": 3, "city-states": 4}


def random_record(ruleset_id: str, seed: int) -> dict:
    """A finished random game as the record fields a replay page reads."""
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    count = max(ruleset.players["min"], min(ruleset.players["max"],
                                            PLAYERS.get(ruleset.engine, 1)))
    seats = engine.seats(count)
    state = engine.new_game(seats, seed, {})
    chooser = random.Random(seed)
    actions = []
    while state.pending():
        decision = state.pending()[0]
        action = chooser.choice(list(decision.legal))
        state.apply(decision.seat, action)
        actions.append([decision.seat, action])
    return {"ruleset": {"id": ruleset.id}, "seed": seed, "options": {},
            "seats": {seat: {"name": "random"} for seat in seats}, "actions": actions}


def main(seed: int = 7) -> None:
    print(f"{'ruleset':<22}{'actions':>8}{'bare SVG':>10}{'end SVG':>10}{'page':>12}{'build s':>9}")
    for path in shipped_rulesets():
        ruleset = load_ruleset(path.stem)
        record = random_record(path.stem, seed)
        start = time.perf_counter()
        page = replay_page(record, ruleset)
        elapsed = time.perf_counter() - start
        engine = engine_class(ruleset.engine)(ruleset)
        state = engine.new_game(list(record["seats"]), seed, {})
        for seat, action in record["actions"]:
            state.apply(seat, action)
        end = map_svg(ruleset, state, list(record["seats"]))
        print(f"{path.stem:<22}{len(record['actions']):>8}{len(map_svg(ruleset).encode()):>10,}"
              f"{len(end.encode()):>10,}{len(page.encode()):>12,}{elapsed:>9.2f}")


if __name__ == "__main__":
    main()
