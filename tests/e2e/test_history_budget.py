"""History counts against the requester's rate budget:
a `spectate` or `resume` with `after` costs one message more per history
frame it asks for, so replaying a long log over and over runs out of
tokens long before cheap messages would. Over real sockets."""

from __future__ import annotations

import pytest
import trio

from oriente.protocol import messages as M
from oriente.server.app import App
from oriente.server.outbox import Outbox
from oriente.server.table import HISTORY_CHUNK
from oriente.server.transport import Limits

from .wsclient import Client, open_client, pack, unpack

pytestmark = pytest.mark.trio


async def test_history_costs_tokens(tmp_path, nursery) -> None:
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=Limits(rate=1, burst=40))
    await nursery.start(app.run)
    async with open_client(app.port) as ws:
        host = Client(ws)
        await host.recv()
        table_id = (await host.request({"t": "create_table", "seats": 4}))["table"]
    # The log is padded straight through the actor (seats taken and left),
    # so that the padding spends nobody's budget.
    assert app.lobby is not None
    table = app.lobby.get(table_id)
    assert table is not None
    pad = Outbox(10_000, max_bytes=1 << 30)
    while table.seq < HISTORY_CHUNK + 20:
        await table.send(pad, M.Join(id="j", table=table_id, name="pad"))
        token = (await reply(pad, "j"))["token"]
        await table.send(pad, M.Leave(id="l", table=table_id, token=token))
        await reply(pad, "l")
    async with open_client(app.port) as ws:
        c = Client(ws)
        await c.recv()
        for i in range(30):  # 30 of 40 tokens if history were free; 3 each with its two frames charged
            await ws.send(pack({"t": "spectate", "id": i, "table": table_id, "after": 0}))
        replies: dict[int, str] = {}
        with trio.fail_after(10):
            while len(replies) < 30:
                f = await c.recv()
                if f["t"] in ("ok", "error"):
                    replies[f["re"]] = f.get("code", "ok")
    limited = [i for i, code in replies.items() if code == "rate/limited"]
    assert 12 <= 30 - len(limited) <= 15, replies
    await app.aclose()


async def reply(outbox: Outbox, cid: str) -> dict:
    while True:
        frame = unpack(await outbox.receive.receive())
        if frame["t"] in ("ok", "error") and frame["re"] == cid:
            assert frame["t"] == "ok", frame
            return frame
