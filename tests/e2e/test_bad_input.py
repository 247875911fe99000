"""Bad input over real sockets: every case gets its stable error code, the
connection keeps working, the table keeps going, and repeated abuse closes
only the abuser's connection."""

from __future__ import annotations

import contextlib
import random

import msgpack
import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus

from oriente.server.app import App
from oriente.server.transport import Limits

from .wsclient import BOT_TIMERS, Client, open_client, pack, play_bot

pytestmark = pytest.mark.trio


async def connected(port: int):
    cm = open_client(port)
    ws = await cm.__aenter__()
    c = Client(ws)
    assert (await c.recv())["t"] == "welcome"
    return cm, c


async def error_for(c: Client, raw: bytes | str) -> dict:
    await c.ws.send(raw)
    frame = await c.recv()
    assert frame["t"] == "error", frame
    return frame


async def still_alive(c: Client) -> None:
    reply = await c.request({"t": "ping"})
    assert reply["t"] == "ok" and reply["pong"] is True


async def test_malformed_frames_get_clear_errors_and_the_connection_survives(server):
    cm, c = await connected(server.port)
    try:
        cases = [
            ("text frame", "hello", "frame/not_binary"),
            ("not msgpack", b"\xc1\xc1\xc1", "frame/malformed"),
            ("truncated msgpack", pack({"t": "ping", "id": 1})[:-1], "frame/malformed"),
            ("not a map", pack([1, 2, 3]), "message/invalid"),
            ("no type", pack({"id": 7}), "message/invalid"),
            ("unknown type", pack({"t": "teleport", "id": 8}), "message/unknown_type"),
            ("wrong field type", pack({"t": "join", "id": 9, "table": 42, "name": "x"}), "message/invalid"),
            ("missing field", pack({"t": "join", "id": 10, "name": "x"}), "message/invalid"),
            ("oversized", pack({"t": "chat", "id": 11, "table": "x", "text": "a" * 70_000}), "frame/too_large"),
        ]
        for what, raw, code in cases:
            frame = await error_for(c, raw)
            assert frame["code"] == code, (what, frame)
            assert frame["message"], what
        # Ids survive into error replies when the frame had one, even an id
        # the message is refused for (PROTOCOL.md 14).
        assert c.frames[-3]["re"] == 9
        for bad_id in (True, False):
            frame = await error_for(c, pack({"t": "ping", "id": bad_id}))
            assert (frame["code"], frame["re"]) == ("message/invalid", bad_id)
        await still_alive(c)
    finally:
        await cm.__aexit__(None, None, None)


async def test_refusals_of_tables_tokens_seats_and_turns(server):
    cm, c = await connected(server.port)
    try:
        r = await c.request({"t": "join", "table": "no-such-table", "name": "x"})
        assert r["code"] == "table/unknown"
        r = await c.request({"t": "create_table", "seats": 3})
        assert r["code"] == "table/bad_settings"
        r = await c.request({"t": "create_table", "seats": 4,
                             "deal": {"deck": [1, 2], "treasures": [41], "stone_holder": 0}})
        assert r["code"] == "table/bad_deal"
        r = await c.request({"t": "create_table", "seats": 4, "seed": 1, "timers": {**BOT_TIMERS, "prompt_ms": 60_000}})
        table = r["table"]
        r = await c.request({"t": "act", "table": table, "cmd": {"type": "Pass", "decision": 1}})
        assert r["code"] == "auth/not_seated"
        r = await c.request({"t": "resume", "table": table, "token": "forged"})
        assert r["code"] == "auth/bad_token"
        r = await c.request({"t": "join", "table": table, "name": "x", "seat": 9})
        assert r["code"] == "seat/unknown"
        r = await c.request({"t": "record", "table": table})
        assert r["code"] == "record/not_finished"
        joined = []
        for i in range(4):
            r = await c.request({"t": "join", "table": table, "name": f"p{i}"})
            assert r["t"] == "ok"
            joined.append(r)
        r = await c.request({"t": "join", "table": table, "name": "late"})
        assert r["code"] == "table/started"
        tab = server.lobby.get(table)
        w = tab.port.waiting(tab.play.state)
        # This connection now holds seat 3 (the last join); use other seats' tokens to test turns.
        other = next(j for j in joined if j["seat"] != w.pivot)
        async with open_client(server.port) as ws:
            o = Client(ws)
            await o.recv()
            await o.request({"t": "resume", "table": table, "token": other["token"]})
            r = await o.request({"t": "act", "table": table, "cmd": {"type": "Pass", "decision": w.key[0]}})
            assert r["code"] == "decision/not_yours"
            r = await o.request({"t": "act", "table": table, "cmd": {"type": "Pass", "decision": 0}})
            assert r["code"] == "decision/unknown"
            r = await o.request({"t": "act", "table": table, "cmd": {"type": "Fly"}})
            assert r["code"] == "command/unknown"
            r = await o.request({"t": "act", "table": table, "cmd": {"type": "Pass", "decision": "x"}})
            assert r["code"] == "command/invalid"
            r = await o.request({"t": "act", "table": table,
                                 "cmd": {"type": "Timeout", "decision": w.key[0], "pivot": w.pivot}})
            assert r["code"] == "timeout/not_table"
            r = await o.request({"t": "chat", "table": table, "text": ""})
            assert r["code"] == "chat/invalid"
            assert tab.port.waiting(tab.play.state) == w, "no refusal changed the game"
            await still_alive(o)
    finally:
        await cm.__aexit__(None, None, None)


