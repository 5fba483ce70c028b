"""The schedule of a tournament: who plays whom, in which seats, on which seeds.

The schedule (`make_plan`) is a pure function of the seats, the entrants,
the number of seeds and the master seed, so the same command always plans the
same games under the same keys:

* **Seeds.** Seed ``i`` of a tournament with master seed ``S`` is the first 63
  bits of ``sha256("agon-tournament:S:i")``.  Every game with seed index
  ``i`` uses that seed, whoever plays it: the duplicate format.
* **Two or more seats.** Every combination of P entrants out of the field
  plays, on every seed, every seat assignment: all permutations when P <= 4
  (2 for a duel, 6 for three players, 24 for four, so that in team games
  every partnership meets every other), the P cyclic rotations when P >= 5
  (each entrant sits in each seat exactly once; a balanced subset of the P!
  permutations).  ``--games N`` is the number of seeds, so a duel pairing
  plays 2N games.
* **Solo.** Every entrant plays the same N seeds against the game itself.
* **Gauntlet.** With ``--gauntlet NAME`` only the combinations that contain
  NAME play: one bot against all the others, not every pairing.
* **Units.** The games of one combination on one seed (a duel's game pair,
  one seed in both seatings) form a unit: they are handed to a worker
  together (`batches`), and ``should_stop`` (the SPRT) is asked after each
  unit completes.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
import secrets
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from agon.bots import builtin_name

FULL_PERMUTATIONS_UP_TO = 4  # seats; above this the cyclic rotations are played
# The most games one tournament plans: the plan is held in memory (about 1 KB a game)
# before the first game, so a mistyped --games must not fill the machine.
MAX_PLANNED_GAMES = 10_000_000
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")


class TournamentError(Exception):
    """A tournament that cannot run as asked; the message says why."""


# -- entrants and the schedule -----------------------------------------------

@dataclass(frozen=True)
class Entrant:
    """One bot in the field: the name it is listed under and how to start it."""

    name: str
    spec: str


def parse_entrant(text: str) -> Entrant:
    """``[NAME=]BOT``: BOT is a built-in bot name or a command line.

    The text before the first ``=`` is the name when it is one (letters,
    digits, ``_ . + -``); otherwise the whole text is the bot and the name is
    derived from it (`derive_name`).
    """
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if sep and NAME_PATTERN.match(name):
        if not spec:
            raise TournamentError(f"--bot {text!r}: nothing after {name}= (e.g. {name}=random)")
    else:
        spec = text.strip()
        name = derive_name(spec)
        if not name:
            raise TournamentError(f"--bot takes [NAME=]BOT (e.g. r1=random), not {text!r}")
    if spec == "human":
        raise TournamentError(f"bot {name}: a tournament cannot seat a human player")
    return Entrant(name, spec)


INTERPRETERS = re.compile(r"^(python[0-9.]*|pypy[0-9.]*|bash|sh|zsh|node|ruby|perl|java|env)$")


def derive_name(spec: str) -> str:
    """The name of an entrant given without one: a built-in bot's own name, else
    its program's (``python3 -m agon.bots.random`` -> random, ``./bots/my_bot.py
    --fast`` -> my_bot); "" when nothing usable is left."""
    builtin = builtin_name(spec)
    if builtin:
        return builtin
    try:
        words = shlex.split(spec)
    except ValueError:
        words = spec.split()
    program = ""
    for number, word in enumerate(words):
        if number == 0 and INTERPRETERS.match(Path(word).name) and len(words) > 1:
            continue
        if word == "-m" and number + 1 < len(words):
            program = words[number + 1].rpartition(".")[2]
            break
        if not word.startswith("-"):
            program = Path(word).stem
            break
    return re.sub(r"[^A-Za-z0-9_.+-]+", "_", program).strip("_.")[:40]



class GameTask(NamedTuple):
    """One game of the schedule, named by a key that stays the same on resume.

    A named tuple, not a dataclass: a tournament makes one per game before the
    first starts and sends each to a worker, and a tuple is five times quicker
    to make and smaller to send."""

    key: str
    index: int  # position in the schedule; aggregation follows this order
    seed_index: int
    seed: int
    seating: tuple[tuple[str, str], ...]  # (seat, entrant name), in seat order
    group: int  # which group of entrants plays it: its number in the plan

    def info(self) -> dict[str, Any]:
        return {"key": self.key, "index": self.index, "seed_index": self.seed_index,
                "seed": self.seed, "seating": dict(self.seating)}

    @property
    def unit(self) -> tuple[int, int]:
        """The games that belong together: this seed, this group, every seating."""
        return self.seed_index, self.group


@dataclass
class Plan:
    """What a tournament plays: its kind, the seats and the games in order."""

    kind: str  # "solo", "duel" (two seats) or "multiplayer"
    seats: list[str]
    teams: dict[str, list[str]] | None
    tasks: list[GameTask]


SEED_BITS = 63  # a game seed: too many for a bot to try them all, or to tabulate its own seed


def fresh_seed() -> int:
    """A seed nobody can guess: the default of a game's or a tournament's seed.  A seed
    a bot can guess (1, a date) lets it deal the cards and roll the dice ahead."""
    return secrets.randbits(SEED_BITS)


def derive_seed(master: int, index: int) -> int:
    """The seed of seed index `index`: stable across runs, machines and Pythons."""
    digest = hashlib.sha256(f"agon-tournament:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def seat_assignments(group: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The orders in which a group of entrants takes the seats."""
    if len(group) <= FULL_PERMUTATIONS_UP_TO:
        return list(itertools.permutations(group))
    return [group[i:] + group[:i] for i in range(len(group))]


