"""The old import paths keep working for one release (oriente.legacy):
bots and tools outside the project import `oriente.server.rules`,
`oriente.server.policies` and the rest, as the README and docs/bots.md told
them to. Each old name gives the module that lives at the new name (the
very same module, so the same objects), never a second copy of it.

Checked in a fresh interpreter, so that nothing this test process imported
before hides a missing alias."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from types import ModuleType

import pytest

from oriente.legacy import Aliases, declared

# Old name -> new name: what outside code imports (README, docs/bots.md).
OLD = {
    "oriente.server.rules": "oriente.games.oriente.rules",
    "oriente.server.rules.engine": "oriente.games.oriente.rules.engine",
    "oriente.server.rules.views": "oriente.games.oriente.rules.views",
    "oriente.server.policies.heuristic": "oriente.games.oriente.bots.heuristic",
    "oriente.server.policies.negotiator": "oriente.games.oriente.bots.negotiator",
    "oriente.server.policies.oro": "oriente.games.oro.bots",
    "oriente.server.policies.samurai": "oriente.games.samurai.bots",
    "oriente.server.oro": "oriente.games.oro.rules",
    "oriente.server.oro.board": "oriente.games.oro.rules.board",
    "oriente.server.samurai": "oriente.games.samurai.rules",
    "oriente.server.samurai.datafiles": "oriente.games.samurai.rules.datafiles",
    "oriente.server.games.oriente": "oriente.games.oriente.port",
    "oriente.server.games.oro": "oriente.games.oro.port",
    "oriente.server.games.samurai": "oriente.games.samurai.port",
    "oriente.server.games.decisions": "oriente.games.kit.waiting",
    "oriente.server.game_port": "oriente.games.kit.port",
    "oriente.server.gamekit": "oriente.games.kit",
    "oriente.server.gamekit.rng": "oriente.games.kit.rng",
    "oriente.clients.story": "oriente.games.oriente.story",
    "oriente.clients.narrate_oro": "oriente.games.oro.narrate",
    "oriente.clients.narrate_samurai": "oriente.games.samurai.narrate",
    "oriente.clients.terminal.oro": "oriente.clients.terminal.games.oro",
    "oriente.clients.terminal.samurai": "oriente.clients.terminal.games.samurai",
}

CHECK = textwrap.dedent("""
    import importlib, json, sys
    pairs = json.loads(sys.argv[1])
    for old, new in pairs.items():
        module = importlib.import_module(old)
        assert module is importlib.import_module(new), (old, module)
        assert sys.modules[old] is sys.modules[new], old
        assert module.__name__ == new and module.__spec__.name == new, (old, module.__spec__)
    # The same objects, through `from ... import` as bots write it.
    from oriente.server.rules import Game, GameConfig, apply
    from oriente.server.policies import POLICIES, Policy, heuristic
    from oriente.server import oro, samurai, game_port
    from oriente.server.games import PORTS
    import oriente.games.oriente.rules as rules, oriente.games.oriente.bots as bots
    assert (Game, GameConfig, apply) == (rules.Game, rules.GameConfig, rules.apply)
    assert POLICIES is bots.POLICIES and Policy is bots.Policy and heuristic is bots.heuristic
    assert oro is importlib.import_module("oriente.games.oro.rules")
    assert samurai is importlib.import_module("oriente.games.samurai.rules")
    assert game_port.GamePort is importlib.import_module("oriente.games.kit.port").GamePort
    assert type(PORTS["oro"]) is importlib.import_module("oriente.games.oro.port").OroPort
    # The old registry: the same ports, and the port modules under their old names.
    import oriente.server.games as registry
    assert registry.PORTS is importlib.import_module("oriente.games").PORTS
    assert registry.oro is importlib.import_module("oriente.games.oro.port")
    # The old policies package held every game's bots: its moved submodules
    # keep their old names, and Oriente's bots gain no attribute of another game.
    import oriente.server.policies as policies
    assert policies.oro is importlib.import_module("oriente.games.oro.bots")
    assert policies.negotiator is bots.negotiator
    assert not hasattr(bots, "oro") and not hasattr(bots, "samurai")
    assert {"oro", "samurai", "POLICIES"} <= set(dir(policies))
    # A write through the old name reaches the module that is read.
    policies.EXTRA = 1
    assert bots.EXTRA == 1
    # Nothing was loaded twice: every module file is loaded under one name.
    files = {}
    for name, m in list(sys.modules.items()):
        f = getattr(m, "__file__", None)
        if f and name.startswith("oriente") and m.__name__ == name:
            assert f not in files, (name, files.get(f))
            files[f] = name
    print("ok")
""")


def test_old_names_give_the_new_modules_and_the_same_objects() -> None:
    import json

    run = subprocess.run([sys.executable, "-c", CHECK, json.dumps(OLD)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


def test_an_old_name_that_never_existed_is_not_found() -> None:
    with pytest.raises(ModuleNotFoundError):
        __import__("oriente.server.rules.no_such_module")


def test_every_declared_old_name_imports() -> None:
    """Each home's LEGACY mapping points at a module that exists."""
    legacy = declared()
    assert {old: Aliases(legacy).target(old) for old in OLD} == OLD
    for old, new in legacy.items():
        module = __import__(old, fromlist=["_"])
        assert isinstance(module, ModuleType)
        assert module.__name__ in (new, old), (old, module.__name__)


def test_the_longest_old_name_wins() -> None:
    aliases = Aliases({"a.old": "a.new", "a.old.moved": "b.home"})
    assert aliases.target("a.old.x.y") == "a.new.x.y"
    assert aliases.target("a.old.moved.z") == "b.home.z"
    assert aliases.target("a.older") is None
    assert aliases.split("a.old") and not aliases.split("a.old.moved")
