"""Commands to and from plain data (maps of str, int, list, None).

`command_from_plain` is the only way untrusted data becomes an Oro command;
it refuses anything malformed with `command/invalid` or `command/unknown`
and a sentence saying which field is wrong. `plain` (every game's, from
`...kit`) turns commands, events and results into plain data, with the
class name under "type".
"""

from __future__ import annotations

from typing import Any

from ...kit.plain import plain
from . import commands as C
from .errors import Rejected

__all__ = ["COMMAND_TYPES", "command_from_plain", "plain"]

COMMAND_TYPES: dict[str, type] = {cls.__name__: cls for cls in (*C.SEAT_COMMANDS, C.Timeout)}


def _int(d: dict, key: str, *, optional: bool = False) -> Any:
    v = d.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise Rejected("command/invalid", f"field '{key}' must be an integer")
    return v


def _bool(d: dict, key: str) -> bool:
    v = d.get(key, False)
    if not isinstance(v, bool):
        raise Rejected("command/invalid", f"field '{key}' must be true or false")
    return v


def _ints(d: dict, key: str) -> tuple[int, ...]:
    v = d.get(key, [])
    if not isinstance(v, (list, tuple)) or not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        raise Rejected("command/invalid", f"field '{key}' must be a list of integers")
    return tuple(v)


def command_from_plain(data: Any) -> C.Command:
    """Build a typed command from plain data, or raise Rejected('command/...')."""
    if not isinstance(data, dict):
        raise Rejected("command/invalid", "a command must be a map")
    name = data.get("type")
    cls = COMMAND_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise Rejected("command/unknown", f"unknown command type {name!r}; known: {', '.join(COMMAND_TYPES)}")
    did = _int(data, "decision")
    match cls:
        case C.GiveUp | C.Discard | C.Take | C.GiveBack:
            return cls(decision=did, island=_int(data, "island"))
        case C.Build:
            return C.Build(decision=did, connection=_int(data, "connection"),
                           island=_int(data, "island", optional=True), kanaloa=_bool(data, "kanaloa"))
        case C.Replace:
            return C.Replace(decision=did, connection=_int(data, "connection"), islands=_ints(data, "islands"),
                             kanaloa=_int(data, "kanaloa", optional=True) or 0)
        case C.Draw | C.UseLono:
            return cls(decision=did, island=_int(data, "island", optional=True))
        case C.Remove:
            return C.Remove(decision=did, connection=_int(data, "connection"))
        case C.UseKu:
            return C.UseKu(decision=did, target=_int(data, "target"))
        case C.Timeout:
            return C.Timeout(decision=did, pivot=_int(data, "pivot", optional=True))
        case _:  # EndTurn, Pass, UsePele
            return cls(decision=did)
