"""Time per decision over the line protocol, against a raw pipe round trip.

    python bench/protocol.py [--decisions 10000] [--block 1000]

Prints, in microseconds, the median and p99 of:

* raw round trip: write a line to a trivial echo child, read the line back
  (plain blocking os.write/os.read, no protocol): the floor for any referee;
* referee, minimal bot: `SubprocessPlayer.choose` against the smallest bot
  that still answers by the protocol (no JSON parsing: `act ID 0`);
* referee, bots.random: the same against `python -m agon.bots.random` (decodes the
  JSON, builds a Decision, answers);
* referee, minimal_bot.py: the docs' example (JSON, an info line per ask).

and the mean CPU time the referee process itself spends per sample.

The target: the referee's median per decision within 2x the raw round trip.
Each bot stays alive for the whole run, as in a game.

Where the processes run decides the round trip far more than any code: a
child woken on the other core costs tens of microseconds, one on the same
core a few.  So the run is made twice, with the processes pinned: the bot on
the other core (how a game runs on this 2-core machine; the raw round trip
is then ~70-90 us) and everything on one core (the referee's own Python work
shows most).  Within a placement the subjects are measured in blocks taken in
turn, so that each sees the same machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import agon.bots.examples
from agon.referee.engine import Decision
from agon.referee.players import Limits, SubprocessPlayer
from agon.referee.warden import descendants

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
        self.pid = self.child.pid

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
        self.pid = self.player.child.pid

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


def measure(placement: str, parent_cpu: int, bot_cpu: int, decisions: int,
            block: int) -> None:
    """Median and p99 per subject with the referee on one CPU, the bots on another."""
    os.sched_setaffinity(0, {parent_cpu})
    examples = Path(agon.bots.examples.__file__).resolve().parent
    subjects = {
        "raw pipe round trip (echo)": RawEcho(),
        "referee, minimal bot": Referee([sys.executable, "-c", MINIMAL]),
        "referee, python -m agon.bots.random": Referee([sys.executable, "-m",
                                                        "agon.bots.random"]),
        "referee, minimal_bot.py (docs)": Referee([sys.executable,
                                                   str(examples / "minimal_bot.py")]),
    }
    for subject in subjects.values():
        for pid in [subject.pid, *descendants(subject.pid)]:  # a sandboxed bot is below
            os.sched_setaffinity(pid, {bot_cpu})               # bwrap or its warden
    times: dict[str, list[float]] = {name: [] for name in subjects}
    cpu = dict.fromkeys(subjects, 0.0)
    rounds = max(1, decisions // block)
    try:
        for round_number in range(rounds):
            for name, subject in subjects.items():
                began = time.process_time()
                first = round_number * block + 1
                times[name] += [subject.sample(ask_id) for ask_id in range(first, first + block)]
                cpu[name] += time.process_time() - began
    finally:
        for subject in subjects.values():
            subject.close()
    floor = statistics.median(times["raw pipe round trip (echo)"]) * 1e6
    print(f"{placement} (referee on CPU {parent_cpu}, bot on CPU {bot_cpu}), "
          f"{rounds * block} samples each:")
    for name, samples in times.items():
        print("  " + row(name, samples, None if name.startswith("raw") else floor)
              + f"   referee CPU (mean) {cpu[name] / len(samples) * 1e6:5.1f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=10000)
    parser.add_argument("--block", type=int, default=1000, help="samples per subject in a row")
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, CPUs {cpus}, load average {load} "
          "(other work skews every figure)")
    if len(cpus) > 1:
        measure("bot on the other core", cpus[0], cpus[1], args.decisions, args.block)
    measure("everything on one core", cpus[0], cpus[0], args.decisions, args.block)

if __name__ == "__main__":
    main()
