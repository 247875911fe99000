"""Old import paths that keep working for one release.

The games' code moved to a home per game (`oriente.games.<name>`), beside
the shared kit (`oriente.games.kit`). Bots and tools outside the project
import the old names (`oriente.server.rules`, `oriente.server.policies`
and so on), so they stay importable: each package under `oriente.games`
declares the old names it took over in a `LEGACY` mapping (old module name
-> new module name), and the finder below answers an import of an old name
with the new module. It names no game itself: it reads the mappings.

An old name covers its submodules too (`oriente.server.rules.engine` is
`oriente.games.oriente.rules.engine`); a longer old name wins over a shorter
one. An import of an old name gives the very module of the new name, so
its objects are the same (`oriente.server.rules.Game is
oriente.games.oriente.rules.Game`) and the module is never loaded twice.
One case differs: an old package whose submodules moved to different homes
(the old `oriente.server.policies` held every game's bots) is a thin module
of its own that reads and writes through to its new module and gives the
moved submodules under their old names.

`install()` puts the finder first in `sys.meta_path`; importing the
package `oriente` does it, so any old name works wherever it is imported.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import pkgutil
import sys
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

HOMES = "oriente.games"

# Attributes a thin module keeps for itself (what the import system sets on it).
_OWN = frozenset({"__name__", "__spec__", "__loader__", "__package__", "__path__", "__file__", "__cached__",
                  "__builtins__", "__dict__", "__class__"})


def declared(homes: str = HOMES) -> dict[str, str]:
    """Every old name -> new name that `homes` and the packages under it declare."""
    package = importlib.import_module(homes)
    found: dict[str, str] = dict(getattr(package, "LEGACY", {}))
    for info in pkgutil.iter_modules(package.__path__, homes + "."):
        if info.ispkg:
            found.update(getattr(importlib.import_module(info.name), "LEGACY", {}))
    return found


class Aliases:
    """Old module names and where they live now."""

    def __init__(self, legacy: Mapping[str, str]) -> None:
        self.legacy = dict(legacy)

    def target(self, name: str) -> str | None:
        """The new name of old module `name`, or None if it is not an old name."""
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            new = self.legacy.get(".".join(parts[:cut]))
            if new is not None:
                return ".".join([new, *parts[cut:]])
        return None

    def split(self, name: str) -> bool:
        """Whether some submodule of old package `name` moved elsewhere than
        into `name`'s new package (then `name` gets a thin module)."""
        new = self.target(name)
        return any(old.startswith(name + ".") and self.legacy[old] != f"{new}{old[len(name):]}"
                   for old in self.legacy)


class _Thin(ModuleType):
    """An old package whose submodules moved to different homes: reads and
    writes go to its new module, except the moved submodules, which are
    imported under their old names."""

    def __init__(self, name: str, aliases: Aliases) -> None:
        super().__init__(name)
        object.__setattr__(self, "_aliases", aliases)
        object.__setattr__(self, "_module", None)

    def __getattr__(self, attr: str) -> Any:
        if attr in _OWN or attr in ("_aliases", "_module"):
            raise AttributeError(attr)
        child = f"{self.__name__}.{attr}"
        if child in self._aliases.legacy:
            return importlib.import_module(child)
        return getattr(self._module, attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        if attr in _OWN or attr.startswith("__") or f"{self.__name__}.{attr}" in self._aliases.legacy:
            object.__setattr__(self, attr, value)
        else:
            setattr(self._module, attr, value)

    def __delattr__(self, attr: str) -> None:
        if attr in self.__dict__:
            object.__delattr__(self, attr)
        else:
            delattr(self._module, attr)

    def __dir__(self) -> list[str]:
        moved = [old.rsplit(".", 1)[1] for old in self._aliases.legacy if old.rsplit(".", 1)[0] == self.__name__]
        return sorted(set(dir(self._module)) | set(moved))


class _Loader(importlib.abc.Loader):
    def __init__(self, aliases: Aliases, new: str) -> None:
        self.aliases = aliases
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return _Thin(spec.name, self.aliases) if self.aliases.split(spec.name) else None

    def exec_module(self, module: ModuleType) -> None:
        new = importlib.import_module(self.new)
        if isinstance(module, _Thin):
            object.__setattr__(module, "_module", new)
        else:
            # The import system returns what sys.modules holds once this
            # returns: the new module itself, not a copy.
            sys.modules[module.__name__] = new


class LegacyFinder(importlib.abc.MetaPathFinder):
    """Finds old module names (see the module docstring)."""

    def __init__(self, aliases: Aliases) -> None:
        self.aliases = aliases

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = self.aliases.target(fullname)
        if new is None:
            return None
        spec = importlib.util.find_spec(new)
        if spec is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(self.aliases, new),
                                              is_package=spec.submodule_search_locations is not None)


def install() -> LegacyFinder:
    """Put the finder first in `sys.meta_path` (once) and return it."""
    for finder in sys.meta_path:
        if isinstance(finder, LegacyFinder):
            return finder
    finder = LegacyFinder(Aliases(declared()))
    sys.meta_path.insert(0, finder)
    return finder
