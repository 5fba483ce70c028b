"""One Epireia position: a JSON-ready dict `g` plus the named random streams.

The game is a state machine.  `g["step"]` names the current step; each step
module registers how to list its legal actions and apply them (`registry`).
Choices that interrupt a step (paying a discount, taking a Prestige bonus,
recruiting a figure) sit in the `g["queue"]` and are answered before the step
goes on.  This module holds the position and the questions every rule asks of
it; `state` puts the agon State interface on top.
"""

from __future__ import annotations

import marshal
import random
from typing import Any

from ...engine import Decision, Event
from ...rng import Streams, roll_die
from .tables import Tables


def copy_g(g: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a position's JSON-ready data.

    marshal copies plain dicts, lists, strings and numbers at C speed, several
    times faster than copy.deepcopy or a JSON round trip.
    """
    return marshal.loads(marshal.dumps(g))


class Position:
    def __init__(self, tables: Tables, g: dict[str, Any],
                 rngs: Streams | dict[str, random.Random]) -> None:
        self.t = tables
        self.g = g
        self.rng = rngs if isinstance(rngs, Streams) else Streams(rngs)
        self.events: list[Event] = []
        self.dice_i = 0  # position in the current resolution task's recorded dice
        self.answer_i = 0
        self._listed: list[Decision] = []   # what pending() last listed (apply's quick check)
        # league -> its seats in seat order, worked out on first use: a seat's league is set
        # once (`join_league` forgets these)
        self._members: dict[str, tuple[str, ...]] = {}
        # each league with its seats, the Peloponnesian first (`scenarios.check`), once read
        self.contenders: list[tuple[str, list[str]]] | None = None

    # ------------------------------------------------------------ helpers
    def player(self, seat: str) -> dict[str, Any]:
        return self.g["players"][seat]

    def name(self, seat: str | None) -> str:
        player = self.g["players"].get(seat)
        if player is None:
            return str(seat)
        city = player["city"]
        return f"{seat} ({self.t.cities[city]['name']})" if city else seat

    def league_of(self, seat: str) -> str:
        return self.player(seat)["league"]

    def league_seats(self, league: str) -> frozenset[str]:
        return frozenset(self.members(league))

    def ordered(self, league: str) -> list[str]:
        return list(self.members(league))

    def members(self, league: str) -> tuple[str, ...]:
        """The seats of `league`, in seat order."""
        found = self._members.get(league)
        if found is None:
            players = self.g["players"]
            found = self._members[league] = tuple(
                s for s in self.g["seats"] if players[s]["league"] == league)
        return found

    def join_league(self, seat: str, league: str) -> None:
        self.player(seat)["league"] = league
        self._members.clear()

    def occupants(self, place: str) -> list[tuple[str, str]]:
        """(seat, figure) pairs on a space; solo enemy figures have the seat 'enemy'."""
        g = self.g
        out = [(s, f) for s in g["seats"] for f, pos in g["players"][s]["pos"].items()
               if pos == place]
        if g["enemy"]:
            out += [("enemy", f) for f, pos in g["enemy"]["pos"].items() if pos == place]
        return out

    def occupied(self) -> set[str]:
        """Every place where at least one figure stands (`occupants` is not empty)."""
        g = self.g
        places = {pos for s in g["seats"] for pos in g["players"][s]["pos"].values()}
        if g["enemy"]:
            places.update(g["enemy"]["pos"].values())
        return places

    def emit(self, kind: str, text: str, data: dict[str, Any] | None = None,
             to: frozenset[str] | None = None, args: tuple = ()) -> None:
        """Record an event; `text` may be a template for `args` (see `Event`)."""
        if not self.silent:
            if isinstance(data, dict):   # it may hold the position's own tokens and lists,
                data = copy_g(data)      # and whoever reads the event may edit its data
            self.events.append(Event(kind, text, data, to, args))

    def push(self, item: dict[str, Any]) -> None:
        self.g["queue"].append(item)

    def roll(self, stream: str = "dice") -> int:
        return roll_die(self.rng[stream], self.t.die)

    def constraint(self) -> dict[str, Any]:
        scenario = self.g["scenario"]
        if not scenario or scenario["done"]:
            return {}
        return self.t.scenarios[scenario["id"]].get("constraint", {})

    def augur_effect(self) -> dict[str, Any]:
        number = self.g.get("augur")
        return self.t.augurs[number]["effect"] if number else {}

    def solo_constraint(self) -> dict[str, Any]:
        solo = self.g.get("solo")
        return self.t.solo_scenarios[solo["scenario"]].get("constraint", {}) if solo else {}

    def all_constraints(self) -> dict[str, Any]:
        """Both constraints in force, the scenario's over the solo one's (read only)."""
        g = self.g
        scenario = g["scenario"]
        if not scenario or scenario["done"]:   # the usual cases first: no merging
            return self.solo_constraint()
        if not g.get("solo"):
            return self.t.scenarios[scenario["id"]].get("constraint", {})
        solo, card = self.solo_constraint(), self.constraint()
        if not solo or not card:
            return solo or card
        return {**solo, **card}

    # ------------------------------------------------------------ copying and persistence
    def copy(self) -> Position:
        other = self.__class__(self.t, copy_g(self.g), self.rng.copy())
        other.silent = self.silent
        return other

    def to_json(self) -> dict[str, Any]:
        return {"game": "epireia", "g": copy_g(self.g), "rng": self.rng.to_json()}

    @classmethod
    def from_json(cls, tables: Tables, data: dict[str, Any]) -> Position:
        g = copy_g(data["g"])
        relink_battle_tokens(g)
        return cls(tables, g, Streams.from_json(data["rng"]))


def relink_battle_tokens(g: dict[str, Any]) -> None:
    """Make the great battle's tokens the very objects of the reserves and Greek cities again.

    In play a token gathered for the battle is one object, in its league's reserve (or on
    its Greek city) and in the battle's pool or on its slot; JSON writes it twice and reads
    back two.  `views.determinize` resamples each hidden token once, by identity, so a
    position read from JSON would get two powers for one token.  Tokens of one deck and
    power are alike, so each battle token is matched with a reserve token that equals it.
    """
    battle = g.get("battle")
    if not battle:
        return
    for side, pool in battle["pool"].items():
        spare: dict[tuple[str, int], list[dict[str, Any]]] = {}
        owned = list(g["leagues"][side]["reserve"])
        owned += [c["token"] for c in g["integrated"].values() if c["league"] == side and c["token"]]
        for token in owned:
            spare.setdefault((token["deck"], token["power"]), []).append(token)

        battle["pool"][side] = [_same(spare, t) for t in pool]
        placed = battle["placed"][side]
        for key in list(placed):
            placed[key] = _same(spare, placed[key])
    enemy = g.get("enemy")
    if enemy and "enemy" in battle["placed"]:   # the solo enemy's army lies where it was laid out
        placed = battle["placed"]["enemy"]
        for key in list(placed):
            placed[key] = enemy["army"].get(key, placed[key])


def _same(spare: dict[tuple[str, int], list[dict[str, Any]]], token: dict[str, Any]) -> dict[str, Any]:
    """A token of `spare` equal to `token`, taken out of it (`token` itself if none is left)."""
    alike = spare.get((token["deck"], token["power"]))
    return alike.pop() if alike else token
