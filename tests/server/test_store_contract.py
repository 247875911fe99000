"""One suite for every store: the guarantees of server/stores/contract.py,
run against the SQLite store on a real file, the PostgreSQL store on a
fresh schema of a real database, and the store in memory. What only a store
on disk can show (batching, durability across processes, the lock, schema
migrations, fencing) is in test_store_sqlite.py and test_store_postgres.py."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

from oriente.server.stores import (
    STATUSES,
    AccountRow,
    CredentialRow,
    EmailRow,
    LogRecord,
    MemoryStore,
    RatingRow,
    ResultRow,
    SeatRow,
    SQLiteStore,
    Store,
    StoreConflict,
    StoreError,
    ThrottleRow,
)

pytestmark = pytest.mark.trio

StoreFactory = Callable[[], Store]


@pytest.fixture(params=["sqlite", "postgres", "memory"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> StoreFactory:
    if request.param == "sqlite":
        return lambda: SQLiteStore(str(tmp_path / "s.sqlite"))
    if request.param == "postgres":
        from oriente.server.stores.postgres import PostgresStore

        schemas = request.getfixturevalue("postgres_schemas")
        return lambda: PostgresStore(schemas.url, schema=schemas.fresh())
    return MemoryStore


def rec(pos: int, kind: str = "event", seq: int | None = None) -> LogRecord:
    return LogRecord(pos=pos, kind=kind, seq=pos if seq is None and kind == "event" else seq, body=b"body-%d" % pos)


@asynccontextmanager
async def running(store: Store) -> AsyncIterator[Store]:
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        try:
            yield store
        finally:
            await store.aclose()


async def test_append_and_read_back(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        await store.create_table("t1", "open", b"\x81\xa1a\x01", now=10.0)
        records = [rec(0, "cmd", None), rec(1), rec(2), rec(3, "cmd", None)]
        await store.append("t1", records[:2], now=11.0)
        await store.append("t1", records[2:], now=12.0)
        assert await store.log("t1") == records
        assert await store.log("t1", after_pos=1) == records[2:]
        assert await store.log("t1", after_pos=3) == []
        assert await store.log("nope") == []
        row = await store.table("t1")
        assert row is not None
        assert (row.id, row.created_at, row.status, row.meta, row.updated_at) == (
            "t1", 10.0, "open", b"\x81\xa1a\x01", 10.0)
        assert await store.table("nope") is None


async def test_statuses_updates_and_the_oldest_first_listing(make_store: StoreFactory) -> None:
    statuses = sorted(STATUSES)
    async with running(make_store()) as store:
        for index, status in enumerate(statuses):
            await store.create_table(f"t{index}", status, b"m%d" % index, now=float(10 - index))
        listed = await store.tables()
        assert [t.id for t in listed] == [f"t{i}" for i in reversed(range(len(statuses)))]
        assert {t.status for t in await store.tables({"open", "running"})} == {"open", "running"}
        assert await store.tables([]) == []

        first, second = listed[-1].id, listed[-2].id
        await store.update_table(first, status="failed", now=50.0)
        await store.update_table(second, meta=b"new", now=51.0)
        a, b = await store.table(first), await store.table(second)
        assert a is not None and (a.status, a.meta, a.updated_at) == ("failed", b"m0", 50.0)
        assert b is not None and (b.status, b.meta, b.updated_at) == (statuses[1], b"new", 51.0)
        assert a.created_at == 10.0

        with pytest.raises(StoreError, match="unknown table"):
            await store.update_table("nope", status="finished", now=1.0)
        with pytest.raises(ValueError, match="status"):
            await store.update_table(first, status="paused", now=1.0)
        with pytest.raises(ValueError, match="status"):
            await store.create_table("t9", "paused", b"", now=1.0)
        with pytest.raises(StoreError, match="already exists"):
            await store.create_table(first, "open", b"", now=1.0)
        with pytest.raises(TypeError, match="bytes"):
            await store.create_table("t9", "open", "not bytes", now=1.0)  # type: ignore[arg-type]


async def test_a_gap_or_a_repeat_is_refused_and_changes_nothing(make_store: StoreFactory) -> None:
    """Guarantee 1, and 4: bad appends raise in their own callers while
    appends to other tables made at the same moment commit."""
    async with running(make_store()) as store:
        for t in range(4):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
            await store.append(f"t{t}", [rec(0), rec(1)], clock=b"c", now=0.0)
        outcomes: dict[str, BaseException | None] = {}

        async def submit(name: str, table_id: str, records: list[LogRecord]) -> None:
            try:
                await store.append(table_id, records, clock=b"later", now=5.0)
            except StoreError as exc:
                outcomes[name] = exc
            else:
                outcomes[name] = None

        async with trio.open_nursery() as nursery:
            nursery.start_soon(submit, "good0", "t0", [rec(2), rec(3)])
            nursery.start_soon(submit, "gap", "t1", [rec(3)])
            nursery.start_soon(submit, "duplicate", "t2", [rec(1), rec(2)])
            nursery.start_soon(submit, "unknown", "nope", [rec(0)])
            nursery.start_soon(submit, "good3", "t3", [rec(2)])
        assert "gap" in str(outcomes.pop("gap"))
        assert "duplicate" in str(outcomes.pop("duplicate"))
        assert "unknown table" in str(outcomes.pop("unknown"))
        assert outcomes == {"good0": None, "good3": None}
        assert [r.pos for r in await store.log("t0")] == [0, 1, 2, 3]
        assert [r.pos for r in await store.log("t3")] == [0, 1, 2]
        for t in ("t1", "t2"):
            assert [r.pos for r in await store.log(t)] == [0, 1]
            assert await store.clock(t) == (0.0, b"c")
        # The log goes on where it should.
        await store.append("t1", [rec(2)], now=6.0)
        assert [r.pos for r in await store.log("t1")] == [0, 1, 2]


async def test_records_that_skip_among_themselves_are_refused(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        await store.create_table("t", "running", b"", now=0.0)
        with pytest.raises(StoreError, match="consecutive"):
            await store.append("t", [rec(0), rec(2)], now=0.0)
        with pytest.raises(TypeError, match="bytes"):
            await store.append("t", [LogRecord(0, "cmd", None, "text")], now=0.0)  # type: ignore[arg-type]
        assert await store.log("t") == []


async def test_the_clock_is_saved_with_its_append(make_store: StoreFactory) -> None:
    """Guarantee 2: records and clock in one commit, or neither."""
    async with running(make_store()) as store:
        await store.create_table("t", "running", b"", now=0.0)
        assert await store.clock("t") is None
        await store.append("t", [rec(0)], clock=b"c0", now=1.0)
        assert await store.clock("t") == (1.0, b"c0")
        await store.append("t", [rec(1)], clock=b"c1", now=2.0)
        await store.append("t", [rec(2)], now=3.0)
        assert await store.clock("t") == (2.0, b"c1")
        with pytest.raises(StoreError, match="gap"):
            await store.append("t", [rec(9)], clock=b"bad", now=4.0)
        assert await store.clock("t") == (2.0, b"c1")
        await store.append("t", [], clock=b"c2", now=5.0)  # a clock alone
        assert await store.clock("t") == (5.0, b"c2")
        assert [r.pos for r in await store.log("t")] == [0, 1, 2]
        # A rebuild reads both at once (a wake-up, docs/table.md T8.5).
        assert await store.log_and_clock("t") == (await store.log("t"), (5.0, b"c2"))
        assert await store.log_and_clock("nope") == ([], None)
        # A table out of memory is brought back from its row, log and clock, read at once.
        row, log, clock = await store.table_log_and_clock("t")
        assert (row, log, clock) == (await store.table("t"), await store.log("t"), (5.0, b"c2"))
        assert row is not None and row.status == "running"
        await store.create_table("bare", "open", b"m", now=6.0)
        assert await store.table_log_and_clock("bare") == (await store.table("bare"), [], None)
        assert await store.table_log_and_clock("nope") == (None, [], None)
        with pytest.raises(StoreError, match="unknown table"):
            await store.append("nope", [], clock=b"c", now=5.0)
        assert await store.clock("nope") is None


async def test_heartbeat_and_records(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        assert await store.last_heartbeat() is None
        await store.heartbeat(100.5)
        await store.heartbeat(101.5)
        assert await store.last_heartbeat() == 101.5
        await store.create_table("t", "finished", b"", now=0.0)
        assert await store.record("t") is None
        await store.save_record("t", b"r1")
        await store.save_record("t", b"r2")
        assert await store.record("t") == b"r2"
        with pytest.raises(StoreError, match="unknown table"):
            await store.save_record("nope", b"r")


async def test_reads_and_writes_only_while_running(make_store: StoreFactory) -> None:
    """Guarantee 7: before run and after aclose every call is refused."""
    store = make_store()
    with pytest.raises(StoreError, match="not running"):
        await store.create_table("t", "open", b"", now=0.0)
    with pytest.raises(StoreError, match="not running"):
        await store.log("t")
    async with running(store):
        await store.create_table("t", "open", b"", now=0.0)
    with pytest.raises(StoreError, match="closed"):
        await store.append("t", [rec(0)], now=1.0)
    with pytest.raises(StoreError, match="closed"):
        await store.heartbeat(1.0)
    with pytest.raises(StoreError, match="closed"):
        await store.table("t")
    await store.aclose()  # closing twice is harmless
    with pytest.raises(StoreError, match="already started or closed"):
        await store.run()


# -- accounts (docs/accounts.md) ---------------------------------------------------


def _account(i: str, name: str, kind: str = "person", owner: str | None = None) -> AccountRow:
    return AccountRow(id=i, name=name, key=name.casefold(), kind=kind, owner=owner,
                      password=None if kind == "bot" else "$argon2id$x", created_at=float(len(i)))


async def test_accounts_names_are_unique_whatever_their_case(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        alice = _account("a1", "Alice")
        await store.create_account(alice)
        with pytest.raises(StoreConflict):
            await store.create_account(_account("a2", "ALICE"))
        await store.create_account(_account("b1", "alicebot", "bot", owner="a1"))
        assert await store.account("a1") == alice
        assert await store.account_by_key("alice") == alice
        assert await store.account_by_key("nobody") is None
        assert [b.id for b in await store.bots_of("a1")] == ["b1"]
        assert await store.account("a2") is None, "a refused account leaves nothing behind"


async def test_credentials_are_found_by_hash_and_revoked_once(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        await store.create_account(_account("a1", "Alice"))
        cred = CredentialRow(id="c1", account_id="a1", kind="api", token_hash="h" * 64, label="bot", created_at=1.0)
        await store.add_credential(cred)
        with pytest.raises(StoreConflict):
            await store.add_credential(CredentialRow(id="c2", account_id="a1", kind="api", token_hash="h" * 64,
                                                     label="again", created_at=2.0))
        assert await store.credential("h" * 64) == cred
        assert await store.revoke_credential("c1", 5.0) is True
        assert await store.revoke_credential("c1", 6.0) is False
        assert await store.revoke_credential("nope", 6.0) is False
        revoked = await store.credential("h" * 64)
        assert revoked is not None and revoked.revoked_at == 5.0
        assert [c.id for c in await store.credentials("a1")] == ["c1"]


async def test_credentials_keep_where_they_were_made_and_last_used(make_store: StoreFactory) -> None:
    """A session's origin (address, client) is stored with it; each use
    notes when and from where; the rows of an earlier schema read as ''
    and None (checked on the old files themselves in test_old_store.py)."""
    async with running(make_store()) as store:
        await store.create_account(_account("a1", "Alice"))
        made = CredentialRow(id="s1", account_id="a1", kind="session", token_hash="1" * 64, label="sign in",
                             created_at=10.0, address="192.0.2.7", client="Firefox/128")
        await store.add_credential(made)
        assert await store.credential("1" * 64) == made
        assert (made.used_at, made.used_address) == (None, "")
        await store.use_credential("s1", 20.5, "198.51.100.0")
        await store.use_credential("nope", 21.0, "x")  # changes nothing
        used = await store.credential("1" * 64)
        assert used is not None and (used.used_at, used.used_address, used.address, used.client) == (
            20.5, "198.51.100.0", "192.0.2.7", "Firefox/128")


async def test_many_credentials_are_revoked_in_one_call(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        await store.create_account(_account("a1", "Alice"))
        for i in range(4):
            await store.add_credential(CredentialRow(id=f"c{i}", account_id="a1", kind="session",
                                                     token_hash=f"{i}" * 64, label="sign in", created_at=float(i)))
        assert await store.revoke_credential("c1", 5.0) is True
        assert await store.revoke_credentials(["c3", "c1", "nope", "c0", "c3"], 9.0) == ["c3", "c0"]
        assert await store.revoke_credentials([], 9.5) == []
        rows = {c.id: c.revoked_at for c in await store.credentials("a1")}
        assert rows == {"c0": 9.0, "c1": 5.0, "c2": None, "c3": 9.0}, "an earlier revocation keeps its time"


async def test_throttles_are_replaced_dropped_and_pruned(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        assert await store.throttles(["a", "b"]) == {}
        a, b = ThrottleRow("in:ana", 3, 1_800_000_010.5, 100.0), ThrottleRow("fail:192.0.2.7", 0, 7.25, 200.0)
        await store.save_throttles([a, b])
        assert await store.throttles(["in:ana", "fail:192.0.2.7", "other"]) == {"in:ana": a, "fail:192.0.2.7": b}
        later = ThrottleRow("in:ana", 1, 5.0, 300.0)  # the last writer wins, even with smaller numbers
        await store.save_throttles([later], drop=["fail:192.0.2.7"])
        assert await store.throttles(["in:ana", "fail:192.0.2.7"]) == {"in:ana": later}
        await store.save_throttles([], drop=["never-there"])
        await store.save_throttles([ThrottleRow("up:x", 1, 1.0, 150.0), ThrottleRow("up:y", 1, 1.0, 350.0)])
        await store.prune_throttles(before=300.0)
        assert set(await store.throttles(["in:ana", "up:x", "up:y"])) == {"in:ana", "up:y"}
        many = [ThrottleRow(f"k{i}", i, float(i), 400.0) for i in range(1200)]
        await store.save_throttles(many)
        assert len(await store.throttles([r.key for r in many])) == 1200


async def test_email_addresses_are_found_by_either_token_and_replaced(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        await store.create_account(_account("a1", "Alice"))
        assert await store.email("a1") is None
        row = EmailRow("a1", "alice@example.org", "c" * 64, "u" * 64, 100.0)
        await store.save_email(row, "a1")
        assert await store.email("a1") == row
        assert await store.email_by_token("c" * 64) == row and await store.email_by_token("u" * 64) == row
        assert await store.email_by_token("x" * 64) is None and await store.email_by_token("") is None
        confirmed = EmailRow("a1", "alice@example.org", "", "u" * 64, 100.0, confirmed_at=150.0, notify=False)
        await store.save_email(confirmed, "a1")
        assert await store.email("a1") == confirmed
        assert await store.email_by_token("") is None, "a used confirmation token finds nothing"
        await store.mailed("a1", 170.5)
        assert (await store.email("a1")) == EmailRow("a1", "alice@example.org", "", "u" * 64, 100.0, 150.0, False,
                                                     170.5)
        await store.save_email(None, "a1")
        assert await store.email("a1") is None


def _seat(account: str, table: str, *, awaits: bool = False, since: float = 0.0, until: float | None = None,
          turn_based: bool = True, ended: bool = False, at: float = 0.0) -> SeatRow:
    return SeatRow(account, table, 1, awaits, since, until, turn_based, ended, at)


async def test_seats_by_account_awaiting_first_and_replaced_per_table(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        rows = [_seat("a1", "t-ended", ended=True, at=50.0), _seat("a1", "t-playing", at=40.0),
                _seat("a1", "t-late", awaits=True, until=900.0, at=10.0),
                _seat("a1", "t-soon", awaits=True, until=300.0, at=5.0),
                _seat("a1", "t-open", awaits=True, until=None, at=60.0)]
        for r in rows:
            await store.save_seats(r.table_id, [r, _seat("a2", r.table_id)])
        assert [r.table_id for r in await store.account_seats("a1", 10)] == [
            "t-soon", "t-late", "t-open", "t-playing", "t-ended"]
        assert [r.table_id for r in await store.account_seats("a1", 2)] == ["t-soon", "t-late"]
        assert (await store.account_seats("a1", 1))[0] == rows[3], "a row reads back as written"
        await store.save_seats("t-soon", [_seat("a2", "t-soon")])  # the table's rows replaced: a1 left it
        assert "t-soon" not in [r.table_id for r in await store.account_seats("a1", 10)]
        assert len(await store.account_seats("a2", 10)) == 5
        await store.save_seats("t-late", [])
        assert {r.table_id for r in await store.account_seats("a2", 10)} == {"t-soon", "t-ended", "t-playing",
                                                                             "t-open"}
        # A table's own rows, by seat, as last saved (a rebuilt table reads them).
        first = SeatRow("a2", "t-two", 0, True, 12.5, 99.0, True, False, 13.0)
        await store.save_seats("t-two", [_seat("a1", "t-two", awaits=True, since=7.25), first])
        assert await store.table_seats("t-two") == [first, _seat("a1", "t-two", awaits=True, since=7.25)]
        assert await store.table_seats("t-late") == [] and await store.table_seats("none") == []


async def test_an_append_carries_its_tables_seat_rows_in_its_commit(make_store: StoreFactory) -> None:
    """`append(seats=...)` replaces the table's rows in the index as
    `save_seats` does, appends made together batched with it; an append
    refused (a gap) leaves its rows as they were, and None leaves them be."""
    async with running(make_store()) as store:
        for t in ("t1", "t2"):
            await store.create_table(t, "running", b"", now=0.0)
            await store.append(t, [rec(0)], now=1.0, seats=[_seat("a1", t), _seat("a2", t, awaits=True)])
        assert {r.account_id: r.awaits for r in await store.table_seats("t1")} == {"a1": False, "a2": True}
        outcomes: dict[str, BaseException | None] = {}

        async def submit(name: str, table_id: str, records: list[LogRecord], seats: list[SeatRow]) -> None:
            try:
                await store.append(table_id, records, now=2.0, seats=seats)
            except StoreError as exc:
                outcomes[name] = exc
            else:
                outcomes[name] = None

        async with trio.open_nursery() as nursery:
            nursery.start_soon(submit, "moved", "t1", [rec(1)], [_seat("a1", "t1", awaits=True, at=2.0)])
            nursery.start_soon(submit, "gap", "t2", [rec(5)], [])
        assert outcomes.pop("moved") is None and "gap" in str(outcomes.pop("gap"))
        assert await store.table_seats("t1") == [_seat("a1", "t1", awaits=True, at=2.0)], "a2 left, a1 awaited"
        assert sorted(r.account_id for r in await store.table_seats("t2")) == ["a1", "a2"], "refused: none written"
        await store.append("t2", [rec(1)], now=3.0)
        assert sorted(r.account_id for r in await store.table_seats("t2")) == ["a1", "a2"]
        await store.append("t2", [rec(2)], now=4.0, seats=[])
        assert await store.table_seats("t2") == []
        assert [r.pos for r in await store.log("t1")] == [0, 1]


async def test_mail_is_due_once_per_interval_for_turn_based_waits(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        for i, name in (("a1", "Alice"), ("a2", "Bob"), ("a3", "Carol"), ("a4", "Dan")):
            await store.create_account(_account(i, name))
            await store.save_email(EmailRow(i, f"{name}@example.org", "", f"u-{i}", 0.0, confirmed_at=1.0), i)
        await store.save_email(EmailRow("a3", "c@example.org", "c-a3", "u-a3", 0.0), "a3")  # not confirmed
        await store.save_seats("t1", [_seat("a1", "t1", awaits=True, since=100.0),
                                      _seat("a2", "t1", awaits=True, since=100.0, turn_based=False),
                                      _seat("a3", "t1", awaits=True, since=100.0),
                                      _seat("a4", "t1", awaits=False, since=100.0)])
        assert await store.mail_due(now=170.0, every=3600.0, grace=60.0, limit=10) == ["a1"]
        assert await store.mail_due(now=170.0, every=3600.0, grace=60.0, limit=10) == ["a1"]
        assert await store.mail_due(now=130.0, every=3600.0, grace=60.0, limit=10) == [], "within the grace"
        await store.mailed("a1", 170.0)
        assert await store.mail_due(now=5000.0, every=3600.0, grace=60.0, limit=10) == [], "nothing new since"
        await store.save_seats("t2", [_seat("a1", "t2", awaits=True, since=200.0)])
        assert await store.mail_due(now=3000.0, every=3600.0, grace=60.0, limit=10) == [], "mailed within the hour"
        assert await store.mail_due(now=3775.0, every=3600.0, grace=60.0, limit=10) == ["a1"]
        await store.save_email(EmailRow("a1", "Alice@example.org", "", "u-a1", 0.0, confirmed_at=1.0, notify=False,
                                        mailed_at=170.0), "a1")
        assert await store.mail_due(now=3775.0, every=3600.0, grace=60.0, limit=10) == [], "unsubscribed"


async def test_results_move_ratings_once_per_table(make_store: StoreFactory) -> None:
    async with running(make_store()) as store:
        for i, name in (("a1", "Alice"), ("a2", "Bob"), ("a3", "Carol")):
            await store.create_account(_account(i, name))

        def results(table: str, at: float) -> list[ResultRow]:
            return [ResultRow(table, a, "oriente", rank, 20.0 + rank, 8.0, kept, broken, 1, at)
                    for a, rank, kept, broken in (("a1", 1, 2, 0), ("a2", 2, 1, 3))]

        ratings = [RatingRow("a1", "oriente", 30.0, 5.0, 1, 1.0), RatingRow("a2", "oriente", 20.0, 5.0, 1, 1.0),
                   RatingRow("a3", "oro", 25.0, 1.0, 1, 1.0)]
        assert await store.save_results("t1", results("t1", 1.0), ratings) is True
        moved = [RatingRow("a1", "oriente", 99.0, 1.0, 2, 2.0)]
        assert await store.save_results("t1", results("t1", 2.0), moved) is False, "a table counts once"
        assert (await store.ratings("oriente", ["a1", "a3"]))["a1"].mu == 30.0
        assert set(await store.ratings("oriente", ["a1", "a2", "a3"])) == {"a1", "a2"}
        board = await store.leaderboard("oriente", 10)
        assert [(a.name, r.mu) for a, r in board] == [("Alice", 30.0), ("Bob", 20.0)]
        assert [a.name for a, _ in await store.leaderboard("oro", 10)] == ["Carol"]
        assert await store.save_results("t2", results("t2", 3.0), []) is True
        history = await store.results("a1", "oriente")
        assert [(r.table_id, r.rank) for r in history] == [("t1", 1), ("t2", 1)]
        assert [r.table_id for r in await store.results("a1", limit=1)] == ["t2"]
        assert await store.reputation(["a1", "a2", "a3"]) == {"a1": (4, 0, 2), "a2": (2, 6, 2)}


async def test_tournaments_are_saved_by_head_and_rounds(make_store: StoreFactory) -> None:
    """A tournament's head and rounds are opaque bytes, each replaced by its
    own save; the list keeps the order of the first saves, so a restart
    reloads them in order, each with its rounds by number."""
    async with running(make_store()) as store:
        assert await store.tournament("t1") is None
        assert await store.tournaments() == []
        with pytest.raises(StoreError):
            await store.save_tournament("t0", None, now=1.0, rounds={1: b"r"})
        await store.save_tournament("t2", b"\x00two", now=5.0)
        await store.save_tournament("t1", b"one", now=6.0, rounds={2: b"one-r2", 1: b"one-r1"})
        await store.save_tournament("t2", b"two again", now=7.0, rounds={1: b"two-r1"})
        await store.save_tournament("t1", None, now=8.0, rounds={2: b"one-r2 again"})
        assert await store.tournament("t2") == (b"two again", [b"two-r1"])
        assert await store.tournament("t1") == (b"one", [b"one-r1", b"one-r2 again"])
        assert await store.tournaments() == [("t2", b"two again", [b"two-r1"]),
                                             ("t1", b"one", [b"one-r1", b"one-r2 again"])]
        with pytest.raises(TypeError):
            await store.save_tournament("t3", "text", now=8.0)  # type: ignore[arg-type]
    again = make_store()
    if isinstance(again, SQLiteStore):  # the same file (a PostgreSQL factory opens a fresh schema)
        async with running(again) as store:
            assert await store.tournament("t1") == (b"one", [b"one-r1", b"one-r2 again"])


async def test_a_tournaments_tables_keep_their_withheld_state(make_store: StoreFactory) -> None:
    """A tournament's tables are stored with whether they are withheld
    (docs/tournaments.md TR3.2), so that any process serving one knows."""
    async with running(make_store()) as store:
        assert await store.withheld("tA") is False
        await store.save_tournament("t1", b"head", now=1.0, rounds={1: b"r1"}, tables={"tA": True, "tB": False})
        assert (await store.withheld("tA"), await store.withheld("tB")) == (True, False)
        await store.save_tournament("t1", None, now=2.0, tables={"tA": False})
        assert await store.withheld("tA") is False
        assert await store.withheld("unknown") is False


async def test_the_index_of_sleeping_tables_wakes_each_once(make_store: StoreFactory) -> None:
    """docs/table.md T8.5: a sleeping table is out of the recovery's awake
    tables, found by `due` once its time comes, and woken once."""
    async with running(make_store()) as store:
        for i in range(4):
            await store.create_table(f"t{i}", "running", b"m", now=10.0 + i)
            await store.append(f"t{i}", [rec(0)], now=10.0 + i)
        assert await store.next_wake() is None and await store.sleeping() == 0
        await store.sleep("t1", 500.0)
        await store.sleep("t2", 300.0)
        await store.sleep("t3", 300.0)
        with pytest.raises(StoreError):
            await store.sleep("nope", 1.0)
        assert [r.id for r in await store.tables(["open", "running"], asleep=False)] == ["t0"]
        assert [r.id for r in await store.tables(["running"], asleep=True)] == ["t1", "t2", "t3"]
        assert len(await store.tables(["running"])) == 4
        assert await store.next_wake() == 300.0 and await store.sleeping() == 3
        assert await store.due(299.0, 10) == []
        assert await store.due(300.0, 10) == ["t2", "t3"]
        assert await store.due(1000.0, 2) == ["t2", "t3"]  # earliest first, at most `limit`
        assert await store.wake("t2") is True
        assert await store.wake("t2") is False  # one wake-up only
        assert await store.due(1000.0, 10) == ["t3", "t1"]
        assert await store.wake("t0") is False  # never asleep
        await store.append("t2", [rec(1)], now=400.0)  # awake again: it writes as before
        assert [r.id for r in await store.tables(["running"], asleep=False)] == ["t0", "t2"]
