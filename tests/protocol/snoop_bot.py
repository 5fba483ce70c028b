"""A bot that looks for what it must not see, then plays the first legal action (test helper).

Usage: snoop_bot.py [DIR ...].  The needles it looks for come in its own
environment (SNOOP_NEEDLES, comma-separated, given with --bot-env), never on
its command line.  At its first ask it searches:

* every process it can see: command line, environment, and whether it can
  open that process's files (/proc/PID/cmdline, environ, fd/*);
* the files (up to a budget) under the DIRs it is given, its own directory's
  parent, /tmp, the home directories, the user's agon data directory, and
  every directory named on a visible process's command line.

Its own process and its own directory are left out.  It reports in `info`
lines: one `snoop: FOUND ...` per hit, then `snoop: looked at N processes,
M files`.
"""

import os
import sys

NEEDLES = [n.encode() for n in os.environ.get("SNOOP_NEEDLES", "").split(",") if n]
SKIP = ("/proc", "/sys", "/dev")
FILE_BUDGET = 5_000


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def hits(data, where, found):
    for needle in NEEDLES:
        if needle in data:
            found.append(f"needle {needle.decode()!r} in {where}")


def read(path, limit=1 << 14):
    try:
        with open(path, "rb") as handle:
            return handle.read(limit)
    except OSError:
        return None


def processes(found, places):
    me, seen = os.getpid(), 0
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        seen += 1
        cmdline = read(f"/proc/{name}/cmdline") or b""
        hits(cmdline, f"/proc/{name}/cmdline", found)
        places += [a.decode(errors="replace") for a in cmdline.split(b"\0") if a.startswith(b"/")]
        environ = read(f"/proc/{name}/environ")
        if environ is not None:
            hits(environ, f"/proc/{name}/environ", found)
        try:
            fds = os.listdir(f"/proc/{name}/fd")
        except OSError:
            fds = []
        for fd in fds:
            try:  # opening another process's file is the breach: pipes, transcripts, logs
                os.close(os.open(f"/proc/{name}/fd/{fd}", os.O_RDONLY | os.O_NONBLOCK))
                found.append(f"opened /proc/{name}/fd/{fd}")
            except OSError:
                pass
    return seen


def files(places, found):
    own = os.getcwd()
    done, count = set(), 0
    for place in places:
        top = place if os.path.isdir(place) else os.path.dirname(place)
        if not top or top in done or top.startswith(SKIP) or top.startswith(own):
            continue
        done.add(top)
        for folder, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if not os.path.join(folder, d).startswith((own, *SKIP))]
            for name in names:
                path = os.path.join(folder, name)
                if name.endswith(".transcript"):
                    found.append(f"transcript {path}")
                data = read(path)
                if data is not None:
                    count += 1
                    hits(data, path, found)
                if count >= FILE_BUDGET:
                    return count
    return count


def snoop():
    found, home = [], os.path.expanduser("~root")
    places = [*sys.argv[1:], os.path.dirname(os.getcwd()), "/tmp", "/var/tmp", home, "/home",
              os.path.join(home, ".local", "share", "agon")]
    seen = processes(found, places)
    count = files(places, found)
    for hit in found:
        send(f"info snoop: FOUND {hit}")
    send(f"info snoop: looked at {seen} processes, {count} files")


def main():
    asks = 0
    for line in sys.stdin:
        keyword, _, rest = line.rstrip("\n").partition(" ")
        if keyword == "agon":
            send("ready snoop")
        elif keyword == "ask":
            asks += 1
            if asks == 1:
                snoop()
            send(f"act {rest.split(' ', 1)[0]} 0")
        elif keyword == "quit":
            return


main()
