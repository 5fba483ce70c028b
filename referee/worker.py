"""Where a tournament's games are played: a worker process, a Dask worker, or the main process.

A worker keeps between games what can serve the next one:

* the engine, built once per ruleset (`engine_for`);
* a few processes per external bot (`KeptBots`): a bot that speaks protocol
  1.1 plays game after game in the same process (``newgame`` instead of
  ``quit``), and is started again only after a fault of its own (crash,
  timeout, illegal answer, a failed ``newgame``) or when its CPU time nears
  its lifetime limit (`referee.sandbox.Cell.room_for_a_game`).  Each process
  only ever plays one entrant, so nothing of one game reaches another player,
  and is never dealt one game seed twice: the duplicate format plays each
  seed again with the seats swapped, and a process that remembered the first
  deal would know its opponent's cards (`DEALS_APART` processes per entrant
  serve the games of one seed).  Each game's logs go to that game's folder
  (with ``keep_logs="notable"``, only a game in which the program wrote to
  stderr, sent ``info`` or forfeited gets them).

Each game comes back as a `Played`: the journal line's body (canonical JSON) and
the short row the standings read.  The line is signed by the worker process
that played it, a fork of the referee that holds its key already, or else by
the main process: a Dask worker never gets the key, so it never leaves this
machine.  A game that raises is an error row, never a crashed tournament.
"""

from __future__ import annotations

import os
import pickle
import re
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agon.bots import builtin_name

from .engine import Engine
from .journal_lines import BINDING
from .match import hello_for, player_seed, run_match
from .players import (
    BuiltinSpec,
    InProcessPlayer,
    Limits,
    Player,
    SubprocessPlayer,
    builtin_spec,
    make_player,
)
from .ruleset_model import Ruleset
from .sandbox import Sandbox
from .schedule import GameTask
from .signing import Keyring, canonical

ROW_KEYS = ("result", "forfeits", "teams")  # what the standings read of a record


@dataclass(frozen=True)
class Settings:
    """What every game of one tournament shares: sent to each worker once."""

    ruleset: Ruleset
    options: dict[str, Any]
    limits: Limits
    specs: dict[str, str]  # entrant name -> spec
    log_dir: str | None  # external bots' logs: <log_dir>/<game key>/<seat>.log
    sandbox: Sandbox = field(default_factory=Sandbox)  # hides the log folder from the bots
    keep_logs: str = "notable"  # players.KEEP_LOGS: which games' logs are written
    spin: float = 0.0  # seconds the referee waits for a bot's answer without sleeping
    binding: str | None = None  # the journal's header digest each game line carries


@dataclass(frozen=True)
class Played:
    """One finished game: its journal line and its row for the standings."""

    key: str
    body: bytes  # the journal line's canonical JSON: unsigned, or `signed` already
    row: dict[str, Any]  # tournament, result, forfeits, teams (or error)
    signed: bool = False  # by a worker forked from the referee (`worker_pool`, `local:N`)

    def signed_with(self, keyring: Keyring) -> Played:
        """This game with its journal line signed: in a worker process forked from
        the referee, which holds the key already, so that the main process, which
        every worker waits on, does not."""
        return Played(self.key, keyring.signed_line(self.body), self.row, signed=True)


def short_row(entry: dict[str, Any]) -> dict[str, Any]:
    """What the standings read of a journal line: the record without its moves."""
    if "error" in entry:
        return {"tournament": entry["tournament"], "error": entry["error"]}
    row = {key: entry.get(key) for key in ROW_KEYS}
    row["tournament"] = entry["tournament"]
    return row


# -- what a worker keeps -------------------------------------------------------------

_ENGINES: dict[str, Engine] = {}  # ruleset sha256 -> engine, for game after game


def engine_for(ruleset: Ruleset) -> Engine:
    """This process's engine for `ruleset`, built once (or inherited ready-built)."""
    engine = _ENGINES.get(ruleset.sha256)
    if engine is None:
        from .games import engine_class  # engines import lazily

        engine = _ENGINES[ruleset.sha256] = engine_class(ruleset.engine)(ruleset)
    return engine


DEALS_APART = 4  # processes a worker keeps per external entrant, for deals it has not seen


