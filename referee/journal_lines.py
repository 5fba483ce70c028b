"""What the lines of a tournament's journal must be: each a game of this tournament.

A journal (`referee.journal`) is read back by ``--resume`` and ``agon
replay``; before a line counts it must hold a game of the schedule with a
result (`row_problem`) and be a game of the tournament its header describes
(`foreign_problem`: the digest of its header under its signature, its bots,
ruleset and options), and the header itself must be this referee's
(`header_trust_problem`), its settings of their kinds (`settings_problem`)
and, on a resume, the tournament asked for (`header_mismatches`).
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from agon.bots import builtin_name
from agon.bots.params import ParamError, parse_settings

from .engine import Result
from .players import KEEP_LOGS
from .signing import Check, Keyring, check_signature, digest, unsigned

# /2: the header names its run, and every game line carries the digest of its header
JOURNAL_FORMAT = "agon-tournament/2"
OLD_JOURNAL_FORMATS = ("agon-tournament/1",)  # still read, resumed and replayed
JOURNAL_FORMATS = (JOURNAL_FORMAT, *OLD_JOURNAL_FORMATS)
BINDING = "header_sha256"  # the key of a game line's digest of its journal's header


# what each setting of a header holds, when it is there, in types and in words
_NONE = type(None)
_SETTINGS: dict[str, tuple[tuple[type, ...], str]] = {
    "ruleset": ((dict,), "a mapping"), "bots": ((dict,), "a mapping"),
    "options": ((dict,), "a mapping"), "limits": ((dict,), "a mapping"),
    "games": ((int,), "a whole number"), "seed": ((int,), "a whole number"),
    "players": ((int, _NONE), "a whole number or null"),
    "jobs": ((int, _NONE), "a whole number or null"),
    "cluster": ((str, _NONE), "a text or null"), "gauntlet": ((str, _NONE), "a text or null"),
    "sprt": ((str, _NONE), "a text or null"),
}


def settings_problem(header: dict[str, Any]) -> str | None:
    """What in a header's settings is not of its kind (a resume reuses them), if anything."""
    for key, (kinds, words) in _SETTINGS.items():
        value = header.get(key)
        if key in header and (not isinstance(value, kinds) or isinstance(value, bool)):
            return f"its {key} setting is not {words}"
    if header.get("keep_logs", KEEP_LOGS[0]) not in KEEP_LOGS:
        return f"its keep_logs setting is not {' or '.join(KEEP_LOGS)}"
    if not isinstance(header.get("ruleset", {}).get("ref", ""), str):
        return "its ruleset is not named by a text"
    bots = header.get("bots", {})
    if not all(isinstance(name, str) and isinstance(spec, str) for name, spec in bots.items()):
        return "its bots are not names with bot specs"
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool)
               for v in header.get("limits", {}).values()):
        return "its time limits are not numbers"
    return None


# why a header without this referee's signature is refused, --verify or not
UNPROVEN_HEADER = ("its settings (the bots it starts, the games that count and who played "
                   "them) are not this referee's, and a header cannot be replayed: --verify "
                   "checks game lines only; start the tournament again with its settings on "
                   "the command line and a new --out")


def header_trust_problem(header: dict[str, Any], keyring: Keyring | None) -> str | None:
    """Why a journal's header is not this referee's word, if it is not."""
    check = check_signature(header, keyring)
    return None if check.proven else why_not_proven(check)


