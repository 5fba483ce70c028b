"""Games played on this machine: in the main process, or in forked worker processes.

`InThisProcess` plays the games in the calling process.  `WorkerPool` forks
`jobs` workers (on Linux; elsewhere they are spawned), each of which plays the
batches of games it is sent one after the other and sends back the games it
finished every few hundredths of a second (`referee.worker.Played`), so the
main process does little per game: it receives a few kilobytes, signs and
writes a line.  Each worker keeps its engine and its bots between games
(`referee.worker.KeptBots`).

With `affinity` (``--affinity``, as fastchess's ``-use-affinity``) each
worker, and the bots it starts (they inherit it), is pinned to one CPU of its
own: bots that think on a clock in parallel games never compete for a CPU, so
a game's timings do not depend on its neighbours.  A bot's threads then share
that CPU too, hence an option (and it is not faster: a turn that passes
between processes on one CPU waits for each to be scheduled).

However the main process ends, its workers end with it: each asks the kernel
for SIGKILL when its parent dies (PR_SET_PDEATHSIG; `kill -9` and `timeout`
included), and their bots' wardens, told the same way, kill the bots.  On an
interrupt the main process sends SIGTERM: a worker then stops at once, ending
its bots without waiting for them to quit.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from . import confine
from .schedule import GameTask, TournamentError, batches
from .signing import Keyring
from .stops import held_over_a_fork, stopped_early
from .worker import BOTS, Played, Settings, play_in_turn

PREFETCH = 2  # batches a worker holds: one it plays, one waiting, so it never idles
# A worker sends its finished games together at most this often (and at the end of
# each batch): waking the main process costs more than the few kilobytes a game is.
SEND_EVERY = 0.05  # seconds
STOP_WAIT = 3.0  # seconds workers have to end after SIGTERM before they are killed


SPIN = 0.0003  # seconds a referee with a CPU to spare waits for an answer without sleeping


def spin_for(workers: int) -> float:
    """How long each worker's referee waits for a bot's answer without sleeping
    (`referee.transport.ChildProcess._first_line`): `SPIN` when every worker and the bot it
    is waiting for each have a CPU (two per worker), else 0: on a busy machine the
    referee would take the CPU the bot needs."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count() or 1
    return SPIN if 2 * workers <= usable else 0.0


def cpus_for(workers: int) -> list[int]:
    """The CPU each of `workers` is pinned to: the CPUs this process may use, in turn.

    Raises TournamentError where processes cannot be pinned (not Linux)."""
    if not hasattr(os, "sched_setaffinity"):
        raise TournamentError("--affinity pins processes to CPUs, which this system "
                              "does not allow: run without it")
    usable = sorted(os.sched_getaffinity(0))
    return [usable[i % len(usable)] for i in range(workers)]


class InThisProcess:
    """The games played here, one after the other (``--jobs 1``); with `cpu`, this
    process and its bots pinned to that CPU until `close`."""

    def __init__(self, settings: Settings, cpu: int | None = None) -> None:
        self.settings = settings
        self.unpinned: set[int] | None = None
        if cpu is not None:
            self.unpinned = os.sched_getaffinity(0)
            os.sched_setaffinity(0, {cpu})

    def play(self, tasks: list[GameTask]) -> Iterator[list[Played]]:
        for played in play_in_turn(self.settings, tasks):
            yield [played]

    def close(self, at_once: bool) -> None:
        """End the bots kept here (at once, after an interrupt or an early stop)."""
        BOTS.close(quick=at_once)
        if self.unpinned is not None:
            os.sched_setaffinity(0, self.unpinned)


@dataclass
class _Worker:
    process: Any  # multiprocessing.Process
    conn: Connection
    waiting: deque[int] = field(default_factory=deque)  # games left in each batch sent