@dataclass
class _Kept:
    """One lasting process of an entrant, and the deals (game seeds) it has played.

    A process that played a seed knows that game's deck orders and dice; in the
    duplicate format the same seed comes back with the seats swapped (and
    against other bots), so no process may be dealt one seed twice.
    """

    player: SubprocessPlayer
    seeds: set[int] = field(default_factory=set)
    used: int = 0  # when it was last handed out (a counter), to replace the idlest


def _last_used(kept: _Kept) -> int:
    return kept.used


class KeptBots:
    """The external bots one worker keeps up: a few processes per entrant (`DEALS_APART`).

    `player` hands out the entrant's player for a game (a fresh in-process bot
    for a built-in one): a running process that has not been dealt that game's
    seed, else a new one (replacing the longest idle when the entrant has
    `DEALS_APART` already); `greet` chooses ahead for the next game; `close`
    ends every process when the worker is done.
    """

    def __init__(self, most: int = DEALS_APART) -> None:
        self.most = most
        self.players: dict[tuple[str, str], list[_Kept]] = {}
        self.builtins: dict[str, BuiltinSpec] = {}  # spec -> its bot, checked once
        self._chosen: dict[tuple[str, str], _Kept] = {}  # (game key, entrant) -> its process
        self._handed = 0

    def player(self, name: str, spec: str, task: GameTask, seat: str, log_dir: Path | None,
               sandbox: Sandbox, keep_logs: str = "notable", spin: float = 0.0) -> Player:
        seed = player_seed(task.seed, seat)
        builtin = self.builtins.get(spec) or builtin_spec(spec)
        if builtin is not None:
            self.builtins[spec] = builtin
            return InProcessPlayer(builtin.bot(seed), builtin.settings)
        kept = self._chosen.pop((task.key, name), None) \
            or self._choose(name, spec, task.seed, seed, sandbox)
        player = kept.player
        player.log_dir = log_dir
        player.transcript = log_dir is not None
        player.notable_only = keep_logs == "notable"
        player.spin = spin
        return player

    def _choose(self, name: str, spec: str, deal: int, seed: int, sandbox: Sandbox) -> _Kept:
        """The process of the program entrant `name` for a game dealt from seed `deal`,
        marked as having been dealt it.  One that is not running will be started
        afresh (in a new directory): it knows no deal yet."""
        pool = self.players.setdefault((name, spec), [])
        if not all(k.player.takes_newgame for k in pool):   # one left a newgame
            for k in pool:                                   # unanswered: so would the others
                k.player.takes_newgame = False
        running = [k for k in pool if k.player.running()]
        # the one that played last: a duel's games then come to each process two in a
        # row (X Y Y X X Y ...) rather than turn about
        kept = max((k for k in running if deal not in k.seeds), key=_last_used, default=None) \
            or next((k for k in pool if k not in running), None)   # one to start again
        if kept is None:
            made = make_player(spec, seed=seed, sandbox=sandbox)
            assert isinstance(made, SubprocessPlayer), "built-in bots are not kept"
            made.lasting = True
            kept = _Kept(made)
            if len(pool) >= self.most:   # the longest idle one makes room
                idlest = min(pool, key=_last_used)
                pool.remove(idlest)
                idlest.player.close()
            pool.append(kept)
        if not kept.player.running():   # a new process will start: it knows no deal
            kept.seeds.clear()
        kept.seeds.add(deal)
        self._handed += 1
        kept.used = self._handed
        return kept

    def greet(self, settings: Settings, task: GameTask) -> None:
        """Choose the processes of the game `task` now and send the running ones its
        `newgame`, so that they get ready while this game is recorded (one to start
        again waits for its game: its cell hides that game's log folder)."""
        engine = engine_for(settings.ruleset)
        seats = [seat for seat, _ in task.seating]
        for seat, name in task.seating:
            spec = settings.specs[name]
            if (self.builtins.get(spec) or builtin_spec(spec)) is not None:
                continue
            kept = self._choose(name, spec, task.seed, player_seed(task.seed, seat),
                                settings.sandbox)
            self._chosen[task.key, name] = kept
            if kept.player.running():
                kept.player.greet(hello_for(engine, seats, seat, task.seed,
                                            dict(settings.options), settings.limits),
                                  settings.limits)

    def close(self, quick: bool = False) -> None:
        """End every process: each is sent `quit` and given a moment to exit, or, `quick`
        (an interrupt), killed at once."""
        pools, self.players = self.players, {}
        self._chosen.clear()
        for pool in pools.values():
            for kept in pool:
                if quick:
                    kept.player.quit_wait = 0.0
                kept.player.close()


