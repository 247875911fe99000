"""The games this server plays, and every game's home.

Each game lives in one package (its pure rules, its port, its reference
bots, its narrator), beside `kit`, what they share. The table server
(`oriente.server`) knows a game only through its port (`kit.port`), by
the name tables give in `create_table.game`.

The registry is `INSTALLED` below: one line per game, its name and where
its port is ("module:Class"). A game outside this package registers the
same way through the entry point group `oriente.games` of its own
distribution (name = "module:Class"). Adding a game is adding its home and
one line.

Nothing here imports a game until it is asked for: `load(name)` imports
that game's port, `all_ports()` every one (once, then kept: a port holds
no per-table data, so one instance serves every table). `PORTS` is
`all_ports()`, for those who read it as a constant.

Each package here may also declare `LEGACY`, the old module names it took
over (`oriente.legacy` keeps them importable for one release); this
module's own are the registry's old name.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .kit.port import GamePort

INSTALLED: Mapping[str, str] = MappingProxyType({
    "oriente": "oriente.games.oriente.port:OrientePort",
    "oro": "oriente.games.oro.port:OroPort",
    "samurai": "oriente.games.samurai.port:SamuraiPort",
})

ENTRY_POINTS = "oriente.games"

# Old module names -> new ones, importable for one release (oriente.legacy).
LEGACY = {
    "oriente.server.games": "oriente.games",
}

# all_ports(), read as a constant: resolved when first read (module __getattr__).
PORTS: Mapping[str, GamePort]


class UnknownGame(LookupError):
    """A name that no installed game has."""


@cache
def registered() -> Mapping[str, str]:
    """Every game's name -> where its port is ("module:Class"): the
    registry's lines, then the games installed through entry points (a name
    the registry has keeps the registry's port)."""
    # Imported here, when the registry is first read: importlib.metadata
    # loads the email package and socket, which importing a game's pure
    # rules (and so this package) must not (tests/test_purity.py).
    from importlib.metadata import entry_points

    found = dict(INSTALLED)
    for point in entry_points(group=ENTRY_POINTS):
        found.setdefault(point.name, point.value)
    return MappingProxyType(found)


def home(name: str) -> str:
    """The package of game `name`'s port: its home (its rules are `.rules`).
    A port in a module of the home (`games/NAME/port.py`) has that module's
    package; a port in the home's own `__init__` (a game in one folder of
    modules) has that package."""
    try:
        module = registered()[name].partition(":")[0]
    except KeyError:
        raise UnknownGame(name) from None
    # find_spec imports the parent packages only (a game's light __init__), not the port.
    spec = importlib.util.find_spec(module)
    if spec is not None and spec.submodule_search_locations is not None:
        return module
    return module.rpartition(".")[0]


def part(name: str, module: str) -> ModuleType | None:
    """A module of game `name`'s home that a client may use when the game
    has one (its narrator `narrate`, its `story`), or None: the game has no
    such module, or this program does not have the game. An error inside
    the module is raised, not taken for its absence."""
    try:
        where = f"{home(name)}.{module}"
    except UnknownGame:
        return None
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as exc:
        if exc.name == where:
            return None
        raise


@cache
def load(name: str) -> GamePort:
    """The port of game `name`, imported when first asked for."""
    try:
        where = registered()[name]
    except KeyError:
        raise UnknownGame(name) from None
    module, _, attr = where.partition(":")
    found: Any = getattr(importlib.import_module(module), attr)
    port: GamePort = found() if isinstance(found, type) else found
    if port.name != name:
        raise ValueError(f"the port at {where} is named {port.name!r}, not {name!r}")
    return port


@cache
def all_ports() -> Mapping[str, GamePort]:
    """Every registered game's port, by name, in the registry's order."""
    return MappingProxyType({name: load(name) for name in registered()})


def __getattr__(name: str) -> Any:
    if name == "PORTS":
        return all_ports()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ENTRY_POINTS", "INSTALLED", "LEGACY", "PORTS", "UnknownGame", "all_ports", "home", "load", "part",
           "registered"]
