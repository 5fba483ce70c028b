#!/usr/bin/env python3
"""A complete agon bot in plain Python (standard library only).

Run it against the referee:

    agon play earth-and-water --seat persia="python3 minimal_bot.py" --seat greece=random

It answers every ask with a random legal action, counts the events it sees
and explains each choice on an `info` line.  docs/protocol.md is the full protocol; docs/bots.md
walks through this file.
"""

import json
import random
import sys


def send(line):
    # One message per line; flush at once, or the referee waits in vain.
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    # --seed N repeats the same choices in every game; without it the bot uses
    # the seed the referee sends for this game and seat (never the game's own)
    fixed_seed = sys.argv[sys.argv.index("--seed") + 1] if "--seed" in sys.argv else None
    rng = random.Random(fixed_seed)
    seat = None
    events_seen = 0
    for line in sys.stdin:
        keyword, _, payload = line.rstrip("\n").partition(" ")
        if keyword in ("agon", "newgame"):       # agon 1 {"game":...,"seat":...,"seed":...}
            hello = payload.partition(" ")[2] if keyword == "agon" else payload
            game = json.loads(hello)             # newgame {...}: the next game, same fields
            seat = game["seat"]
            events_seen = 0                      # nothing carries over from the last game
            rng = random.Random(fixed_seed if fixed_seed is not None else game.get("seed"))
            # "wants":["newgame"]: after `result`, send the next game, not `quit`
            send('ready minimal {"version":"1.0","author":"agon docs","wants":["newgame"]}')
        elif keyword == "event":                 # event {"type":...,"text":...}
            events_seen += 1
        elif keyword == "ask":                   # ask ID N {"prompt","legal","view","clock"}
            ask_id, count, body = payload.split(" ", 2)
            ask = json.loads(body)
            choice = rng.randrange(int(count))   # an index into ask["legal"]
            send(f"info {seat}: {events_seen} events so far, choosing {ask['legal'][choice]}")
            send(f"act {ask_id} {choice}")
        elif keyword == "result":                # result {"scores","ranks","points","reason"}
            result = json.loads(payload)
            print(f"{seat}: game over, rank {result.get('ranks', {}).get(seat)}", file=sys.stderr)
        elif keyword == "quit":                  # no more games
            return


if __name__ == "__main__":
    main()
