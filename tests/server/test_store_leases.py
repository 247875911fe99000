"""The PostgreSQL store on a many-process site (``cluster=True``): leases,
claims and the fence, on a real database. A table moves to another process
only once its owner's lease has ended (or it released the table), and from
then on the database refuses every write of the old owner: a paused or
partitioned old owner can never write after a new owner took over."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio

from oriente.server.stores import LogRecord, StoreFenced, StoreLocked

from ..postgres import Schemas

psycopg = pytest.importorskip("psycopg")
from oriente.server.stores.postgres import PostgresStore  # noqa: E402

pytestmark = pytest.mark.trio


def rec(pos: int) -> LogRecord:
    return LogRecord(pos=pos, kind="event", seq=pos + 1, body=b"e%d" % pos)


@asynccontextmanager
async def running(*stores: PostgresStore) -> AsyncIterator[None]:
    async with trio.open_nursery() as nursery:
        for store in stores:
            await nursery.start(store.run)
        try:
            yield
        finally:
            for store in stores:
                await store.aclose()


async def test_processes_share_a_site_and_a_lone_server_is_kept_out(postgres_schemas: Schemas) -> None:
    """Many processes of one site run side by side (the site's lock is
    shared); a one-process server on the same site is refused while they
    run, and they are refused while it runs."""
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    a, b = PostgresStore(url, schema=schema, cluster=True), PostgresStore(url, schema=schema, cluster=True)
    async with running(a, b):
        with pytest.raises(StoreLocked):
            await PostgresStore(url, schema=schema, lock_wait=0.1).run()
    async with running(PostgresStore(url, schema=schema)):
        with pytest.raises(StoreLocked):
            await PostgresStore(url, schema=schema, cluster=True, lock_wait=0.1).run()


async def test_a_table_moves_only_after_its_owners_lease_and_the_old_owner_is_fenced(
        postgres_schemas: Schemas) -> None:
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    a, b = PostgresStore(url, schema=schema, cluster=True), PostgresStore(url, schema=schema, cluster=True)
    async with running(a, b):
        await a.renew_lease(url="ws://a", lease_s=30, alive_at=100.0)
        await b.renew_lease(url="ws://b", lease_s=30, alive_at=100.0)
        await a.create_table("t", "running", b"m", now=1.0)
        await a.append("t", [rec(0)], clock=b"c0", now=1.0)
        assert await b.claim("t") is None, "a live lease keeps the table where it is"
        assert await b.orphans() == []
        assert await b.owner_of("t") == ("running", a.owner, "ws://a", True)
        assert {n[1] for n in await b.nodes()} == {"ws://a", "ws://b"}

        # a is paused past its lease (here: its lease ends), b takes over.
        await a.renew_lease(url="ws://a", lease_s=0.001, alive_at=123.5)
        await trio.sleep(0.05)
        assert await b.orphans() == ["t"]
        assert await b.claim("t") == 123.5, "the claim says when the old owner was last alive"
        assert await a.claim("t") is None, "b's lease holds it now"
        await b.append("t", [rec(1)], clock=b"c1", now=2.0)

        # a wakes up and writes as if nothing happened: every write is refused.
        await a.renew_lease(url="ws://a", lease_s=30, alive_at=124.0)
        with pytest.raises(StoreFenced):
            await a.append("t", [rec(1)], clock=b"stale", now=3.0)
        with pytest.raises(StoreFenced):
            await a.update_table("t", status="finished", now=3.0)
        with pytest.raises(StoreFenced):
            await a.save_record("t", b"stale")
        assert [r.body for r in await a.log("t")] == [b"e0", b"e1"]
        assert await a.clock("t") == (2.0, b"c1")
        assert await a.record("t") is None

        # A release hands it on at once, lease or not; a claim of an ended
        # or unknown table is refused.
        await b.release("t")
        assert await a.claim("t") is not None
        await a.append("t", [rec(2)], now=4.0)
        await a.update_table("t", status="finished", now=4.0)
        await a.release("t")
        assert await b.claim("t") is None
        assert await b.claim("nope") is None


async def test_a_process_of_a_site_never_claims_a_table_by_writing(postgres_schemas: Schemas) -> None:
    """Unlike a lone server after a restart, a process of a many-process
    site writes only to tables it created or claimed under a lease."""
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    a, b = PostgresStore(url, schema=schema, cluster=True), PostgresStore(url, schema=schema, cluster=True)
    async with running(a, b):
        await a.create_table("t", "running", b"m", now=1.0)
        with pytest.raises(StoreFenced):
            await b.append("t", [rec(0)], now=1.0)
        await a.append("t", [rec(0)], now=1.0)
        await a.end_lease()
        assert await b.claim("t") == 0.0, "an owner with no lease row at all was never known alive"


async def test_a_tournament_is_directed_by_one_process_and_the_old_one_is_fenced(
        postgres_schemas: Schemas) -> None:
    """A tournament is written by its owner only: another process takes it
    only once the owner's lease has ended (or it released it), and the old
    owner's next write is refused. Its tables are orphans only for the
    process directing it."""
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    a, b = PostgresStore(url, schema=schema, cluster=True), PostgresStore(url, schema=schema, cluster=True)
    async with running(a, b):
        await a.renew_lease(url="ws://a", lease_s=60, alive_at=1.0)
        await b.renew_lease(url="ws://b", lease_s=60, alive_at=1.0)
        await a.create_table("tt", "open", b"m", 1.0)
        await a.save_tournament("T", b"head", now=1.0, rounds={1: b"r"}, tables={"tt": True})
        assert await a.tournaments_directed() == {"T"} and await b.tournaments_directed() == set()
        assert await b.tournament_owner("T") == (a.owner, True)
        assert not await b.claim_tournament("T")
        with pytest.raises(StoreFenced):
            await b.save_tournament("T", b"not mine", now=2.0)
        # a's lease ends: cut short to 50 ms of the database's time and waited
        # out (a lease that lapsed by itself would race a loaded machine).
        await a.renew_lease(url="ws://a", lease_s=0.05, alive_at=1.0)
        await trio.sleep(0.1)
        assert await b.orphan_tournaments() == ["T"]
        assert "tt" not in await b.orphans()  # its tournament's table: for whoever directs it
        assert await b.claim("tt") is None
        assert await b.claim_tournament("T")
        assert await b.orphans() == ["tt"]
        assert await b.claim("tt") is not None
        await b.save_tournament("T", b"head 2", now=3.0, tables={"tt": False})
        with pytest.raises(StoreFenced):
            await a.save_tournament("T", b"stale", rounds={1: b"stale"}, now=4.0)
        assert await a.tournament("T") == (b"head 2", [b"r"])
        assert await a.withheld("tt") is False
        await b.release_tournament("T")
        assert await a.orphan_tournaments() == ["T"]


async def test_the_site_key_is_made_once(postgres_schemas: Schemas) -> None:
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    a, b = PostgresStore(url, schema=schema, cluster=True), PostgresStore(url, schema=schema, cluster=True)
    async with running(a, b):
        keys = [await s.site_key("bus", lambda i=i: bytes([i]) * 32) for i, s in enumerate((a, b))]
        assert keys == [bytes([0]) * 32] * 2


async def test_t8_7_a_sleeping_table_belongs_to_nobody_and_one_claim_wakes_it(postgres_schemas: Schemas) -> None:
    """docs/table.md T8.7: a table put to sleep names no owner and leaves
    failover's orphans; when it falls due, processes claiming it at once
    find one winner, its epoch raised, its wake-up gone from the index; the
    process that put it to sleep can write to it no more."""
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    a, b, c, d = (PostgresStore(url, schema=schema, cluster=True) for _ in range(4))
    async with running(a, b, c, d):
        for store, name in ((a, "a"), (b, "b"), (c, "c"), (d, "d")):
            await store.renew_lease(url=f"ws://{name}", lease_s=30, alive_at=100.0)
        await a.create_table("t", "running", b"m", now=1.0)
        await a.append("t", [rec(0)], clock=b"c0", now=1.0)
        await a.sleep("t", 500.0)
        assert await b.owner_of("t") == ("running", "", "", False)  # nobody's, though a's lease lives
        assert await b.orphans() == [], "failover never loads a sleeping table"
        assert await b.tables(["running"], asleep=False) == []
        assert await b.due(499.0, 10) == [] and await b.due(500.0, 10) == ["t"]

        won: dict[str, float | None] = {}

        async def claim(store: PostgresStore, name: str) -> None:
            won[name] = await store.claim("t")

        async with trio.open_nursery() as nursery:
            for store, name in ((b, "b"), (c, "c"), (d, "d")):
                nursery.start_soon(claim, store, name)
        winners = [name for name, since in won.items() if since is not None]
        assert len(winners) == 1, won
        winner = {"b": b, "c": c, "d": d}[winners[0]]
        assert await b.due(1000.0, 10) == [] and await b.sleeping() == 0
        assert (await b.owner_of("t"))[1] == winner.owner
        await winner.append("t", [rec(1)], clock=b"c1", now=2.0)  # it writes under the raised epoch
        with pytest.raises(StoreFenced):
            await a.append("t", [rec(2)], now=3.0)
        # Asleep again, and woken by another process.
        await winner.sleep("t", 900.0)
        with pytest.raises(StoreFenced):
            await a.sleep("t", 10.0)  # only the owner puts a table to sleep
        assert await a.claim("t") is not None
        assert await a.sleeping() == 0