async def test_rate_limit_and_abuse_close_only_the_abuser(tmp_path, nursery):
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=Limits(rate=20, burst=20, strikes=30))
    await nursery.start(app.run)
    cm, abuser = await connected(app.port)
    cm2, good = await connected(app.port)
    try:
        for _ in range(40):
            await abuser.ws.send(pack({"t": "ping"}))
        codes = []
        with trio.move_on_after(3):
            while True:
                f = await abuser.recv()
                if f["t"] == "error":
                    codes.append(f["code"])
        assert "rate/limited" in codes
        # Keep sending garbage: the connection is closed for abuse, with a goodbye.
        async def garbage():
            try:
                for _ in range(200):
                    await abuser.ws.send(b"\xc1")
                    await trio.sleep(0.01)
            except ConnectionClosed:
                pass

        closed: list[ConnectionClosed] = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(garbage)
            try:
                while True:
                    await abuser.recv()
            except ConnectionClosed as exc:
                closed.append(exc)
        assert closed and closed[0].rcvd is not None and closed[0].rcvd.code == 1008
        assert any(f.get("t") == "goodbye" and f["code"] == "abuse/closed" for f in abuser.frames)
        await still_alive(good)
    finally:
        await cm2.__aexit__(None, None, None)
        with contextlib.suppress(Exception):
            await cm.__aexit__(None, None, None)
        await app.aclose()


async def test_hard_frame_limit_closes_with_1009(server):
    cm, c = await connected(server.port)
    with pytest.raises(ConnectionClosed) as closed:
        await c.ws.send(b"\x00" * (1024 * 1024 + 10))
        await c.recv()
    assert closed.value.sent is not None and closed.value.sent.code == 1009
    with contextlib.suppress(Exception):
        await cm.__aexit__(None, None, None)


async def test_handshake_needs_the_subprotocol(server):
    from websockets.trio.client import connect
    with pytest.raises(InvalidStatus) as refused:
        async with connect(f"ws://127.0.0.1:{server.port}", compression=None):
            pass
    assert refused.value.response.status_code == 400


frame_strategy = st.one_of(
    st.binary(max_size=200),
    st.dictionaries(st.sampled_from(["t", "id", "table", "cmd", "name", "token", "seat", "after", "text"]),
                    st.one_of(st.none(), st.integers(-2**63, 2**64 - 1), st.text(max_size=20), st.booleans(),
                              st.lists(st.integers(-2**63, 2**63 - 1), max_size=3),
                              st.sampled_from(["act", "join", "resume", "chat", "ping", "spectate"])),
                    max_size=6).map(lambda d: msgpack.packb(d)),
)


async def test_fuzzed_frames_never_break_the_server_and_the_table_finishes(server):
    """Random frames from other connections while bots play a table to its
    end. Each fuzzing connection stays under the strike limit, so every frame
    is answered; the table finishes and the server still serves."""
    reply_codes: list[str] = []
    batches: list = []

    @settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(frame_strategy, min_size=40, max_size=40))
    def collect(batch):
        batches.append(batch)

    collect()
    async with open_client(server.port) as ws:
        c = Client(ws)
        await c.recv()
        r = await c.request({"t": "create_table", "seats": 4, "seed": 3, "timers": BOT_TIMERS})
        table = r["table"]

    async def fuzz(batch):
        async with open_client(server.port) as ws:
            f = Client(ws)
            await f.recv()
            for raw in batch:
                await ws.send(raw)
                await trio.sleep(0.002)
            with trio.move_on_after(1):
                while True:
                    frame = await f.recv()
                    if frame["t"] == "error":
                        reply_codes.append(frame["code"])
            await still_alive(f)

    async with trio.open_nursery() as nursery:
        for i in range(4):
            nursery.start_soon(lambda i=i: play_bot(server.port, table, f"b{i}", random.Random(i)))
        for batch in batches:
            await fuzz(batch)
    found = await server.lobby.find(table)  # an ended table left memory; it is brought back
    assert found is not None and found.status == "finished"
    assert reply_codes and all("/" in code for code in reply_codes)


async def test_bad_text_and_deep_nesting_are_malformed_strikes_without_a_traceback(server, caplog):
    """Invalid UTF-8 in a msgpack string, and nesting deeper
    than the decoder follows, closed the connection with 1011 and logged a
    traceback per frame. Both are `frame/malformed`, counted as strikes."""
    cm, c = await connected(server.port)
    try:
        cases = [
            b"\x82\xa1t\xa4ping\xa2id\xa2\xff\xfe",
            b"\x83\xa1t\xa3act\xa5table\xa1x\xa3cmd" + b"\x81\xa1a" * 3000 + b"\xc0",
            b"\x83\xa1t\xaccreate_table\xa5seats\x04\xa4deal" + b"\x91" * 3000 + b"\xc0",
            b"\x83\xa1t\xaccreate_table\xa5seats\x04\xa2\xff\xfe\x01",
        ]
        for raw in cases:
            frame = await error_for(c, raw)
            assert frame["code"] == "frame/malformed", frame
        await still_alive(c)
        assert server.metrics.errors.get("frame/malformed") == len(cases)
        assert not [r for r in caplog.records if r.exc_info], "no traceback for a client's bad frame"
    finally:
        await cm.__aexit__(None, None, None)
