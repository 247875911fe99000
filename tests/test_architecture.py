"""The layers keep their arrows (docs/architecture.md): the table server's
game-agnostic modules know no game, server/ imports nothing from clients/,
the protocol stands alone, clients never import the actor or the transport.
(That every game's rules are pure is tests/test_purity.py.)

The game-agnostic modules are read token by token: identifiers, strings and
comments alike, so a docstring that explains the actor in Oriente's terms
fails too. Oriente lives in its home, games/oriente/ (rules, port, bots,
story)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from oriente import games
from oriente.legacy import declared

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "oriente"
REGISTRY = PACKAGE / "games" / "__init__.py"


def _within(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


GAME_AGNOSTIC = sorted([
    *(PACKAGE / "server").glob("*.py"),  # every module of the server's own, new ones too
    *(PACKAGE / "server" / "table").glob("*.py"),
    *(PACKAGE / "server" / "director").glob("*.py"),
    *(PACKAGE / "server" / "tournament").glob("*.py"),
    *(PACKAGE / "server" / "stores").glob("*.py"),
    *(PACKAGE / "server" / "cluster").glob("*.py"),
    *(PACKAGE / "games" / "kit").glob("*.py"),
    *(PACKAGE / "fairplay").glob("*.py"),
    REGISTRY,
    PACKAGE / "legacy.py",
    PACKAGE / "protocol" / "messages.py",
    PACKAGE / "protocol" / "codec.py",
])
# Imports that would tie a game-agnostic module to a game: the home of every
# game the registry has (oriente.games), and the old names of modules there.
# The registry names each game's port by a string and imports none.
GAME_HOMES = tuple(games.home(name) for name in games.registered())
GAME_MODULES = (*GAME_HOMES, *(old for old, new in declared().items() if _within(new, *GAME_HOMES)))
# Oriente's names: its types, its options, its vocabulary, its seat range,
# its rule ids. Case-insensitive words.
OPTIONS = r"deals?|max_open_proposals|configured_deal|GameConfig|DealSetup|OrientePort"
VOCABULARY = r"inhabitants?|seasons?|geisha|shogun|treasures?|GameEnded|SeasonBegan"
ORIENTE = re.compile(rf"\b(?:{OPTIONS}|{VOCABULARY})\b|\b4 to 12\b|\b4\.\.12\b|(?<![\w.])R\d+\.\d+", re.I)


def _module(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    return ".".join(p for p in rel.parts if p != "__init__")


def imports(path: Path) -> list[str]:
    """Every module `path` imports, relative imports resolved."""
    package = _module(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]
    return found


def oriente_words(path: Path) -> list[str]:
    """Oriente's names in a module's identifiers, strings and comments."""
    hits = []
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type in (tokenize.NAME, tokenize.STRING, tokenize.COMMENT):
            hits += [f"{tok.start[0]}: {m.group(0)!r}" for m in ORIENTE.finditer(tok.string)]
    return hits


@pytest.mark.parametrize("path", GAME_AGNOSTIC, ids=lambda p: str(p.relative_to(ROOT)))
def test_game_agnostic_modules_import_no_game(path: Path) -> None:
    bad = [name for name in imports(path) if _within(name, *GAME_MODULES)]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("path", GAME_AGNOSTIC, ids=lambda p: str(p.relative_to(ROOT)))
def test_game_agnostic_modules_name_no_oriente_concept(path: Path) -> None:
    hits = oriente_words(path)
    if path == REGISTRY:  # the registry lists the game's port, by its class name
        hits = [h for h in hits if "OrientePort" not in h]
    assert not hits, f"{path.relative_to(ROOT)} speaks Oriente: {hits}"


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The two checks above fail on what they should."""
    sample = tmp_path / "sample.py"
    sample.write_text('from ..rules import GameConfig\nx = {"deal": 1}  # R10.3\n"a table has 4 to 12 seats"\n')
    assert len(oriente_words(sample)) == 4
    port = imports(PACKAGE / "games" / "oriente" / "port.py")
    assert {"oriente.games.oriente.rules", "oriente.games.oriente.rules.GameConfig",
            "oriente.games.oriente.bots"} <= set(port)
    assert any(_within(name, *GAME_MODULES) for name in port)
    assert _within("oriente.server.policies.heuristic", *GAME_MODULES)
    assert {"oriente.games.oriente", "oriente.games.oro", "oriente.games.samurai"} <= set(GAME_HOMES)


def _python_files(top: str) -> list[Path]:
    return sorted((PACKAGE / top).rglob("*.py"))


def test_server_imports_nothing_from_clients_or_the_command() -> None:
    bad = {str(p.relative_to(ROOT)): name for p in _python_files("server") for name in imports(p)
           if _within(name, "oriente.clients", "oriente.cli")}
    assert not bad, bad


def test_fair_dealing_imports_neither_server_nor_clients() -> None:
    """The server deals with `fairplay` and the clients verify with it: it
    stands below both, beside the games' kit."""
    bad = {str(p.relative_to(ROOT)): name for p in sorted((PACKAGE / "fairplay").glob("*.py")) for name in imports(p)
           if _within(name, "oriente.server", "oriente.clients", "oriente.cli")}
    assert not bad, bad


def test_the_protocol_imports_neither_server_nor_clients() -> None:
    """(protocol/vectors/generate.py is a script that runs the server to record
    its frames; the protocol package itself is src/oriente/protocol/*.py.)"""
    bad = {str(p.relative_to(ROOT)): name for p in sorted((PACKAGE / "protocol").glob("*.py")) for name in imports(p)
           if _within(name, "oriente.server", "oriente.clients", "oriente.cli")}
    assert not bad, bad


def test_clients_use_the_pure_rules_at_most() -> None:
    """Bots may simulate with the pure rules and policies; never the actor,
    the lobby, the transport or the stores. Verifying a record
    (sdk.verify_record) replays it through the games' ports, which are pure
    adapters of the pure rules, and `fairplay` (dealing and verify), which the
    server deals with."""
    allowed = (*declared(),)  # the games' old names (oriente.server.rules...) are the games' pure code
    bad = {str(p.relative_to(ROOT)): name for p in _python_files("clients") for name in imports(p)
           if _within(name, "oriente.server", "oriente.cli") and not _within(name, *allowed)}
    assert not bad, bad


def test_only_the_app_knows_the_cluster() -> None:
    """The site of many processes (server/cluster) sits beside the actor,
    lobby and transport, behind their small seams: none of them imports
    it, and the app imports it only when asked to join a site."""
    for path in sorted((PACKAGE / "server").glob("*.py")):
        if path.name == "app.py":
            continue
        bad = [name for name in imports(path) if name.startswith("oriente.server.cluster")]
        assert not bad, f"{path.name} imports {bad}"


def test_the_table_actor_class_stays_small() -> None:
    """The actor decides and delegates: the state it keeps is owned by its
    parts (server/table/: seats, log, viewers, play, store writes), and
    the class that runs the loop stays under 600 lines."""
    tree = ast.parse((PACKAGE / "server" / "table" / "actor.py").read_text(encoding="utf-8"))
    table = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Table")
    assert table.end_lineno is not None
    assert table.end_lineno - table.lineno + 1 < 600
