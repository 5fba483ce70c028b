"""agon from Python: what `agon/__init__.py` exports, documented in docs/api.md.

Loaded the first time one of these names is used, so that `import agon` stays
cheap.  Bad arguments raise `ValueError` (an unknown bot or seat, a player
count the ruleset does not play) or `RulesetError` (a ruleset that cannot be
used, an option it does not have), with a message that says what is allowed.
"""

from __future__ import annotations

import operator
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agon.bots import BUILTIN
from agon.bots.base import Bot
from agon.referee import schedule
from agon.referee.engine import Decision, Engine, Event, State
from agon.referee.games import engine_class
from agon.referee.human import HumanPlayer
from agon.referee.match import game_seats, run_match, seat_order
from agon.referee.players import InProcessPlayer, Limits, Player, make_player
from agon.referee.records import GameRecord, RecordError, load_record, record_problem, verify
from agon.referee.ruleset import load_ruleset as _load_ruleset
from agon.referee.ruleset import recorded_ruleset
from agon.referee.ruleset_model import Ruleset
from agon.referee.signing import Keyring, KeyringError, parse_json
from agon.referee.suggest import did_you_mean

RulesetLike = str | Path | Ruleset  # a shipped id, a file, or a loaded ruleset
Chooser = Callable[[Decision, dict[str, Any]], str]  # (decision, view) -> one of decision.legal
BotLike = str | Bot | type[Bot] | Chooser


def load_ruleset(ruleset: str | Path, *, rulesets_path: str | Path | Iterable[str | Path] = ()) -> Ruleset:
    """A valid ruleset: a shipped id (``"earth-and-water"``), an id found in one
    of the `rulesets_path` folders, or a YAML file.  Raises `RulesetError`
    listing every problem of an invalid file."""
    return _load_ruleset(ruleset, folders(rulesets_path))


def folders(rulesets_path: str | Path | Iterable[str | Path]) -> tuple[Path, ...]:
    """The `rulesets_path` folders; one folder given alone is that folder (a string is
    iterable too: its letters were searched as folders, and the ruleset never found)."""
    if isinstance(rulesets_path, str | Path):
        return (Path(rulesets_path),)
    return tuple(Path(folder) for folder in rulesets_path)


def whole_number(name: str, value: Any, *, none: bool = True) -> Any:
    """A count, a seed or an action index must be a whole number (None means its
    default, where `none`): returned as an int, so that numpy's integers
    (np.int64(7)) are 7; True, 1.0 and "1" are refused with a ValueError naming `name`.
    The one check of the API and of agon.pettingzoo."""
    if value is None and none:
        return None
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise ValueError(f"{name} is a whole number, not {value!r}")


def _bots(bots: Any, keys: str) -> None:
    """`bots` is a list or a dict; one string is neither (its letters are no bots)."""
    if isinstance(bots, str | bytes):
        raise TypeError(f"bots is a list of bots or a dict {{{keys}: bot}}, "
                        f"not the string {bots!r}")


def _ruleset(ruleset: RulesetLike) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)


def new_game(ruleset: RulesetLike, players: int | None = None, *, seed: int = 0,
             **options: Any) -> State:
    """The first position of a game, to drive by hand.

    `players` is the number of seats (default: the ruleset's fixed seats, else
    two where it allows two, else its minimum); `options` are the ruleset's
    options (``forced_spend=True``).  The State lists who must act
    (``pending()``), takes their actions (``apply(seat, action)``), shows a
    seat what it may know (``view(seat)``) and gives the ``result()`` at the
    end; the same seed and actions always give the same game.
    """
    seed = whole_number("seed", seed, none=False)
    rs, engine, seats = game_setup(ruleset, players)
    return engine.new_game(seats, seed, rs.resolve_options(options))


def game_setup(ruleset: RulesetLike, players: int | None) -> tuple[Ruleset, Engine, list[str]]:
    """The ruleset, its engine and the seats of a game of `players` (None: the
    ruleset's default count), as new_game and agon.pettingzoo make a game;
    ValueError saying the counts the ruleset is played by."""
    players = whole_number("players", players)
    rs = _ruleset(ruleset)
    engine = engine_class(rs.engine)(rs)
    return rs, engine, game_seats(engine, rs.default_players() if players is None else players)


