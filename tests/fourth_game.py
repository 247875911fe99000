"""A fourth game, registered the way a game outside the project is: high
card, the toy game of tests/toy_game, by its folder and one registry line.

In this process `registered` puts the line beside the registry's own
(oriente.games.INSTALLED); for the programs a test starts (`oriente serve`,
`oriente play`, `oriente demo`), `entry_point_env` installs the same line
as an entry point of the group `oriente.games`, the way a distribution of
its own would, so that they find the game with nothing of theirs changed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType

from oriente import games

ROOT = Path(__file__).resolve().parents[1]

# The one line that registers the game: its name and where its port is.
LINE = {"highcard": "tests.toy_game:ToyPort"}
NAME = next(iter(LINE))


def _forget() -> None:
    """The registry reads its lines once: forget what it read."""
    games.registered.cache_clear()
    games.load.cache_clear()
    games.all_ports.cache_clear()


@contextmanager
def registered() -> Iterator[None]:
    """High card beside the registry's games, in this process, for the block."""
    saved = games.INSTALLED
    games.INSTALLED = MappingProxyType({**saved, **LINE})
    _forget()
    try:
        yield
    finally:
        games.INSTALLED = saved
        _forget()


def entry_point_env(where: Path) -> dict[str, str]:
    """The environment of a program that finds high card through an entry
    point: a distribution's metadata under `where` declaring the line in
    the group `oriente.games`, on the path with the tests' package."""
    info = where / "highcard_toy-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: highcard-toy\nVersion: 1.0\n", encoding="utf-8")
    lines = "".join(f"{name} = {port}\n" for name, port in LINE.items())
    (info / "entry_points.txt").write_text(f"[{games.ENTRY_POINTS}]\n{lines}", encoding="utf-8")
    path = os.pathsep.join([str(where), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return {**os.environ, "PYTHONPATH": path}
