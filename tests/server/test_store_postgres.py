"""The PostgreSQL store on a real database: what the shared suite
(test_store_contract.py) cannot show — its schema and migrations, the
site's lock, fencing by epoch, batching in one transaction, the flush on
close, and a lost connection. Each test works in schemas of its own."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from functools import partial
from typing import Any

import pytest
import trio
import trio.testing

from oriente.server.stores import LogRecord, StoreError, StoreFenced, StoreLocked, open_store

from ..postgres import Schemas

psycopg = pytest.importorskip("psycopg")
from oriente.server.stores.postgres import SCHEMA_VERSION, PostgresStore, split_schema  # noqa: E402

pytestmark = pytest.mark.trio


def rec(pos: int, kind: str = "event", seq: int | None = None) -> LogRecord:
    return LogRecord(pos=pos, kind=kind, seq=pos if seq is None and kind == "event" else seq, body=b"body-%d" % pos)


@asynccontextmanager
async def running(store: PostgresStore) -> AsyncIterator[PostgresStore]:
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        try:
            yield store
        finally:
            await store.aclose()


@contextmanager
def _site_of_schema(url: str, schema: str, version: int) -> Iterator[Any]:
    """A connection to `schema` as a server of schema `version` left it (its
    migrations up to that version, which have not changed since), for a test
    to add that server's rows before a newer server opens it."""
    from oriente.server.stores.postgres import _MIGRATIONS

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(f'SET search_path TO "{schema}"')
        conn.execute("CREATE TABLE schema_version (version integer PRIMARY KEY, "
                     "applied_at timestamptz NOT NULL DEFAULT now())")
        for step in range(1, version + 1):
            conn.execute(_MIGRATIONS[step])
            conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (step,))
        yield conn


