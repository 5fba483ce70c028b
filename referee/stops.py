"""Ctrl-C and SIGTERM held back while a step must not be cut in two: a finished game
going into the journal and the table, a fork.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

STOPS = (signal.SIGINT, signal.SIGTERM)
# Stops that reached a fork's child while it still had its parent's handlers (ours):
# raised there, they would land inside Python's at-fork hooks and be dropped with a
# traceback on stderr.  The child reads them once its own handlers are set.
_EARLY: list[int] = []


def stopped_early(signum: int) -> bool:
    """Whether `signum` reached this process, a fork's child, before it set its own
    handlers (`referee.worker_pool` ends a worker that SIGTERM reached so)."""
    return signum in _EARLY


class StopsHeld:
    """Ctrl-C and SIGTERM wait while the step inside ``with held:`` runs, then come.

    Blocking them in this thread (pthread_sigmask) is not enough: the kernel then
    hands them to another thread of the process (a Dask cluster's event loop, a
    pool's helper), Python runs the handler in this thread all the same, and a
    game could reach the journal but not the partial table ("interrupted after
    1418 games" over a journal of 1419).  So while installed (`install`, from the
    main thread) the handlers note a signal that comes inside the block and pass it
    on at its end, to the handler that was there before; elsewhere (another
    thread runs the tournament) the block falls back to the mask.
    """

    def __init__(self) -> None:
        self.before: dict[int, Any] = {}
        self.inside = False
        self.held: tuple[int, Any] | None = None
        self.mask: Any = None  # the thread's signal mask, where the handlers are not ours
        self.process = os.getpid()  # in a fork's child, a stop is kept for it (_EARLY)

    def install(self) -> None:
        try:
            for sig in STOPS:
                self.before[sig] = signal.signal(sig, self._arrived)
        except ValueError:  # not the main thread: signals are not ours to take
            self.restore()

    def restore(self) -> None:
        for sig, handler in self.before.items():
            signal.signal(sig, handler)
        self.before = {}

    def _arrived(self, signum: int, frame: Any) -> None:
        if os.getpid() != self.process:
            _EARLY.append(signum)
        elif self.inside:
            self.held = (signum, frame)
        else:
            self._pass_on(signum, frame)

    def _pass_on(self, signum: int, frame: Any) -> None:
        handler = self.before.get(signum, signal.SIG_DFL)
        if callable(handler):
            handler(signum, frame)  # KeyboardInterrupt, or the caller's SIGTERM handler
        elif handler == signal.SIG_DFL:
            self.restore()
            signal.raise_signal(signum)

    def __enter__(self) -> None:
        if self.before:
            self.inside = True
        elif hasattr(signal, "pthread_sigmask"):
            self.mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)

    def __exit__(self, *exc: object) -> None:
        if not self.before:
            if hasattr(signal, "pthread_sigmask"):
                signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)
            return
        self.inside = False
        if self.held:
            signum, frame = self.held
            self.held = None
            self._pass_on(signum, frame)


@contextmanager
def held_over_a_fork() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while this process forks, then come as they would have.

    Python runs at-fork hooks (logging's lock release) in the forking thread; a signal
    handler that raised inside one had its exception printed and dropped, so the stop
    was lost.  Off the main thread nothing is held: the handlers run in the main
    thread, never inside this fork.  In the child, a stop that comes before it sets its
    own handlers (or execs) is only noted (`stopped_early`).
    """
    held = StopsHeld()
    held.install()
    if not held.before:
        yield
        return
    try:
        with held:
            yield
    finally:
        held.restore()