def play(ruleset: RulesetLike, bots: Mapping[str, BotLike] | Sequence[BotLike], *,
         seed: int | None = None, move_time: float = 10.0, game_time: float = 600.0,
         log_dir: str | Path | None = None, on_event: Callable[[Event], None] | None = None,
         **options: Any) -> GameRecord:
    """Referee one game and return its record.

    `bots` gives a player for each seat, as ``{seat: bot}`` or as a list in
    seat order.  A bot is a built-in bot's name (``"random"``, ``"mc"``), a
    program's command line (``"python3 my_bot.py --fast"``, which speaks the
    line protocol), a `Bot` subclass or instance, or a function
    ``choose(decision, view) -> action`` returning one of ``decision.legal``,
    or ``"human"``: a person typing at this terminal.
    A bot that crashes, answers late or illegally forfeits its seat, as in
    `agon play`.  `seed` defaults to a random one (the record keeps it);
    `options` are the ruleset's options.  Programs' stderr logs go to
    `log_dir` when given (else to a folder removed after the game).
    """
    seed = whole_number("seed", seed)
    _bots(bots, "seat")
    if log_dir is not None and Path(log_dir).exists() and not Path(log_dir).is_dir():
        raise ValueError(f"log_dir {str(log_dir)!r} is a file, not a folder")
    rs = _ruleset(ruleset)
    engine = engine_class(rs.engine)(rs)
    given = dict(bots) if isinstance(bots, Mapping) else \
        dict(zip(game_seats(engine, len(bots)), bots, strict=True))
    seats = seat_order(engine, given)
    resolved = rs.resolve_options(options)
    limits = Limits(move=move_time, game=game_time)   # ValueError before any bot starts
    if seed is None:
        seed = schedule.fresh_seed()   # as `agon play`: a seed no bot can guess
    with tempfile.TemporaryDirectory(prefix="agon-logs-") as scratch:
        players: dict[str, Player] = {}
        try:
            for seat in seats:
                players[seat] = _player(given[seat], _bot_seed(seed, seat),
                                        Path(log_dir) if log_dir else Path(scratch), rs)
            return run_match(engine, players, seed=seed, options=resolved,
                             limits=limits, on_event=on_event)
        finally:
            for player in players.values():
                player.close()


def _bot_seed(game_seed: int, seat: str) -> int:
    from agon.referee.match import player_seed  # as `agon play` and tournaments draw it

    return player_seed(game_seed, seat)


class _FunctionBot(Bot):
    """A plain function as a bot: ``choose(decision, view) -> action``."""

    def __init__(self, choose: Chooser, seed: int) -> None:
        super().__init__(seed)
        self._choose = choose
        self.name = getattr(choose, "__name__", "function")

    def choose(self, decision: Decision, view: dict[str, Any], state: State | None = None) -> str:
        return self._choose(decision, view)


def _player(bot: BotLike, seed: int, log_dir: Path, rs: Ruleset) -> Player:
    if bot == "human":   # a person at this terminal, as in `agon play --seat SEAT=human`
        return HumanPlayer(ruleset=rs)
    if isinstance(bot, Bot):   # the caller's bots get copies they may edit
        return InProcessPlayer(bot, copies=True)
    if isinstance(bot, type) and issubclass(bot, Bot):
        return InProcessPlayer(bot(seed), copies=True)
    if isinstance(bot, str):
        try:
            return make_player(bot, seed=seed, log_dir=log_dir)
        except ValueError as exc:
            name = bot.strip().partition(":")[0]   # `ismcts:time=1` names the bot ismcts
            raise ValueError(f"{exc}{did_you_mean(name, [*BUILTIN, 'human'])}") from None
    if callable(bot):
        return InProcessPlayer(_FunctionBot(bot, seed), copies=True)
    raise TypeError(f"a bot is a name, a command line, a Bot or a function, "
                    f"not {type(bot).__name__}")


