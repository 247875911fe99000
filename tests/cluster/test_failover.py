"""Three server processes on one site: the owner of a running
table is killed, paused past its lease, or drained mid-game. In every case
the game finishes, its record equals an uninterrupted replay of its
commands, and every player saw every seq exactly once."""

from __future__ import annotations

import functools
import random
import signal
import subprocess
import sys

import pytest
import trio

from oriente.server.rules import replay

from ..e2e.wsclient import Client, open_client
from .site import LEASE_S, Player, new_table, play, record_of, table_row

pytestmark = pytest.mark.trio


def check_game(players: list[Player], record: dict) -> None:
    for p in players:
        assert p.finished
        # Every seq from the first one after the resume to the last, once.
        assert p.seqs == list(range(p.seqs[0], p.seq + 1)), f"seat {p.seat} lost or doubled an event"
    uninterrupted = replay(record).record()
    assert uninterrupted["events"] == record["events"]
    assert uninterrupted["result"] == record["result"]


async def game_with(site, disrupt, *, acts_before: int = 30) -> tuple[list, list[Player], dict, str]:
    nodes = await site(3)
    table, seated = await new_table(nodes[0].port)
    players = [Player(seat=s, token=t, home=s % 3, rnd=random.Random(100 + s)) for s, t in seated]
    acts: list[int] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, nodes, table, players, acts)
        while len(acts) < acts_before:
            await trio.sleep(0.01)
        await disrupt(nodes)
    live = next(n for n in nodes if n.alive)
    record = await record_of(live.port, table)
    check_game(players, record)
    return nodes, players, record, table


async def test_a_client_of_any_process_reaches_a_table_and_a_killed_owner_is_replaced(site) -> None:
    """The small one (default run): a table created at process 0 is joined
    and listed through process 1 (forwarded); process 0 is killed; process 1
    takes the table over after the lease and serves it from its log."""
    nodes = await site(2)
    async with open_client(nodes[0].port) as ws:
        c = Client(ws)
        await c.recv()
        table = (await c.request({"t": "create_table", "seats": 4, "name": "far"}))["table"]
    async with open_client(nodes[1].port) as ws:
        c = Client(ws)
        await c.recv()
        joined = await c.request({"t": "join", "table": table, "name": "via-one"})
        assert joined["t"] == "ok", joined
        snapshot = await c.until(lambda f: f["t"] == "snapshot")
        assert snapshot["table_info"]["seats"][joined["seat"]]["name"] == "via-one"
        with trio.fail_after(60):  # a guard against a hang, not a budget
            while True:  # the site-wide lobby: process 0's table, seen from process 1
                listing = (await c.request({"t": "list_tables"}))["tables"]
                if [t["table"] for t in listing] == [table]:
                    break
                await trio.sleep(0.1)
        epoch, _, owner = table_row(site.store, table)
        assert epoch == 1
        nodes[0].signal(signal.SIGKILL)
        await nodes[0].wait()
        # Process 1 notices the dead owner: the table moved, this connection closes.
        moved = await c.until(lambda f: f["t"] == "moved", timeout=4 * LEASE_S + 5)
        assert moved["table"] == table
    async with open_client(nodes[1].port) as ws:
        c = Client(ws)
        await c.recv()
        resumed = await c.request({"t": "resume", "table": table, "token": joined["token"], "after": 0},
                                  timeout=20)
        assert resumed["t"] == "ok", resumed
        snapshot = await c.until(lambda f: f["t"] == "snapshot")
        assert snapshot["table_info"]["seats"][joined["seat"]]["name"] == "via-one"
    epoch2, status, owner2 = table_row(site.store, table)
    assert (epoch2, status) == (2, "open") and owner2 != owner


@pytest.mark.slow
async def test_sigkill_of_the_owner_mid_game(site) -> None:
    async def kill(nodes) -> None:
        nodes[0].signal(signal.SIGKILL)

    _, players, _, table = await game_with(site, kill)
    assert table_row(site.store, table)[0] == 2, "taken over once"
    assert sum(p.moved for p in players) >= 1, "the players of the other processes were told it moved"


@pytest.mark.slow
async def test_sigstop_past_the_lease_then_sigcont_is_fenced(site) -> None:
    async def pause(nodes) -> None:
        nodes[0].signal(signal.SIGSTOP)
        await trio.sleep(3 * LEASE_S)
        nodes[0].signal(signal.SIGCONT)

    nodes, _, _, table = await game_with(site, pause)
    epoch, status, _ = table_row(site.store, table)
    assert status == "finished" and epoch >= 2
    nodes[0].signal(signal.SIGTERM)
    await nodes[0].wait()
    assert "another process owns it now" in nodes[0].stderr, nodes[0].stderr[-2000:]


@pytest.mark.slow
async def test_drain_mid_game(site) -> None:
    async def drain(nodes) -> None:
        nodes[0].signal(signal.SIGUSR1)  # a signal drains too (docs/scaling.md)
        assert await nodes[0].wait() == 0

    _, players, _, table = await game_with(site, drain)
    assert table_row(site.store, table)[0] == 2
    assert sum(p.moved for p in players) >= 1


async def test_the_sdk_follows_a_drained_table_to_another_process(site) -> None:
    """The SDK reads `moved`: a seat held at process 0 follows its table to
    process 1 when process 0 drains, and plays on there (the small default
    equivalent of the drain test)."""
    from oriente.clients.sdk import Client as SdkClient

    nodes = await site(2)
    async with SdkClient.connect(f"ws://127.0.0.1:{nodes[0].port}") as client:
        table = await client.create_table(4, name="moving")
        seat = await client.join(table, "stays")
        # What a deploy runs: the server of that port drains itself (admin socket).
        drain = await trio.to_thread.run_sync(functools.partial(
            subprocess.run, [sys.executable, "-m", "oriente.cli", "drain", str(nodes[0].port)],
            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL))
        assert drain.returncode == 0 and "handed 1 table(s)" in drain.stdout, drain.stdout + drain.stderr
        assert await nodes[0].wait() == 0
        with trio.fail_after(90):  # a guard against a hang, not a budget
            while not (client.connected and client.url.endswith(f":{nodes[1].port}")):
                await trio.sleep(0.05)
        await seat.chat("still here")
        with trio.fail_after(90):  # a guard against a hang, not a budget
            async for update in seat.updates():
                if any(e.get("type") == "Chat" and e.get("text") == "still here" for e in update.events):
                    break
    epoch, status, _ = table_row(site.store, table)
    assert (epoch, status) == (2, "open")
