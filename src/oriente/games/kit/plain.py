"""Engine values as plain data (maps of str, lists, ints, bools, None).

Commands, events, results and views leave a rules package as plain data,
ready for any codec; the class name goes under "type" so that every
implementation, in any language, can dispatch on it.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

# Field metadata of a field added to an existing command or event after
# records were written without it: its plain form leaves it out while it is
# None, so that those records replay to the very same data (`field(default=
# None, metadata=ADDED)`).
ADDED = {"added": True}

_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}  # None: not a dataclass
_ADDED_NAMES: dict[type, frozenset[str]] = {}  # per dataclass, its ADDED fields
_SCALARS = (int, str, type(None), bool, float)


def plain(value: Any) -> Any:
    """Dataclasses, enums and tuples as plain data; the type tag is the
    class name. On the server's hot path (every event, every prompt), so
    what a class is (a dataclass and its field names, or not one) is looked
    up once per class: `is_dataclass` on every enum, tuple and list cost a
    fifth of building a prompt."""
    cls = type(value)
    if cls in _SCALARS:
        return value
    try:
        names = _FIELD_NAMES[cls]
    except KeyError:
        dataclass_ = is_dataclass(value) and not isinstance(value, type)
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(value)) if dataclass_ else None
        _ADDED_NAMES[cls] = frozenset(f.name for f in fields(value) if f.metadata.get("added")) if dataclass_ \
            else frozenset()
    if names is not None:
        out = {"type": cls.__name__}
        added = _ADDED_NAMES[cls]
        for name in names:
            v = getattr(value, name)
            if v is None and added and name in added:
                continue
            out[name] = v if type(v) in _SCALARS else plain(v)
        return out
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    return value
