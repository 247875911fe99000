"""Sleeping turn-based tables on a site of many processes (docs/table.md
T8.5-T8.7), on PostgreSQL and the Redis bus: a table put to sleep by one
process belongs to none; a message for it at another process wakes it
there, and its deadline wakes it wherever a process finds it due, each
wake-up one claim (the table's epoch raised once), never two processes
applying the same deadline."""

from __future__ import annotations

import contextlib
import random
import signal
import urllib.request
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from oriente.protocol.codec import decode_any

from ..e2e.wsclient import Client, open_client, pick
from .site import Node

pytestmark = pytest.mark.trio

# Days to decide (the table sleeps until a message wakes it), or seconds (its deadline does).
DAYS = {"prompt_ms": 86_400_000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0, "turn_based": True,
        "away_after": 100}
SECONDS = {**DAYS, "prompt_ms": 2_500}
HORIZON = ("--sleep-horizon", "1")


def row(store_url: str, table: str) -> tuple[int, str, float | None]:
    """(epoch, owner, wake_at) of a table, read from PostgreSQL ('' owner
    and a wake_at: asleep)."""
    import psycopg

    from oriente.server.stores.postgres import split_schema

    url, schema = split_schema(store_url)
    with psycopg.connect(url) as conn:
        found = conn.execute(f'SELECT epoch, owner, wake_at FROM "{schema}".tables WHERE id = %s',
                             (table,)).fetchone()
    assert found is not None
    return found[0], found[1], found[2]


def timeouts(store_url: str, table: str) -> list[tuple[int, int]]:
    """The (decision, seat) the table's log says timed out, in order."""
    import psycopg

    from oriente.server.stores.postgres import split_schema

    url, schema = split_schema(store_url)
    with psycopg.connect(url) as conn:
        bodies = [r[0] for r in conn.execute(f'SELECT body FROM "{schema}".log WHERE table_id = %s AND kind = %s '
                                             "ORDER BY pos", (table, "event")).fetchall()]
    events = [decode_any(bytes(b)) for b in bodies]
    return [(e["decision"], e["seat"]) for e in events if isinstance(e, dict) and e.get("type") == "TimedOut"]


def wakes(node: Node) -> int:
    """The due wake-ups the process made (its /metrics)."""
    body = urllib.request.urlopen(f"http://127.0.0.1:{node.metrics_port}/metrics", timeout=5).read().decode()
    return next(int(line.split()[1]) for line in body.splitlines() if line.startswith("oriente_turn_wakes_total "))


async def until(what: Any, timeout: float = 60) -> Any:
    """Poll `what()` (run in a thread) until it returns something true; a
    guard against a hang, not a budget."""
    with trio.fail_after(timeout):
        while True:
            found = await trio.to_thread.run_sync(what)
            if found:
                return found
            await trio.sleep(0.1)


@contextlib.asynccontextmanager
async def signed_in(port: int, name: str, *, up: bool = False) -> AsyncIterator[Client]:
    """A connection to `port` signed in to the account `name` (made first with `up`)."""
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        r = await c.request({"t": "sign_up" if up else "sign_in", "name": name, "password": "correct horse"})
        assert r["t"] == "ok", r
        yield c


