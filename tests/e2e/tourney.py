"""Tournament entrants and an organiser over real sockets, for the
tournament tests: plain frames (tests/e2e/wsclient.py), nothing borrowed
from the server.

An entrant follows the tournament with its entry token; whenever the
`tournament` frame names a table it has not played yet, it resumes that
seat with the seat token it was given and plays it (a random bot) until
the table finishes. If the connection drops (the server restarts), it
reconnects to whatever port `ports[-1]` holds then and follows again: the
server tells it its table again, and the table gives its seat back."""

from __future__ import annotations

import random
from typing import Any

import trio
from websockets.exceptions import ConnectionClosed

from .wsclient import Client, open_client, pick


async def organiser(port: int, settings: dict[str, Any]) -> tuple[str, str]:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        reply = await c.request({"t": "tournament_create", "settings": settings})
        assert reply["t"] == "ok", reply
        return reply["tournament"], reply["organiser_token"]


async def call(port: int, message: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
    """One request on a connection of its own."""
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        return await c.request(message, timeout=timeout)


async def register(port: int, tournament: str, name: str, **kw: Any) -> str:
    reply = await call(port, {"t": "tournament_register", "tournament": tournament, "name": name, **kw})
    assert reply["t"] == "ok", reply
    return reply["token"]


async def entrant(ports: list[int], tournament: str, token: str, seed: int, *, played: list[str] | None = None,
                  stop: trio.Event | None = None) -> None:
    """Follow and play until the tournament finishes (or `stop` is set)."""
    rnd = random.Random(seed)
    done: set[str] = set(played or [])
    while True:
        try:
            async with open_client(ports[-1]) as ws:
                if await _follow(Client(ws), tournament, token, rnd, done, stop):
                    return
        except (ConnectionClosed, OSError):
            pass
        await trio.sleep(0.05)


async def _follow(c: Client, tournament: str, token: str, rnd: random.Random, done: set[str],
                  stop: trio.Event | None) -> bool:
    await c.recv()  # welcome
    await c.send({"t": "tournament_watch", "tournament": tournament, "token": token, "full": False})
    table: str | None = None
    seat = -1
    answered: set[Any] = set()
    while True:
        if stop is not None and stop.is_set():
            return True
        try:
            frame = await c.recv(timeout=0.5)
        except trio.TooSlowError:
            continue
        kind = frame["t"]
        if kind == "tournament":
            state = frame["state"]
            you = state.get("you") or {}
            if state["finished"] and not you.get("table"):
                return True
            if you.get("table") and you["table"] not in done and you["table"] != table:
                table, seat = you["table"], you["seat"]
                answered = set()
                await c.send({"t": "resume", "table": table, "token": you["token"]})
            continue
        if kind == "error":
            assert frame["code"] in ("decision/closed", "decision/answered", "game/over"), frame
            continue
        if kind not in ("events", "snapshot") or frame.get("table") != table:
            continue
        finished = (kind == "events" and any(e["type"] == "TableFinished" for e in frame["events"])) or \
            (kind == "snapshot" and frame["table_info"]["status"] in ("finished", "failed"))
        if finished:
            assert table is not None
            done.add(table)
            table = None
            continue
        prompt = frame.get("prompt")
        cmd = pick(prompt, seat, rnd)
        if cmd is not None and prompt is not None and (prompt["id"], prompt["pivot"]) not in answered:
            answered.add((prompt["id"], prompt["pivot"]))
            await c.send({"t": "act", "table": table, "cmd": cmd})
