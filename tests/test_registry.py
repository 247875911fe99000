"""The registry of games (oriente.games): one line per game, its port
loaded when first asked for, the same instance for every table; the old
name of the registry (oriente.server.games) gives the same ports."""

from __future__ import annotations

import subprocess
import sys

import pytest

from oriente import games


def test_every_registered_game_loads_its_port_under_its_name() -> None:
    assert list(games.registered())[:3] == ["oriente", "oro", "samurai"]
    for name in games.registered():
        port = games.load(name)
        assert port.name == name and games.load(name) is port
        assert type(port).__module__ == f"{games.home(name)}.port"
    assert dict(games.all_ports()) == {name: games.load(name) for name in games.registered()}
    assert games.PORTS is games.all_ports()


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(games.UnknownGame):
        games.load("no_such_game")
    with pytest.raises(games.UnknownGame):
        games.home("no_such_game")


def test_the_old_registry_name_gives_the_same_ports() -> None:
    from oriente.server.games import PORTS
    from oriente.server.games.oro import OroPort

    assert PORTS is games.PORTS
    assert type(PORTS["oro"]) is OroPort


def test_importing_the_registry_imports_no_game() -> None:
    """A game's port (and its rules and bots) is imported when asked for,
    not by `import oriente`: the registry holds strings."""
    code = ("import sys, oriente.games; "
            "bad = [m for m in sys.modules if m.endswith('.port') or '.rules' in m or '.bots' in m]; "
            "print(bad); sys.exit(1 if bad else 0)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
