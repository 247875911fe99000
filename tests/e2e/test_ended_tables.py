"""A finished table stays reachable after a restart (PROTOCOL.md 5): a
server restarted on the store of a finished game answers `spectate`,
`resume` and `record` for it, with its history and its final view, though
it is no longer listed. Real sockets, the real store."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio

from oriente.server.app import App

from .wsclient import BOT_TIMERS, Client, open_client, play_bot

pytestmark = pytest.mark.trio


async def test_a_finished_table_is_served_after_a_restart(tmp_path: Path, nursery: trio.Nursery) -> None:
    path = str(tmp_path / "s.sqlite")
    app = App(path, port=0)
    await nursery.start(app.run)
    tokens: dict[int, str] = {}
    async with open_client(app.port) as ws:
        c = Client(ws)
        await c.recv()
        table = (await c.request({"t": "create_table", "seats": 4, "seed": 5, "timers": BOT_TIMERS}))["table"]
    with trio.fail_after(60):
        async with trio.open_nursery() as bots:
            for i in range(4):
                bots.start_soon(lambda i=i: play_bot(app.port, table, f"b{i}", random.Random(i), token_box=tokens))
    # Its last game event; seats that disconnect afterwards add presence events.
    ended = await app.lobby.find(table)  # it left memory at its end; brought back from its log
    assert ended is not None
    last = next(e["seq"] for e in ended.events if e["type"] == "TableFinished")
    await app.aclose()

    app = App(path, port=0)
    await nursery.start(app.run)
    try:
        async with open_client(app.port) as ws:
            c = Client(ws)
            await c.recv()
            assert (await c.request({"t": "list_tables"}))["tables"] == []
            ok = await c.request({"t": "spectate", "table": table, "after": 0})
            assert ok["t"] == "ok" and ok["seq"] >= last
            seen: list[dict] = []
            while len(seen) < ok["seq"]:
                frame = await c.recv()
                assert frame["t"] == "events" and frame["history"]
                seen.extend(frame["events"])
            assert [e["seq"] for e in seen] == list(range(1, ok["seq"] + 1))
            assert seen[last - 1]["type"] == "TableFinished"
            snapshot = await c.recv()
            assert snapshot["t"] == "snapshot" and snapshot["table_info"]["status"] == "finished"
            ok = await c.request({"t": "resume", "table": table, "token": tokens[2]})
            assert (ok["t"], ok["you"]) == ("ok", 2)
            snapshot = await c.recv()
            assert snapshot["view"]["phase"] == "over" and snapshot["view"]["viewer"] == 2
            assert snapshot["table_info"]["result"] is not None
            reply = await c.request({"t": "act", "table": table, "cmd": {"type": "Pass", "decision": 1}})
            assert reply["code"] == "game/over"
            record = (await c.request({"t": "record", "table": table}))["record"]
            assert record["result"] == snapshot["table_info"]["result"]
    finally:
        await app.aclose()
