"""Games played on a Dask distributed cluster: ``--cluster tcp://HOST:8786`` or ``local:N``.

The main process connects to an existing scheduler (or starts a LocalCluster
of N single-threaded worker processes on this machine), sends the
tournament's settings to every worker once, and submits the games as tasks:
each task is one or more whole units (a seed played in every seating, so a
duel's game pair stays together), played by `referee.worker.play_batch` on a
worker, which keeps its engine and its bots between tasks.  The results come
back into the main process, which writes them into the same journal as local
runs, keyed by game: a task that the scheduler runs again (its worker died)
can never count twice.  It signs them, too, unless a LocalCluster's worker did:
those are forks of this process and hold the key already (`sign_in_forks`); a
worker elsewhere never sees it.

The bots' logs stay on the machine that ran them: beside the journal on this
machine (``local:N``), in ``$TMPDIR/agon-logs/<journal>.logs/`` on another.

Dask is an optional dependency: ``pip install 'agon-referee[cluster]'``.
docs/cluster.md shows a set-up on two machines.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import sys
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from .schedule import GameTask, TournamentError, batches
from .signing import Keyring
from .worker import Played, Settings, sign_in_forks

LOCAL = re.compile(r"^local:([0-9]{1,4})$")
ADDRESS = re.compile(r"^(tcp|tls|inproc|ucx|ws|wss)://\S+$")
CONNECT_SECONDS = 20  # to reach the scheduler
REMOTE_LOGS = "agon-logs"  # bots' logs on a remote worker: in its temporary directory
METHOD = "distributed.worker.multiprocessing-method"  # how a LocalCluster starts workers
PROFILER = "distributed.worker.profile.enabled"  # Dask's sampling profiler on each worker
STEALING = "distributed.scheduler.work-stealing"  # the scheduler moving queued tasks
TICK = "distributed.admin.tick.interval"  # how often each event loop checks it is not stuck


def check_address(text: str) -> str:
    """``local:N`` or a scheduler address (``tcp://host:8786``); anything else is an error."""
    local = LOCAL.match(text)
    if local and int(local.group(1)) >= 1:
        return text
    if ADDRESS.match(text):
        return text
    raise TournamentError(f"--cluster takes a scheduler address (tcp://HOST:8786) or "
                          f"local:N (N workers on this machine), not {text!r}")


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise TournamentError("--cluster needs Dask: pip install 'agon-referee[cluster]'") \
            from None
    return distributed


def _local_settings() -> Any:
    """Dask settings for a LocalCluster this process starts, held until it is closed.

    * Fork the workers where we can (Linux), as the worker pool does: they start in
      a tenth of the time spawned ones take (0.3 s against 2.7 s for two) and inherit
      the engines already imported; a worker that dies is forked again.
    * No statistical profiler on the workers: it samples each worker's thread every
      10 ms for Dask's dashboard, which a tournament does not show, and takes the GIL
      from the game to do so.
    * No work stealing: the tasks are already cut to size (`schedule.batches`, large
      first, one unit at the end), and the scheduler that weighs thefts shares this
      process with the journal.
    * Event loops that check they are not stuck every 200 ms, not 20: the check is
      for warnings nobody reads here, and it wakes each process 50 times a second.

    On an idle 2-core machine the profiler and stealing together cost about 6% of the
    CPU a run of 4,000 games at ``local:2`` takes, the tick about 5% (farm-bench, paired
    runs).  A remote cluster's
    workers keep their own settings: docs/cluster.md shows how to set the same there."""
    import dask

    method = "fork" if sys.platform == "linux" else dask.config.get(METHOD)
    return dask.config.set({METHOD: method, PROFILER: False, STEALING: False, TICK: "200ms"})


_FORKING_WORKERS = False  # set while this process starts a LocalCluster's workers


def _worker_ignores_ctrl_c() -> None:
    """In a LocalCluster's worker, just forked: Ctrl-C is for the main process.

    A terminal sends Ctrl-C to the whole process group: each worker's event loop
    turned it into a KeyboardInterrupt traceback on the organiser's screen, while
    the main process was already printing the table so far and closing the
    cluster (as the worker pool's workers do, `worker_pool`).  Done at the fork,
    in the child's only thread, so no window is left before the worker starts."""
    if _FORKING_WORKERS:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_worker_ignores_ctrl_c)


