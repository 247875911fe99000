"""The archipelago and the game's pieces as data (O1, O9).

The rulebook gives the map only by its counts (4 small islands of 3
connections, 11 large of 5, ORO with 7) and a few named connections, so
the map is data: a board file lists islands and connections, a tiles file
the island cards and god stones. `board_from_data` and `tiles_from_data`
check every constraint the rulebook states (O9.2) and say exactly what is
wrong; the rest of the engine reads only the validated `Board` and `Tiles`.

Island i is named by its index in the board file; a card is the index of
the island it names (the three cards of an island are identical, O1.3);
connection c is its index in the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from .errors import ConfigError

BOARD_FORMAT: Final = "oro.board.v1"
TILES_FORMAT: Final = "oro.tiles.v1"

# O1.1: island sizes and their number of places (connections).
PLACES: Final = {"small": 3, "large": 5, "main": 7}
# O1.1: how many islands of each size an archipelago has.
SIZE_COUNTS: Final = {"small": 4, "large": 11, "main": 1}
ISLANDS: Final = 16
CARDS_PER_ISLAND: Final = 3  # O1.3
GODS: Final = ("kane", "kanaloa", "ku", "pele", "lono")  # O7.1
MAX_NAME: Final = 24


class BoardError(ConfigError):
    """A board or tiles file that breaks a rule of O9.2."""


@dataclass(frozen=True, slots=True)
class Board:
    """A validated archipelago. `ends[c]` are connection c's two islands in
    file order (which fixes the order of O4.9); `incident[i]` island i's
    connections in file order."""

    name: str
    names: tuple[str, ...]
    sizes: tuple[str, ...]
    places: tuple[int, ...]
    pos: tuple[tuple[float, float] | None, ...]
    ends: tuple[tuple[int, int], ...]
    incident: tuple[tuple[int, ...], ...]
    main: int
    data: dict[str, Any]
    drawing: dict[str, Any]

    @property
    def islands(self) -> int:
        return len(self.names)

    @property
    def connections(self) -> int:
        return len(self.ends)

    def index(self, name: str) -> int:
        """The island called `name` (a KeyError names a typo in a test)."""
        return self.names.index(name)

    def connection(self, a: str, b: str) -> int:
        """The connection between two named islands (O1.1: at most one)."""
        i, j = self.index(a), self.index(b)
        for c in self.incident[i]:
            if j in self.ends[c]:
                return c
        raise KeyError(f"no connection {a}-{b}")

    def other(self, c: int, island: int) -> int:
        a, b = self.ends[c]
        return b if a == island else a

    def plain(self) -> dict[str, Any]:
        """The board as a client draws it (built once; treat as read-only)."""
        return self.drawing


@dataclass(frozen=True, slots=True)
class Tiles:
    """The cards per island and the god stones by kind (O1.3, O7.1)."""

    cards_per_island: int
    stones: tuple[tuple[str, int], ...]
    data: dict[str, Any]

    def stone_list(self) -> list[str]:
        """Every stone once, kinds in the order of GODS."""
        return [kind for kind, count in self.stones for _ in range(count)]


def _fail(what: str, rule: str) -> BoardError:
    return BoardError(f"{what} ({rule})")


def board_from_data(data: Any) -> Board:
    """Validate a board file's parsed JSON (O9.1, O9.2) into a `Board`."""
    if not isinstance(data, dict):
        raise _fail("a board file is a JSON object", "O9.1")
    if data.get("format") != BOARD_FORMAT:
        raise _fail(f"a board file says \"format\": \"{BOARD_FORMAT}\"", "O9.1")
    name = data.get("name", "")
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        raise _fail(f"the board's name is a string of 1 to {MAX_NAME} characters", "O9.1")
    islands = data.get("islands")
    if not isinstance(islands, list):
        raise _fail("\"islands\" is a list", "O9.1")
    names: list[str] = []
    sizes: list[str] = []
    pos: list[tuple[float, float] | None] = []
    for k, isl in enumerate(islands):
        if not isinstance(isl, dict):
            raise _fail(f"island {k} is an object with a name and a size", "O9.1")
        n, s, xy = isl.get("name"), isl.get("size"), isl.get("pos")
        if not isinstance(n, str) or not 0 < len(n) <= MAX_NAME:
            raise _fail(f"island {k} has a name of 1 to {MAX_NAME} characters", "O9.1")
        if n in names:
            raise _fail(f"two islands are called {n}", "O9.2")
        if s not in PLACES:
            raise _fail(f"island {n} has size {s!r}; sizes are small, large and main", "O9.1")
        if xy is not None and not (
            isinstance(xy, list) and len(xy) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xy)
        ):
            raise _fail(f"island {n}'s pos is [x, y] or absent", "O9.1")
        names.append(n)
        sizes.append(s)
        pos.append((float(xy[0]), float(xy[1])) if xy is not None else None)
    if len(names) != ISLANDS:
        raise _fail(f"the archipelago has {ISLANDS} islands, not {len(names)}", "O1.1")
    for size, want in SIZE_COUNTS.items():
        have = sizes.count(size)
        if have != want:
            raise _fail(f"the archipelago has {want} {size} island(s), not {have}", "O1.1")
    conns = data.get("connections")
    if not isinstance(conns, list):
        raise _fail("\"connections\" is a list of [island, island] pairs", "O9.1")
    ends: list[tuple[int, int]] = []
    seen: set[frozenset[int]] = set()
    for k, pair in enumerate(conns):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, str) for v in pair)):
            raise _fail(f"connection {k} is a pair of island names", "O9.1")
        a, b = pair
        for v in (a, b):
            if v not in names:
                raise _fail(f"connection {a}-{b} names an unknown island {v}", "O9.2")
        if a == b:
            raise _fail(f"connection {a}-{b} links an island to itself", "O1.1")
        key = frozenset((names.index(a), names.index(b)))
        if key in seen:
            raise _fail(f"islands {a} and {b} are connected twice", "O1.1")
        seen.add(key)
        ends.append((names.index(a), names.index(b)))
    incident: list[list[int]] = [[] for _ in names]
    for c, (a, b) in enumerate(ends):
        incident[a].append(c)
        incident[b].append(c)
    for i, n in enumerate(names):
        want = PLACES[sizes[i]]
        if len(incident[i]) != want:
            raise _fail(f"{sizes[i]} island {n} has {want} connections, not {len(incident[i])}", "O1.1")
    # O9.2: one archipelago, every island reachable over connections.
    reached = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for c in incident[i]:
            j = ends[c][1] if ends[c][0] == i else ends[c][0]
            if j not in reached:
                reached.add(j)
                frontier.append(j)
    if len(reached) != len(names):
        cut = sorted(names[i] for i in range(len(names)) if i not in reached)
        raise _fail(f"islands {', '.join(cut)} cannot be reached from {names[0]}", "O9.2")
    drawing = {  # names, sizes, places, positions, connections as island index pairs
        "name": name,
        "islands": [
            {"name": n, "size": s, "places": PLACES[s], "pos": list(xy) if xy is not None else None}
            for n, s, xy in zip(names, sizes, pos, strict=True)
        ],
        "connections": [list(e) for e in ends],
    }
    return Board(
        name=name, names=tuple(names), sizes=tuple(sizes),
        places=tuple(PLACES[s] for s in sizes), pos=tuple(pos), ends=tuple(ends),
        incident=tuple(tuple(x) for x in incident), main=sizes.index("main"), data=data, drawing=drawing,
    )


