"""protocol/codec.py: every refusal has its stable code, and the id of a
refused frame is found where it can be."""

from __future__ import annotations

from typing import Any

import msgpack
import msgspec
import pytest

from oriente.protocol import messages as M
from oriente.protocol.codec import ProtocolError, client_id_of, decode_any, decode_client, encode, unknown_fields

TABLE = "XAEha4bFs9xk"

# One valid example of every client message type.
EXAMPLES: dict[str, dict[str, Any]] = {
    "hello": {"t": "hello", "id": 1, "name": "ana", "client": "bot/1"},
    "ping": {"t": "ping", "id": 2},
    "list_tables": {"t": "list_tables", "id": 3},
    "create_table": {"t": "create_table", "id": 4, "seats": 5, "timers": {"prompt_ms": 2000, "zero_wait": True},
                     "game": "oriente", "options": {"deal": None}},
    "join": {"t": "join", "id": 5, "table": TABLE, "name": "ana", "seat": 2},
    "leave": {"t": "leave", "id": 6, "table": TABLE, "token": "tok"},
    "start": {"t": "start", "id": 7, "table": TABLE, "token": "tok"},
    "resume": {"t": "resume", "id": 8, "table": TABLE, "token": "tok", "after": 12},
    "spectate": {"t": "spectate", "id": 9, "table": TABLE},
    "unsubscribe": {"t": "unsubscribe", "id": 10, "table": TABLE},
    "act": {"t": "act", "id": 11, "table": TABLE, "cmd": {"type": "Pass", "decision": 3}},
    "back": {"t": "back", "id": 14, "table": TABLE},
    "chat": {"t": "chat", "id": 12, "table": TABLE, "text": "hi"},
    "record": {"t": "record", "id": 13, "table": TABLE},
    "add_bots": {"t": "add_bots", "id": 14, "table": TABLE, "token": "B_iP8IMyoiVvoWzlVYzBc09bBPbwG44j",
                 "policy": "heuristic", "count": 2},
    "rematch": {"t": "rematch", "id": 15, "table": TABLE, "token": "B_iP8IMyoiVvoWzlVYzBc09bBPbwG44j", "views": True},
    "sign_up": {"t": "sign_up", "id": 16, "name": "ana", "password": "correct horse"},
    "sign_in": {"t": "sign_in", "id": 17, "name": "ana", "password": "correct horse"},
    "sign_out": {"t": "sign_out", "id": 18},
    "bot_token": {"t": "bot_token", "id": 19, "bot": "ana-bot", "label": "laptop"},
    "tokens": {"t": "tokens", "id": 20},
    "revoke_token": {"t": "revoke_token", "id": 21, "token_id": "Xq3"},
    "leaderboard": {"t": "leaderboard", "id": 22, "game": "oriente", "limit": 10},
    "profile": {"t": "profile", "id": 23, "name": "ana"},
    "sessions": {"t": "sessions", "id": 30},
    "sign_out_everywhere": {"t": "sign_out_everywhere", "id": 31, "keep_current": True},
    "tournament_create": {"t": "tournament_create", "id": 24, "settings": {"name": "Cup", "rounds": 3}},
    "tournament_register": {"t": "tournament_register", "id": 25, "tournament": "T1", "name": "ana", "kind": "bot",
                            "policy": None, "organiser_token": None},
    "tournament_watch": {"t": "tournament_watch", "id": 26, "tournament": "T1", "token": "tok", "full": False},
    "tournament_withdraw": {"t": "tournament_withdraw", "id": 27, "tournament": "T1", "token": "tok",
                            "entrant": None},
    "tournament_direct": {"t": "tournament_direct", "id": 28, "tournament": "T1", "token": "tok",
                          "action": "adjudicate", "round": 1, "table": 0, "ranks": [1, 2, 3, 4], "entrant": None},
    "list_tournaments": {"t": "list_tournaments", "id": 29},
    "my_tables": {"t": "my_tables", "id": 30, "tables": ["XAEha4bFs9xk"], "limit": 20},
    "set_email": {"t": "set_email", "id": 31, "address": "eve@example.org"},
}


def refused(frame: bytes | str) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decode_client(frame)
    assert caught.value.message
    assert str(caught.value).startswith(caught.value.code + ": ")
    return caught.value


