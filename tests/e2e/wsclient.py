"""A minimal protocol client for end-to-end tests: real websockets, real
msgpack frames, nothing borrowed from the server's internals."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgpack
import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect
from websockets.typing import Subprotocol

SUBPROTOCOL = "oriente.v1"
# How long a test waits for a frame by default: a guard against a hang, not a
# budget. A shared two-core machine under a second suite can take seconds to
# answer what takes milliseconds alone.
HANG_GUARD = 60.0


def pack(message: Any) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


def unpack(frame: bytes) -> Any:
    # The independent decoder: proves the server writes plain msgpack.
    return msgpack.unpackb(frame, raw=False)


class Client:
    """One connection. `frames` keeps everything received, decoded."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict] = []
        self.n = 0

    async def send(self, message: dict) -> Any:
        if "id" not in message:
            self.n += 1
            message = {**message, "id": self.n}
        await self.ws.send(pack(message))
        return message["id"]

    async def recv(self, timeout: float = HANG_GUARD) -> dict:
        with trio.fail_after(timeout):
            frame = unpack(await self.ws.recv())
        self.frames.append(frame)
        return frame

    async def until(self, pred: Callable[[dict], bool], timeout: float = HANG_GUARD) -> dict:
        with trio.fail_after(timeout):
            while True:
                frame = await self.recv(timeout)
                if pred(frame):
                    return frame

    async def request(self, message: dict, timeout: float = HANG_GUARD) -> dict:
        """Send and wait for the reply (ok or error) naming our id."""
        cid = await self.send(message)
        return await self.until(lambda f: f.get("t") in ("ok", "error") and f.get("re") == cid, timeout)


def open_client(port: int, **kw: Any) -> connect:
    return connect(f"ws://127.0.0.1:{port}", subprotocols=[Subprotocol(SUBPROTOCOL)], compression=None, **kw)


BOT_TIMERS = {"prompt_ms": 2000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0,
              "zero_wait": True, "away_after": 3}


def pick(prompt: dict | None, seat: int, rnd: random.Random) -> dict | None:
    """A random bot's choice: act once when it is the pivot."""
    if not prompt or prompt.get("pivot") != seat:
        return None
    options = [c for c in prompt.get("legal", []) if c["type"] in
               ("Announce", "Pass", "Claim", "Support", "Join", "Choose")]
    return rnd.choice(options) if options else None


async def play_bot(port: int, table: str, name: str, rnd: random.Random, *, log: list | None = None,
                   token_box: dict | None = None) -> dict:
    """Join and play until the table finishes; returns what the bot saw.

    Closed for reading too slowly (4008: on a loaded machine a bot in the
    test's own process can fall behind), it reconnects and resumes after the
    last sequence number it saw, as PROTOCOL.md 12 tells a client to."""
    frames: list[dict] = []
    seat: int | None = None
    token = ""
    last_seq = 0
    answered: set = set()
    while True:
        try:
            async with open_client(port) as ws:
                c = Client(ws)
                await c.recv()  # welcome
                if seat is None:
                    joined = await c.request({"t": "join", "table": table, "name": name})
                    assert joined["t"] == "ok", joined
                    seat, token = joined["seat"], joined["token"]
                    if token_box is not None:
                        token_box[seat] = token
                else:
                    resumed = await c.request({"t": "resume", "table": table, "token": token, "after": last_seq})
                    assert resumed["t"] == "ok", resumed
                try:
                    while True:
                        frame = await c.recv(timeout=30)
                        if frame["t"] == "error":
                            # Too late, as a loaded machine makes a bot: the decision closed, or
                            # the seat's silence already answered it (R10.2).
                            assert frame["code"] in ("decision/closed", "decision/answered"), frame
                        if frame["t"] == "events":
                            last_seq = max([last_seq, *(e["seq"] for e in frame["events"] if "seq" in e)])
                            if any(e["type"] == "TableFinished" for e in frame["events"]):
                                break
                        prompt = frame.get("prompt") if frame["t"] in ("events", "snapshot") else None
                        cmd = pick(prompt, seat, rnd)
                        if cmd is not None and prompt is not None and (prompt["id"], prompt["pivot"]) not in answered:
                            answered.add((prompt["id"], prompt["pivot"]))
                            await c.send({"t": "act", "table": table, "cmd": cmd})
                finally:
                    frames.extend(c.frames)
            break
        except ConnectionClosed as closed:
            if closed.rcvd is None or closed.rcvd.code != 4008 or seat is None:
                raise
    if log is not None:
        log.append((seat, frames))
    return {"seat": seat, "frames": frames}