def tournament(ruleset: RulesetLike, bots: Mapping[str, str] | Sequence[str], *,
               games: int = 10, seed: int | None = None, players: int | None = None, jobs: int = 1,
               move_time: float = 10.0, game_time: float = 600.0,
               rulesets_path: str | Path | Iterable[str | Path] = (), **options: Any) -> dict[str, Any]:
    """A round-robin in the duplicate format, as `agon tournament` plays it; the standings.

    `ruleset` is an id, a file, or a `Ruleset` (played from the file it was
    loaded from).  `bots` are built-in names or command lines, as ``{name:
    bot}`` or as a list (each named after its bot or program): each game runs
    in a worker process, so a `Bot` enters as a program (docs/api.md).  Every
    pairing (or group of `players` bots) plays `games` seeds in every seat
    assignment; `jobs` worker processes play them.  `seed` is the master seed
    the games' seeds are derived from: by default one drawn at random, as
    `agon tournament` draws it (a seed a bot can guess lets it deal the cards
    ahead), kept in the table's ``seed`` to play the same games again.
    Returns the standings as data, the same JSON `agon tournament --format
    json` prints (schemas/results.schema.json): ``bots`` (games, wins, draws,
    losses, score, Elo or ratings), ``pairs``, ``pairwise``, ``seats``,
    ``errors``.
    """
    from agon.referee.ratings import standings
    from agon.referee.report import to_json
    from agon.referee.schedule import NAME_PATTERN, plan_size_problem
    from agon.referee.tournament import (
        Entrant,
        TournamentError,
        parse_entrant,
        run_tournament,
        setup,
    )

    games, seed, players, jobs = (whole_number(name, value) for name, value in (
        ("games", games), ("seed", seed), ("players", players), ("jobs", jobs)))
    if seed is None:
        seed = schedule.fresh_seed()
    if games is not None and games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    _bots(bots, "name")
    for bot in bots.values() if isinstance(bots, Mapping) else bots:
        if not isinstance(bot, str):
            raise TypeError(f"tournament bots are built-in names or command lines (each game "
                            f"runs in a worker process), not {_described(bot)}; make it a "
                            f"program (docs/api.md, Bots) and give its command line")
    if isinstance(ruleset, Ruleset):   # the workers load it again, from its file
        ruleset = ruleset.source
    try:
        if isinstance(bots, Mapping):
            bad = [name for name in bots if not NAME_PATTERN.match(name)]
            if bad:
                raise TournamentError(f"bot name {bad[0]!r}: letters, digits and _ . + - only")
            entrants = [Entrant(name, spec) for name, spec in bots.items()]
        else:
            entrants = [parse_entrant(spec) for spec in bots]
        config = setup(str(ruleset), entrants, games=games, seed=seed, players=players,
                       options=options, limits=Limits(move=move_time, game=game_time),
                       rulesets_path=folders(rulesets_path))
    except TournamentError as exc:
        raise ValueError(str(exc)) from None
    too_many = plan_size_problem(len(config.seats), len(config.entrants), config.games,
                                 config.gauntlet is not None)
    if too_many:
        raise ValueError(f"games={games} {too_many}")
    plan, rows = run_tournament(config, jobs=max(1, jobs))
    table = standings(rows, plan.kind, [e.name for e in entrants], plan.seats,
                      meta=config.summary(plan.kind, len(plan.tasks), len(rows)))
    return to_json(table)


def _described(bot: Any) -> str:
    if isinstance(bot, type):
        return f"the class {bot.__name__}"
    if callable(bot) and hasattr(bot, "__name__"):
        return f"the function {bot.__name__}"
    return f"a {type(bot).__name__}"


def replay(record: str | Path | Mapping[str, Any] | GameRecord, *,
           ruleset: RulesetLike | None = None,
           rulesets_path: str | Path | Iterable[str | Path] = ()) -> dict[str, Any]:
    """Re-run a game record and say what it proves, as `agon replay` does.

    `record` is a record file, its JSON (as text or a dict), or what `play`
    returned.
    The ruleset is `ruleset`, else the one the record names by id (shipped or
    in `rulesets_path`).  Returns ``verified`` (everything below holds),
    ``replays`` (the actions replay legally from the seed to the recorded
    result), ``digest`` (the final position matches the record's digest),
    ``signature`` (signed with this referee's key: only a signature proves
    the bots named, the forfeits and the timings), ``findings`` (each check in
    words, ``{"ok", "text"}``) and ``result`` (the replayed result, or None).
    """
    data = _record_data(record)
    rs = _ruleset(ruleset) if ruleset is not None else _recorded(record, data, rulesets_path)
    try:
        keyring = Keyring.existing()
    except KeyringError:
        keyring = None  # the signature then cannot be proven, which the findings say
    outcome = verify(data, rs, keyring)
    result = outcome.replay.result
    return {"verified": outcome.verified,
            "replays": all(f.ok for f in outcome.replayed),
            "digest": outcome.digest.ok, "signature": outcome.signature.ok,
            "findings": [{"ok": f.ok, "text": f.text} for f in outcome.findings],
            "result": result.to_json() if result else None}


def _recorded(record: Any, data: dict[str, Any], rulesets_path: str | Path | Iterable[str | Path]
              ) -> Ruleset:
    """The ruleset a record names, found as `agon replay` finds it: a record may come
    from anyone, so its id is an id (never a path) and its file is read only in the
    record's own folder, the `rulesets_path` folders or the shipped one."""
    searched = folders(rulesets_path)
    if isinstance(record, str | Path) and not _json_text(record):
        searched = (*searched, Path(record).resolve().parent)
    return _load_ruleset(recorded_ruleset(data, searched), searched)


def _json_text(record: Any) -> bool:
    """A record given as its JSON text rather than a file name."""
    return isinstance(record, str) and record.lstrip().startswith("{")


def _record_data(record: str | Path | Mapping[str, Any] | GameRecord) -> dict[str, Any]:
    if isinstance(record, GameRecord):
        return record.to_json()
    if _json_text(record):
        try:
            record = parse_json(record)
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not a JSON game record ({exc})") from None
    if not isinstance(record, str | Path | Mapping):
        raise TypeError(f"replay takes a record file, its JSON (text or dict) or what play "
                        f"returned, not {type(record).__name__}")
    if isinstance(record, Mapping):
        data = dict(record)
        problem = record_problem(data)
        if problem:
            raise ValueError(f"not a game record: {problem}")
        return data
    try:
        return load_record(record)
    except RecordError as exc:
        raise ValueError(str(exc)) from None