def test_examples_cover_the_catalogue() -> None:
    assert set(EXAMPLES) == set(M.CLIENT_TYPES)


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_every_client_type_decodes(kind: str) -> None:
    message = EXAMPLES[kind]
    struct = decode_client(msgpack.packb(message))
    assert struct.__struct_config__.tag == kind
    assert struct.id == message["id"]
    plain = msgspec.to_builtins(struct)
    for key, value in message.items():
        if key != "timers":
            assert plain[key] == value
    # the struct's own encoding decodes back to the same message
    assert decode_client(encode(struct)) == struct


def test_defaults_are_filled_in() -> None:
    create = decode_client(encode({"t": "create_table", "seats": 4}))
    assert isinstance(create, M.CreateTable)
    assert (create.id, create.name, create.public, create.seed, create.timers) == (None, "", True, None, None)
    assert (create.auto_start, create.proxy_after, create.game, create.options) == (True, None, "oriente", {})
    timers = decode_client(encode({"t": "create_table", "seats": 4, "timers": {}})).timers
    assert msgspec.to_builtins(timers) == {"prompt_ms": 60000, "window_ms": 30000, "bank_ms": 120000,
                                           "bank_refill_ms": 30000, "zero_wait": False, "away_after": 2,
                                           "turn_based": False}
    join = decode_client(encode({"t": "join", "table": TABLE, "name": "ana"}))
    assert join.seat is None and join.id is None


def test_unknown_fields_are_ignored() -> None:
    msg = decode_client(encode({"t": "resume", "id": "r", "table": TABLE, "token": "x", "after": 3,
                                "compress": True, "v": 2}))
    assert msg == M.Resume(id="r", table=TABLE, token="x", after=3)


def test_unknown_fields_are_found_for_the_game_port() -> None:
    """create_table hands the fields it does not define to the game's port
    (oriente.v1's first revision had a game's options at the top level)."""
    frame = encode({"t": "create_table", "id": 1, "seats": 4, "max_open_proposals": 2, "deal": None,
                    "options": {"x": 1}})
    msg = decode_client(frame)
    assert unknown_fields(frame, msg) == {"max_open_proposals": 2, "deal": None}
    ping = encode({"t": "ping"})
    assert unknown_fields(ping, decode_client(ping)) == {}


@pytest.mark.parametrize("cid", [0, -1, 2**63, "a", "", None])
def test_ids(cid: Any) -> None:
    assert decode_client(encode({"t": "ping", "id": cid})).id == cid


# -- frame/not_binary -------------------------------------------------------------

@pytest.mark.parametrize("text", ['{"t": "ping"}', "", "\x81\xa1t\xa4ping"])
def test_text_frames_are_not_binary(text: str) -> None:
    assert refused(text).code == "frame/not_binary"


# -- frame/too_large --------------------------------------------------------------

def _chat_of_size(size: int) -> bytes:
    pad = size - len(encode({"t": "chat", "table": TABLE, "text": ""}))
    while len(frame := encode({"t": "chat", "table": TABLE, "text": "a" * pad})) > size:
        pad -= 1
    assert len(frame) == size
    return frame


def test_frame_at_the_limit_is_decoded() -> None:
    assert isinstance(decode_client(_chat_of_size(M.MAX_FRAME)), M.Chat)


@pytest.mark.parametrize("size", [M.MAX_FRAME + 1, 2 * M.MAX_FRAME])
def test_larger_frames_are_refused(size: int) -> None:
    error = refused(_chat_of_size(size))
    assert error.code == "frame/too_large"
    assert str(size) in error.message


def test_size_is_checked_before_decoding() -> None:
    assert refused(b"\xc1" * (M.MAX_FRAME + 1)).code == "frame/too_large"


# -- frame/malformed --------------------------------------------------------------

@pytest.mark.parametrize("frame", [
    b"\xc1",  # never used in msgpack
    b"",
    encode({"t": "ping", "id": 1})[:-1],  # truncated
    encode({"t": "ping", "id": 1}) + b"\xc0",  # trailing bytes
    b"\x82\xa1t\xa4ping",  # a map of two entries holding one
], ids=["reserved_byte", "empty", "truncated", "trailing", "short_map"])
def test_malformed(frame: bytes) -> None:
    assert refused(frame).code == "frame/malformed"


