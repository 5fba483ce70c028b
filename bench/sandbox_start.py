"""What a sandbox adds to starting a bot: start it, shake hands, stop it, N times.

    python bench/sandbox_start.py --mode {plain,none,bwrap} [--starts 40]

The bot is the smallest there is (a shell loop that answers `ready`), so
that the figure is the sandbox's, not an interpreter's start-up.  `plain`
starts it as the referee did before sandboxes (its own session, nothing
else); `none` adds the directory, limits, Landlock fence and warden; `bwrap`
runs it under bubblewrap.  Time it from outside, one mode against plain:

    farm-bench -- python bench/sandbox_start.py --mode bwrap \\
        --vs 'python bench/sandbox_start.py --mode plain'

(the extra cost of one start is the difference of the medians divided by
--starts).  It also prints its own median per start, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from agon.referee.sandbox import Cell, Sandbox
from agon.referee.transport import ChildProcess

BOT = ["/bin/sh", "-c", 'while read -r line; do case "$line" in agon*) echo "ready minimal";; '
                        'quit*) exit 0;; esac; done']


def one_start(mode: str) -> float:
    began = time.perf_counter()
    cell = None if mode == "plain" else Cell(Sandbox(mode=mode), label="bench", game_seconds=60)
    child = ChildProcess(BOT, spawn=cell.spawn, stop_grace=cell.stop_grace) if cell else \
        ChildProcess(BOT)
    child.send(b"agon 1 {}\n")
    assert child.read_line(time.monotonic() + 10) == b"ready minimal"
    child.send(b"quit\n")
    assert child.close(linger=2.0) == 0
    if cell:
        cell.remove()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["plain", "none", "bwrap"], default="plain")
    parser.add_argument("--starts", type=int, default=40)
    args = parser.parse_args()
    times = [one_start(args.mode) for _ in range(args.starts)]
    print(f"{args.mode}: median {statistics.median(times) * 1000:.2f} ms per start "
          f"({args.starts} starts)")


if __name__ == "__main__":
    main()
