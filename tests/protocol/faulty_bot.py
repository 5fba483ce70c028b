"""A bot that misbehaves in the way its first argument names (test helper).

Modes: ok, crash-at-start, crash-mid-game, hang, hang-with-child MARKER,
illegal-index, illegal-text, garbage, wrong-id, huge-line, deaf, no-ready,
bad-ready, not-utf8, chatty, late, answer-twice, ignore-quit, by-text,
leave (exits right after ready), slow (0.2 s per answer), needs-seed
(reads the hello's seed: crashes on a hello without one), redy (a typo in
ready), debug-stdout (prints a debugging line on stdout before each answer),
quoted-text (answers the first action's text in double quotes).

The attacks of issue 10: deep-ready, huge-number-ready (lines that crashed
the codec), info-flood [SECONDS] (info lines for SECONDS before each answer),
stderr-flood, line-100mb, double-fork MARKER (a grandchild in its own session
that outlives the bot unless the sandbox kills it), memory-hog (touches 10 MB
chunks until the memory limit), cpu-spin (spins on its first ask),
background-spin (a thread spins while it answers, slowly), ignore-term (ignores
SIGTERM and quit, hangs), closed-stdout (closes stdout, lives on),
act-for-other (answers the next ask id, not its own).

The whole-tree attacks: memory-children (four children that hold 60 MB each
while it plays on), setsid-hogs (six children in sessions of their own that
spin while it plays on), fork-bomb MARKER (forks until fork fails, says how
many in an info line, plays on), think SECONDS (an honest bot that uses
SECONDS of CPU per answer).

deep-nest DEPTH: at its first ask, makes a nest of folders DEPTH deep in its
directory (deeper than Python's recursion limit), then plays.

probe PORT: at its first ask, reports in info lines what its sandbox lets it
do (its directory, environment, writing beside its own program, connecting to
PORT on 127.0.0.1), then plays.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time

MODE = sys.argv[1]
out = sys.stdout


def send(line: str) -> None:
    out.write(line + "\n")
    out.flush()


def main() -> None:
    if MODE == "crash-at-start":
        print("crash-at-start: giving up before ready", file=sys.stderr)
        sys.exit(3)
    if MODE == "deaf":  # never reads its input
        send("ready deaf")
        time.sleep(60)
    if MODE == "no-ready":
        time.sleep(60)
    if MODE == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    asks = 0
    for line in sys.stdin:
        keyword, _, rest = line.rstrip("\n").partition(" ")
        if keyword == "agon":
            if MODE == "bad-ready":
                send("hello referee")
            elif MODE == "leave":
                send("ready leaving")
                return
            elif MODE == "redy":  # a typo in the keyword
                send("redy typo")
            elif MODE == "needs-seed":  # a bot that seeds its choices from the hello
                hello = json.loads(rest.partition(" ")[2])
                send(f"ready seeded-{int(hello['seed'])}")
            elif MODE == "deep-ready":
                send("ready x " + "[" * 1000)
            elif MODE == "huge-number-ready":
                send('ready x {"a": ' + "7" * 5000 + "}")
            else:
                send(f"ready faulty-{MODE}")
        elif keyword == "ask":
            asks += 1
            ask_id, count, body = rest.split(" ", 2)
            answer(int(ask_id), int(count), asks, body)
        elif keyword == "quit":
            if MODE in ("ignore-quit", "ignore-term"):
                time.sleep(60)
            return


def attack(ask_id: int, asks: int) -> bool:
    """The attacks of issue 10 that happen at an ask; True when the ask is answered."""
    if MODE == "info-flood":
        until = time.monotonic() + float(sys.argv[2] if len(sys.argv) > 2 else 0.3)
        while time.monotonic() < until:
            out.write(f"info {'flood ' * 150}\n" * 50)
        out.flush()
    elif MODE == "stderr-flood":
        for _ in range(200):
            sys.stderr.write("e" * 100_000 + "\n")
    elif MODE == "line-100mb":
        chunk = "x" * (1 << 20)
        for _ in range(100):
            out.write(chunk)
        send("")
    elif MODE == "double-fork" and asks == 1:
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)",
                                          sys.argv[2]])
            os._exit(0)
        os.wait()
    elif MODE == "memory-hog":
        hoard = []
        while True:
            hoard.append(b"m" * (10 << 20))  # b"m" * n is written, so it is resident
    elif MODE == "cpu-spin":
        while True:
            pass
    elif MODE == "background-spin":
        if asks == 1:
            threading.Thread(target=spin, daemon=True).start()
        time.sleep(0.1)
    elif MODE == "ignore-term":
        time.sleep(120)
    elif MODE == "closed-stdout":
        os.close(1)
        time.sleep(120)
    elif MODE == "probe" and asks == 1:
        probe(int(sys.argv[2]))
    elif MODE == "act-for-other":
        send(f"act {ask_id + 1} 0")
        return True
    elif MODE in ("memory-children", "setsid-hogs", "fork-bomb") and asks == 1:
        tree_attack()
    elif MODE == "deep-nest" and asks == 1:
        here = os.getcwd()
        for _ in range(int(sys.argv[2])):
            os.mkdir("d")
            os.chdir("d")
        os.chdir(here)
    elif MODE == "think":
        started = time.process_time()
        while time.process_time() - started < float(sys.argv[2]):
            pass
    return False


def tree_attack() -> None:
    """Children that each stay under a per-process limit, and together do not."""
    if MODE == "fork-bomb":
        born = 0
        try:
            while born < 5000:
                if os.fork() == 0:
                    time.sleep(120)
                    os._exit(0)
                born += 1
        except OSError as exc:
            send(f"info fork-bomb: {born} children, then {exc.strerror}")
        return
    for _ in range(4 if MODE == "memory-children" else 6):
        if os.fork() == 0:
            if MODE == "memory-children":
                _hoard = b"m" * (60 << 20)  # written, so resident; held while it sleeps
                time.sleep(60)
            else:
                os.setsid()  # a scheduling share (autogroup) of its own, without cgroups
                spin()
            os._exit(0)
    if MODE == "memory-children":
        time.sleep(1)  # they take their memory


def spin() -> None:
    while True:
        pass


def probe(port: int) -> None:
    import socket

    send(f"info probe: cwd {os.getcwd()} holds {sorted(os.listdir('.'))}")
    send(f"info probe: home {os.environ.get('HOME')}")
    send(f"info probe: env {','.join(sorted(os.environ))}")
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"probe-{os.getpid()}")
    try:
        with open(beside, "w"):
            pass
        os.unlink(beside)
        send("info probe: write beside its program: ok")
    except OSError as err:
        send(f"info probe: write beside its program: refused ({err.strerror})")
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        send("info probe: network: ok")
    except OSError as err:
        send(f"info probe: network: refused ({err.strerror or err})")


def answer(ask_id: int, count: int, asks: int, body: str) -> None:
    if attack(ask_id, asks):
        return
    if MODE == "crash-mid-game" and asks == 2:
        print("crash-mid-game: something broke", file=sys.stderr)
        sys.exit(1)
    if MODE == "hang":
        time.sleep(60)
    if MODE == "hang-with-child":  # a child the test finds by the marker in its command line
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", sys.argv[2]])
        time.sleep(60)
    if MODE == "illegal-index":
        send(f"act {ask_id} {count}")
    elif MODE == "illegal-text":
        send(f"act {ask_id} fly to the moon")
    elif MODE == "garbage":
        send("I think I will add two")
    elif MODE == "debug-stdout":  # debugging output on stdout, then a good answer
        send(f"DEBUG: thinking about ask {ask_id}")
        send(f"act {ask_id} 0")
    elif MODE == "quoted-text":  # the action's text as a JSON string
        send(f'act {ask_id} "{json.loads(body)["legal"][0]}"')
    elif MODE == "wrong-id":
        send(f"act {ask_id + 1} 0")
    elif MODE == "huge-line":
        chunk = "x" * (1 << 20)
        for _ in range(10):
            out.write(chunk)
        send("")
    elif MODE == "not-utf8":
        sys.stdout.buffer.write(b"act " + str(ask_id).encode() + b" \xff\xfe\n")
        sys.stdout.buffer.flush()
    elif MODE == "chatty":
        print(f"chatty stderr at ask {ask_id}", file=sys.stderr, flush=True)
        send(f"info thinking about ask {ask_id}")
        send("")
        send(f"act {ask_id} {count - 1}")
    elif MODE == "late":
        time.sleep(2)
        send(f"act {ask_id} 0")
    elif MODE == "slow":
        time.sleep(0.2)
        send(f"act {ask_id} 0")
    elif MODE == "by-text":
        send(f"act {ask_id} {json.loads(body)['legal'][-1]}")
    elif MODE == "answer-twice":
        send(f"act {ask_id} 0")
        send(f"act {ask_id} 0")
    else:
        send(f"act {ask_id} 0")


main()