# -- message/invalid --------------------------------------------------------------

@pytest.mark.parametrize("value", [
    ["ping"], "ping", 7, None, True,  # not a map
    {"id": 1},  # no type
    {"t": 7}, {"t": None}, {"t": b"ping"},  # a type that is not a string
    {1: "ping"},  # a key that is not a string
    {"t": "ping", "id": 1.5}, {"t": "ping", "id": True}, {"t": "ping", "id": [1]},  # bad ids
    {"t": "join", "table": TABLE},  # a required field missing
    {"t": "join", "table": TABLE, "name": "ana", "seat": "1"},  # a field of the wrong type
    {"t": "join", "table": TABLE, "name": b"ana"},  # bin is not str
    {"t": "create_table", "seats": 4.0},
    {"t": "create_table", "seats": 4, "timers": {"prompt_ms": "1s"}},  # nested
    {"t": "create_table", "seats": 4, "options": []},  # options are a map
    {"t": "create_table", "seats": 4, "game": 1},
    {"t": "act", "table": TABLE, "cmd": ["Pass", 1]},
    {"t": "act", "table": TABLE, "cmd": {1: 2}},
], ids=lambda v: repr(v)[:40])
def test_invalid(value: Any) -> None:
    frame = msgpack.packb(value, use_bin_type=True)
    assert refused(frame).code == "message/invalid"


# -- message/unknown_type -----------------------------------------------------------

@pytest.mark.parametrize("kind", ["shout", "", "Ping", "act "])
def test_unknown_type(kind: str) -> None:
    error = refused(encode({"t": kind, "id": 1}))
    assert error.code == "message/unknown_type"
    assert all(t in error.message for t in M.CLIENT_TYPES)


def test_unknown_type_wins_over_bad_fields() -> None:
    assert refused(encode({"t": "shout", "table": 5, "seats": "x"})).code == "message/unknown_type"


# -- client_id_of -------------------------------------------------------------------

@pytest.mark.parametrize("frame, cid", [
    (encode({"t": "shout", "id": 7}), 7),
    (encode({"id": "abc"}), "abc"),
    (encode({"t": "join", "id": -3, "table": TABLE}), -3),
    (encode({"t": "ping"}), None),
    (encode({"t": "ping", "id": 1.5}), None),
    (encode({"t": "ping", "id": True}), True),  # refused, but echoed (PROTOCOL.md 14)
    (encode({"t": "ping", "id": False}), False),
    (encode({"t": "ping", "id": [7]}), None),
    (encode({"t": "ping", "id": {"n": 7}}), None),
    (encode([{"id": 7}]), None),
    (encode("id"), None),
    (b"\xc1", None),
    (b"", None),
    (encode({"t": "ping", "id": 7}) + b"\x00", None),
    ('{"id": 7}', None),
], ids=lambda v: repr(v)[:30])
def test_client_id_of(frame: bytes | str, cid: Any) -> None:
    assert client_id_of(frame) == cid


def test_client_id_of_an_oversized_frame() -> None:
    frame = encode({"t": "chat", "id": "big", "table": TABLE, "text": "a" * (M.MAX_FRAME + 10)})
    assert refused(frame).code == "frame/too_large"
    assert client_id_of(frame) == "big"


# -- encode / decode_any -------------------------------------------------------------

def test_encode_is_plain_msgpack() -> None:
    value = {"t": "ok", "re": None, "n": [0, -1, 127, 128, 2**40, -(2**40)], "f": 1.5, "s": "é" * 40, "b": True}
    assert encode(value) == msgpack.packb(value, use_bin_type=True)
    assert decode_any(encode(value)) == value
    assert msgpack.unpackb(encode(M.Ping(id=3)), raw=False) == {"t": "ping", "id": 3}


# -- messages a person can act on ----------------------------------------------------

