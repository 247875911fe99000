"""A turn-based game over days (docs/table.md T8), on a real server with a
real SQLite store over real websockets on 127.0.0.1, under trio's MockClock:
the calendar is the mock clock, moved by hand (`clock.jump`), so days pass
at once while every socket and store write is real.

The table sleeps (leaves memory, T8.5) between decisions once nobody
follows it, wakes for a seat's message and for its deadline (T8.2), is
rebuilt from its log each time (T4.2), and goes on through a restart in the
middle with a deadline that fell due while the server was down (T8.3).
Its players sit down again by signing in (a resume without the seat's
token, T8.8), and are mailed through a local SMTP sink (aiosmtpd) when it
awaits them, once per wait: a rebuilt table's wait is the same wait
(docs/accounts.md, "E-mail").
"""

from __future__ import annotations

import random
import re
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
import trio
import trio.testing
from websockets.exceptions import ConnectionClosed

from oriente.server.app import App, MailOptions
from oriente.server.clock import DAY_MS, HOUR_MS, RESTART_GRACE_MS
from oriente.server.mailer import parse_smtp_url
from oriente.server.notifier import NotifyPolicy
from oriente.server.rules import replay

from .smtpsink import Sink, body, smtp_sink
from .wsclient import open_client, pack, pick, unpack

BASE = 1_900_000_000.0  # the calendar's start, in Unix seconds
DAY = DAY_MS / 1000
TIMERS = {"prompt_ms": DAY_MS, "window_ms": 8 * HOUR_MS, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": False,
          "away_after": 2, "turn_based": True}


async def settle(cond: Callable[[], Any], what: str) -> None:
    """Wait, in real time (the mock clock stands still), until `cond()`."""
    for _ in range(4000):
        value = cond()
        if hasattr(value, "__await__"):
            value = await value
        if value:
            return
        await trio.to_thread.run_sync(time.sleep, 0.005)
    raise AssertionError(f"never happened: {what}")


