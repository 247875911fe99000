"""The one codec of protocol oriente.v1: msgpack via msgspec.

msgspec decodes and validates a typed client message in one pass (about
five times faster than msgpack plus hand-written checks) and writes
standard msgpack, which any language's msgpack library reads.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from ..refusal import Refusal
from .messages import CLIENT_TYPES, MAX_FRAME, MAX_ID, ClientMessage


class ProtocolError(Refusal):
    """A frame the server cannot use; the connection survives it."""


_encoder = msgspec.msgpack.Encoder()
# What msgspec raises, besides DecodeError, for bytes that are msgpack in
# shape but cannot be read: a str that is not UTF-8 (UnicodeDecodeError)
# and nesting deeper than the decoder follows (RecursionError,
# at several hundred levels). Each is the client's fault: a malformed frame.
_UNREADABLE = (RecursionError, UnicodeDecodeError)


def _unreadable(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "not a readable msgpack frame: nested too deeply (PROTOCOL.md 12)"
    if isinstance(exc, UnicodeDecodeError):
        return "not a readable msgpack frame: a string that is not valid UTF-8"
    return f"not a readable msgpack frame: {exc}"

_client_decoder = msgspec.msgpack.Decoder(ClientMessage)
_any_decoder = msgspec.msgpack.Decoder()


def encode(message: Any) -> bytes:
    """Any plain message (maps, lists, str, int, None, bool) or struct."""
    return _encoder.encode(message)


def decode_any(frame: bytes) -> Any:
    """Plain decoding, for clients and tests."""
    return _any_decoder.decode(frame)


def decode_client(frame: bytes | str) -> ClientMessage:
    """Decode and validate one client frame, or raise ProtocolError with a
    stable code and a sentence a bot author can act on."""
    if isinstance(frame, str):
        raise ProtocolError("frame/not_binary", "send binary frames holding msgpack, not text frames")
    if len(frame) > MAX_FRAME:
        raise ProtocolError("frame/too_large", f"a frame is at most {MAX_FRAME} bytes; this one has {len(frame)}")
    try:
        return _client_decoder.decode(frame)
    except _UNREADABLE as exc:
        raise ProtocolError("frame/malformed", _unreadable(exc)) from None
    except msgspec.ValidationError as exc:
        text = str(exc)
        if ("Invalid value" in text and "`$.t`" in text) or "missing required field `t`" in text:
            return _unknown_type(frame, text)
        raise ProtocolError("message/invalid", readable(text, frame)) from None
    except msgspec.DecodeError as exc:
        raise ProtocolError("frame/malformed", f"not a valid msgpack frame: {exc}") from None


# msgspec's names for the types it expected or found, in a bot author's words.
_TYPE_WORDS = {"object": "a map", "array": "a list", "str": "a string", "int": "an integer", "float": "a float",
               "bool": "a boolean", "None": "null", "null": "null", "bytes": "binary (msgpack bin)"}
_EXPECTED = re.compile(r"^Expected `(?P<want>[^`]+)`, got `(?P<got>[^`]+)`(?: - at `(?P<key>key)` in)?"
                       r"(?: - at)? ?`?(?P<path>\$[^`]*)?`?$")
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`(?: - at `(?P<path>\$[^`]*)`)?$")
_TOO_LONG = re.compile(r"^Expected `str` of length <= (?P<n>\d+) - at `(?P<path>\$[^`]*)`$")


def _words(types: str) -> str:
    """'int | str | null' -> 'an integer, a string or null'."""
    parts = [_TYPE_WORDS.get(t.strip(), t.strip()) for t in types.split("|")]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _field(path: str) -> str:
    """'$.timers.prompt_ms' -> 'timers.prompt_ms'."""
    return path.removeprefix("$").removeprefix(".")


def readable(text: str, frame: bytes | str = b"", *, within: str = "") -> str:
    """A validation error of msgspec, said for a person who writes a client:
    which field, what it must be, what it was. `within` names the field the
    validated value sits in (for a nested value validated on its own).
    Unknown forms pass through."""
    if m := _MISSING.match(text):
        name = ".".join(p for p in (within, _field(m["path"] or "$"), m["field"]) if p)
        kind = _message_type(frame)
        return f"field '{name}' is missing" + (f": {kind} requires it" if kind else "")
    if m := _TOO_LONG.match(text):
        path = ".".join(p for p in (within, _field(m["path"])) if p)
        return f"field '{path}' is at most {m['n']} characters long"
    if m := _EXPECTED.match(text):
        want, got = _words(m["want"]), _words(m["got"])
        path = ".".join(p for p in (within, _field(m["path"] or "$")) if p)
        if m["key"]:
            return f"map keys must be strings, not {got}" + (f" (in '{path}')" if path else "")
        if not path:
            return f"a frame holds one msgpack map, not {got}"
        return f"field '{path}' must be {want}, not {got}"
    return text


def _message_type(frame: bytes | str) -> str | None:
    if isinstance(frame, str):
        return None
    try:
        raw = _any_decoder.decode(frame)
    except (msgspec.DecodeError, *_UNREADABLE):
        return None
    kind = raw.get("t") if isinstance(raw, dict) else None
    return kind if isinstance(kind, str) else None


def _unknown_type(frame: bytes, text: str) -> ClientMessage:
    try:
        raw = _any_decoder.decode(frame)
    except (msgspec.DecodeError, *_UNREADABLE) as exc:  # pragma: no cover - decoded once already
        raise ProtocolError("frame/malformed", _unreadable(exc)) from None
    if not isinstance(raw, dict):
        raise ProtocolError("message/invalid", "a frame holds one msgpack map")
    kind = raw.get("t")
    if kind is None:
        raise ProtocolError("message/invalid", "every message has a type in field 't'")
    raise ProtocolError(
        "message/unknown_type", f"unknown message type {kind!r}; known: {', '.join(CLIENT_TYPES)}"
    )


def unknown_fields(frame: bytes | str, msg: msgspec.Struct) -> dict[str, Any]:
    """The top-level fields of a decoded frame that its message type does not
    define. The server ignores unknown fields, except that `create_table`
    hands them to the game's port, which may read options that an earlier
    revision of the protocol placed at the top level (PROTOCOL.md 3)."""
    if isinstance(frame, str):
        return {}
    try:
        raw = _any_decoder.decode(frame)
    except (msgspec.DecodeError, *_UNREADABLE) as exc:
        raise ProtocolError("frame/malformed", _unreadable(exc)) from None
    known = set(msg.__struct_fields__) | {"t"}
    return {k: v for k, v in raw.items() if k not in known} if isinstance(raw, dict) else {}


def client_id_of(frame: bytes | str) -> Any:
    """Best effort: the `id` of a frame we could not decode as a message,
    so that even its error reply can be matched by the client. An id of
    the wrong kind that msgpack can still carry as a scalar (true, false) is
    echoed too: the message is refused, but the client can tell which one
    (PROTOCOL.md 14). Floats, lists and maps are not echoed."""
    if isinstance(frame, str):
        return None
    try:
        raw = _any_decoder.decode(frame)
    except (msgspec.DecodeError, *_UNREADABLE):
        return None
    if isinstance(raw, dict):
        cid = raw.get("id")
        if isinstance(cid, str) and len(cid) > MAX_ID:  # refused for its length: not echoed either
            return None
        if cid is None or isinstance(cid, (int, str)):  # bool is an int: true and false are echoed
            return cid
    return None
