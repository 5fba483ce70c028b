"""A tournament's standings as a table for people, JSON or CSV.

The JSON is described by schemas/results.schema.json; its "format" field
names the version (`RESULTS_FORMAT`).  Numbers are rounded; an Elo or an
interval that is infinite (a perfect score) is null in JSON and "inf" in
the table; an interval that cannot be estimated (one game, or every game
or pair scoring the same) is null in JSON and left out of the table ("no
interval" beside an Elo), never shown as "+- 0".
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from typing import Any

from tabulate import tabulate

from .players import FORFEIT_REASONS
from .ratings import Line, PairStats, Standings, Tally
from .sprt import H0, H1, SprtResult
from .stats import EloEstimate

RESULTS_FORMAT = "agon-results/1"


# -- the table -------------------------------------------------------------------

def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}"


def _pm(value: float | None, ci: float | None, scale: float = 1.0, digits: int = 1) -> str:
    """``value ± ci``, both times `scale`."""
    if value is None:
        return ""
    text = f"{scale * value:.{digits}f}"
    return text if ci is None else f"{text} ± {scale * ci:.{digits}f}"


def _elo_text(elo: float | None, ci: float | None) -> str:
    if elo is None:
        return ""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{round(elo):+d} ± " + ("inf" if ci is None else f"{ci:.0f}")  # never "-0"


def _forfeit_text(forfeits: Counter) -> str:
    return ", ".join(f"{reason} {count}" for reason, count in sorted(forfeits.items())) or "-"


def _wilson_text(line: Line) -> str:
    interval = line.win_rate_ci95
    if interval is None:
        return ""
    return f"{_pct(line.win_rate)} ({_pct(interval[0])}-{_pct(interval[1])})"


KIND_COLUMNS: dict[str, list[tuple[str, Any]]] = {
    "duel": [("score %", lambda ln: _pct(ln.score)),
             ("Elo ± 95%", lambda ln: _elo_text(ln.elo, ln.elo_ci))],
    "multiplayer": [("score % ± 95%", lambda ln: _pm(ln.score, ln.score_ci95, 100)),
                    ("mean rank ± 95%", lambda ln: _pm(ln.mean_rank, ln.mean_rank_ci95, 1, 2)),
                    ("PL mu", lambda ln: f"{ln.skill.mu:.1f}" if ln.skill else ""),
                    ("sigma", lambda ln: f"{ln.skill.sigma:.2f}" if ln.skill else ""),
                    ("ordinal", lambda ln: f"{ln.skill.ordinal:.1f}" if ln.skill else "")],
    "solo": [("score %", lambda ln: _pct(ln.score)),
             ("win % (95%)", _wilson_text),
             ("mean score ± 95%", lambda ln: _pm(ln.mean_score, ln.mean_score_ci95, 1, 2))],
}

KIND_NOTES = {
    "duel": "Elo: maximum likelihood over all games, one virtual draw per pairing, mean 0; "
            "± is the 95% interval (1.96 standard errors).",
    "multiplayer": "± is a 95% interval over games (none where every game gave the same "
                   "value).  PL: Plackett-Luce rating (openskill, "
                   "prior mu 25, sigma 8.33, games in schedule order); ordinal = mu - 3 sigma; "
                   "mus less than about 2 sigma apart do not tell bots apart.",
    "solo": "win %: with its Wilson 95% interval; mean score: the game's own score "
            "(no ± where every game gave the same).",
}


def bot_rows(st: Standings) -> tuple[list[str], list[list[Any]]]:
    """The main table for people: one row per bot."""
    columns = KIND_COLUMNS[st.kind]
    headers = ["bot", "games", "wins", "draws", "losses", *(h for h, _ in columns), "forfeits"]
    with_errors = any(line.errors for line in st.bots)
    if with_errors:
        headers.append("errors")
    rows = []
    for line in st.bots:
        row: list[Any] = [line.name, line.games, line.wins, line.draws, line.losses,
                          *(cell(line) for _, cell in columns), _forfeit_text(line.forfeits)]
        if with_errors:
            row.append(line.errors)
        rows.append(row)
    return headers, rows


def _estimate_text(estimate: EloEstimate | None) -> str:
    """``+17 ± 128``, or the interval's ends when one is infinite: ``+417 (+254 to inf)``."""
    if estimate is None:
        return ""
    if estimate.ci95 is not None or math.isinf(estimate.elo):
        return _elo_text(estimate.elo, estimate.ci95)
    if not estimate.spread:
        return f"{round(estimate.elo):+d} (no interval)"
    ends = [f"{round(end):+d}" if math.isfinite(end) else ("inf" if end > 0 else "-inf")
            for end in (estimate.low, estimate.high)]
    return f"{round(estimate.elo):+d} ({ends[0]} to {ends[1]})"


