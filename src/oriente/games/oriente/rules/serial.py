"""Commands and events to and from plain data (dicts, lists, ints, str).

One codec for the whole project: game records, the store and the wire all
use these forms. `command_from_plain` is the only way untrusted data becomes
a command, and it rejects anything malformed with a clear reason.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from . import commands as C
from .errors import Rejected
from .views import plain

__all__ = ["COMMAND_TYPES", "command_from_plain", "plain"]

COMMAND_TYPES = {
    cls.__name__: cls
    for cls in (C.Announce, C.Pass, C.Claim, C.Support, C.Join, C.Choose, C.Done, C.Timeout,
                C.ProposeDeal, C.AcceptDeal, C.DeclineDeal, C.WithdrawDeal, C.SettlePromise)
}


def _kind(v: Any) -> str:
    """What a wrongly typed value is, for a rejection's sentence."""
    if v is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a float", str: "a string", bytes: "binary",
            list: "a list", tuple: "a list", dict: "a map"}.get(type(v), type(v).__name__)


def _missing(d: dict, key: str, what: str) -> None:
    if key not in d:
        raise Rejected("command/invalid", f"field '{key}' is missing: {what}")


def _int(d: dict, key: str) -> int:
    _missing(d, key, "an integer")
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise Rejected("command/invalid", f"field '{key}' must be an integer, not {_kind(v)}")
    return v


def _opt_int(d: dict, key: str) -> int | None:
    return None if d.get(key) is None else _int(d, key)


def _str(d: dict, key: str, default: str | None = None) -> str:
    if default is None:
        _missing(d, key, "a string")
    v = d.get(key, default)
    if not isinstance(v, str):
        raise Rejected("command/invalid", f"field '{key}' must be a string, not {_kind(v)}")
    return v


def _enum(enum: type[Enum], value: Any, key: str) -> Any:
    allowed = ", ".join(e.value for e in enum)
    if value is None:
        raise Rejected("command/invalid", f"field '{key}' is missing: one of {allowed}")
    try:
        return enum(value)
    except ValueError:
        raise Rejected("command/invalid", f"field '{key}' must be one of {allowed}, not {value!r}") from None


def _map(v: Any, what: str) -> dict:
    if v is None:
        raise Rejected("command/invalid", f"{what} is missing: a map")
    if not isinstance(v, dict):
        raise Rejected("command/invalid", f"{what} must be a map, not {_kind(v)}")
    return v


def _list(d: dict, key: str) -> list:
    v = d.get(key, [])
    if not isinstance(v, (list, tuple)):
        raise Rejected("command/invalid", f"field '{key}' must be a list, not {_kind(v)}")
    return list(v)


def _action(v: Any) -> C.Action:
    d = _map(v, "field 'action'")
    return C.Action(kind=_enum(C.ActionKind, d.get("kind"), "action.kind"), target=_opt_int(d, "target"))


def _transfer(v: Any) -> C.Transfer:
    d = _map(v, "a transfer")
    return C.Transfer(card=_int(d, "card"), giver=_int(d, "giver"), receiver=_int(d, "receiver"),
                      consideration=_str(d, "consideration"))


def _promise(v: Any) -> C.Promise:
    d = _map(v, "a promise")
    side = d.get("side")
    cards = _list(d, "cards")
    for c in cards:
        if not isinstance(c, int) or isinstance(c, bool):
            raise Rejected("command/invalid", "promise cards must be integers")
    return C.Promise(
        promiser=_int(d, "promiser"), promisee=_int(d, "promisee"), text=_str(d, "text"),
        kind=_enum(C.PromiseKind, d.get("kind", "free"), "promise.kind"),
        attacker=_opt_int(d, "attacker"), defender=_opt_int(d, "defender"),
        side=None if side is None else _enum(C.Side, side, "promise.side"),
        cards=tuple(cards), by_season=_opt_int(d, "by_season"), seat=_opt_int(d, "seat"),
    )


def _why(d: dict) -> dict | None:
    """A reason's map as sent (R8.8); its code and parameters are checked
    where the deal is (deals.py), which knows the seats."""
    v = d.get("why")
    if v is None:
        return None
    return dict(_map(v, "field 'why'"))


def command_from_plain(data: Any) -> C.Command:
    """Build a typed command from plain data, or raise Rejected('command/...')."""
    d = _map(data, "a command")
    name = d.get("type")
    cls = COMMAND_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        known = ", ".join(COMMAND_TYPES)
        if name is None:
            raise Rejected("command/unknown", f"a command names its type in field 'type', one of: {known}")
        raise Rejected("command/unknown", f"unknown command type {name!r}; known: {known}")
    if cls in (C.Pass, C.Join, C.Done):
        return cls(decision=_int(d, "decision"))
    if cls in (C.Announce, C.Claim):
        return cls(decision=_int(d, "decision"), action=_action(d.get("action")))
    if cls is C.Support:
        return C.Support(decision=_int(d, "decision"), side=_enum(C.Side, d.get("side"), "side"))
    if cls is C.Choose:
        return C.Choose(decision=_int(d, "decision"), card=_int(d, "card"))
    if cls is C.Timeout:
        return C.Timeout(decision=_int(d, "decision"), pivot=_opt_int(d, "pivot"))
    if cls is C.ProposeDeal:
        return C.ProposeDeal(transfers=tuple(_transfer(t) for t in _list(d, "transfers")),
                             promises=tuple(_promise(p) for p in _list(d, "promises")),
                             note=_str(d, "note", ""), counter_to=_opt_int(d, "counter_to"), why=_why(d))
    if cls is C.DeclineDeal:
        return C.DeclineDeal(deal=_int(d, "deal"), why=_why(d))
    if cls in (C.AcceptDeal, C.WithdrawDeal):
        return cls(deal=_int(d, "deal"))
    assert cls is C.SettlePromise
    _missing(d, "kept", "true or false")
    kept = d["kept"]
    if not isinstance(kept, bool):
        raise Rejected("command/invalid", f"field 'kept' must be true or false, not {_kind(kept)}")
    return C.SettlePromise(promise=_int(d, "promise"), kept=kept)
