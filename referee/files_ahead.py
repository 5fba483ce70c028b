"""Files made ahead of their content, in a background thread.

Creating a file (a new inode) can cost the kernel far more than writing into
one that exists: on an ext4 disk where many files were deleted lately, 0.1 to
1.5 ms of CPU time each (ext4 passes over recently freed inodes), against some
20 to 90 µs for a write into an existing one.  A tournament writes a folder and two files
per external bot for every game (its log and its transcript, docs/protocol.md),
so it has them created here while the game is being played, and only fills
them at its end (`players.SubprocessPlayer`): what they hold is still written
only once the game is over.

One thread per process, made on first use (and again in a forked child, which
inherits the object but not the thread).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

_pool: tuple[int, ThreadPoolExecutor] | None = None  # (the pid that made it, the pool)


def make_ahead(folder: Path, names: Iterable[str]) -> Future[None]:
    """Create `folder` and, in it, the files `names` that do not exist yet (empty;
    those that exist are left as they are), in the background."""
    return _executor().submit(_make, folder, tuple(names))


def wait(made: Future[None] | None) -> None:
    """Wait until `made` is done; its failure is not raised (writing the files will
    meet the same problem and report it)."""
    if made is not None:
        made.exception()


def _make(folder: Path, names: tuple[str, ...]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        os.close(os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o666))


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None or _pool[0] != os.getpid():
        _pool = (os.getpid(), ThreadPoolExecutor(max_workers=1,
                                                 thread_name_prefix="agon-files-ahead"))
    return _pool[1]