class WorkerPool:
    """`jobs` worker processes playing batches of games, each pinned to its CPU in
    `cpus` if given; `close` them when done."""

    def __init__(self, settings: Settings, jobs: int, cpus: list[int] | None = None,
                 keyring: Keyring | None = None) -> None:
        context = _context()
        self.workers: list[_Worker] = []
        try:
            for number in range(jobs):
                ours, theirs = context.Pipe()
                cpu = cpus[number] if cpus else None
                process = context.Process(target=_serve, daemon=True, name="agon-worker",
                                          args=(theirs, settings, os.getpid(), cpu, keyring))
                try:
                    with held_over_a_fork():  # a stop waits until the worker is counted
                        process.start()
                        self.workers.append(_Worker(process, ours))
                finally:
                    theirs.close()
        except BaseException:  # a stop while they start: end those started (else Python's
            self.close(at_once=True)  # exit waits on one that missed its SIGTERM)
            raise

    def play(self, tasks: list[GameTask]) -> Iterator[list[Played]]:
        """Every game of `tasks`, a few at a time as they finish (in no particular
        order); they go to the workers in batches of whole units
        (`referee.schedule.batches`)."""
        queue = batches(tasks, len(self.workers))
        for worker in self.workers:
            for _ in range(PREFETCH):
                self._feed(worker, queue)
        busy = {worker.conn: worker for worker in self.workers if worker.waiting}
        while busy:
            for conn in wait(list(busy)):
                worker = busy[conn]
                try:
                    finished: list[Played] = conn.recv()
                except (EOFError, OSError):
                    raise TournamentError(
                        f"a worker process died (exit status {_status(worker)}); the games "
                        "it was playing are not in the journal: resume it to play them"
                    ) from None
                worker.waiting[0] -= len(finished)
                if not worker.waiting[0]:
                    worker.waiting.popleft()
                    self._feed(worker, queue)
                if not worker.waiting:
                    del busy[conn]
                yield finished

    @staticmethod
    def _feed(worker: _Worker, queue: Iterator[list[GameTask]]) -> None:
        batch = next(queue, None)
        if batch:
            worker.conn.send(batch)
            worker.waiting.append(len(batch))

    def close(self, at_once: bool) -> None:
        """Let the workers end when their games are done (their bots get `quit`), or,
        `at_once` (an interrupt, an early stop), stop them now."""
        for worker in self.workers:
            try:
                if at_once:
                    worker.process.terminate()
                else:
                    worker.conn.send(None)
            except (OSError, ValueError):
                pass
        for worker in self.workers:
            worker.process.join(STOP_WAIT if at_once else None)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()


def _status(worker: _Worker) -> str:
    worker.process.join(1.0)
    code = worker.process.exitcode
    return "unknown" if code is None else f"killed by signal {-code}" if code < 0 else str(code)


def _context() -> multiprocessing.context.BaseContext:
    """Fork where it is safe (Linux): workers start at once and inherit the engine
    and engines registered at run time (`referee.games.register`)."""
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


# -- in the worker -------------------------------------------------------------------

def _serve(conn: Connection, settings: Settings, parent: int, cpu: int | None,
           keyring: Keyring | None) -> None:
    """A worker: play each batch it is sent, send back each game (its journal line
    signed with `keyring`, if given); None or EOF ends it."""
    _die_with(parent)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})   # its bots, started later, inherit it
    quick = True
    try:
        while (batch := conn.recv()) is not None:
            finished: list[Played] = []
            sent = time.monotonic()
            for played in play_in_turn(settings, batch):
                if keyring is not None:
                    played = played.signed_with(keyring)
                finished.append(played)
                if time.monotonic() - sent >= SEND_EVERY:
                    conn.send(finished)
                    finished, sent = [], time.monotonic()
            if finished:
                conn.send(finished)
        quick = False
    except (EOFError, OSError, SystemExit):
        pass
    finally:
        BOTS.close(quick=quick)


def _die_with(parent: int) -> None:
    """Leave Ctrl-C to the parent, stop at once on its SIGTERM, and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminate)
    if stopped_early(signal.SIGTERM):  # stopped as it was being forked
        _terminate(signal.SIGTERM, None)
    confine.die_with_parent(signal.SIGKILL)
    if os.getppid() != parent:  # it died before we asked to be told
        os._exit(1)


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)
