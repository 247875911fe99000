"""The web client's side of the server, over real sockets: files, headers,
the card reference, replays, the Origin check, and the server's own bots.

A browser trusts what these headers say; each test names what a wrong
server would do (serve script from elsewhere, accept a foreign page's
websocket, leak a hidden card in a replay).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
import trio
from websockets.exceptions import InvalidStatus

from oriente.clients.web import mounts
from oriente.server.app import App
from oriente.server.rules import replay
from oriente.server.rules.cards import KIND, Kind

from .wsclient import BOT_TIMERS, Client, open_client

pytestmark = pytest.mark.trio


async def http_get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 GET over a raw socket: (status, headers, body)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    await stream.send_all(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    with trio.fail_after(10):
        while chunk := await stream.receive_some(65536):
            data += chunk
    await stream.aclose()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in header_lines:
        k, _, v = line.partition(":")
        parsed[k.strip().lower()] = v.strip()
    return int(status_line.split()[1]), parsed, body


@pytest.fixture
async def site(tmp_path: Path, nursery: trio.Nursery) -> Any:
    """A server with the shipped web client, one extra allowed origin, and
    bots that act at once."""
    app = App(str(tmp_path / "store.sqlite"), port=0, web=mounts(),
              allow_origins=("https://play.example.org",), bot_delay=0)
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def test_the_page_is_served_with_a_strict_content_security_policy(site: App) -> None:
    status, headers, body = await http_get(site.port, "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'<script type="module" src="/app.js"' in body
    assert b"<script>" not in body and b"onload=" not in body  # nothing inline for the CSP to allow
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert f"ws://127.0.0.1:{site.port}" in csp  # the page may connect back to this host only
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


async def test_files_are_gzipped_and_revalidated_by_etag(site: App) -> None:
    status, headers, body = await http_get(site.port, "/app.js", {"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    plain = gzip.decompress(body)
    assert len(body) < len(plain) / 2
    status, _again, body = await http_get(site.port, "/app.js", {"If-None-Match": headers["etag"]})
    assert status == 304 and body == b""
    status, _, raw = await http_get(site.port, "/app.js")
    assert status == 200 and raw == plain  # no gzip for a client that did not ask


async def test_without_the_web_client_plain_http_still_gets_426(server: App) -> None:
    status, _, body = await http_get(server.port, "/")
    assert status == 426 and b"oriente.v1" in body


async def test_unknown_paths_are_404_and_health_still_answers(site: App) -> None:
    assert (await http_get(site.port, "/no/such/file.js"))[0] == 404
    assert (await http_get(site.port, "/../server/app.py"))[0] == 404
    status, _, body = await http_get(site.port, "/healthz")
    assert status == 200 and body == b"ok\n"


async def test_the_card_reference_comes_from_the_rules(site: App) -> None:
    status, headers, body = await http_get(site.port, "/data/oriente/reference.json")
    assert status == 200 and headers["content-type"].startswith("application/json")
    ref = json.loads(body)
    assert [c["id"] for c in ref["cards"]] == list(range(53))
    shogun = next(k for k in ref["kinds"] if k["kind"] == "shogun")
    assert shogun["rank"] == 7 and shogun["count"] == 1 and shogun["name"]["de"] == "Shōgun"
    soryo = next(k for k in ref["kinds"] if k["kind"] == "soryo")
    assert soryo["title"] == {"en": "priest", "de": "Priester", "fr": "Prêtre"}  # as printed
    assert sum(k["count"] for k in ref["kinds"]) == 53
    for card in ref["cards"]:
        assert (card["kind"] == "treasure") == (KIND[card["id"]] is Kind.TREASURE)
    status, _, body = await http_get(site.port, "/data/samurai/reference.json")
    assert status == 200 and json.loads(body)["board"]["format"] == "samurai-board/1"
    status, _, body = await http_get(site.port, "/i18n/de.json")
    assert status == 200 and json.loads(body)["lang"] == "de"


async def _handshake(port: int, origin: str | None) -> bool:
    headers = {"Origin": origin} if origin is not None else None
    try:
        async with open_client(port, additional_headers=headers) as ws:
            c = Client(ws)
            return (await c.recv())["t"] == "welcome"
    except InvalidStatus as exc:
        assert exc.response.status_code == 403
        return False


async def test_a_foreign_page_may_not_open_a_websocket(site: App) -> None:
    """A page on another site must not act with a player's token: its
    handshake carries its Origin and is refused (403)."""
    assert await _handshake(site.port, "https://evil.example.com") is False
    assert await _handshake(site.port, "null") is False
    assert await _handshake(site.port, f"http://localhost.evil.example:{site.port}") is False
    assert await _handshake(site.port, None) is True  # bots and terminals send no Origin
    assert await _handshake(site.port, f"http://127.0.0.1:{site.port}") is True  # the page itself
    assert await _handshake(site.port, "https://play.example.org") is True  # --allow-origin


async def test_server_bots_fill_the_free_seats_and_play_to_the_end(site: App) -> None:
    async with open_client(site.port) as ws:
        c = Client(ws)
        welcome = await c.recv()
        # Oriente's bot characters, the default first; `negotiator` is still
        # taken by add_bots, as a name for the default character.
        assert welcome["bots"] == {"oriente": ["shrewd", "honest", "ruthless", "heuristic", "random"],
                                   "oro": ["heuristic", "random"], "samurai": ["heuristic", "random"]}
        # ... each described (welcome.bot_about): how a character treats its word.
        about = welcome["bot_about"]["oriente"]
        assert set(about) == set(welcome["bots"]["oriente"]) and set(welcome["bot_about"]) == set(welcome["bots"])
        assert [about[k]["word"] for k in ("honest", "shrewd", "ruthless")] == ["keeps", "weighs", "breaks"]
        assert all(a["about"] for game in welcome["bot_about"].values() for a in game.values())
        table = (await c.request({"t": "create_table", "seats": 5, "seed": 3, "timers": BOT_TIMERS}))["table"]
        assert (await c.request({"t": "add_bots", "table": table, "token": "nope"}))["code"] == "auth/bad_token"
        me = await c.request({"t": "join", "table": table, "name": "ana"})
        token = me["token"]
        bad = await c.request({"t": "add_bots", "table": table, "token": token, "policy": "oracle"})
        assert bad["code"] == "bots/unknown"
        two = await c.request({"t": "add_bots", "table": table, "token": token, "policy": "random", "count": 2})
        assert two["t"] == "ok" and two["seats"] == [1, 2]
        rest = await c.request({"t": "add_bots", "table": table, "token": token, "policy": "heuristic"})
        assert rest["seats"] == [3, 4]
        # We play seat 0 by passing; the bots play theirs; the game must end.
        answered: set = set()
        with trio.fail_after(60):
            while True:
                f = await c.recv(timeout=30)
                if f["t"] == "events" and any(e["type"] == "TableFinished" for e in f["events"]):
                    break
                prompt = f.get("prompt") if f["t"] == "events" else None
                if prompt and prompt.get("pivot") == 0 and (prompt["id"], 0) not in answered:
                    answered.add((prompt["id"], 0))
                    options = [x for x in prompt["legal"] if x["type"] in ("Pass", "Choose")]
                    await c.send({"t": "act", "table": table, "cmd": options[0]})
        record = (await c.request({"t": "record", "table": table}))["record"]
    assert record["names"][0] == "ana" and all(n.endswith("(bot)") for n in record["names"][1:])
    assert replay(record).over
    # Bot seats acted through the protocol like anyone: their commands are in the record.
    assert {seat for seat, _ in record["commands"]} >= {1, 2, 3, 4}


async def test_a_replay_shows_a_seat_only_what_it_knew(site: App) -> None:
    async with open_client(site.port) as ws:
        c = Client(ws)
        await c.recv()
        table = (await c.request({"t": "create_table", "seats": 4, "seed": 8, "timers": BOT_TIMERS}))["table"]
        me = await c.request({"t": "join", "table": table, "name": "ana"})
        assert (await http_get(site.port, f"/data/replay/{table}.json"))[0] == 404  # not finished
        await c.request({"t": "add_bots", "table": table, "token": me["token"], "policy": "random"})
        await c.request({"t": "unsubscribe", "table": table})  # seat 0 times out (2 s) and goes away
        await c.request({"t": "spectate", "table": table})
        await c.until(lambda f: f["t"] == "events" and any(e["type"] == "TableFinished" for e in f["events"]),
                      timeout=90)
        record = (await c.request({"t": "record", "table": table}))["record"]
    views = {}
    for who in ("spectator", "all", "2"):
        status, _, body = await http_get(site.port, f"/data/replay/{table}.json?as={who}")
        assert status == 200
        views[who] = json.loads(body)
    assert (await http_get(site.port, f"/data/replay/{table}.json?as=9"))[0] == 404
    game = replay(record)
    steps = views["all"]["steps"]
    assert len(steps) == len(record["commands"]) + 1
    assert sum(len(s["events"]) for s in steps) == len(game.events) + len(record["table_events"])
    seqs = [e["seq"] for s in steps for e in s["events"]]
    assert seqs == list(range(1, len(seqs) + 1))  # one story, in the order it was told live
    first = views["2"]["steps"][0]["view"]["seats"]
    assert first[2]["inhabitant"] is not None  # seat 2 knows its own card
    assert all(first[s]["inhabitant"] is None for s in (0, 1, 3))  # and no one else's
    assert all(s["inhabitant"] is None for s in views["spectator"]["steps"][0]["view"]["seats"])
    assert all(s["inhabitant"] is not None for s in views["all"]["steps"][0]["view"]["seats"])
