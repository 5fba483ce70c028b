"""A tournament as set up: `setup` checks everything a user can get wrong before a
game starts (the ruleset and its options, the player count, the bots and their
names, --gauntlet and --sprt) and returns the `Tournament`: what to plan, to play
(`referee.tournament.run_tournament`) and to write in its journal's header.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from agon.bots import BUILTIN, builtin_name

from .journal_lines import JOURNAL_FORMAT
from .players import Limits
from .ruleset import Ruleset, RulesetsPath, load_ruleset
from .sandbox import Sandbox
from .schedule import Entrant, Plan, TournamentError, make_plan
from .sprt import SprtSpec
from .worker import engine_for


def check_entrant(entrant: Entrant) -> None:
    """Fail early on a bot that names neither a built-in bot nor a program."""
    from .players import builtin_hint, make_player

    try:
        make_player(entrant.spec, seed=0).close()
    except ValueError as exc:
        hint = builtin_hint(entrant.spec, BUILTIN)
        named = str(exc).startswith(f"{entrant.name} ")  # "ismcts has no parameter ..."
        raise TournamentError(f"{'' if named else f'bot {entrant.name}: '}{exc}{hint}") \
            from None


@dataclass
class Tournament:
    """A validated tournament: everything needed to plan and play it."""

    ruleset: Ruleset
    ruleset_ref: str
    entrants: list[Entrant]
    games: int
    seed: int
    players: int
    options: dict[str, Any]
    limits: Limits
    seats: list[str] = field(default_factory=list)
    teams: dict[str, list[str]] | None = None
    gauntlet: str | None = None  # the one bot every game includes
    sprt: SprtSpec | None = None  # stop a two-bot match once H0 or H1 is accepted
    rulesets_path: RulesetsPath = ()
    sandbox: Sandbox = field(default_factory=Sandbox)  # resolved here (auto made concrete)
    asked_sandbox: Sandbox = field(default_factory=Sandbox)  # as asked: cluster workers resolve it

    def plan(self) -> Plan:
        return make_plan(self.seats, self.teams, [e.name for e in self.entrants],
                         self.games, self.seed, self.gauntlet)

    def summary(self, kind: str, total: int, played: int) -> dict[str, Any]:
        """What the standings say about the tournament itself (their `meta`)."""
        rs = self.ruleset
        what = {"duel": "two seats, every seat assignment",
                "multiplayer": f"{self.players} seats",
                "solo": "solo"}[kind]
        if self.gauntlet:
            what += f", gauntlet of {self.gauntlet}"
        games = _counted(total, "game") if played == total else \
            f"{played} of {_counted(total, 'game')}"
        title = (f"{rs.name} ({rs.ref}): {_counted(len(self.entrants), 'bot')}, {games} "
                 f"({_counted(self.games, 'seed')}, {what}), seed {self.seed}")
        return {"title": title, "ruleset": {"id": rs.id, "version": rs.version,
                                            "sha256": rs.sha256},
                "entrants": {e.name: e.spec for e in self.entrants},
                "seed": self.seed, "seeds": self.games, "players": self.players,
                "games": total, "played": played, "gauntlet": self.gauntlet,
                "options": self.options}

    def _limits(self) -> dict[str, float]:
        """The time limits a resume keeps: the handshake's only when it is not the
        default, so that journals written before it could be set still match."""
        limits = {"move": self.limits.move, "game": self.limits.game}
        if self.limits.handshake != Limits().handshake:
            limits["handshake"] = self.limits.handshake
        return limits

    def header(self) -> dict[str, Any]:
        """The journal's first line: what must match for a resume to be valid."""
        return {
            "format": JOURNAL_FORMAT,
            "ruleset": {"ref": self.ruleset_ref, "id": self.ruleset.id,
                        "version": self.ruleset.version, "sha256": self.ruleset.sha256},
            "bots": {e.name: e.spec for e in self.entrants},
            # the entrants' order (`bots` is written with its keys sorted): a resumed
            # tournament lists its pairs the same way round, first - second
            "order": [e.name for e in self.entrants],
            "games": self.games,
            "seed": self.seed,
            "players": self.players,
            "options": self.options,
            "limits": self._limits(),
            "gauntlet": self.gauntlet,
            "sprt": self.sprt.text() if self.sprt else None,
        }