BOTS = KeptBots()  # this process's


# -- playing -------------------------------------------------------------------------

def play(settings: Settings, task: GameTask, bots: KeptBots = BOTS,
         upcoming: GameTask | None = None) -> Played:
    """Play one game; any exception becomes an error row instead of a crash.  With
    `upcoming`, the game played next here: its programs are greeted at once."""
    info = task.info()
    try:
        entry = {"tournament": info, **_record(settings, task, bots)}
    except Exception as exc:  # noqa: BLE001 - one broken game must not end the tournament
        entry = {"tournament": info, "error": f"{type(exc).__name__}: {exc}"}
    if settings.binding is not None:
        entry[BINDING] = settings.binding
    if upcoming is not None:
        try:
            bots.greet(settings, upcoming)
        except Exception:  # noqa: BLE001 - it fails again in that game, which reports it
            pass
    return Played(task.key, canonical(entry), short_row(entry))


def play_in_turn(settings: Settings, tasks: list[GameTask],
                 bots: KeptBots = BOTS) -> Iterator[Played]:
    """Play `tasks` one after the other, each game's programs greeted as the last ends."""
    for number, task in enumerate(tasks, 1):
        yield play(settings, task, bots, tasks[number] if number < len(tasks) else None)


def _record(settings: Settings, task: GameTask, bots: KeptBots) -> dict[str, Any]:
    engine = engine_for(settings.ruleset)
    log_dir = None
    if settings.log_dir and any(not builtin_name(settings.specs[name]) for _, name in task.seating):
        log_dir = Path(settings.log_dir) / re.sub(r"[^A-Za-z0-9_.=-]+", "_", task.key)
    players = {seat: bots.player(name, settings.specs[name], task, seat, log_dir,
                                 settings.sandbox, settings.keep_logs, settings.spin)
               for seat, name in task.seating}
    record = run_match(engine, players, seed=task.seed, options=dict(settings.options),
                       limits=settings.limits)
    return record.to_json()


# -- on a Dask worker ------------------------------------------------------------------

_ONE_AT_A_TIME = threading.Lock()  # a worker with several threads still plays one game
# The journal's key in a LocalCluster's workers, which are forks of the referee
# (`sign_in_forks`); None on any other worker, whose games the referee signs.
_FORKS_KEYRING: Keyring | None = None


def sign_in_forks(keyring: Keyring | None) -> None:
    """Have the Dask workers this process forks from now on sign their games with
    `keyring` (None: stop).  Nothing is sent: a fork holds what its parent held."""
    global _FORKS_KEYRING
    _FORKS_KEYRING = keyring


def play_batch(settings: Settings, batch: list[GameTask]) -> bytes:
    """A cluster task: the games of `batch` (whole units), one after the other, as one
    pickle of their `Played` list (`unpack_batch`).  Handed to Dask as a list, each
    game would be serialized on its own: 4% fewer games a second at ``local:2``."""
    with _ONE_AT_A_TIME:
        settings = _here(settings)
        played = play_in_turn(settings, batch)
        if _FORKS_KEYRING is not None:
            played = (game.signed_with(_FORKS_KEYRING) for game in played)
        return pickle.dumps(list(played), pickle.HIGHEST_PROTOCOL)


def unpack_batch(packed: bytes) -> list[Played]:
    """The games a `play_batch` task returned (from our own workers, as all Dask
    results are)."""
    return pickle.loads(packed)  # noqa: S301 - Dask's own results are pickles as well


def _here(settings: Settings) -> Settings:
    """A relative log folder (a remote cluster's) placed in this machine's temporary
    directory, and hidden from the bots."""
    if settings.log_dir is None or os.path.isabs(settings.log_dir):
        return settings
    folder = os.path.join(tempfile.gettempdir(), settings.log_dir)
    return replace(settings, log_dir=folder, sandbox=settings.sandbox.hiding(folder))


def release_bots() -> None:
    """End the bots this worker keeps (at the end of a cluster run)."""
    with _ONE_AT_A_TIME:
        BOTS.close()