class Conn:
    """One client connection; a task reads every frame into `frames`."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.n = 0

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.frames.append(unpack(raw))
        except ConnectionClosed:
            pass

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        cid = self.n
        await self.ws.send(pack({**message, "id": cid}))
        found: list[dict[str, Any]] = []

        def answered() -> bool:
            found[:] = [f for f in self.frames if f.get("t") in ("ok", "error") and f.get("re") == cid]
            return bool(found)

        await settle(answered, f"an answer to {message['t']}")
        return found[0]


async def connect(nursery: trio.Nursery, port: int) -> Conn:
    async def hold(task_status: trio.TaskStatus[Conn] = trio.TASK_STATUS_IGNORED) -> None:
        async with open_client(port, ping_interval=None) as ws:
            conn = Conn(ws)
            task_status.started(conn)
            await conn.read()

    conn: Conn = await nursery.start(hold)
    await settle(lambda: conn.frames, "welcome")
    return conn


def latest_prompt(conn: Conn) -> dict[str, Any] | None:
    for frame in reversed(conn.frames):
        if frame["t"] in ("events", "snapshot"):
            return frame.get("prompt")
    return None


# A mail at most every 5 minutes per person, about a wait of a minute or more;
# the store is asked every 30 s (of the mock calendar).
MAIL = NotifyPolicy(every=300.0, grace=60.0, tick=30.0)


async def start_app(nursery: trio.Nursery, path: str, sink: Sink) -> App:
    app = App(path, port=0, bots=False, wall=lambda: BASE + trio.current_time(),
              mail=MailOptions(smtp=parse_smtp_url(sink.url), policy=MAIL))
    await nursery.start(app.run)
    return app


def count_ticks(app: App) -> list[int]:
    """How many times the app's notifier has looked for mails due (and sent
    them) from now on: a test waits for a tick to end, in real time."""
    notifier = app.notifier
    assert notifier is not None
    ticks = [0]
    once = notifier.once

    async def counted() -> int:
        sent = await once()
        ticks[0] += 1
        return sent

    notifier.once = counted  # type: ignore[method-assign]
    return ticks


def mails_to(sink: Sink, address: str) -> list[str]:
    """The bodies of the "your turn" mails the sink took for `address`."""
    return [body(m) for m in sink.messages if m["To"] == address and "your turn" in m["Subject"]]


def commands(log: list[Any]) -> list[dict[str, Any]]:
    from oriente.protocol.codec import decode_any

    return [decode_any(r.body) for r in log if r.kind == "cmd"]


@pytest.mark.trio
async def test_t8_a_turn_based_game_sleeps_wakes_and_survives_a_restart_over_days(tmp_path, mock_clock) -> None:
    clock = mock_clock
    path = str(tmp_path / "store.sqlite")
    rnd = random.Random(3)
    with smtp_sink() as sink:
        await play_over_days(clock, path, rnd, sink)


async def play_over_days(clock: Any, path: str, rnd: random.Random, sink: Sink) -> None:
    async with trio.open_nursery() as nursery:
        app = await start_app(nursery, path, sink)
        ticks = count_ticks(app)
        assert app.lobby is not None and app.store is not None and app.sleeper is not None
        creator = await connect(nursery, app.port)
        made = await creator.request({"t": "create_table", "seats": 4, "timers": TIMERS})
        assert made["t"] == "ok" and made["info"]["settings"]["timers"]["turn_based"] is True
        table = made["table"]
        seats: dict[int, Conn] = {}
        tokens: dict[int, str] = {}
        sessions: dict[int, str] = {}  # a turn-based table seats signed-in players only
        addresses: dict[int, str] = {}
        for i in range(4):
            conn = await connect(nursery, app.port)
            signed = await conn.request({"t": "sign_up", "name": f"player{i}", "password": "a long test password"})
            assert signed["t"] == "ok", signed
            # Each gives an address and opens the link mailed to confirm it.
            address = f"player{i}@example.org"
            assert (await conn.request({"t": "set_email", "address": address}))["t"] == "ok"
            await settle(lambda a=address: any(m["To"] == a for m in sink.messages), "the confirmation mail")
            confirm = next(re.search(r"http://\S+/email/confirm\?token=\S+", body(m)) for m in sink.messages
                           if m["To"] == address)
            assert confirm is not None
            url = confirm.group(0)
            assert await trio.to_thread.run_sync(lambda u=url: urllib.request.urlopen(u, timeout=10).status) == 200
            joined = await conn.request({"t": "join", "table": table, "name": f"p{i}", "views": True})
            assert joined["t"] == "ok", joined
            seats[joined["seat"]], tokens[joined["seat"]] = conn, joined["token"]
            sessions[joined["seat"]], addresses[joined["seat"]] = signed["token"], address
        await settle(lambda: app.lobby.tables[table].status == "running", "the start")

        answered: set[tuple[Any, Any]] = set()

        async def answer_once() -> int | None:
            """The pivot answers its open decision; which seat it was (None:
            a window nobody is asked in, which its deadline closes)."""
            live = app.lobby.tables[table]
            chosen: list[tuple[int, dict[str, Any], tuple[Any, Any]]] = []

            def asked() -> bool:
                for seat, conn in seats.items():
                    prompt = latest_prompt(conn)
                    cmd = pick(prompt, seat, rnd) if prompt is not None else None
                    if cmd is not None and prompt is not None and (prompt["id"], seat) not in answered:
                        chosen[:] = [(seat, cmd, (prompt["id"], seat))]
                        return True
                d = live.play.clock.deadline
                return d is not None and d.pivot is None  # a window: nobody's turn
            await settle(asked, "a prompt")
            if not chosen:
                return None
            seat, cmd, key = chosen[0]
            answered.add(key)
            seq = live.seq
            await seats[seat].ws.send(pack({"t": "act", "table": table, "cmd": cmd}))
            await settle(lambda: live.seq > seq, "the answer applied")
            return seat

        for _ in range(3):
            await answer_once()

        async def everybody_leaves() -> None:
            for conn in list(seats.values()):
                await conn.ws.aclose()
            seats.clear()
            await settle(lambda: table not in app.lobby.tables or not app.lobby.tables[table].viewers.subscribers,
                         "the table heard them go")

        async def falls_asleep(a: App) -> None:
            assert a.lobby is not None and a.store is not None
            ticked = ticks[0]
            clock.jump(31)  # the sleeper looks over the tables every 30 s
            await settle(lambda: table not in a.lobby.tables, "the table left memory")
            await settle(lambda: a.store.sleeping(), "its wake-up indexed")
            assert await a.store.sleeping() == 1
            # The notifier's tick the jump woke has ended too: no mail is on its way while
            # the test counts mails (the clock stands still until the next jump).
            await settle(lambda: ticks[0] > ticked, "the notifier's tick")

        async def awaited() -> list[int]:
            """The seats the table awaits, as the index of seats by account says."""
            return [r.seat for r in await app.store.table_seats(table) if r.awaits]

        async def mailed(seat: int, count: int) -> None:
            await settle(lambda: len(mails_to(sink, addresses[seat])) >= count, f"mail {count} to seat {seat}")
            text = mails_to(sink, addresses[seat])[-1]
            assert f"/#/t/{table}" in text and "/email/unsubscribe?token=" in text

        # Nobody follows it: it sleeps (T8.5); asleep, it is mailed about: each seat it awaits
        # (a decision's, or a window's asked seats) once, and no other.
        await everybody_leaves()
        await falls_asleep(app)
        woken_before = app.sleeper.woke
        waits = await awaited()
        assert waits
        clock.jump(MAIL.grace + MAIL.tick)
        for s in waits:
            await mailed(s, 1)
        assert all(not mails_to(sink, a) for s, a in addresses.items() if s not in waits), "mailed who it awaits"
        clock.jump(60)  # a minute later, still asleep

        # A seat's message wakes it: each player signs in and sits down again without the seat's
        # token (T8.8); rebuilt from its log, the seat answers.
        for seat in tokens:
            conn = await connect(nursery, app.port)
            assert (await conn.request({"t": "sign_in", "token": sessions[seat]}))["t"] == "ok"
            resumed = await conn.request({"t": "resume", "table": table, "token": "", "views": True})
            assert resumed["t"] == "ok" and resumed["you"] == seat, resumed
            seats[seat] = conn
        assert table in app.lobby.tables and await app.store.sleeping() == 0
        # Rebuilt, it awaits the same seats as before it slept: the same wait, already mailed
        # about, is not mailed about again however long it lasts (here, past the interval).
        assert await awaited() == waits
        live = app.lobby.tables[table]
        seq = live.seq
        assert (await seats[0].request({"t": "chat", "table": table, "text": "back"}))["t"] == "ok"
        await settle(lambda: live.seq > seq, "the chat logged")
        ticked = ticks[0]
        clock.jump(MAIL.every + MAIL.tick)
        await settle(lambda: ticks[0] > ticked, "the notifier looked again")
        assert {s: len(mails_to(sink, addresses[s])) for s in waits} == {s: 1 for s in waits}
        await answer_once()
        await everybody_leaves()
        await falls_asleep(app)

        # Its deadline wakes it (T8.2): a day later the silence applies.
        log_before = len(commands(await app.store.log(table)))
        due = await app.store.next_wake()
        assert due is not None and 0 < due - (BASE + trio.current_time()) <= DAY
        clock.jump(due - (BASE + trio.current_time()))  # to the very time the index says it wakes
        await settle(lambda: app.sleeper.woke > woken_before, "the deadline woke it")
        await settle(lambda: app.store.log(table), "its log")
        async def timed_out() -> bool:
            cmds = commands(await app.store.log(table))
            return len(cmds) > log_before and any(c["seat"] == -1 for c in cmds[log_before:])
        await settle(timed_out, "the deadline's silence")
        assert app.lobby.late and max(app.lobby.late) < 1.0  # applied at its wall-clock time, asleep or not
        await falls_asleep(app)

        # The server goes down; the next deadline falls due while it is down.
        before = {s: len(mails_to(sink, a)) for s, a in addresses.items()}
        rows = {r.seat: r for r in await app.store.table_seats(table)}
        last_mail = {s: (await app.store.email(r.account_id)) for s, r in rows.items()}
        await app.aclose()
        clock.jump(2 * DAY)
        app = await start_app(nursery, path, sink)
        ticks = count_ticks(app)
        assert app.lobby is not None and app.store is not None
        assert app.recovered == 0  # a sleeping table is not loaded at the start
        await settle(lambda: table in app.lobby.tables, "the due table woke after the restart")
        live = app.lobby.tables[table]
        d = live.play.clock.deadline
        assert d is not None
        # T8.3: the deadline the downtime let pass applies the grace after the start.
        assert d.at - trio.current_time() == pytest.approx(RESTART_GRACE_MS / 1000, abs=1)
        # Awaited for two days (a decision, or a window's asked seats): the restarted server
        # mails at once each awaited seat not mailed since its wait began.
        waits = await awaited()
        assert waits and (d.pivot is None or waits == [d.pivot])
        fresh = [s for s in waits if (e := last_mail[s]) is None or e.mailed_at is None or rows[s].since > e.mailed_at]
        sent = {s: before[s] + (s in fresh) for s in waits}
        for s in fresh:
            await mailed(s, sent[s])
        # A seat sits down again and chats: a step of the rebuilt table that keeps the same
        # seats awaited. It is the same wait: it is not mailed about again.
        other = next((s for s in tokens if s not in waits), waits[0])
        conn = await connect(nursery, app.port)
        assert (await conn.request({"t": "sign_in", "token": sessions[other]}))["t"] == "ok"
        assert (await conn.request({"t": "resume", "table": table, "token": ""}))["t"] == "ok"
        seq = live.seq
        assert (await conn.request({"t": "chat", "table": table, "text": "still there?"}))["t"] == "ok"
        await settle(lambda: live.seq > seq, "the chat logged")
        await conn.ws.aclose()
        cmds_before = len(commands(await app.store.log(table)))
        ticked = ticks[0]
        clock.jump(RESTART_GRACE_MS / 1000 - 60)
        await settle(lambda: ticks[0] > ticked, "the notifier looked again")
        assert len(commands(await app.store.log(table))) == cmds_before  # not before the grace ends
        assert await awaited() == waits
        assert {s: len(mails_to(sink, addresses[s])) for s in waits} == sent, "one wait, one mail, across the rebuild"
        clock.jump(61)

        async def silence_applied() -> bool:
            return len(commands(await app.store.log(table))) > cmds_before

        await settle(silence_applied, "the grace's end applied the silence")

        # Nobody comes back: deadline after deadline, away seats (T2.1), the game ends.
        for _ in range(400):
            row = await app.store.table(table)
            assert row is not None
            if row.status == "finished":
                break
            clock.jump(DAY)
            await trio.to_thread.run_sync(time.sleep, 0.05)
        row = await app.store.table(table)
        assert row is not None and row.status == "finished"
        record = await app.lobby.record(table)
        assert record is not None
        assert replay(record).record()["events"] == record["events"]
        timeouts = [c for c in commands(await app.store.log(table)) if c["seat"] == -1]
        assert len(timeouts) >= 2  # the deadlines' silences, logged as the table's Timeout commands (T1.6)
        assert app.sleeper.woke >= 1
        players = set(addresses.values())
        assert all(m["To"] in players and m["List-Unsubscribe"] for m in sink.messages if "your turn" in m["Subject"])
        await app.aclose()
        nursery.cancel_scope.cancel()