class DaskCluster:
    """A Dask client (and, for ``local:N``, its LocalCluster); `close` it when done."""

    def __init__(self, address: str, settings: Settings,
                 keyring: Keyring | None = None) -> None:
        """Connect to `address`; a LocalCluster's workers sign their games with
        `keyring` (the journal's), those of a cluster elsewhere never see it."""
        distributed = _dask()
        self.local = None
        self.futures: list[Any] = []
        local = LOCAL.match(check_address(address))
        self.dask_settings = None
        try:
            if local:
                global _FORKING_WORKERS
                _FORKING_WORKERS = True  # for as long as the cluster may fork a worker
                self.dask_settings = _local_settings()
                sign_in_forks(keyring)  # a worker spawned, not forked, never holds it
                # Its workers are ours: what goes wrong in a game comes back as that game's
                # error row, a worker lost as the run's error; Dask's own logs (a worker
                # whose heartbeat finds the scheduler closing at the end) would be noise.
                # Started with no worker, then asked for N: the workers start while the
                # games are handed to the scheduler (`play`), not before.
                self.local = distributed.LocalCluster(
                    n_workers=0, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.CRITICAL)
                # results come straight from the workers, not relayed by the scheduler
                # (which shares this process): less of its CPU per game
                self.client = distributed.Client(self.local, direct_to_workers=True)
                self.local.scale(int(local.group(1)))
            else:
                self.client = distributed.Client(address, timeout=CONNECT_SECONDS)
        except OSError as exc:
            self._shut()
            raise TournamentError(f"--cluster {address}: cannot reach the scheduler "
                                  f"({exc})") from None
        self.run_id = uuid.uuid4().hex[:12]
        # Sent with every task (a few per worker), never scattered: data scattered to a
        # worker that dies is lost, a task's own arguments are not.
        self.settings = settings

    @property
    def workers(self) -> int:
        """Threads across the cluster's workers (at least one); a local cluster's N,
        though its workers may still be starting."""
        if self.local is not None:
            return max(1, len(self.local.worker_spec))
        return max(1, sum(self.client.nthreads().values()))

    def play(self, tasks: list[GameTask]) -> Iterator[list[Played]]:
        """Every game of `tasks`, task by task as they finish, unsigned (the key stays
        in the main process).  A cluster task holds more games than a local batch:
        each costs the scheduler far more."""
        distributed = _dask()
        from .worker import play_batch, unpack_batch

        work = list(batches(tasks, self.workers, spread=2, most=64))
        # One `map`, one message to the scheduler: submitting task by task cost about
        # 9 ms each on a busy 2-core machine, before the first game could start.
        self.futures = self.client.map(
            play_batch, [self.settings] * len(work), work, pure=False,
            key=[f"agon-{self.run_id}-{number}" for number in range(len(work))])
        if self.local is not None:
            self._await_a_local_worker()
        try:
            for _, packed in distributed.as_completed(self.futures, with_results=True):
                yield unpack_batch(packed)
        except distributed.client.FutureCancelledError:
            raise TournamentError("the cluster dropped the tournament's tasks (its "
                                  "scheduler restarted?); resume the journal") from None
        except Exception as exc:  # noqa: BLE001 - KilledWorker and the like, from Dask
            raise TournamentError(f"the cluster could not play a task ({type(exc).__name__}: "
                                  f"{exc}); resume the journal to play the rest") from None

    def _await_a_local_worker(self) -> None:
        """Wait until one of our LocalCluster's workers is up (`scale` starts them): one
        that cannot start is an error, not a tournament that waits for ever."""
        try:
            self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (TimeoutError, OSError):
            raise TournamentError(f"--cluster local:{len(self.local.worker_spec)}: no worker "
                                  f"started within {CONNECT_SECONDS} s") from None

    def close(self, at_once: bool = False) -> None:
        """Cancel what is left, end the bots the workers keep, and disconnect."""
        from .worker import release_bots

        try:
            if self.futures:
                self.client.cancel(self.futures)
            self.client.run(release_bots)
        except Exception:  # noqa: BLE001 - a cluster already gone has nothing left to end
            pass
        self._shut()

    def _shut(self) -> None:
        global _FORKING_WORKERS
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.local is not None:
            self.local.close()
        _FORKING_WORKERS = False
        sign_in_forks(None)
        if self.dask_settings is not None:
            self.dask_settings.__exit__(None, None, None)



def cluster_settings(settings: Settings, asked_sandbox: Any, address: str) -> Settings:
    """The settings for the cluster's workers: the sandbox as asked (``auto`` is worked
    out on each worker, which may or may not have bubblewrap), still hiding the logs.

    On another machine the journal's folder may not exist: the bots' logs go to a
    relative folder, which each worker places in its own temporary directory
    (`referee.worker.play_batch`).
    """
    if LOCAL.match(address) or settings.log_dir is None:
        return replace(settings, sandbox=asked_sandbox.hiding(settings.log_dir))
    return replace(settings, log_dir=os.path.join(REMOTE_LOGS, os.path.basename(
        settings.log_dir)), sandbox=asked_sandbox)
