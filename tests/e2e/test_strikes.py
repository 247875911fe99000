"""Every way a connection collects strikes ends the documented way
(PROTOCOL.md 12): every refused frame read before the limit gets its error,
in order, then a `goodbye`, then the close code 1008; and a rate limit
never drops a reply silently. Real sockets, tight limits."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
import trio
from websockets.exceptions import ConnectionClosed

from oriente.server.app import App
from oriente.server.transport import Limits

from .wsclient import Client, open_client, pack

pytestmark = pytest.mark.trio

STRIKES = 10


@pytest.fixture
async def strict(tmp_path, nursery) -> AsyncIterator[App]:
    """A server whose connections are closed at 10 strikes; its bucket holds
    20 frames and refills one a second, so a burst of 40 overflows it."""
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=Limits(rate=1.0, burst=20.0, strikes=STRIKES))
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def burst_until_closed(port: int, frames: list[bytes]) -> tuple[list[dict], int | None]:
    """Send every frame at once without reading, then read to the close."""
    async with open_client(port) as ws:
        c = Client(ws)
        assert (await c.recv())["t"] == "welcome"
        with contextlib.suppress(ConnectionClosed):  # the server may close before the last one
            for frame in frames:
                await ws.send(frame)
        code = None
        with trio.fail_after(10):
            try:
                while True:
                    await c.recv()
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
        return c.frames[1:], code


def check_the_end(replies: list[dict], code: int | None) -> list[dict]:
    """The replies carry ids 1, 2, 3, ... without a gap; the goodbye is the
    last frame and the close code is 1008."""
    assert replies[-1]["t"] == "goodbye" and replies[-1]["code"] == "abuse/closed", replies[-3:]
    answers = replies[:-1]
    assert [f["re"] for f in answers] == list(range(1, len(answers) + 1))
    assert code == 1008
    return answers


async def test_strikes_from_table_codes_end_with_every_error_a_goodbye_and_1008(strict: App) -> None:
    """Each refused `join` looks the table up in the store, so the client's
    burst queues up unread behind the replies. The frames after the goodbye
    are discarded while the close goes out: left queued, they filled the
    websocket library's receive queue, which stopped reading before the
    client's close frame, so the close reached the client only when the
    server gave up after 2 s, and the server's shutdown waited 10 s more.
    The close now follows the goodbye at once (1.9 s is a bound on a hang,
    not a speed target: it takes a tenth of a second)."""
    frames = [pack({"t": "join", "id": i, "table": "no-such-table", "name": "x"}) for i in range(1, 31)]
    with trio.fail_after(1.9):
        answers = check_the_end(*await burst_until_closed(strict.port, frames))
    assert [f["code"] for f in answers] == ["table/unknown"] * STRIKES
    with trio.fail_after(5):  # no connection task left for the shutdown to wait out
        await strict.aclose()


async def test_strikes_from_create_table_refusals_end_the_same_way(strict: App) -> None:
    frames = [pack({"t": "create_table", "id": i, "seats": 99}) for i in range(1, 31)]
    answers = check_the_end(*await burst_until_closed(strict.port, frames))
    assert [f["code"] for f in answers] == ["table/bad_settings"] * STRIKES


async def test_a_rate_limit_answers_every_frame_it_reads(strict: App) -> None:
    frames = [pack({"t": "ping", "id": i}) for i in range(1, 41)]
    answers = check_the_end(*await burst_until_closed(strict.port, frames))
    codes = [f.get("code", "ok") for f in answers]
    assert codes.count("rate/limited") == STRIKES
    assert codes.count("ok") >= 20, "the burst allowance was answered in full"
    assert all(f["pong"] for f in answers if f["t"] == "ok")