def pair_rows(pairs: list[PairStats]) -> tuple[list[str], list[list[Any]]]:
    headers = ["first - second", "games", "score %", "Elo ± 95%", "LOS %", "pairs",
               "LL LD DD+WL WD WW", "paired Elo ± 95%"]
    rows = []
    for pair in pairs:
        plain = pair.plain
        rows.append([f"{pair.first} - {pair.second}", pair.games,
                     _pct(plain.score) if plain else "", _estimate_text(plain),
                     _pct(pair.los) or "-", sum(pair.pentanomial),
                     " ".join(str(n) for n in pair.pentanomial), _estimate_text(pair.paired)])
    return headers, rows


PAIRS_NOTE = ("Elo of first over second: from the games (plain) and from the game pairs, "
              "one seed in both seatings (paired: pentanomial variance); LOS: likelihood that "
              "first is the stronger, from wins and losses; no interval: every game (or "
              "pair) scored the same, which says nothing about the spread.")


def sprt_text(sprt: SprtResult, planned: int, played: int | None = None) -> str:
    """The test's lines; `played`: the games in the table (the counted pairs' and any
    that ended in an error), which say whether the test cut the match short."""
    spec = sprt.spec
    elo0, elo1 = f"elo0 = {spec.elo0:+g}", f"elo1 = {spec.elo1:+g}"
    verdict = {H1: f"H1 accepted: {sprt.first} is stronger than {sprt.second} by {elo1} "
                   f"rather than {elo0}",
               H0: f"H0 accepted: {sprt.first} is not stronger than {sprt.second} by {elo1} "
                   f"({elo0} holds)"}.get(sprt.decision, "no decision yet (continue)")
    lines = [f"SPRT {sprt.first} - {sprt.second} ({spec.text()}; logistic Elo, game pairs)",
             f"  LLR {sprt.llr:.3f} (bounds {spec.lower:.3f}, {spec.upper:.3f}) after "
             f"{sprt.games} games ({sprt.pairs} pairs): {verdict}"]
    played = sprt.games if played is None else played
    if sprt.decision in (H0, H1) and played < planned:
        lines.append(f"  The SPRT stopped the match after {played} of {planned} "
                     "planned games.")
    elif sprt.decision not in (H0, H1):
        more = "" if played < planned else \
            ": continue into a new journal with more, --resume FILE --games N --out NEW"
        lines.append(f"  More games are needed for a decision{more}.")
    return "\n".join(lines)


def render_table(st: Standings) -> str:
    parts = []
    title = st.meta.get("title")
    if title:
        parts.append(title)
    if st.sprt:
        parts.append(sprt_text(st.sprt, st.meta.get("games", 0), st.meta.get("played")))
    headers, rows = bot_rows(st)
    parts.append(_tabulate(rows, headers) + "\n" + KIND_NOTES[st.kind])
    if st.pairs:
        headers, rows = pair_rows(st.pairs)
        parts.append("Pairs\n" + _tabulate(rows, headers) + "\n" + PAIRS_NOTE)
    names = [line.name for line in st.bots]
    matrix = [[a] + ["-" if a == b else _pct(st.pairwise[a][b].score) or "-" for b in names]
              for a in names]
    label = ("duplicate: same seeds, points compared" if st.kind == "solo"
             else "score % of row against column")
    parts.append(f"Pairwise ({label})\n" + _tabulate(matrix, [""] + names))
    if st.kind != "solo" or len(st.seat_names) > 1:
        seat_rows = [[name] + [_seat_cell(st.seats[name][seat]) for seat in st.seat_names]
                     for name in [*names, "all"]]
        parts.append("By seat (score % and games)\n"
                     + _tabulate(seat_rows, [""] + st.seat_names))
    if st.teams:
        team_rows = [[t.name, t.games, t.wins, t.draws, t.losses, _pct(t.score)]
                     for t in st.teams]
        parts.append("By team\n" + _tabulate(team_rows, ["team", "games", "wins", "draws",
                                                          "losses", "score %"]))
    if st.errors:
        parts.append("Errors (games the referee could not finish)\n" + "\n".join(
            f"  {e['key']}: {e['error']}" for e in st.errors))
    return "\n\n".join(parts) + "\n"


def _tabulate(rows: list[list[Any]], headers: list[str]) -> str:
    """Names left, numbers right, nothing reformatted."""
    return tabulate(rows, headers=headers, disable_numparse=True,
                    colalign=("left",) + ("right",) * (len(headers) - 1))


def _seat_cell(tally: Tally) -> str:
    return "-" if not tally.games else f"{_pct(tally.score)} ({tally.games})"


# -- JSON and CSV ------------------------------------------------------------------

