"""The board and tile-set files (S1.6): parsing, the validator, the defaults.

Both formats are JSON documents (described in docs/rules-samurai.md). The
validator checks every constraint the rulebook states and reports all the
problems it finds at once, each in a sentence that names the hex or tile,
so that someone transcribing the printed map can fix a file in one pass.

The defaults are package data, read once: the only file this package ever
reads, and it never changes while the process runs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ._shared import ConfigError
from .board import Layout, build_layout
from .pieces import (
    CAPACITY,
    FIGURES_PER_KIND,
    MAX_SEATS,
    MIN_SEATS,
    PARTS,
    PARTS_IN_PLAY,
    Hex,
    Terrain,
    Tile,
    TileKind,
)

BOARD_FORMAT = "samurai-board/1"
TILES_FORMAT = "samurai-tiles/1"
TILES_PER_SEAT = 20  # S1.3
FAST_PER_SEAT = 5  # S1.3
# The packaged map of each rules revision (S8.1): revision 1's map has more
# land than the seats have tiles for it, so it is kept only for the tables
# and records played on it; revision 2's land fits the tiles (S1.6).
BOARD_FILES = {1: "japan-1.json", 2: "japan.json"}


class DataError(ConfigError):
    """A board or tile set that breaks the rulebook; `problems` lists every
    problem found, each a sentence."""

    def __init__(self, what: str, problems: list[str]) -> None:
        super().__init__(f"{what}: " + "; ".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Board:
    """A validated map with its layout for each player count."""

    name: str
    hexes: tuple[Hex, ...]
    layouts: dict[int, Layout] = field(compare=False)


@dataclass(frozen=True, slots=True)
class TileSet:
    """A validated set of one seat's 20 tiles (every seat has the same)."""

    name: str
    tiles: tuple[Tile, ...]


