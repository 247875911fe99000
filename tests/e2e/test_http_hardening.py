"""Plain HTTP and the websocket handshake, attacked (PROTOCOL.md 1, 12, 13):

- numbers in a query are ASCII digits of a bounded length: `?limit=` of
  5,000 digits or `²` was an HTTP 500 with a traceback, `?as=²` too, and
  a listing cursor `s²` killed the connection;
- every answer says `X-Content-Type-Options: nosniff` (the JSON reads of
  the accounts did not);
- the Origin check compares with the site's public origins, not with the
  `Host` the browser sent: a page at `http://evil.example:PORT` whose name
  was pointed at 127.0.0.1 (DNS rebinding) sent a `Host` that agreed with
  its `Origin` and was let in.

Real sockets against a real server; the rebinding request is written by
hand, since the attacker's browser sends whatever Host its URL names."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
import trio

from oriente.clients.web import mounts
from oriente.server.app import App
from oriente.server.origins import OriginPolicy

from .test_web_http import http_get
from .wsclient import BOT_TIMERS, Client, open_client

pytestmark = pytest.mark.trio


@pytest.fixture
async def site(tmp_path: Path, nursery: trio.Nursery) -> Any:
    app = App(str(tmp_path / "store.sqlite"), port=0, web=mounts(), bot_delay=0)
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def handshake(port: int, host: str, origin: str | None) -> int:
    """A websocket handshake with the Host and Origin a browser would send
    for the page's URL; the status the server answers."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    lines = ["GET / HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
             "Sec-WebSocket-Protocol: oriente.v1"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    await stream.send_all(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    with trio.fail_after(10):
        while b"\r\n" not in data:
            chunk = await stream.receive_some(4096)
            if not chunk:
                break
            data += chunk
    await stream.aclose()
    return int(data.split(b" ", 2)[1])


async def test_dns_rebinding_a_page_whose_name_points_here_may_not_open_a_websocket(site: App) -> None:
    port = site.port
    evil = f"evil.example:{port}"
    assert await handshake(port, evil, f"http://{evil}") == 403, "Host and Origin agree, and prove nothing"
    assert await handshake(port, evil, f"http://{evil}".upper()) == 403
    # The site's own page, by either name of the loopback address it listens on.
    assert await handshake(port, f"127.0.0.1:{port}", f"http://127.0.0.1:{port}") == 101
    assert await handshake(port, f"localhost:{port}", f"http://localhost:{port}") == 101
    # Whatever Host says: the Origin is what a script cannot forge.
    assert await handshake(port, evil, f"http://127.0.0.1:{port}") == 101
    assert await handshake(port, f"127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}") == 403, "another port"
    assert await handshake(port, f"127.0.0.1:{port}", f"https://127.0.0.1:{port}") == 403, "another scheme"
    assert await handshake(port, f"127.0.0.1:{port}", "null") == 403
    assert await handshake(port, evil, None) == 101, "programs send no Origin"


async def test_behind_a_proxy_the_public_origin_is_the_one_configured(tmp_path: Path, nursery: trio.Nursery) -> None:
    app = App(str(tmp_path / "store.sqlite"), port=0, public_origins=["https://play.example.org"],
              allow_origins=["https://www.example.org"])
    await nursery.start(app.run)
    try:
        port = app.port
        assert await handshake(port, "play.example.org", "https://play.example.org") == 101
        assert await handshake(port, "play.example.org", "https://play.example.org:443") == 101
        assert await handshake(port, "play.example.org", "https://www.example.org") == 101  # --allow-origin
        assert await handshake(port, "play.example.org", "http://play.example.org") == 403
        assert await handshake(port, "evil.example", "https://evil.example") == 403
        # Named public origins replace the listening addresses.
        assert await handshake(port, f"127.0.0.1:{port}", f"http://127.0.0.1:{port}") == 403
    finally:
        await app.aclose()


async def test_a_server_on_every_interface_takes_pages_of_its_own_addresses_only() -> None:
    policy = OriginPolicy()
    policy.listening([("0.0.0.0", 8765)])
    assert policy.allows("http://127.0.0.1:8765") and policy.allows("http://localhost:8765")
    assert not policy.allows("http://evil.example:8765")
    assert not policy.allows("http://192.0.2.77:8765"), "an address that is not this machine's"
    assert not policy.allows("http://127.0.0.1:8766")
    with pytest.raises(ValueError, match="not an origin"):
        OriginPolicy(["play.example.org"])


async def test_every_answer_says_nosniff(site: App) -> None:
    async with open_client(site.port) as ws:
        c = Client(ws)
        await c.recv()
        await c.request({"t": "sign_up", "name": "nosniff", "password": "correct horse"})
    for path in ("/leaderboard?game=oriente", "/leaderboard.json", "/account/nosniff", "/account/nobody",
                 "/data/oriente/reference.json", "/data/replay/nope.json", "/tournament/nope/export.json",
                 "/", "/app.js", "/healthz", "/nowhere", "/leaderboard?limit=x"):
        status, headers, _ = await http_get(site.port, path)
        assert headers.get("x-content-type-options") == "nosniff", (path, status, headers)
    status, headers, body = await http_get(site.port, "/leaderboard?game=oriente")
    assert status == 200 and headers["content-type"].startswith("application/json") and b"leaderboard" in body


async def test_numbers_in_a_query_are_digits_of_a_bounded_length(site: App) -> None:
    for limit in ("9" * 5000, "%C2%B2", "-1", "+1", "1e3", "%D9%A3", "%201"):
        status, _, body = await http_get(site.port, f"/leaderboard?game=oriente&limit={limit}")
        assert status == 400 and b"limit is a whole number" in body and b"Traceback" not in body, (limit, status)
    assert (await http_get(site.port, "/leaderboard?game=oriente&limit=3"))[0] == 200
    for viewer in ("%C2%B2", "9" * 5000, "-0"):
        assert (await http_get(site.port, f"/data/replay/t1.json?as={viewer}"))[0] == 404
    async with open_client(site.port) as ws:
        c = Client(ws)
        await c.recv()
        for cursor in ("s²", "s" + "9" * 30, "s-1"):
            reply = await c.request({"t": "list_tables", "cursor": cursor})
            assert reply["t"] == "error" and reply["code"] == "message/invalid", reply
        assert (await c.request({"t": "ping"}))["t"] == "ok", "the connection is still there"


async def finished_table(port: int) -> str:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        table = (await c.request({"t": "create_table", "seats": 4, "seed": 8, "timers": BOT_TIMERS}))["table"]
        me = await c.request({"t": "join", "table": table, "name": "ana"})
        await c.request({"t": "add_bots", "table": table, "token": me["token"], "policy": "random"})
        await c.request({"t": "unsubscribe", "table": table})  # seat 0 times out and goes away
        await c.request({"t": "spectate", "table": table})
        await c.until(lambda f: f["t"] == "events" and any(e["type"] == "TableFinished" for e in f["events"]),
                      timeout=90)
    return str(table)


async def test_replays_are_built_once_and_within_the_budget_of_each_address(site: App) -> None:
    table = await finished_table(site.port)
    status, headers, body = await http_get(site.port, f"/data/replay/{table}.json?as=all",
                                           {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["x-content-type-options"] == "nosniff"
    steps = json.loads(gzip.decompress(body))["steps"]
    status, plain_headers, plain = await http_get(site.port, f"/data/replay/{table}.json?as=all")
    assert status == 200 and "content-encoding" not in plain_headers and json.loads(plain)["steps"] == steps
    status, _, body = await http_get(site.port, f"/data/replay/{table}.json?as=all",
                                     {"If-None-Match": headers["etag"]})
    assert status == 304 and body == b""
    assert site.replays is not None and site.replays.builds == 1, "one build, served three times"
    # One address that asks for replay after replay is held a while, then
    # told to wait, and how long. For a short test: a budget of two builds,
    # a slow refill and a short hold (the defaults allow six, then one every
    # two seconds, and hold a request two seconds at most).
    site.http_budget.burst, site.http_budget.rate, site.http_budget.hold_s = 45.0, 1.0, 0.5
    answers = []
    for viewer in ("spectator", "0", "1", "2", "3"):
        status, headers, body = await http_get(site.port, f"/data/replay/{table}.json?as={viewer}")
        answers.append(status)
        if status == 429:
            assert int(headers["retry-after"]) >= 1 and b"replays" in body
            break
    assert answers == [200, 200, 429]


async def test_on_a_site_of_many_processes_the_pages_of_the_others_are_its_own() -> None:
    """A page follows `moved` to another process of its site (welcome.origins):
    that process's pages count as the site's; a neighbour on another port does not."""
    policy = OriginPolicy()
    policy.listening([("127.0.0.1", 8001)])
    site = ["ws://127.0.0.1:8001", "ws://127.0.0.1:8002", "wss://play.example.org"]
    assert policy.allows("http://127.0.0.1:8002", site) and policy.allows("https://play.example.org", site)
    assert not policy.allows("http://127.0.0.1:8003", site)
    assert not policy.allows("http://127.0.0.1:8002"), "not without the site's list"


async def test_the_page_s_files_cost_nothing_what_is_made_costs_its_address(site: App) -> None:
    """A crowd behind one address (a club's tournament room) loads the page
    whatever its budget; what the server makes for a request is budgeted."""
    site.http_budget.burst, site.http_budget.rate, site.http_budget.hold_s = 3.0, 0.1, 0.1
    for _ in range(20):
        assert (await http_get(site.port, "/app.js"))[0] == 200
        assert (await http_get(site.port, "/data/oriente/reference.json"))[0] == 200
    statuses = [(await http_get(site.port, "/leaderboard?game=oriente"))[0] for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert (await http_get(site.port, "/"))[0] == 200
