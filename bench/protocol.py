"""Time per decision over the line protocol, against a raw pipe round trip.

    python bench/protocol.py [--decisions 20000]

Prints, in microseconds, the median and p99 of:

* raw round trip: write a line to a trivial echo child, read the line back
  (plain blocking os.write/os.read, no protocol): the floor for any referee;
* referee, minimal bot: `SubprocessPlayer.choose` against the smallest bot
  that still answers by the protocol (no JSON parsing: `act ID 0`);
* referee, bots.random: the same against `python -m bots.random` (decodes the
  JSON, builds a Decision, answers);
* referee, minimal_bot.py: the docs' example (JSON, an info line per ask).

and the mean CPU time the referee process itself spends per sample.

The target: the referee's median per decision within 2x the raw round trip.
Each bot stays alive for the whole run, as in a game.  The samples are taken
in turn (one of each per round) so that all four see the same machine load;
on a busy machine the raw round trip gets much faster (no CPU wakes from
idle) while the referee's work does not, so compare figures from a quiet run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import bots.examples
from referee.engine import Decision
from referee.players import Limits, SubprocessPlayer

ECHO = "import sys\nfor line in sys.stdin.buffer:\n    sys.stdout.buffer.write(line)\n" \
       "    sys.stdout.buffer.flush()\n"
MINIMAL = """import sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    if line.startswith(b"ask "):
        out.write(b"act " + line.split(b" ", 2)[1] + b" 0\\n")
        out.flush()
    elif line.startswith(b"agon "):
        out.write(b"ready minimal\\n")
        out.flush()
    elif line.startswith(b"quit"):
        break
"""
HELLO = {"game": "bench", "seat": "p1", "seats": ["p1", "p2"],
         "ruleset": {"id": "bench", "version": "1", "sha256": "0" * 64}, "limits": {}}
DECISION = Decision("p1", "add how much?", ["add 1", "add 2", "add 3"])


class RawEcho:
    """A trivial echo child driven with plain blocking os.write/os.read."""

    LINE = b'ask 1 3 {"prompt":"add how much?","legal":["add 1","add 2","add 3"]}\n'

    def __init__(self) -> None:
        self.child = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, bufsize=0)
        self.out, self.into = self.child.stdin.fileno(), self.child.stdout.fileno()

    def sample(self, _: int) -> float:
        began = time.perf_counter()
        os.write(self.out, self.LINE)
        got = os.read(self.into, 65536)
        while not got.endswith(b"\n"):
            got += os.read(self.into, 65536)
        return time.perf_counter() - began

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait()


class Referee:
    """One SubprocessPlayer answering a trivial decision loop."""

    def __init__(self, argv: list[str]) -> None:
        self.player = SubprocessPlayer(argv)
        self.player.start(HELLO, Limits())

    def sample(self, ask_id: int) -> float:
        view = {"total": ask_id, "target": 1000}
        began = time.perf_counter()
        self.player.choose(ask_id, DECISION, view, {"move": 10.0, "remaining": 600.0}, 10.0)
        return time.perf_counter() - began

    def close(self) -> None:
        self.player.finish({"scores": {}, "ranks": {}, "reason": "bench"})
        self.player.close()


def row(name: str, times: list[float], floor: float | None = None) -> str:
    ordered = sorted(times)
    median = statistics.median(ordered) * 1e6
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e6
    ratio = f"{median / floor:5.2f}x raw" if floor else " " * 10
    return f"{name:<32} median {median:8.1f} us   p99 {p99:8.1f} us   {ratio}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20000)
    args = parser.parse_args()
    examples = Path(bots.examples.__file__).resolve().parent
    subjects = {
        "raw pipe round trip (echo)": RawEcho(),
        "referee, minimal bot": Referee([sys.executable, "-c", MINIMAL]),
        "referee, python -m bots.random": Referee([sys.executable, "-m", "bots.random"]),
        "referee, minimal_bot.py (docs)": Referee([sys.executable,
                                                   str(examples / "minimal_bot.py")]),
    }
    times: dict[str, list[float]] = {name: [] for name in subjects}
    cpu = dict.fromkeys(subjects, 0.0)
    try:
        # Interleaved, one sample of each per round, so that every figure sees
        # the same machine load (other processes, CPU idle states).
        for ask_id in range(1, args.decisions + 1):
            for name, subject in subjects.items():
                began = time.process_time()
                times[name].append(subject.sample(ask_id))
                cpu[name] += time.process_time() - began
    finally:
        for subject in subjects.values():
            subject.close()
    floor = statistics.median(times["raw pipe round trip (echo)"]) * 1e6
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.decisions} samples each, interleaved; Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, load average {load} (other work skews every figure)")
    for name, samples in times.items():
        print(row(name, samples, None if name.startswith("raw") else floor)
              + f"   referee CPU (mean) {cpu[name] / len(samples) * 1e6:5.1f} us")


if __name__ == "__main__":
    main()