def _round(value: float | None, digits: int = 4) -> float | None:
    """Rounded; None for None and for an infinite or undefined value (JSON has
    neither); never -0.0."""
    return None if value is None or not math.isfinite(value) else round(value, digits) + 0.0


def _line_json(line: Line, kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "bot": line.name, "games": line.games, "wins": line.wins, "draws": line.draws,
        "losses": line.losses, "score": _round(line.score),
        "score_ci95": _round(line.score_ci95),
        "forfeits": {reason: line.forfeits.get(reason, 0) for reason in FORFEIT_REASONS},
        "errors": line.errors,
    }
    if kind == "duel":
        out["elo"] = _round(line.elo, 1)
        out["elo_ci95"] = _round(line.elo_ci, 1)
    elif kind == "multiplayer":
        out["mean_rank"] = _round(line.mean_rank)
        out["mean_rank_ci95"] = _round(line.mean_rank_ci95)
        out["mean_score"] = _round(line.mean_score)
        out["mean_score_ci95"] = _round(line.mean_score_ci95)
        skill = line.skill
        out["openskill"] = None if skill is None else {
            "mu": _round(skill.mu), "sigma": _round(skill.sigma),
            "ordinal": _round(skill.ordinal)}
    else:
        interval = line.win_rate_ci95
        out["win_rate"] = _round(line.win_rate)
        out["win_rate_ci95"] = None if interval is None else [_round(v) for v in interval]
        out["mean_score"] = _round(line.mean_score)
        out["mean_score_ci95"] = _round(line.mean_score_ci95)
    return out


def _estimate_json(estimate: EloEstimate | None) -> dict[str, Any] | None:
    if estimate is None:
        return None
    return {"score": _round(estimate.score), "variance": _round(estimate.variance, 6),
            "elo": _round(estimate.elo, 1), "elo_ci95": _round(estimate.ci95, 1),
            "elo_low": _round(estimate.low, 1), "elo_high": _round(estimate.high, 1)}


def _pair_json(pair: PairStats) -> dict[str, Any]:
    return {"first": pair.first, "second": pair.second, "games": pair.games,
            "wins": pair.wins, "draws": pair.draws, "losses": pair.losses,
            "los": _round(pair.los), "plain": _estimate_json(pair.plain),
            "pairs": sum(pair.pentanomial), "pentanomial": list(pair.pentanomial),
            "paired": _estimate_json(pair.paired)}


def to_json(st: Standings) -> dict[str, Any]:
    names = [line.name for line in st.bots]
    return {
        "format": RESULTS_FORMAT,
        **{k: v for k, v in st.meta.items() if k != "title"},
        "kind": st.kind,
        "bots": [_line_json(line, st.kind) for line in st.bots],
        "pairs": [_pair_json(pair) for pair in st.pairs] if st.kind == "duel" else None,
        "sprt": st.sprt.to_json() if st.sprt else None,
        "pairwise": {a: {b: {"score": _round(st.pairwise[a][b].score),
                             "games": st.pairwise[a][b].games}
                         for b in names if b != a} for a in names},
        "seats": {name: {seat: {"score": _round(t.score), "games": t.games}
                         for seat, t in st.seats[name].items()} for name in [*names, "all"]},
        "teams": None if st.teams is None else [
            {"team": t.name, "games": t.games, "wins": t.wins, "draws": t.draws,
             "losses": t.losses, "score": _round(t.score)} for t in st.teams],
        "errors": st.errors,
    }


def render_json(st: Standings) -> str:
    return json.dumps(to_json(st), indent=2) + "\n"


CSV_COLUMNS = {"duel": ["elo", "elo_ci95"],
               "multiplayer": ["mean_rank", "mean_rank_ci95", "mean_score", "mean_score_ci95",
                               "mu", "sigma", "ordinal"],
               "solo": ["win_rate", "win_rate_low", "win_rate_high", "mean_score",
                        "mean_score_ci95"]}


def render_csv(st: Standings) -> str:
    """The per-bot table, one header row; forfeits one column per reason."""
    headers = ["bot", "games", "wins", "draws", "losses", "score", "score_ci95",
               *CSV_COLUMNS[st.kind], *(f"forfeit_{reason}" for reason in FORFEIT_REASONS),
               "errors"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    for line in st.bots:
        flat = _line_json(line, st.kind)
        flat.update({f"forfeit_{r}": n for r, n in flat.pop("forfeits").items()})
        flat.update(flat.pop("openskill", None) or {})
        low_high = flat.pop("win_rate_ci95", None) or [None, None]
        flat["win_rate_low"], flat["win_rate_high"] = low_high
        writer.writerow(["" if flat.get(h) is None else flat[h] for h in headers])
    return buffer.getvalue()


RENDERERS = {"table": render_table, "json": render_json, "csv": render_csv}