def tiles_from_data(data: Any) -> Tiles:
    """Validate a tiles file's parsed JSON (O9.3) into `Tiles`."""
    if not isinstance(data, dict):
        raise _fail("a tiles file is a JSON object", "O9.3")
    if data.get("format") != TILES_FORMAT:
        raise _fail(f"a tiles file says \"format\": \"{TILES_FORMAT}\"", "O9.3")
    cpi = data.get("cards_per_island")
    if cpi != CARDS_PER_ISLAND or isinstance(cpi, bool):
        raise _fail(f"there are {CARDS_PER_ISLAND} cards per island, not {cpi!r}", "O1.3")
    stones = data.get("stones")
    if not isinstance(stones, dict):
        raise _fail("\"stones\" maps each god to its number of stones", "O9.3")
    for kind, count in stones.items():
        if kind not in GODS:
            raise _fail(f"unknown god {kind!r}; the gods are {', '.join(GODS)}", "O7.1")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise _fail(f"the number of {kind} stones is a non-negative integer", "O9.3")
    total = sum(stones.values())
    if total != ISLANDS:
        raise _fail(f"there are {ISLANDS} god stones, one per island, not {total}", "O7.1")
    return Tiles(
        cards_per_island=cpi,
        stones=tuple((kind, stones.get(kind, 0)) for kind in GODS),
        data=data,
    )


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8"))


@cache
def default_board() -> Board:
    """The reconstructed default archipelago shipped with the package (O1.2)."""
    return board_from_data(_load("board.json"))


@cache
def default_tiles() -> Tiles:
    return tiles_from_data(_load("tiles.json"))