@pytest.mark.parametrize("value, message", [
    (["ping", 1], "a frame holds one msgpack map, not a list"),
    ({1: "ping"}, "map keys must be strings, not an integer"),
    ({"t": "join", "table": TABLE}, "field 'name' is missing: join requires it"),
    ({"t": "join", "table": TABLE, "name": "ana", "seat": "1"},
     "field 'seat' must be an integer or null, not a string"),
    ({"t": "join", "table": TABLE, "name": b"ana"}, "field 'name' must be a string, not binary (msgpack bin)"),
    ({"t": "create_table", "seats": 4, "timers": {"prompt_ms": "1s"}},
     "field 'timers.prompt_ms' must be an integer, not a string"),
    ({"t": "act", "table": TABLE, "cmd": ["Pass", 1]}, "field 'cmd' must be a map, not a list"),
    ({"t": "ping", "id": 1.5}, "field 'id' must be an integer, a string or null, not a float"),
], ids=lambda v: repr(v)[:40])
def test_invalid_messages_name_the_field_and_what_it_must_be(value: Any, message: str) -> None:
    """Not msgspec's own text ("Expected `object`, got `array`"): the field,
    what it must be and what it was, in words."""
    error = refused(msgpack.packb(value, use_bin_type=True))
    assert (error.code, error.message) == ("message/invalid", message)


# -- decoder gaps: bad text and deep nesting are malformed frames ---------------------

_BAD_UTF8 = b"\xa2\xff\xfe"  # a msgpack str of two bytes that are not UTF-8


@pytest.mark.parametrize("frame", [
    b"\x82\xa1t\xa4ping\xa2id" + _BAD_UTF8,  # in a value
    b"\x82\xa1t" + _BAD_UTF8 + b"\xa2id\x01",  # in the type
    b"\x83\xa1t\xa3act\xa5table\xa1x\xa3cmd\x81\xa4type" + _BAD_UTF8,  # inside a free-form map
], ids=["value", "type", "cmd"])
def test_invalid_utf8_is_malformed(frame: bytes) -> None:
    error = refused(frame)
    assert error.code == "frame/malformed"
    assert "UTF-8" in error.message
    assert client_id_of(frame) in (None, 1)


def test_invalid_utf8_in_an_unknown_field_of_create_table_is_malformed() -> None:
    """The typed decoder skips fields it does not know; the game's port
    reads them (legacy options), and that reading refuses bad text too."""
    frame = b"\x83\xa1t\xaccreate_table\xa5seats\x04" + _BAD_UTF8 + b"\x01"
    msg = decode_client(frame)
    with pytest.raises(ProtocolError) as caught:
        unknown_fields(frame, msg)
    assert caught.value.code == "frame/malformed"


def _deep(levels: int, inner: bytes = b"\xc0") -> bytes:
    return b"\x91" * levels + inner  # lists of one element, nested


@pytest.mark.parametrize("frame", [
    b"\x83\xa1t\xa3act\xa5table\xa1x\xa3cmd" + b"\x81\xa1a" * 5000 + b"\xc0",
    b"\x83\xa1t\xaccreate_table\xa5seats\x04\xa4more" + _deep(5000),  # an unknown field
], ids=["cmd", "unknown_field"])
def test_deep_nesting_is_malformed(frame: bytes) -> None:
    error = refused(frame)
    assert error.code == "frame/malformed"
    assert "nested" in error.message
    assert client_id_of(frame) is None
    with pytest.raises(ProtocolError):
        unknown_fields(frame, M.Ping())


def test_a_string_id_is_at_most_64_characters_and_a_longer_one_is_not_echoed() -> None:
    """`act` ids of 30 KB went into the table's log with
    every command. An id is kept in the log and echoed in replies, so a
    string id has at most 64 characters (PROTOCOL.md 2)."""
    from oriente.protocol.codec import client_id_of
    from oriente.protocol.messages import MAX_ID

    ok = decode_client(encode({"t": "act", "id": "i" * MAX_ID, "table": "t", "cmd": {}}))
    assert ok.id == "i" * MAX_ID
    long = encode({"t": "act", "id": "i" * 30_000, "table": "t", "cmd": {}})
    with pytest.raises(ProtocolError) as refused:
        decode_client(long)
    assert refused.value.code == "message/invalid"
    assert refused.value.message == f"field 'id' is at most {MAX_ID} characters long"
    assert client_id_of(long) is None