async def seat_four(port: int, *timers: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Turn-based tables at `port`, one per `timers`, whose four seats four
    new accounts take, every connection closed after: (the tables, the
    accounts' names by seat)."""
    names = [f"p{i}-{uuid.uuid4().hex[:6]}" for i in range(4)]
    tables = []
    async with contextlib.AsyncExitStack() as stack:
        conns = [await stack.enter_async_context(signed_in(port, n, up=True)) for n in names]
        for t in timers:
            tables.append((await conns[0].request({"t": "create_table", "seats": 4, "timers": t}))["table"])
        for i, c in enumerate(conns):
            for table in tables:
                j = await c.request({"t": "join", "table": table, "name": names[i], "seat": i})
                assert j["t"] == "ok", j
    return tables, names


def _settled(store: str, table: str, nodes: list[Node]) -> tuple[int, int] | None:
    """(the table's epoch, the due wake-ups of all processes) read together:
    None when a wake-up came between the two reads."""
    before = sum(wakes(n) for n in nodes)
    epoch, _, _ = row(store, table)
    return (epoch, before) if sum(wakes(n) for n in nodes) == before else None


def asleep(store: str, table: str) -> bool:
    _, owner, wake_at = row(store, table)
    return owner == "" and wake_at is not None


async def test_a_message_at_another_process_and_a_deadline_each_wake_a_sleeping_table_once(site) -> None:
    """The small one (default run), two processes: process 0 seats two
    turn-based tables and puts them to sleep once nobody follows them. A
    player signed in at process 1 resumes the pivot's seat without a token:
    process 1 claims the table (its epoch raised once), serves it, and takes
    the answer. The other table's deadline comes due: a process wakes it,
    one claim per wake-up across both (their wake counts add up to the
    epoch's rises), and the log applies each silence once."""
    nodes = await site(2, *HORIZON)
    store = site.store
    (day, short), day_seats = await seat_four(nodes[0].port, DAYS, SECONDS)
    # An open table nobody sits at yet may sleep between its creation and
    # the first join, which wakes it (a claim): on a loaded machine that
    # happens. So the claims are counted from where each table stands once
    # seated and asleep.
    await until(lambda: asleep(store, day))
    slept_epoch, _, _ = row(store, day)
    base = await until(lambda: _settled(store, short, nodes))

    # A message at process 1, which never held the table (its name: the owner of a table it made).
    async with open_client(nodes[1].port) as ws:
        probe = Client(ws)
        await probe.recv()
        made = await probe.request({"t": "create_table", "seats": 4, "name": "whose"})
    _, node1, _ = row(store, made["table"])
    # Every seat's account resumes its seat at process 1, without a token (followed, the
    # table stays awake meanwhile); the pivot answers.
    async with contextlib.AsyncExitStack() as stack:
        answered = None
        for name in day_seats:
            c = await stack.enter_async_context(signed_in(nodes[1].port, name))
            r = await c.request({"t": "resume", "table": day, "token": ""}, timeout=20)
            assert r["t"] == "ok", r
            prompt = (await c.until(lambda f: f["t"] == "snapshot")).get("prompt")
            cmd = pick(prompt, r["you"], random.Random(1))
            if cmd is not None:
                answered = await c.request({"t": "act", "id": "a1", "table": day, "cmd": cmd}, timeout=20)
        assert answered is not None and answered["t"] == "ok", answered
        epoch, owner, wake_at = row(store, day)
    assert (epoch, owner, wake_at) == (slept_epoch + 1, node1, None), "one claim, by the process the message reached"

    # The deadline: due wake-ups, one claim each, wherever they happen.
    await until(lambda: timeouts(store, short) and asleep(store, short) and sum(wakes(n) for n in nodes))
    epoch, _, _ = row(store, short)
    done = timeouts(store, short)
    assert len(done) == len(set(done)), f"a silence applied twice: {done}"
    woke = [wakes(n) for n in nodes]
    assert sum(woke) >= 1, "the deadline woke the table"
    # Each wake-up is one claim; the day table's was a message's, not a due one.
    assert epoch - base[0] == sum(woke) - base[1], (epoch, woke, base)
    assert all(n.alive for n in nodes)


@pytest.mark.slow
async def test_the_process_that_put_a_table_to_sleep_is_stopped_and_the_others_race_for_its_deadline(site) -> None:
    """Three processes; the one that put the table to sleep is stopped
    (SIGSTOP), so the two others find its deadline due, each poll, and race
    to claim it: over several wake-ups, one claim each (the epoch rises by
    the wake-ups counted), each silence applied once."""
    nodes = await site(3, *HORIZON)
    store = site.store
    (short,), _ = await seat_four(nodes[0].port, SECONDS)
    await until(lambda: asleep(store, short))
    nodes[0].signal(signal.SIGSTOP)
    try:
        start = len(timeouts(store, short))
        await until(lambda: len(timeouts(store, short)) >= start + 3 and asleep(store, short), timeout=180)
        epoch, _, _ = row(store, short)
        done = timeouts(store, short)
        assert len(done) == len(set(done)), f"a silence applied twice: {done}"
        woke = [wakes(n) for n in nodes[1:]]
        assert sum(woke) >= 3 and epoch - 1 == sum(woke), (epoch, woke)
    finally:
        nodes[0].signal(signal.SIGCONT)