def row_problem(entry: dict[str, Any]) -> str | None:
    """What keeps a game line from being counted, if anything."""
    info = entry.get("tournament")
    if not isinstance(info, dict) or not isinstance(info.get("key"), str) \
            or not isinstance(info.get("seating"), dict):
        return "it names no game of the schedule (no tournament key and seating)"
    if "error" in entry:
        return None if isinstance(entry["error"], str) else "its error is not a message"
    if "result" not in entry:
        return "it has no result"
    try:
        result = Result.from_json(entry["result"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return "its result is not a result (scores, ranks, points, reason)"
    missing = [seat for seat in info["seating"] if seat not in result.ranks
               or (result.points and seat not in result.points)]
    if missing:
        return f"its result has no rank or points for {', '.join(map(str, missing))}"
    if not isinstance(entry.get("forfeits") or {}, dict):
        return "its forfeits are not a mapping"
    return None


def header_digest(header: dict[str, Any]) -> str | None:
    """What a game line of the journal names its header by (None: an older journal's
    lines name none).  The header's digest covers its settings and its run's id."""
    if header.get("format") != JOURNAL_FORMAT:
        return None
    try:
        return digest(unsigned(header))
    except ValueError:  # NaN in it: parse_json refuses such a header first
        return None


def foreign_problem(header: dict[str, Any], entry: dict[str, Any]) -> str | None:
    """Why a line (of a good shape, `row_problem`) is no game of the tournament `header`
    describes, if it is not.

    A line written into an agon-tournament/2 journal carries the digest of
    its header, under its signature: a line of another journal names another
    header.  A line of an older journal carries none; of it, and of any line,
    what can be compared is compared: its seating names the header's bots,
    its seats were played by the bots the header's specs start, and its
    ruleset and options are the header's.
    """
    expected, named = header_digest(header), entry.get(BINDING)
    if named != expected:
        why = ("it carries no digest of this journal's header" if named is None else
               "it was written under another journal's header")
        return f"it is not a game of this tournament: {why}"
    mismatch = _seating_mismatch(header.get("bots") or {}, entry)
    if mismatch is None and "error" not in entry:
        mismatch = _settings_mismatch(header, entry)
    return f"it is not a game of this tournament: {mismatch}" if mismatch else None


def _seating_mismatch(bots: dict[str, Any], entry: dict[str, Any]) -> str | None:
    """Whether the line's seating names the header's bots, and its seats were theirs."""
    seating = entry["tournament"]["seating"]
    seats = entry.get("seats")
    if "error" not in entry and (not isinstance(seats, dict) or set(seats) != set(seating)):
        return "its seats are not the seats of its seating"
    for seat, name in seating.items():
        if not isinstance(name, str) or name not in bots:
            return f"its {seat} is {name!r}, none of the header's bots ({', '.join(bots)})"
        if "error" not in entry and not _played_by(seats[seat], bots[name]):
            return (f"its {seat} was played by {_who(seats[seat])}, and the header's {name} "
                    f"is {bots[name]!r}")
    return None


def _settings_mismatch(header: dict[str, Any], entry: dict[str, Any]) -> str | None:
    played = entry.get("ruleset")
    sha = played.get("sha256") if isinstance(played, dict) else None
    if sha != (header.get("ruleset") or {}).get("sha256"):
        return "its ruleset is not the header's (another sha256)"
    if entry.get("options") != header.get("options"):
        return "its options are not the header's"
    return None


def _played_by(who: Any, spec: str) -> bool:
    """Whether a seat's identity in a record is the one the bot spec starts."""
    if not isinstance(who, dict):
        return False
    name = builtin_name(spec)
    if name is None:
        try:
            command = shlex.join(shlex.split(spec))
        except ValueError:
            return False
        return who.get("kind") == "program" and who.get("command") == command
    rest = spec.strip()[len(name) + 1:]
    try:
        params = parse_settings(name, rest) if rest.strip() else {}
    except ParamError:
        return False
    return (who.get("kind"), who.get("name"), who.get("params") or {}) == ("builtin", name,
                                                                          params)


def _who(who: Any) -> str:
    if not isinstance(who, dict):
        return "nobody it names"
    named = who.get("command") if who.get("kind") == "program" else who.get("name")
    params = who.get("params")
    return f"{named!r}" + (f" (with {params})" if params else "")


def why_not_proven(check: Check) -> str:
    if check == Check.BROKEN:
        return "it was changed after it was written (its signature does not match)"
    return check.value


def header_mismatches(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What differs between a journal's tournament and the one asked for now, each in
    words (the ruleset and the bots first: the usual mistakes)."""
    problems = ruleset_mismatch(stored.get("ruleset"), current["ruleset"])
    problems += bots_mismatch(stored.get("bots"), current.get("bots"))
    # sprt too: the journal's header keeps the first run's test, which a later resume
    # without --sprt would use again, so a run under another test could not be repeated
    for key in ("games", "seed", "players", "options", "limits", "gauntlet", "sprt"):
        if _json(stored.get(key)) != _json(current.get(key)):
            problems.append(f"{key}: the journal's is {_json(stored.get(key))}, "
                            f"this run's {_json(current.get(key))}")
    return problems


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def ruleset_mismatch(was: Any, now: dict[str, Any]) -> list[str]:
    was = was if isinstance(was, dict) else {}
    if was.get("id") != now["id"]:
        return [f"ruleset: the journal's games are of {was.get('id')}@{was.get('version')}, "
                f"this run names {now['id']}@{now['version']}"]
    if was.get("sha256") != now["sha256"]:
        return [f"ruleset: {now['id']} is not the one the journal's games were played with "
                f"(sha256 {str(was.get('sha256'))[:12]} then, {now['sha256'][:12]} now: "
                f"edited or upgraded since); its games cannot be counted with new ones"]
    return []


def bots_mismatch(was: Any, now: Any) -> list[str]:
    was = was if isinstance(was, dict) else {}
    now = now if isinstance(now, dict) else {}
    if was == now:
        return []
    listed = ", ".join(f"{name}={spec}" for name, spec in was.items()) or "none"
    problems = [f"bots: the journal's are {listed}"]
    if set(now) - set(was):
        problems.append(f"  not in the journal: {', '.join(sorted(set(now) - set(was)))}")
    if set(was) - set(now):
        problems.append(f"  missing from this run: {', '.join(sorted(set(was) - set(now)))}")
    for name in sorted(set(was) & set(now)):
        if was[name] != now[name]:
            problems.append(f"  {name} was {was[name]!r}, now {now[name]!r}")
    return problems
