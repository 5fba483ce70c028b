"""A bot that misbehaves in the way its first argument names (test helper).

Modes: ok, crash-at-start, crash-mid-game, hang, hang-with-child MARKER,
illegal-index, illegal-text, garbage, wrong-id, huge-line, deaf, no-ready,
bad-ready, not-utf8, chatty, late, answer-twice, ignore-quit, by-text,
leave (exits right after ready), slow (0.2 s per answer).
"""

import json
import subprocess
import sys
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
    asks = 0
    for line in sys.stdin:
        keyword, _, rest = line.rstrip("\n").partition(" ")
        if keyword == "agon":
            if MODE == "bad-ready":
                send("hello referee")
            elif MODE == "leave":
                send("ready leaving")
                return
            else:
                send(f"ready faulty-{MODE}")
        elif keyword == "ask":
            asks += 1
            ask_id, count, body = rest.split(" ", 2)
            answer(int(ask_id), int(count), asks, body)
        elif keyword == "quit":
            if MODE == "ignore-quit":
                time.sleep(60)
            return


def answer(ask_id: int, count: int, asks: int, body: str) -> None:
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
