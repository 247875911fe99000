"""Commands to and from plain data (maps of str/int/list/None).

`command_from_plain` is the only way untrusted data becomes a command, and
it rejects anything malformed with a clear reason (`command/...`). The
type tag is the class name, as `plain()` writes it.
"""

from __future__ import annotations

from typing import Any

from . import commands as C
from ._shared import Rejected, plain
from .pieces import Figure

__all__ = ["COMMAND_TYPES", "command_from_plain", "plain"]

COMMAND_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (C.ChooseTiles, C.PlaceFigure, C.PlaceTile, C.SwapFigures, C.SwapTile, C.EndTurn, C.Pass, C.Timeout)
}


def _int(d: dict, key: str, *, optional: bool = False) -> Any:
    v = d.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise Rejected("command/invalid", f"field '{key}' must be an integer")
    return v


def _figure(d: dict, key: str) -> Figure:
    try:
        return Figure(d.get(key))
    except ValueError:
        raise Rejected("command/invalid", f"field '{key}' must be one of: helmet, buddha, rice") from None


def command_from_plain(data: Any) -> C.Command:
    """Build a typed command from plain data, or raise Rejected('command/...')."""
    if not isinstance(data, dict):
        raise Rejected("command/invalid", "a command must be a map")
    name = data.get("type")
    cls = COMMAND_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise Rejected("command/unknown", f"unknown command type {name!r}; known: {', '.join(COMMAND_TYPES)}")
    did = _int(data, "decision")
    if cls is C.ChooseTiles:
        tiles = data.get("tiles")
        if not isinstance(tiles, (list, tuple)) or not all(isinstance(t, int) and not isinstance(t, bool)
                                                           for t in tiles):
            raise Rejected("command/invalid", "field 'tiles' must be a list of integers")
        return C.ChooseTiles(decision=did, tiles=tuple(tiles))
    if cls is C.PlaceFigure:
        return C.PlaceFigure(decision=did, hex=_int(data, "hex"), figure=_figure(data, "figure"))
    if cls is C.PlaceTile:
        return C.PlaceTile(decision=did, tile=_int(data, "tile"), hex=_int(data, "hex"))
    if cls is C.SwapFigures:
        return C.SwapFigures(decision=did, tile=_int(data, "tile"), hex_a=_int(data, "hex_a"),
                             figure_a=_figure(data, "figure_a"), hex_b=_int(data, "hex_b"),
                             figure_b=_figure(data, "figure_b"))
    if cls is C.SwapTile:
        return C.SwapTile(decision=did, tile=_int(data, "tile"), hex=_int(data, "hex"), to=_int(data, "to"))
    if cls is C.Timeout:
        return C.Timeout(decision=did, pivot=_int(data, "pivot", optional=True))
    assert cls in (C.EndTurn, C.Pass)
    return cls(decision=did)