def choose_player_count(ruleset: Ruleset, requested: int | None) -> int:
    """P: --players if given, else the fixed seats, else the ruleset's minimum.

    A ruleset whose minimum is 1 but that also seats several players is
    played with 2 by default; solo play is for rulesets whose maximum is 1
    (or an explicit --players 1).
    """
    low = int(ruleset.players.get("min", 1))
    high = int(ruleset.players.get("max", low))
    if requested is None:
        return ruleset.default_players()
    if not low <= requested <= high:
        raise TournamentError(f"{ruleset.id} is played by {low} to {high} players, "
                              f"not {requested}")
    return requested


def _counted(count: int, word: str) -> str:
    """'1 seed', '2 seeds'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def setup(ruleset_ref: str, entrants: list[Entrant], *, games: int, seed: int,
          players: int | None = None, options: dict[str, str] | None = None,
          limits: Limits | None = None, gauntlet: str | None = None,
          sprt: SprtSpec | None = None, rulesets_path: RulesetsPath = (),
          sandbox: Sandbox | None = None) -> Tournament:
    """Check everything a user can get wrong before a single game starts."""
    ruleset = load_ruleset(ruleset_ref, rulesets_path)
    resolved = ruleset.resolve_options(options or {})
    count = choose_player_count(ruleset, players)
    check_names(entrants)
    names = [e.name for e in entrants]
    if gauntlet is not None and gauntlet not in names:
        raise TournamentError(f"--gauntlet {gauntlet}: no bot of that name "
                              f"(the bots are {', '.join(names)})")
    if gauntlet is not None and count == 1:
        raise TournamentError("--gauntlet needs a game of two or more seats: in a solo "
                              "game every bot already plays alone against the game")
    if sprt is not None and (len(entrants) != 2 or count != 2):
        raise TournamentError(f"--sprt is for a match between two bots in a two-seat game, "
                              f"not {len(entrants)} bots in {count}-seat games")
    if len(entrants) < count:
        raise TournamentError(
            f"a {count}-player tournament needs at least {count} bots, got {len(entrants)} "
            "(the same bot may enter twice under two names: --bot a=random --bot b=random)")
    if games < 1:
        raise TournamentError("--games must be at least 1")
    for entrant in entrants:
        check_entrant(entrant)
    engine = engine_for(ruleset)  # forked workers inherit it ready-built
    try:
        seats = engine.seats(count)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    return Tournament(ruleset, str(ruleset_ref), list(entrants), games, seed, count, resolved,
                      limits or Limits(), list(seats), engine.teams(list(seats)),
                      gauntlet=gauntlet, sprt=sprt, rulesets_path=tuple(rulesets_path),
                      sandbox=_sandbox_for(entrants, sandbox or Sandbox()),
                      asked_sandbox=sandbox or Sandbox())


def check_names(entrants: list[Entrant]) -> None:
    """Every entrant needs its own name: the tables and the journal key on it."""
    specs: dict[str, list[str]] = {}
    for entrant in entrants:
        specs.setdefault(entrant.name, []).append(entrant.spec)
    for name, given in specs.items():
        if len(given) > 1:
            raise TournamentError(
                f"bot name {name!r} given twice ({' and '.join(map(repr, given))}): name each "
                f"entrant with NAME=BOT, e.g. --bot {shlex.quote(f'{name}1={given[0]}')} "
                f"--bot {shlex.quote(f'{name}2={given[1]}')} (the same program may enter "
                "under two names)")


def _sandbox_for(entrants: list[Entrant], sandbox: Sandbox) -> Sandbox:
    """The sandbox resolved here, once, where bot programs will run (games get it so)."""
    if all(builtin_name(entrant.spec) for entrant in entrants):
        return sandbox
    return sandbox.resolved()
