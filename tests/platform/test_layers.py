"""Data flows one way: cli -> match/tournament -> players and engines -> protocol/transport.

Read from the installed package's source with `ast`, so a new import that
runs against the flow fails here, whatever tool draws the picture.
"""

from __future__ import annotations

import ast
from pathlib import Path

import agon
import agon.bots
import agon.cli
import agon.referee

# Each part's folder (an editable install maps them from the repository's top).
PARTS = {"agon": Path(agon.__file__).parent, "agon.cli": Path(agon.cli.__file__).parent,
         "agon.referee": Path(agon.referee.__file__).parent,
         "agon.bots": Path(agon.bots.__file__).parent}


def _sources() -> dict[str, Path]:
    """Module name -> source file, for every module of the package."""
    out = {}
    for part, folder in PARTS.items():
        paths = folder.glob("*.py") if part == "agon" else folder.rglob("*.py")
        for path in paths:
            rest = list(path.relative_to(folder).with_suffix("").parts)
            if rest[-1] == "__init__":
                rest.pop()
            out[".".join([part, *rest])] = path
    return out


def _imports() -> dict[str, set[str]]:
    """Module -> the agon modules it imports (relative imports resolved)."""
    graph: dict[str, set[str]] = {}
    for name, path in _sources().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        graph[name] = {t for t in targets if t.startswith("agon.")}
    return graph


GRAPH = _imports()


def _importers_of(prefix: str) -> set[str]:
    return {m for m, targets in GRAPH.items()
            if any(t == prefix or t.startswith(prefix + ".") for t in targets)}


def test_only_the_cli_and_the_entry_points_import_the_cli():
    assert _importers_of("agon.cli") <= {m for m in GRAPH if m.startswith("agon.cli")} | {
        "agon.__main__"}


def test_the_protocol_codec_and_the_transport_import_nothing_of_agon():
    for module in ("agon.referee.protocol", "agon.referee.transport"):
        assert GRAPH[module] == set(), module


def test_engines_never_import_the_referee_above_them_nor_another_game():
    above = ("agon.referee.match", "agon.referee.players", "agon.referee.tournament",
             "agon.referee.ratings", "agon.referee.records", "agon.bots", "agon.cli")
    for module, targets in GRAPH.items():
        if not module.startswith("agon.referee.games."):
            continue
        game = module.split(".")[3]
        for target in targets:
            assert not target.startswith(above), (module, target)
            if target.startswith("agon.referee.games."):
                assert target.split(".")[3] == game, (module, target)


def test_the_engine_interface_does_not_import_the_loader():
    assert not any(t.startswith("agon.referee.ruleset") and not t.startswith(
        "agon.referee.ruleset_model") for t in GRAPH["agon.referee.engine"])