def _int_or_none(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _enum(enum: type, value: object) -> Any:
    try:
        return enum(value)
    except ValueError:
        return None


def _parse_hexes(data: Any, problems: list[str]) -> list[Hex]:
    if not isinstance(data, dict):
        problems.append("a board is a JSON object")
        return []
    if data.get("format") != BOARD_FORMAT:
        problems.append(f"'format' must be {BOARD_FORMAT!r}")
    raw = data.get("hexes")
    if not isinstance(raw, list):
        problems.append("'hexes' must be a list")
        return []
    hexes: list[Hex] = []
    for i, h in enumerate(raw):
        if not isinstance(h, dict):
            problems.append(f"hex #{i} is not an object")
            continue
        hid, q, r = _int_or_none(h.get("id")), _int_or_none(h.get("q")), _int_or_none(h.get("r"))
        label = f"hex {hid}" if hid is not None else f"hex #{i}"
        if hid is None or hid < 0:
            problems.append(f"{label}: 'id' must be a non-negative integer")
        if q is None or r is None:
            problems.append(f"{label}: 'q' and 'r' must be integers")
        part = h.get("part")
        if part not in PARTS:
            problems.append(f"{label}: 'part' must be one of {', '.join(PARTS)}, not {part!r}")
        terrain = _enum(Terrain, h.get("terrain"))
        if terrain is None:
            allowed = ", ".join(t.value for t in Terrain)
            problems.append(f"{label}: 'terrain' must be one of {allowed}, not {h.get('terrain')!r}")
        name = h.get("name")
        if name is not None and not isinstance(name, str):
            problems.append(f"{label}: 'name' must be a string")
        if hid is not None and hid >= 0 and q is not None and r is not None and part in PARTS and terrain is not None:
            hexes.append(Hex(id=hid, q=q, r=r, part=part, terrain=terrain,
                             name=name if isinstance(name, str) else None))
    return hexes


def _check_board(hexes: list[Hex], problems: list[str]) -> None:
    """S1.5, S1.6: the constraints of the rulebook, for every player count."""
    ids: dict[int, Hex] = {}
    coords: dict[tuple[int, int], Hex] = {}
    clashes = []
    for h in hexes:
        if h.id in ids:
            clashes.append(f"hex id {h.id} is used twice")
        if (h.q, h.r) in coords:
            clashes.append(f"hexes {coords[(h.q, h.r)].id} and {h.id} are both at q={h.q}, r={h.r}")
        ids.setdefault(h.id, h)
        coords.setdefault((h.q, h.r), h)
    if clashes:  # the geometry below assumes unique ids and places
        problems.extend(clashes)
        return
    for part in PARTS:
        if not any(h.part == part for h in hexes):
            problems.append(f"the board has no hex on {part} (the map has four parts, S1.5)")
    capitals = [h for h in hexes if h.terrain is Terrain.CAPITAL]
    if len(capitals) != 1:
        problems.append(f"the board needs exactly one capital (Edo), not {len(capitals)} (S1.5)")
    else:
        edo = capitals[0]
        if edo.part != "honshu":
            problems.append(f"the capital (hex {edo.id}) must be on honshu, which every player count uses (S1.5)")
        if edo.name != "Edo":
            problems.append(f"the capital (hex {edo.id}) is Edo: name it 'Edo' (S1.5)")
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        lay = build_layout("", tuple(hexes), seats)
        parts = " + ".join(PARTS_IN_PLAY[seats])
        per_kind = FIGURES_PER_KIND[seats]
        room = sum(CAPACITY[lay.hexes[s].terrain] for s in lay.settlements)
        if room != 3 * per_kind:
            problems.append(
                f"at {seats} players ({parts}) the settlements hold {room} figures, but {3 * per_kind} are"
                f" played ({per_kind} of each kind): Edo 3 + 2 per city + 1 per village must make"
                f" {3 * per_kind} (S1.1, S2.5)")
        if len(lay.cities) > per_kind - 1:
            problems.append(
                f"at {seats} players there are {len(lay.cities)} cities, more than {per_kind - 1}: free"
                " placement could then leave a city slot no remaining figure may fill (S2.5)")
        for s in lay.settlements:
            if not lay.land_around[s]:
                h = lay.hexes[s]
                problems.append(f"{h.terrain.value} {h.id}{_named(h)} has no neighbouring land hex at {seats}"
                                " players, so it could never be surrounded (S4.1)")


def _named(h: Hex) -> str:
    return f" ({h.name})" if h.name else ""


def read_board(data: Any) -> Board:
    """A validated board from its JSON data, or DataError listing every problem."""
    problems: list[str] = []
    hexes = _parse_hexes(data, problems)
    _check_board(hexes, problems)
    if problems:
        raise DataError("board", _unique(problems))
    name = data.get("name")
    name = name if isinstance(name, str) else "unnamed board"
    hexes_t = tuple(sorted(hexes, key=lambda h: h.id))
    layouts = {seats: build_layout(name, hexes_t, seats) for seats in range(MIN_SEATS, MAX_SEATS + 1)}
    return Board(name=name, hexes=hexes_t, layouts=layouts)


def read_tiles(data: Any) -> TileSet:
    """A validated tile set from its JSON data, or DataError listing every problem."""
    problems: list[str] = []
    tiles: list[Tile] = []
    if not isinstance(data, dict):
        raise DataError("tile set", ["a tile set is a JSON object"])
    if data.get("format") != TILES_FORMAT:
        problems.append(f"'format' must be {TILES_FORMAT!r}")
    raw = data.get("tiles")
    if not isinstance(raw, list):
        raise DataError("tile set", [*problems, "'tiles' must be a list"])
    for i, t in enumerate(raw):
        if not isinstance(t, dict):
            problems.append(f"tile {i} is not an object")
            continue
        kind = _enum(TileKind, t.get("kind"))
        raw_strength, fast = t.get("strength"), t.get("fast", False)
        strength = _int_or_none(raw_strength)
        if kind is None:
            allowed = ", ".join(k.value for k in TileKind)
            problems.append(f"tile {i}: 'kind' must be one of {allowed}, not {t.get('kind')!r}")
            continue
        if not isinstance(fast, bool):
            problems.append(f"tile {i}: 'fast' must be true or false")
            continue
        if kind is TileKind.FIGURE_SWAP:
            if raw_strength is not None:
                problems.append(f"tile {i}: the figure swap has no strength (S1.3)")
        elif kind is TileKind.TILE_SWAP:
            if strength != 0:
                problems.append(f"tile {i}: the tile swap has strength 0 (S1.3)")
        elif strength is None or strength < 1:
            problems.append(f"tile {i}: a {kind.value} tile has a strength of at least 1 (S1.3)")
        tiles.append(Tile(index=i, kind=kind, strength=strength, fast=fast))
    if len(raw) != TILES_PER_SEAT:
        problems.append(f"a seat has {TILES_PER_SEAT} tiles, not {len(raw)} (S1.3)")
    fast_count = sum(1 for t in tiles if t.fast)
    if fast_count != FAST_PER_SEAT:
        problems.append(f"{FAST_PER_SEAT} of the tiles are fast, not {fast_count} (S1.3)")
    for kind in (TileKind.FIGURE_SWAP, TileKind.TILE_SWAP):
        count = sum(1 for t in tiles if t.kind is kind)
        if count != 1:
            problems.append(f"a seat has one {kind.value}, not {count} (S1.3)")
    if problems:
        raise DataError("tile set", _unique(problems))
    name = data.get("name")
    name = name if isinstance(name, str) else "unnamed tile set"
    return TileSet(name=name, tiles=tuple(tiles))


def land_tiles(tileset: TileSet) -> int:
    """How many land hexes one seat's tiles can cover (S1.6): every tile
    that goes on land (S3.3), and the tile swap when every plain tile of
    the set goes on land, since it stays on its hex and the tile it takes
    up goes on another (S3.6). Ships go on sea, the figure swap in the box."""
    on_land = [t for t in tileset.tiles
               if t.kind not in (TileKind.SHIP, TileKind.FIGURE_SWAP, TileKind.TILE_SWAP)]
    plain_ships = any(t.kind is TileKind.SHIP and not t.fast for t in tileset.tiles)
    swaps = sum(1 for t in tileset.tiles if t.kind is TileKind.TILE_SWAP)
    return len(on_land) + (0 if plain_ships else swaps)


def ship_tiles(tileset: TileSet) -> int:
    """How many sea hexes one seat's ships need (S3.3)."""
    return sum(1 for t in tileset.tiles if t.kind is TileKind.SHIP)


def fit_problems(board: Board, tileset: TileSet) -> list[str]:
    """S1.6 (rules revision 2): at every player count the land hexes in play
    are no more than the seats' tiles can cover, so that when every tile is
    laid every settlement is surrounded and one of the rulebook's two
    endings (S5.1, S5.2) has come; and the sea takes every seat's ships,
    so that a ship in hand can always be placed. Each problem names both
    counts."""
    problems: list[str] = []
    per_seat, ships = land_tiles(tileset), ship_tiles(tileset)
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        lay = board.layouts[seats]
        parts = " + ".join(PARTS_IN_PLAY[seats])
        if len(lay.land) > seats * per_seat:
            problems.append(
                f"at {seats} players ({parts}) the map has {len(lay.land)} land hexes but the seats' tiles cover"
                f" only {seats * per_seat} ({seats} x {per_seat}): a settlement could be left unsurrounded when"
                " every tile is laid, an ending the rulebook does not have (S1.6, S5)")
        if len(lay.sea) < seats * ships:
            problems.append(
                f"at {seats} players ({parts}) the map has {len(lay.sea)} sea hexes but the seats have"
                f" {seats * ships} ships ({seats} x {ships}) to place on them (S1.6, S3.3)")
    return problems


def _unique(problems: list[str]) -> list[str]:
    return list(dict.fromkeys(problems))


def _package_json(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("data").joinpath(name).read_text(encoding="utf-8"))


def default_board_data(revision: int | None = None) -> Any:
    """The packaged map of a rules revision (the current one by default),
    as JSON data (treat as read-only)."""
    return _board_data(revision or max(BOARD_FILES))


@cache
def _board_data(revision: int) -> Any:
    return _package_json(BOARD_FILES[revision])


@cache
def default_tiles_data() -> Any:
    """The packaged tile set, as JSON data (treat as read-only)."""
    return _package_json("tiles.json")


def default_board(revision: int | None = None) -> Board:
    """The packaged map of a rules revision (the current one by default),
    validated and compiled once per process."""
    return _board(revision or max(BOARD_FILES))


@cache
def _board(revision: int) -> Board:
    return read_board(_board_data(revision))


@cache
def default_tiles() -> TileSet:
    return read_tiles(default_tiles_data())