def sql(schemas: Schemas, schema: str, query: str, *params: Any) -> list[tuple]:
    """Run one statement in the schema, as an operator (or another owner) would."""
    with psycopg.connect(schemas.url, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        cur = conn.execute(query, params)
        return cur.fetchall() if cur.description else []


class GatedStore(PostgresStore):
    """A store whose writer thread waits at a gate before each batch, so that
    a test can line requests up behind a batch that is in flight."""

    def __init__(self, url: str, *, schema: str) -> None:
        super().__init__(url, schema=schema)
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()  # the writer thread reached the gate

    def _apply_batch(self, batch: list) -> None:  # type: ignore[override]
        self.entered.set()
        assert self.gate.wait(timeout=20), "test left the gate closed"
        super()._apply_batch(batch)


@asynccontextmanager
async def plugged(store: GatedStore, nursery: trio.Nursery, table_id: str, pos: int) -> AsyncIterator[None]:
    """Hold the writer inside a batch until the block ends."""
    store.gate.clear()
    try:
        store.entered.clear()
        nursery.start_soon(partial(store.append, table_id, [rec(pos)], now=1.0))
        # The writer is a thread: wait for it to take the batch, not for trio's tasks.
        assert await trio.to_thread.run_sync(store.entered.wait, 20), "the writer never took the batch"
        await trio.testing.wait_all_tasks_blocked()
        assert store.statistics().in_flight == 1
        yield
    finally:
        store.gate.set()


async def test_the_url_names_the_schema_and_libpq_never_sees_it() -> None:
    assert split_schema("postgresql://u@h:5/db?schema=site2&sslmode=disable") == (
        "postgresql://u@h:5/db?sslmode=disable", "site2")
    assert split_schema("postgresql:///db") == ("postgresql:///db", "oriente")
    with pytest.raises(ValueError, match="schema name"):
        PostgresStore("postgresql:///db?schema=Robert');DROP")
    assert isinstance(open_store("postgresql:///db?schema=s1"), PostgresStore)
    assert not isinstance(open_store("some/file.sqlite"), PostgresStore)


async def test_schema_is_created_versioned_and_kept(postgres_schemas: Schemas) -> None:
    schema = postgres_schemas.fresh()
    async with running(PostgresStore(postgres_schemas.url, schema=schema)) as store:
        await store.create_table("t", "running", b"meta", now=1.0)
        await store.append("t", [rec(0, "cmd", None), rec(1)], clock=b"clock", now=2.0)
        await store.update_table("t", status="finished", now=3.0)
        await store.save_record("t", b"record")
        await store.heartbeat(4.0)
    names = {row[0] for row in sql(postgres_schemas, schema, "SELECT tablename FROM pg_tables WHERE schemaname = %s",
                                   schema)}
    assert {"tables", "log", "records", "heartbeat", "nodes", "schema_version"} <= names
    assert sql(postgres_schemas, schema, "SELECT version FROM schema_version ORDER BY version") == [
        (v,) for v in range(1, SCHEMA_VERSION + 1)]

    async with running(PostgresStore(postgres_schemas.store_url(schema))) as store:
        assert await store.log("t") == [rec(0, "cmd", None), rec(1)]
        assert await store.clock("t") == (2.0, b"clock")
        row = await store.table("t")
        assert row is not None and (row.status, row.meta, row.updated_at) == ("finished", b"meta", 3.0)
        assert await store.record("t") == b"record"
        assert await store.last_heartbeat() == 4.0
    assert sql(postgres_schemas, schema, "SELECT count(*) FROM schema_version") == [(SCHEMA_VERSION,)], \
        "migrated once only"


async def test_a_newer_schema_is_refused(postgres_schemas: Schemas) -> None:
    schema = postgres_schemas.fresh()
    async with running(PostgresStore(postgres_schemas.url, schema=schema)):
        pass
    sql(postgres_schemas, schema, "INSERT INTO schema_version (version) VALUES (%s)", SCHEMA_VERSION + 1)
    store = PostgresStore(postgres_schemas.url, schema=schema)
    with pytest.raises(StoreError, match="newer"):
        await store.run()
    with pytest.raises(StoreError, match="closed"):
        await store.heartbeat(1.0)


async def test_a_schema_4_site_gains_where_sessions_were_made_and_the_throttles(postgres_schemas: Schemas) -> None:
    """A site a server of schema 4 made (its migrations, which have not
    changed since, and an account's rows as that server wrote them) opens
    as schema 5: its credentials read with no place yet, new ones keep
    theirs, and the throttles' table is there."""
    from oriente.server.stores import CredentialRow, EmailRow, SeatRow, ThrottleRow

    schema = postgres_schemas.fresh()
    with _site_of_schema(postgres_schemas.url, schema, 4) as conn:
        conn.execute("INSERT INTO accounts (id, name, name_key, kind, owner, password, created_at) "
                     "VALUES ('a1', 'Ana', 'ana', 'person', NULL, '$argon2id$x', 1.0)")
        conn.execute("INSERT INTO credentials (id, account_id, kind, token_hash, label, created_at, revoked_at) "
                     "VALUES ('c1', 'a1', 'session', %s, 'sign in', 2.0, NULL)", ("h" * 64,))
    async with running(PostgresStore(postgres_schemas.url, schema=schema)) as store:
        old = await store.credential("h" * 64)
        assert old == CredentialRow("c1", "a1", "session", "h" * 64, "sign in", 2.0, None, "", "", None, "")
        await store.use_credential("c1", 3.0, "192.0.2.1")
        await store.add_credential(CredentialRow("c2", "a1", "session", "g" * 64, "sign in", 4.0,
                                                 address="192.0.2.9", client="Firefox"))
        assert [(c.id, c.used_address, c.address) for c in await store.credentials("a1")] == [
            ("c1", "192.0.2.1", ""), ("c2", "", "192.0.2.9")]
        await store.save_throttles([ThrottleRow("in:ana", 1, 5.0, 5.0)])
        # Schema 8: e-mail addresses and the index of seats by account.
        await store.save_email(EmailRow("a1", "ana@example.org", "c" * 64, "u" * 64, 6.0), "a1")
        await store.save_seats("T1", [SeatRow("a1", "T1", 0, True, 7.0, 99.0, True, False, 7.0)])
        assert [r.table_id for r in await store.account_seats("a1", 5)] == ["T1"]
    assert sql(postgres_schemas, schema, "SELECT max(version) FROM schema_version") == [(SCHEMA_VERSION,)]
    assert SCHEMA_VERSION == 8  # 6: what the processes of a site share; 7: sleeping tables' wake-ups;
    # 8: e-mail addresses and the index of seats by account


async def test_a_schema_6_site_opens_with_every_table_awake(postgres_schemas: Schemas) -> None:
    """docs/table.md T8.5: a site of schema 6 opens as schema 7; its tables
    are awake (the recovery and failover see them as before) and may sleep."""
    schema = postgres_schemas.fresh()
    with _site_of_schema(postgres_schemas.url, schema, 6) as conn:
        conn.execute("INSERT INTO tables (id, created_at, status, meta, updated_at, owner, epoch) "
                     "VALUES ('old', 1.0, 'running', %s, 1.0, 'gone', 3)", (b"m",))
    async with running(PostgresStore(postgres_schemas.url, schema=schema)) as store:
        assert [r.id for r in await store.tables(["running"], asleep=False)] == ["old"]
        assert await store.sleeping() == 0 and await store.next_wake() is None
        await store.sleep("old", 50.0)
        assert await store.due(60.0, 5) == ["old"]
    assert sql(postgres_schemas, schema, "SELECT owner, wake_at FROM tables") == [("", 50.0)]


async def test_one_server_per_site(postgres_schemas: Schemas) -> None:
    """Guarantee 6 on a shared database: a second store on the same schema
    is refused while the first runs; another schema is another site; once
    the first closes, the site opens again."""
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    async with running(PostgresStore(url, schema=schema)) as first:
        await first.create_table("t", "open", b"", now=0.0)
        second = PostgresStore(url, schema=schema, lock_wait=0.2)
        with pytest.raises(StoreLocked, match="in use by another server"):
            await second.run()
        async with running(PostgresStore(url, schema=postgres_schemas.fresh())) as elsewhere:
            assert await elsewhere.table("t") is None
        assert await first.table("t") is not None, "the refused store must not disturb the running one"
    async with running(PostgresStore(url, schema=schema)) as third:
        assert await third.table("t") is not None


async def test_a_write_under_a_stale_epoch_is_refused_by_the_database(postgres_schemas: Schemas) -> None:
    """Guarantee 6, fenced: once another owner has claimed a table (its
    epoch moved on), every write of the old owner to it is refused with
    StoreFenced and changes nothing, while its other tables, written in the
    same batch, commit."""
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    async with running(PostgresStore(url, schema=schema)) as store:
        for t in ("taken", "kept"):
            await store.create_table(t, "running", b"", now=0.0)
            await store.append(t, [rec(0)], clock=b"c0", now=0.0)
        assert sql(postgres_schemas, schema, "SELECT epoch, owner FROM tables WHERE id = 'taken'") == [
            (1, store.owner)]
        # Another process takes the table over, as a new owner would.
        sql(postgres_schemas, schema, "UPDATE tables SET epoch = epoch + 1, owner = 'other' WHERE id = 'taken'")
        outcomes: dict[str, BaseException | None] = {}

        async def attempt(name: str, write: Any) -> None:
            try:
                await write()
            except StoreError as exc:
                outcomes[name] = exc
            else:
                outcomes[name] = None

        async with trio.open_nursery() as nursery:
            nursery.start_soon(attempt, "append", partial(store.append, "taken", [rec(1)], clock=b"c1", now=1.0))
            nursery.start_soon(attempt, "clock", partial(store.append, "taken", [], clock=b"c1", now=1.0))
            nursery.start_soon(attempt, "update", partial(store.update_table, "taken", status="finished", now=1.0))
            nursery.start_soon(attempt, "record", partial(store.save_record, "taken", b"r"))
            nursery.start_soon(attempt, "kept", partial(store.append, "kept", [rec(1)], clock=b"c1", now=1.0))
        assert outcomes.pop("kept") is None
        for name, error in outcomes.items():
            assert isinstance(error, StoreFenced), (name, error)
            assert "'other' claimed" in str(error) or "other claimed" in str(error), error
        assert [r.pos for r in await store.log("taken")] == [0]
        assert await store.clock("taken") == (0.0, b"c0")
        assert await store.record("taken") is None
        row = await store.table("taken")
        assert row is not None and row.status == "running"
        assert [r.pos for r in await store.log("kept")] == [0, 1]
        # The old owner never claims the table back by itself.
        with pytest.raises(StoreFenced):
            await store.append("taken", [rec(1)], now=2.0)


async def test_a_restarted_server_claims_the_tables_it_writes(postgres_schemas: Schemas) -> None:
    """A table left by an earlier server is claimed (its epoch raised, the
    new store named owner) on the new store's first write to it."""
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    async with running(PostgresStore(url, schema=schema)) as first:
        await first.create_table("t", "running", b"", now=0.0)
        await first.append("t", [rec(0)], now=0.0)
    async with running(PostgresStore(url, schema=schema)) as second:
        assert sql(postgres_schemas, schema, "SELECT epoch FROM tables WHERE id = 't'") == [(1,)]
        await second.append("t", [rec(1)], now=1.0)
        await second.append("t", [rec(2)], now=2.0)
        assert sql(postgres_schemas, schema, "SELECT epoch, owner FROM tables WHERE id = 't'") == [(2, second.owner)]
        with pytest.raises(StoreError, match="gap"):
            await second.append("t", [rec(5)], now=3.0)
        assert [r.pos for r in await second.log("t")] == [0, 1, 2]


async def test_a_batch_commits_at_once_and_refusals_fail_alone(postgres_schemas: Schemas) -> None:
    """Concurrent appends share one transaction; a gap, a duplicate and an
    unknown table fail their own callers only, and the good writes of the
    same batch commit."""
    async with running(PostgresStore(postgres_schemas.url, schema=postgres_schemas.fresh())) as store:
        for t in range(12):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
            await store.append(f"t{t}", [rec(0), rec(1)], now=0.0)
        before = store.statistics()
        outcomes: dict[str, BaseException | None] = {}

        async def submit(name: str, table_id: str, records: list[LogRecord]) -> None:
            try:
                await store.append(table_id, records, clock=b"clock", now=5.0)
            except StoreError as exc:
                outcomes[name] = exc
            else:
                outcomes[name] = None

        async with trio.open_nursery() as nursery:
            for t in range(10):
                nursery.start_soon(submit, f"good{t}", f"t{t}", [rec(2), rec(3)])
            nursery.start_soon(submit, "gap", "t10", [rec(3)])
            nursery.start_soon(submit, "duplicate", "t11", [rec(1), rec(2)])
            nursery.start_soon(submit, "unknown", "nope", [rec(0)])
        after = store.statistics()
        assert after.batches == before.batches + 1
        assert after.failed_writes == before.failed_writes + 3
        assert "gap" in str(outcomes.pop("gap"))
        assert "duplicate" in str(outcomes.pop("duplicate"))
        assert "unknown table" in str(outcomes.pop("unknown"))
        assert outcomes == {f"good{t}": None for t in range(10)}
        for t in range(10):
            assert [r.pos for r in await store.log(f"t{t}")] == [0, 1, 2, 3]
            assert await store.clock(f"t{t}") == (5.0, b"clock")
        for t in (10, 11):
            assert [r.pos for r in await store.log(f"t{t}")] == [0, 1]
            assert await store.clock(f"t{t}") is None


async def test_one_batch_applies_requests_in_submission_order(postgres_schemas: Schemas) -> None:
    """Appends to one log queued together behave as if committed one after
    the other: merged when they follow each other (a clock alone between
    them too), replayed one by one when one of them leaves a gap."""
    store = GatedStore(postgres_schemas.url, schema=postgres_schemas.fresh())
    async with running(store):
        for t in ("plug", "t", "u"):
            await store.create_table(t, "running", b"", now=0.0)
        errors: list[StoreError] = []

        async def append(table_id: str, records: list[LogRecord], clock: bytes | None) -> None:
            try:
                await store.append(table_id, records, clock=clock, now=float(len(errors)))
            except StoreError as exc:
                errors.append(exc)

        async def queue(table_id: str, *appends: tuple[list[LogRecord], bytes | None], pos: int) -> None:
            async with trio.open_nursery() as nursery, plugged(store, nursery, "plug", pos):
                for records, clock in appends:
                    nursery.start_soon(append, table_id, records, clock)
                    await trio.testing.wait_all_tasks_blocked()
                assert store.statistics().queued == len(appends)

        await queue("u", ([], b"first"), ([rec(0), rec(1)], None), ([], b"second"), ([rec(2)], None), pos=0)
        assert [r.pos for r in await store.log("u")] == [0, 1, 2]
        assert await store.clock("u") == (0.0, b"second")
        assert errors == []

        await queue("t", ([rec(0), rec(1)], None), ([rec(7)], b"bad"), ([rec(2), rec(3)], b"good"), pos=1)
        assert [r.pos for r in await store.log("t")] == [0, 1, 2, 3]
        assert len(errors) == 1 and "gap" in str(errors[0])
        assert (await store.clock("t") or (0, b""))[1] == b"good"
        assert store.statistics().max_batch == 4


async def test_a_table_created_and_written_in_one_batch_needs_no_replay(postgres_schemas: Schemas) -> None:
    """A creation and the writes that follow it, queued together, commit in
    the batch's one transaction: the new table's epoch (1) is known before
    the database has seen the table."""
    replays: list[int] = []

    class Counting(GatedStore):
        def _apply_isolated(self, conn: Any, batch: list, ops: list) -> None:  # type: ignore[override]
            replays.append(len(batch))
            super()._apply_isolated(conn, batch, ops)

    store = Counting(postgres_schemas.url, schema=postgres_schemas.fresh())
    async with running(store):
        await store.create_table("plug", "running", b"", now=0.0)
        async with trio.open_nursery() as nursery, plugged(store, nursery, "plug", 0):
            for write in (partial(store.create_table, "t", "open", b"m", now=1.0),
                          partial(store.update_table, "t", status="running", now=2.0),
                          partial(store.append, "t", [rec(0), rec(1)], clock=b"c", now=3.0),
                          partial(store.save_record, "t", b"r")):
                nursery.start_soon(write)
                await trio.testing.wait_all_tasks_blocked()
        assert replays == []
        row = await store.table("t")
        assert row is not None and (row.status, row.updated_at) == ("running", 2.0)
        assert [r.pos for r in await store.log("t")] == [0, 1]
        assert await store.record("t") == b"r"


async def test_many_concurrent_writers_are_batched(postgres_schemas: Schemas) -> None:
    tasks, per_task = 30, 40
    async with running(PostgresStore(postgres_schemas.url, schema=postgres_schemas.fresh())) as store:
        for t in range(tasks):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
        before = store.statistics()

        async def writer(t: int) -> None:
            for pos in range(per_task):
                await store.append(f"t{t}", [LogRecord(pos, "event", pos, b"%d:%d" % (t, pos))], now=1.0)

        async with trio.open_nursery() as nursery:
            for t in range(tasks):
                nursery.start_soon(writer, t)
        stats = store.statistics()
        assert stats.records - before.records == tasks * per_task
        assert stats.batches - before.batches <= tasks * per_task // 5, stats
        for t in range(tasks):
            assert await store.log(f"t{t}") == [LogRecord(p, "event", p, b"%d:%d" % (t, p)) for p in range(per_task)]


async def test_aclose_flushes_queued_writes(postgres_schemas: Schemas) -> None:
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    store = GatedStore(url, schema=schema)
    committed: list[int] = []

    async def writer(t: int) -> None:
        await store.append(f"t{t}", [rec(0)], now=1.0)
        committed.append(t)

    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        for t in range(10):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
        await store.create_table("plug", "running", b"", now=0.0)
        async with plugged(store, nursery, "plug", 0):
            for t in range(10):
                nursery.start_soon(writer, t)
            await trio.testing.wait_all_tasks_blocked()
            assert store.statistics().queued == 10
            nursery.start_soon(store.aclose)
            await trio.testing.wait_all_tasks_blocked()
            with pytest.raises(StoreError, match="store is closed"):
                await store.heartbeat(2.0)
    assert sorted(committed) == list(range(10))
    async with running(PostgresStore(url, schema=schema)) as reopened:
        for t in range(10):
            assert await reopened.log(f"t{t}") == [rec(0)]


async def test_a_lost_connection_fails_writes_and_frees_the_site(postgres_schemas: Schemas) -> None:
    """When the database ends the writer's session, writes fail with
    StoreError (they do not hang), and since the site's lock died with that
    session another server may take the site over at once."""
    url, schema = postgres_schemas.url, postgres_schemas.fresh()
    async with running(PostgresStore(url, schema=schema)) as store:
        await store.create_table("t", "running", b"", now=0.0)
        # (waiting up to 5 s for the session to end, and its lock with it)
        sql(postgres_schemas, schema, "SELECT pg_terminate_backend(%s, 5000)", _writer_pid(store))
        with pytest.raises(StoreError):
            await store.append("t", [rec(0)], now=1.0)
        async with running(PostgresStore(url, schema=schema)) as successor:
            await successor.append("t", [rec(0)], now=2.0)
            assert [r.pos for r in await successor.log("t")] == [0]


def _writer_pid(store: PostgresStore) -> int:
    """The server process of the store's write session (the one holding the lock)."""
    conn = store._write_conn
    assert conn is not None
    return conn.info.backend_pid


async def test_serve_on_an_unreachable_database_says_so_in_one_line() -> None:
    """`oriente serve --store postgresql://...` that cannot reach its
    database exits with status 1 and one line naming it (no password), not
    a traceback."""
    import subprocess
    import sys

    url = "postgresql://someone:secret@127.0.0.1:1/nowhere?schema=site"
    run = await trio.to_thread.run_sync(partial(
        subprocess.run, [sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--quiet", "--store", url],
        capture_output=True, text=True, timeout=60))
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith("oriente serve: cannot open store") and "nowhere" in run.stderr
    assert "Traceback" not in run.stderr and "secret" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