def planned_games(seats: int, entrants: int, games: int, gauntlet: bool = False) -> int:
    """How many games `make_plan` would plan (seeds x groups x seatings), counted
    without making them."""
    if seats == 1:
        return games * entrants
    groups = math.comb(entrants - 1, seats - 1) if gauntlet else math.comb(entrants, seats)
    orders = math.factorial(seats) if seats <= FULL_PERMUTATIONS_UP_TO else seats
    return games * groups * orders


def plan_size_problem(seats: int, entrants: int, games: int, gauntlet: bool = False
                      ) -> str | None:
    """Why a tournament plans too many games to hold, or None."""
    count = planned_games(seats, entrants, games, gauntlet)
    if count <= MAX_PLANNED_GAMES:
        return None
    return (f"plans {count:,} games (seeds x groups of bots x seatings); a tournament "
            f"plans at most {MAX_PLANNED_GAMES:,}")


def make_plan(seats: list[str], teams: dict[str, list[str]] | None,
              entrants: list[str], games: int, seed: int,
              gauntlet: str | None = None) -> Plan:
    """The full schedule: seed-major, so a partial run covers every pairing evenly.

    With a `gauntlet` bot, only the groups that include it play.
    """
    if len(seats) == 1:
        kind = "solo"
        groups = [(name,) for name in entrants]
        orders = {group: [group] for group in groups}
    else:
        kind = "duel" if len(seats) == 2 else "multiplayer"
        groups = [group for group in itertools.combinations(entrants, len(seats))
                  if gauntlet is None or gauntlet in group]
        orders = {group: seat_assignments(group) for group in groups}
    layouts = []   # each seating of each group, with its name in the games' keys
    for number, group in enumerate(groups):
        for order in orders[group]:
            seating = tuple(zip(seats, order, strict=True))
            layouts.append((number, seating, ",".join(f"{s}={b}" for s, b in seating)))
    tasks: list[GameTask] = []
    for seed_index in range(games):
        game_seed = derive_seed(seed, seed_index)
        for number, seating, name in layouts:
            tasks.append(GameTask(f"{seed_index}:{name}", len(tasks), seed_index, game_seed,
                                  seating, number))
    return Plan(kind, list(seats), teams, tasks)


# -- the tournament ----------------------------------------------------------


def units(tasks: list[GameTask]) -> list[list[GameTask]]:
    """`tasks` grouped by unit, in schedule order (a unit's games are consecutive)."""
    grouped: dict[tuple[int, int], list[GameTask]] = {}
    for task in tasks:
        grouped.setdefault(task.unit, []).append(task)
    return list(grouped.values())


def batches(tasks: list[GameTask], workers: int, *, spread: int = 4,
            most: int = 16) -> Iterator[list[GameTask]]:
    """Whole units of `tasks` in batches for `workers`: large while much is left, down
    to one unit at the end (guided scheduling), so that the workers finish together
    while the cost of handing out work stays small.  A batch takes about 1/`spread`
    of a worker's share of what is left, at most `most` units."""
    grouped = units(tasks)
    taken = 0
    while taken < len(grouped):
        left = len(grouped) - taken
        size = max(1, min(most, left // (spread * max(1, workers))))
        yield [task for unit in grouped[taken:taken + size] for task in unit]
        taken += size
