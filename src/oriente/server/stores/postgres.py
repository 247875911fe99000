"""The table server's durable store on PostgreSQL: a site that outgrows one
process keeps its tables in one database.

It keeps the guarantees of `contract.Store`, with the same batching writer
as the SQLite store (`batching.BatchingStore`), and fences every write by
the table's epoch as "Owners and epochs" in `contract` describes. Its
choices, and why:

- **psycopg 3 in worker threads.** psycopg's asynchronous connection is
  built on asyncio and cannot run under trio (its maintainers declined an
  anyio port); the drivers written for trio are thin
  wrappers over asyncpg through trio-asyncio, or young pure-Python
  protocol implementations. So the synchronous connection runs in a worker
  thread, exactly as the SQLite store runs sqlite3: the store's own writer
  thread that commits a whole batch at a time (`batching`), one reader
  thread. The cost is the thread switch there and back, paid once per
  batch, not once per write.
- **One round trip per batch.** The writer sends the batch in pipeline
  mode: BEGIN, the batch's table creations and updates, one call that
  appends every log record of the batch (arrays, in binary), COMMIT, and a
  single Sync. A whole batch costs the server one network round trip and
  one WAL flush however many tables it holds. Measured on the database
  side (100 tables, 4 records each, on a loaded 2-core machine): the
  arrays cost what COPY costs (about 4.3 ms a batch, the flush included)
  and 2.5 times less than ``executemany`` in pipeline mode; COPY cannot
  be pipelined and checks nothing, so arrays it is.
- **The database refuses, not the process.** The checks of guarantee 1
  (the next position, no gap, no repeat) and the fence (the epoch the
  writer claimed the table with) are made by the database in the same
  statement that moves the table's log forward (the functions in schema
  1). A process's idea of a log can be stale (another owner took over);
  the row in the database cannot. A refusal aborts the batch's
  transaction; the batch is then replayed request by request, each under
  a savepoint, so only the culprits fail (guarantee 4), in order.
- **A site is a schema.** Each site keeps its tables in one schema of the
  database (``oriente`` by default, ``?schema=NAME`` in the URL for
  another), so several sites (or test runs) can share a database. The
  schema is created and migrated by the first server that opens it;
  ``schema_version`` records every migration applied.
- **One server per site, for now.** `run` takes a session-level advisory
  lock named after the schema on the write connection, and holds it for its
  life (guarantee 6). The lock lives and dies with the session that
  writes: a server whose connection is gone can write nothing, and the
  database releases the lock of a process that died. A second server on the
  same site gets StoreLocked.
- **Durable on return.** With PostgreSQL's default ``synchronous_commit``
  a commit is on disk when COMMIT returns (guarantee 3), which survives a
  crash of the database too, not just of the server process.
- Log rows live in one table keyed by (table id, position); the table's
  own row carries its clock, its next log position and its epoch, so one
  UPDATE of that row checks the fence, checks the position and saves the
  clock. Table ids compare byte-wise (``COLLATE "C"``), as in SQLite, so
  every store lists tables in the same order.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import time
import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode

import psycopg
from psycopg import errors, sql

from .accounts_sql import AccountsSQL, Statement, credential_additions, seat_statements, seats_schema, throttles_schema
from .accounts_sql import schema as accounts_schema
from .batching import BatchingStore, Write
from .contract import (
    STATUSES,
    LogRecord,
    SeatRow,
    StoreConflict,
    StoreError,
    StoreFenced,
    StoreLocked,
    TableRow,
    check_bytes,
    check_status,
)

__all__ = ["DEFAULT_SCHEMA", "SCHEMA_VERSION", "PostgresStore", "is_postgres_url", "split_schema"]

DEFAULT_SCHEMA: Final = "oriente"

# The newest schema this server knows; `_MIGRATIONS[v]` turns v - 1 into v.
SCHEMA_VERSION: Final = 8

# SQLSTATEs our functions raise (class "OR", Oriente): the contract's refusals.
_UNKNOWN_TABLE: Final = "OR001"
_LOG_MISMATCH: Final = "OR002"
_FENCED: Final = "OR003"

_STATUS_LIST: Final = ", ".join(f"'{status}'" for status in sorted(STATUSES))

_SCHEMA_1: Final = f"""
CREATE TABLE tables (
    id text COLLATE "C" PRIMARY KEY,
    created_at double precision NOT NULL,
    status text NOT NULL CONSTRAINT tables_status_check CHECK (status IN ({_STATUS_LIST})),
    meta bytea NOT NULL,
    updated_at double precision NOT NULL,
    owner text NOT NULL,                            -- the store that claimed it last
    epoch bigint NOT NULL CHECK (epoch > 0),        -- raised by each claim: the fence
    log_next bigint NOT NULL DEFAULT 0 CHECK (log_next >= 0),
    clock_at double precision,
    clock bytea
);
CREATE INDEX tables_by_status ON tables (status, created_at, id);
CREATE TABLE log (
    table_id text COLLATE "C" NOT NULL REFERENCES tables (id),
    pos bigint NOT NULL CHECK (pos >= 0),
    kind text NOT NULL,
    seq bigint,
    body bytea NOT NULL,
    PRIMARY KEY (table_id, pos)
);
CREATE TABLE records (
    table_id text COLLATE "C" PRIMARY KEY REFERENCES tables (id),
    body bytea NOT NULL
);
CREATE TABLE heartbeat (
    id integer PRIMARY KEY CHECK (id = 1),
    at double precision NOT NULL
);

-- Raise the reason why a write of one table under `want_epoch` (and, for an
-- append, from position `first_pos`) did not apply. Called only after the
-- write found no row to change, so it always raises.
CREATE FUNCTION refuse_write(what text, table_id text, want_epoch bigint, first_pos bigint)
RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    found_row tables%ROWTYPE;
BEGIN
    SELECT * INTO found_row FROM tables WHERE id = table_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = '{_UNKNOWN_TABLE}',
            MESSAGE = format('%s unknown table %L', what, table_id);
    END IF;
    IF want_epoch IS DISTINCT FROM found_row.epoch THEN
        RAISE EXCEPTION USING ERRCODE = '{_FENCED}',
            MESSAGE = format('%s %L refused: %s claimed the table (epoch %s) after this server did (epoch %s)',
                             what, table_id, found_row.owner, found_row.epoch, want_epoch);
    END IF;
    IF first_pos IS NOT NULL AND first_pos <> found_row.log_next THEN
        RAISE EXCEPTION USING ERRCODE = '{_LOG_MISMATCH}',
            MESSAGE = format('%s %L: %s in the log, next pos is %s but got %s', what, table_id,
                             CASE WHEN first_pos < found_row.log_next THEN 'duplicate' ELSE 'gap' END,
                             found_row.log_next, first_pos);
    END IF;
    RAISE EXCEPTION USING MESSAGE = format('%s %L did not apply', what, table_id);
END $$;

-- Append to many logs at once: one entry per table (ids .. clocks: its
-- epoch, the position its records start at and the one after them, NULL
-- for a clock alone; its new clock or NULL) and the records of all of them
-- (log_*). Every table must be at that epoch and that position, or nothing
-- is written.
CREATE FUNCTION append_logs(
    ids text[], epochs bigint[], firsts bigint[], nexts bigint[], clock_ats double precision[], clocks bytea[],
    log_ids text[], log_pos bigint[], log_kinds text[], log_seqs bigint[], log_bodies bytea[])
RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    moved text[];
BEGIN
    WITH changed AS (
        UPDATE tables AS t
        SET log_next = coalesce(v.next_pos, t.log_next),
            clock_at = CASE WHEN v.clock IS NULL THEN t.clock_at ELSE v.clock_at END,
            clock = coalesce(v.clock, t.clock)
        FROM unnest(ids, epochs, firsts, nexts, clock_ats, clocks)
             AS v(id, epoch, first_pos, next_pos, clock_at, clock)
        WHERE t.id = v.id AND t.epoch = v.epoch AND t.log_next = coalesce(v.first_pos, t.log_next)
        RETURNING t.id
    )
    SELECT array_agg(id) INTO moved FROM changed;
    IF coalesce(cardinality(moved), 0) < cardinality(ids) THEN
        FOR i IN 1 .. cardinality(ids) LOOP
            IF moved IS NULL OR NOT ids[i] = ANY (moved) THEN
                PERFORM refuse_write('append to', ids[i], epochs[i], firsts[i]);
            END IF;
        END LOOP;
    END IF;
    INSERT INTO log (table_id, pos, kind, seq, body)
    SELECT * FROM unnest(log_ids, log_pos, log_kinds, log_seqs, log_bodies);
END $$;

CREATE FUNCTION update_table(table_id text, want_epoch bigint, new_status text, new_meta bytea,
                             now double precision)
RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE tables SET status = coalesce(new_status, status), meta = coalesce(new_meta, meta), updated_at = now
    WHERE id = table_id AND epoch = want_epoch;
    IF NOT FOUND THEN
        PERFORM refuse_write('update of', table_id, want_epoch, NULL);
    END IF;
END $$;

CREATE FUNCTION save_record(table_id text, want_epoch bigint, new_body bytea)
RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    -- FOR SHARE: a claim (an UPDATE of the row) waits until this commits.
    PERFORM 1 FROM tables WHERE id = table_id AND epoch = want_epoch FOR SHARE;
    IF NOT FOUND THEN
        PERFORM refuse_write('record for', table_id, want_epoch, NULL);
    END IF;
    INSERT INTO records (table_id, body) VALUES (table_id, new_body)
    ON CONFLICT ON CONSTRAINT records_pkey DO UPDATE SET body = excluded.body;
END $$;
"""

# 4: the processes of a many-process site (`cluster=True`). Each
# keeps a row here and renews its lease (database time, so that no process
# clock decides who may take a table over); `alive_at` is the process's own
# wall time at its last renewal, the time its tables' deadlines were last
# known to run (the clocks are saved in process wall time too).
_SCHEMA_4: Final = """
CREATE TABLE nodes (
    name text COLLATE "C" PRIMARY KEY,
    url text NOT NULL DEFAULT '',
    lease_until timestamptz NOT NULL,
    alive_at double precision NOT NULL,
    draining boolean NOT NULL DEFAULT false,
    versions text NOT NULL DEFAULT ''
);
"""


# 2: accounts, credentials, ratings and results (accounts_sql).
# 3: tournaments, each stored whole (no fence: one server drives a site's
# tournaments; the lease that will fence tables can fence these alike).
_SCHEMA_3: Final = """
CREATE TABLE tournaments (
    id text COLLATE "C" PRIMARY KEY,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    body bytea NOT NULL
);
CREATE TABLE tournament_rounds (
    tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments (id),
    number integer NOT NULL,
    body bytea NOT NULL,
    PRIMARY KEY (tournament_id, number)
);
"""

# 5: where a session was made and last used, and the throttles of sign-ins
# and sign-ups (docs/accounts.md).
_SCHEMA_5: Final = "ALTER TABLE credentials " + ", ".join(
    f"ADD COLUMN IF NOT EXISTS {name} {definition}"
    for name, definition in credential_additions("text", "double precision")) + ";" + throttles_schema(
    'text COLLATE "C"', "double precision", "")

# 6: what the processes of a site share beyond tables. `site_keys`: secrets
# made once by the first process (the bus's key, server/cluster/seal.py).
# A tournament's `owner`: the process directing it (no one: ''), which
# alone may write it (`check_tournament_owner`, the tournaments' fence).
# `tournament_tables`: each tournament table and whether it is withheld
# (TR3.2), read by every process that serves the table. `table_creators`:
# the client address that created each table, so that the per-address
# limit on open tables counts the whole site (docs/table.md T6.2).
_SCHEMA_6: Final = """
CREATE TABLE site_keys (
    name text COLLATE "C" PRIMARY KEY,
    key bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE tournaments ADD COLUMN owner text NOT NULL DEFAULT '';
CREATE TABLE tournament_tables (
    table_id text COLLATE "C" PRIMARY KEY,
    tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments (id),
    withheld boolean NOT NULL
);
CREATE INDEX tournament_tables_by_tournament ON tournament_tables (tournament_id);
CREATE TABLE table_creators (
    table_id text COLLATE "C" PRIMARY KEY,
    address text NOT NULL
);
CREATE INDEX table_creators_by_address ON table_creators (address);
CREATE FUNCTION check_tournament_owner(tournament_id text, me text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    holder text;
BEGIN
    -- The row stays locked to the end of the writer's transaction: a claim
    -- by another process waits for it, or was first and is seen here.
    SELECT t.owner INTO holder FROM tournaments t WHERE t.id = tournament_id FOR UPDATE;
    IF FOUND AND holder <> me THEN
        RAISE EXCEPTION 'tournament % is directed by another process now', tournament_id
            USING ERRCODE = 'OR003';
    END IF;
END $$;
"""

# 7: a sleeping table's wake-up time (docs/table.md T8.5): NULL for every
# table in a process's memory, and for every table of an older schema.
_SCHEMA_7: Final = """
ALTER TABLE tables ADD COLUMN wake_at double precision;
CREATE INDEX tables_by_wake ON tables (wake_at) WHERE wake_at IS NOT NULL;
"""
# 8: the e-mail addresses of accounts and the index of seats by account
# (accounts_sql.seats_schema; docs/accounts.md, "E-mail").
_SCHEMA_8: Final = seats_schema('text COLLATE "C"', "double precision", "")

_MIGRATIONS: Final[dict[int, str]] = {1: _SCHEMA_1, 2: accounts_schema('text COLLATE "C"', "double precision", ""),
                                      3: _SCHEMA_3, 4: _SCHEMA_4, 5: _SCHEMA_5, 6: _SCHEMA_6, 7: _SCHEMA_7,
                                      8: _SCHEMA_8}

_CREATE: Final = (
    "INSERT INTO tables (id, created_at, status, meta, updated_at, owner, epoch) "
    "VALUES (%s, %s, %s, %b, %s, %s, 1)"
)
_UPDATE: Final = "SELECT update_table(%s, %s, %s, %b, %s)"
_RECORD: Final = "SELECT save_record(%s, %s, %b)"
_TOURNAMENT: Final = (
    "INSERT INTO tournaments (id, created_at, updated_at, body, owner) VALUES (%s, %s, %s, %b, %s) "
    "ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, body = excluded.body"
)
_TOURNAMENT_TABLE: Final = (
    "INSERT INTO tournament_tables (table_id, tournament_id, withheld) VALUES (%s, %s, %s) "
    "ON CONFLICT (table_id) DO UPDATE SET withheld = excluded.withheld"
)
# A tournament nobody directs: no owner, or one without a live lease.
_ORPHAN_TOURNAMENT: Final = (
    "NOT EXISTS (SELECT 1 FROM nodes n WHERE n.name = u.owner AND n.lease_until > now())"
)
_ROUND: Final = (
    "INSERT INTO tournament_rounds (tournament_id, number, body) VALUES (%s, %s, %b) "
    "ON CONFLICT (tournament_id, number) DO UPDATE SET body = excluded.body"
)
_HEARTBEAT: Final = "INSERT INTO heartbeat (id, at) VALUES (1, %s) ON CONFLICT (id) DO UPDATE SET at = excluded.at"
_APPEND: Final = "SELECT append_logs(%b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b)"
_CLAIM: Final = "UPDATE tables SET epoch = epoch + 1, owner = %s WHERE id = ANY(%s) RETURNING id, epoch"
_TABLE_COLUMNS: Final = "id, created_at, status, meta, updated_at"

# A claim on a many-process site: only a table whose owner released it (no
# owner) or holds no live lease moves, and a tournament's table only to the
# process directing the tournament; the row lock taken by the UPDATE makes
# two claimants queue, and the second finds the lease of the first.
_LEASED_CLAIM: Final = """
WITH prev AS (SELECT t.id, n.alive_at FROM tables t LEFT JOIN nodes n ON n.name = t.owner WHERE t.id = %(id)s)
UPDATE tables AS t SET epoch = t.epoch + 1, owner = %(me)s, wake_at = NULL FROM prev
WHERE t.id = prev.id AND t.epoch = %(epoch)s AND t.status = ANY(%(statuses)s) AND t.owner <> %(me)s
  AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.name = t.owner AND n.lease_until > now())
  AND NOT EXISTS (SELECT 1 FROM tournament_tables tt JOIN tournaments u ON u.id = tt.tournament_id
                  WHERE tt.table_id = t.id AND u.owner <> %(me)s)
RETURNING t.epoch, prev.alive_at
"""
_RENEW: Final = """
INSERT INTO nodes (name, url, lease_until, alive_at, draining, versions)
VALUES (%(me)s, %(url)s, now() + make_interval(secs => %(lease)s), %(alive)s, %(draining)s, %(versions)s)
ON CONFLICT (name) DO UPDATE SET url = excluded.url, lease_until = excluded.lease_until,
    alive_at = excluded.alive_at, draining = excluded.draining, versions = excluded.versions
"""

_SCHEMA_NAME: Final = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def is_postgres_url(spec: str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL: a PostgreSQL store."""
    return spec.startswith(("postgresql://", "postgres://"))


def split_schema(url: str) -> tuple[str, str]:
    """Take our own ``schema=NAME`` parameter out of a PostgreSQL URL (libpq
    refuses parameters it does not know): ``(url for libpq, schema)``. The
    rest of the URL is kept as written (``postgresql:///db`` included)."""
    head, _, query = url.partition("?")
    pairs = parse_qsl(query, keep_blank_values=True)
    schemas = [value for key, value in pairs if key == "schema"]
    rest = urlencode([(key, value) for key, value in pairs if key != "schema"])
    return (f"{head}?{rest}" if rest else head), (schemas[-1] if schemas else DEFAULT_SCHEMA)


def _site_lock_key(schema: str) -> int:
    """The advisory lock of a site: 64 bits of a hash of its schema's name,
    the same in every process (Python's hash() is salted per process)."""
    digest = hashlib.blake2b(f"oriente site {schema}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@dataclass(slots=True)
class _Op:
    """One write request as the writer thread sees it. ``table`` is None
    for the heartbeat; ``args`` holds the request's own values."""

    kind: str  # "create", "update", "append", "record", "heartbeat", "sql" (the accounts' statements) or "tournament"
    table: str | None
    args: tuple[Any, ...] = ()
    # For appends: the log rows (pos, kind, seq, body) and the clock.
    rows: list[tuple[int, str, int | None, bytes]] = field(default_factory=list)


_PgWrite = Write[psycopg.Connection[Any]]


class PostgresStore(AccountsSQL, BatchingStore[psycopg.Connection[Any]]):
    """The durable store on PostgreSQL; run it in a nursery with ``await
    nursery.start(store.run)``. ``url`` is a libpq connection string or
    ``postgresql://`` URL (``?schema=NAME`` picks the site's schema).

    Writes return once committed, as for `SQLiteStore`; a caller cancelled
    while waiting does not withdraw its write: it may still commit."""

    def __init__(self, url: str, *, schema: str | None = None, lock_wait: float = 2.0,
                 cluster: bool = False) -> None:
        conninfo, url_schema = split_schema(url) if is_postgres_url(url) else (url, DEFAULT_SCHEMA)
        self.schema = schema or url_schema
        if not _SCHEMA_NAME.fullmatch(self.schema):
            raise ValueError(f"a site's schema name is lower-case letters, digits and _, not {self.schema!r}")
        super().__init__(f"{_redact(conninfo)} schema {self.schema}")
        self._conninfo = conninfo
        # How long `run` waits for the site's lock before StoreLocked: the
        # lock of a server that just died is freed only once the database
        # has noticed (its backend reads the closed socket, within moments).
        self._lock_wait = lock_wait
        # Who this store is, in the owner column: enough for an operator to
        # find the process; unique across restarts of the same process id.
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        # The epoch this store claimed each table with (the writer thread's own).
        self._epochs: dict[str, int] = {}
        # One of many processes of a site: the site's lock is shared, and a
        # table is written only after an explicit `claim` (see `claim`).
        self.cluster = cluster

    # -- hooks of BatchingStore ------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(self._conninfo, autocommit=True, application_name="oriente")
        try:
            conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(self.schema)))
        except BaseException:
            conn.close()
            raise
        return conn

    def _open(self) -> tuple[psycopg.Connection[Any], psycopg.Connection[Any]]:
        try:
            write = self._connect()
        except psycopg.Error as exc:
            raise StoreError(f"cannot open store {self._place}: {_one_line(exc)}") from exc
        try:
            if not self._take_site_lock(write):
                raise StoreLocked(
                    f"the store {self._place} is in use by another server (it holds the site's lock); "
                    "stop that server first, or give this one another schema (?schema=NAME)")
            self._migrate(write)
            read = self._connect()
            read.execute("SET default_transaction_read_only = on")
        except psycopg.Error as exc:
            write.close()
            raise StoreError(f"cannot open store {self._place}: {_one_line(exc)}") from exc
        except BaseException:
            write.close()  # closing the session releases the advisory lock
            raise
        return write, read

    def _take_site_lock(self, conn: psycopg.Connection[Any]) -> bool:
        deadline = time.monotonic() + self._lock_wait
        while True:
            # The processes of a many-process site share the lock (their leases
            # order them); a one-process server holds it alone, so the two
            # kinds never run on one site at once.
            take = "pg_try_advisory_lock_shared" if self.cluster else "pg_try_advisory_lock"
            row = conn.execute(f"SELECT {take}(%s)", (_site_lock_key(self.schema),)).fetchone()
            if row and row[0]:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)  # in the worker thread: trio's thread is not held

    def _migrate(self, conn: psycopg.Connection[Any]) -> None:
        """Create the schema or bring it up to date, in one transaction
        (DDL is transactional in PostgreSQL), under the site's lock."""
        with conn.transaction():
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                         "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
            row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
            version = row[0] if row and row[0] is not None else 0
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self._place} has schema version {version}, newer than this server's "
                    f"{SCHEMA_VERSION}; upgrade the server instead of downgrading the database")
            for step in range(version + 1, SCHEMA_VERSION + 1):
                conn.execute(_MIGRATIONS[step])
                conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (step,))

    def _close_connection(self, conn: psycopg.Connection[Any]) -> None:
        conn.close()

    def _close_write(self) -> None:
        # Release the site's lock before closing: the database drops a closed
        # session's locks only once its backend has exited, a moment later,
        # and a server restarted at once must find the site free.
        conn = self._write_conn
        if conn is not None and not conn.closed:
            with contextlib.suppress(psycopg.Error):
                conn.execute("SELECT pg_advisory_unlock_all()")
        super()._close_write()

    def _to_store_error(self, exc: BaseException, what: str) -> BaseException:
        if isinstance(exc, psycopg.Error):
            return StoreError(f"{what}: {_one_line(exc)}")
        return exc

    # -- the writer's thread -------------------------------------------------

    def _apply_batch(self, batch: list[_PgWrite]) -> None:
        """Commit the batch in one transaction and one round trip; if the
        database refuses anything in it, replay it request by request."""
        conn = self._write_conn
        assert conn is not None
        ops = [_op(write) for write in batch]
        try:
            self._claim(conn, ops)
        except psycopg.Error as exc:
            self._fail_all(batch, exc)
            return
        merged = self._merge_appends(ops)
        if merged is not None:
            created = {op.table: 1 for op in ops if op.kind == "create" and op.table is not None}
            try:
                with conn.pipeline(), conn.transaction():
                    cur = conn.cursor()
                    for op in ops:
                        if op.kind != "append":
                            self._execute(cur, op, self._epoch_for(op, created))
                    if merged[0]:
                        cur.execute(_APPEND, merged)
                    for op in ops:
                        if op.kind == "append":
                            self._seats(cur, op)
            except psycopg.Error:
                if conn.closed:
                    self._fail_all(batch, psycopg.OperationalError("the connection to the database was lost"))
                    return
            else:
                self._epochs.update(created)
                return
        self._apply_isolated(conn, batch, ops)

    def _claim(self, conn: psycopg.Connection[Any], ops: list[_Op]) -> None:
        """Claim the tables this batch writes that this store holds no epoch
        for (those it did not create: recovered ones). Safe while the store
        holds the site's lock; a lease will guard it once many processes
        share a site (see the contract)."""
        if self.cluster:
            return  # tables are claimed explicitly, under a lease (`claim`)
        created = {op.table for op in ops if op.kind == "create"}
        wanted = sorted({op.table for op in ops if op.table is not None and op.kind != "create"
                         and op.table not in self._epochs and op.table not in created})
        if not wanted:
            return
        for table_id, epoch in conn.execute(_CLAIM, (self.owner, wanted)).fetchall():
            self._epochs[table_id] = epoch

    def _epoch_for(self, op: _Op, created: dict[str, int]) -> int | None:
        if op.table is None:
            return None
        return created.get(op.table, self._epochs.get(op.table))

    def _merge_appends(self, ops: list[_Op]) -> tuple[list[Any], ...] | None:
        """The arguments of one append_logs call for every append of the
        batch, or None when two appends to one table do not follow each other
        (then only the request-by-request replay can say which one fails).
        Creations in the batch come first, so their epoch is 1. A clock
        saved without records checks no position (NULL)."""
        created = {op.table: 1 for op in ops if op.kind == "create" and op.table is not None}
        entries: dict[str, list[Any]] = {}  # table -> [epoch, first, next, clock_at, clock]
        log: tuple[list[Any], ...] = ([], [], [], [], [])
        for op in ops:
            if op.kind != "append":
                continue
            assert op.table is not None
            now, clock, _ = op.args
            entry = entries.get(op.table)
            if entry is None:
                entry = entries[op.table] = [self._epoch_for(op, created), None, None, None, None]
            if op.rows:
                if entry[1] is None:
                    entry[1] = op.rows[0][0]
                elif op.rows[0][0] != entry[2]:
                    return None
                entry[2] = op.rows[-1][0] + 1
                for pos, kind, seq, body in op.rows:
                    log[0].append(op.table)
                    log[1].append(pos)
                    log[2].append(kind)
                    log[3].append(seq)
                    log[4].append(body)
            if clock is not None:
                entry[3], entry[4] = now, clock
        columns: tuple[list[Any], ...] = ([], [], [], [], [], [])
        for table_id, (epoch, first, nxt, clock_at, clock) in entries.items():
            for column, value in zip(columns, (table_id, epoch, first, nxt, clock_at, clock), strict=True):
                column.append(value)
        return columns + log

    def _apply_isolated(self, conn: psycopg.Connection[Any], batch: list[_PgWrite], ops: list[_Op]) -> None:
        """Replay the batch in order with a savepoint per request, so the
        refused requests are rolled back alone and the rest still commit."""
        created: dict[str, int] = {}
        try:
            with conn.transaction():
                cur = conn.cursor()
                for write, op in zip(batch, ops, strict=True):
                    try:
                        with conn.transaction():
                            self._execute(cur, op, self._epoch_for(op, created))
                    except psycopg.Error as exc:
                        write.error = _refusal(exc, op)
                        if conn.closed:
                            raise
                    else:
                        if op.kind == "create" and op.table is not None:
                            created[op.table] = 1
        except psycopg.Error as exc:
            # The transaction itself broke (the connection, the server): nothing
            # in the batch is committed, and every caller must hear it.
            for write in batch:
                write.error = None
            self._fail_all(batch, exc)
            return
        self._epochs.update(created)

    def _execute(self, cur: psycopg.Cursor[Any], op: _Op, epoch: int | None) -> None:
        """Send one request (an append as an append_logs call of its own)."""
        match op.kind:
            case "create":
                cur.execute(_CREATE, (op.table, *op.args, self.owner))
            case "update":
                status, meta, now = op.args
                cur.execute(_UPDATE, (op.table, epoch, status, meta, now))
            case "record":
                cur.execute(_RECORD, (op.table, epoch, op.args[0]))
            case "heartbeat":
                cur.execute(_HEARTBEAT, op.args)
            case "tournament":
                now, body, tournament_id, rounds, tables = op.args
                if self.cluster:
                    cur.execute("SELECT check_tournament_owner(%s, %s)", (tournament_id, self.owner))
                if body is not None:
                    cur.execute(_TOURNAMENT, (tournament_id, now, now, body, self.owner if self.cluster else ""))
                for number, blob in rounds:
                    cur.execute(_ROUND, (tournament_id, number, blob))
                for table_id, held in tables:
                    cur.execute(_TOURNAMENT_TABLE, (table_id, tournament_id, held))
            case "sql":
                self._statements(cur, op.args[0])
            case "append":
                now, clock, _ = op.args
                first, nxt = (op.rows[0][0], op.rows[-1][0] + 1) if op.rows else (None, None)
                cur.execute(_APPEND, (
                    [op.table], [epoch], [first], [nxt], [now if clock is not None else None], [clock],
                    [op.table] * len(op.rows), [r[0] for r in op.rows], [r[1] for r in op.rows],
                    [r[2] for r in op.rows], [r[3] for r in op.rows]))
                self._seats(cur, op)
            case other:
                raise AssertionError(f"unknown write {other!r}")

    @classmethod
    def _seats(cls, cur: psycopg.Cursor[Any], op: _Op) -> None:
        """An append's rows in the index of seats by account, if it carries them."""
        cls._statements(cur, op.args[2] or [])

    @staticmethod
    def _statements(cur: psycopg.Cursor[Any], statements: list[Statement]) -> None:
        for statement, params in statements:
            if isinstance(params, list):
                cur.executemany(statement, params)
            else:
                cur.execute(statement, params)

    @staticmethod
    def _fail_all(batch: list[_PgWrite], exc: Exception) -> None:
        for write in batch:
            if write.error is None:
                write.error = exc

    # -- writes --------------------------------------------------------------

    async def _write(self, op: _Op, what: str) -> None:
        await self._submit(_no_direct_apply, len(op.rows), what, op)

    async def create_table(self, table_id: str, status: str, meta: bytes, now: float) -> None:
        """Record a new table, claimed by this store at epoch 1; an id that
        already exists is refused."""
        check_status(status)
        check_bytes("meta", meta)
        await self._write(_Op("create", table_id, (now, status, meta, now)), f"create table {table_id!r}")

    async def update_table(self, table_id: str, *, status: str | None = None, meta: bytes | None = None,
                           now: float) -> None:
        """Change a table's status and/or meta; refused if unknown or fenced."""
        if status is not None:
            check_status(status)
        if meta is not None:
            check_bytes("meta", meta)
        await self._write(_Op("update", table_id, (status, meta, now)), f"update table {table_id!r}")

    async def append(self, table_id: str, records: Sequence[LogRecord], *, clock: bytes | None = None,
                     now: float, seats: Sequence[SeatRow] | None = None) -> None:
        """Append to a table's log and save its clock (and its rows in the
        index of seats by account) in one commit; the database checks the
        position and the epoch (guarantees 1 and 6)."""
        records = tuple(records)
        for index, record in enumerate(records):
            if not isinstance(record, LogRecord):
                raise TypeError(f"records[{index}] is {type(record).__name__}, not LogRecord")
            check_bytes(f"records[{index}].body", record.body)
            if index and record.pos != records[index - 1].pos + 1:
                raise StoreError(f"append to {table_id!r}: positions must be consecutive, "
                                 f"got {records[index - 1].pos} then {record.pos}")
        if clock is not None:
            check_bytes("clock", clock)
        seated = None if seats is None else seat_statements(table_id, seats)
        op = _Op("append", table_id, (now, clock, seated), [(r.pos, r.kind, r.seq, r.body) for r in records])
        await self._write(op, f"append to {table_id!r}")

    async def save_record(self, table_id: str, body: bytes) -> None:
        """Store the ended game's record (saving again replaces it)."""
        check_bytes("body", body)
        await self._write(_Op("record", table_id, (body,)), f"save record of {table_id!r}")

    async def heartbeat(self, now: float) -> None:
        """Note that the server is alive at wall time ``now``."""
        await self._write(_Op("heartbeat", None, (now,)), "heartbeat")

    async def save_tournament(self, tournament_id: str, body: bytes | None, *, now: float,
                              rounds: Mapping[int, bytes] | None = None,
                              tables: Mapping[str, bool] | None = None) -> None:
        """Store a tournament's head and/or some of its rounds and tables, in
        one commit. On a many-process site only the tournament's owner may
        (StoreFenced otherwise); the first save makes this process its owner."""
        if body is not None:
            check_bytes("body", body)
        items = sorted((rounds or {}).items())
        for number, blob in items:
            check_bytes(f"rounds[{number}]", blob)
        held = sorted((t, bool(h)) for t, h in (tables or {}).items())
        await self._write(_Op("tournament", None, (now, body, tournament_id, items, held)),
                          f"save tournament {tournament_id!r}")

    async def tournament(self, tournament_id: str) -> tuple[bytes, list[bytes]] | None:
        def query(conn: psycopg.Connection[Any]) -> tuple[bytes, list[bytes]] | None:
            with conn.cursor(binary=True) as cur:
                row = cur.execute("SELECT body FROM tournaments WHERE id = %s", (tournament_id,)).fetchone()
                if row is None:
                    return None
                rounds = cur.execute("SELECT body FROM tournament_rounds WHERE tournament_id = %s ORDER BY number",
                                     (tournament_id,)).fetchall()
            return row[0], [r[0] for r in rounds]

        return await self._read(query)

    async def tournaments(self) -> list[tuple[str, bytes, list[bytes]]]:
        def query(conn: psycopg.Connection[Any]) -> list[tuple[str, bytes, list[bytes]]]:
            with conn.cursor(binary=True) as cur:
                heads = cur.execute("SELECT id, body FROM tournaments ORDER BY created_at, id").fetchall()
                rounds: dict[str, list[bytes]] = {}
                for tid, body in cur.execute("SELECT tournament_id, body FROM tournament_rounds "
                                             "ORDER BY tournament_id, number").fetchall():
                    rounds.setdefault(tid, []).append(body)
            return [(h[0], h[1], rounds.get(h[0], [])) for h in heads]

        return await self._read(query)

    async def withheld(self, table_id: str) -> bool:
        def query(conn: psycopg.Connection[Any]) -> bool:
            row = conn.execute("SELECT withheld FROM tournament_tables WHERE table_id = %s", (table_id,)).fetchone()
            return bool(row and row[0])

        return await self._read(query)

    async def _sql_write(self, statements: list[Statement], what: str) -> None:
        """The accounts' writes (accounts_sql), in the batch like any other."""
        await self._write(_Op("sql", None, (statements, what)), what)

    async def _sql_read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        def query(conn: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
            return conn.execute(sql, params).fetchall()

        return await self._read(query)

    # -- a many-process site: leases and claims ---------------------------------

    async def _on_writer(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(conn, *args)`` on the write connection between batches
        (the writer's thread orders it with them); psycopg errors become
        StoreError."""
        if self._state != "running":
            raise StoreError(f"the store {self._place} is not running")

        def call() -> Any:
            conn = self._write_conn
            assert conn is not None
            return fn(conn, *args)

        try:
            return await self._on_write_connection(lambda conn: call())
        except psycopg.Error as exc:
            raise StoreError(f"{getattr(fn, '__name__', 'lease')}: {_one_line(exc)}") from exc

    async def renew_lease(self, *, url: str, lease_s: float, alive_at: float, draining: bool = False,
                          versions: str = "") -> None:
        """Note that this process lives and holds its tables for ``lease_s``
        more seconds of the database's time; ``url`` is where clients reach
        it, ``versions`` the rules it plays (``game=revision,...``)."""
        def renew(conn: psycopg.Connection[Any]) -> None:
            conn.execute(_RENEW, {"me": self.owner, "url": url, "lease": lease_s, "alive": alive_at,
                                  "draining": draining, "versions": versions})

        await self._on_writer(renew)

    async def end_lease(self) -> None:
        """Give up this process's lease at once: its tables may be claimed
        by the others now instead of when the lease would have ended."""
        def end(conn: psycopg.Connection[Any]) -> None:
            conn.execute("DELETE FROM nodes WHERE name = %s", (self.owner,))

        await self._on_writer(end)

    async def claim(self, table_id: str, statuses: Collection[str] = ("open", "running")) -> float | None:
        """Become the owner of an open or running table whose owner has no
        live lease (it died, was paused past its lease, or released it):
        raise its epoch, so that every later write of the old owner is
        refused, and write under the new one. Returns the wall time its old
        owner was last known alive (0.0 if unknown), or None if the table
        is not claimable (unknown, ended, or owned under a live lease)."""
        def claim(conn: psycopg.Connection[Any]) -> float | None:
            # Compare and set on the epoch read first: two claimants that
            # queue on the row lock re-check the row's own columns, and the
            # second finds the epoch moved (the lease's anti-join alone is
            # not re-read for the new owner).
            epoch = conn.execute("SELECT epoch FROM tables WHERE id = %s", (table_id,)).fetchone()
            if epoch is None:
                return None
            row = conn.execute(_LEASED_CLAIM, {"id": table_id, "me": self.owner, "epoch": epoch[0],
                                               "statuses": list(statuses)}).fetchone()
            if row is None:
                return None
            self._epochs[table_id] = row[0]
            return float(row[1]) if row[1] is not None else 0.0

        result: float | None = await self._on_writer(claim)
        return result

    async def release(self, table_id: str) -> None:
        """Hand a table on: name no owner, so that another process may claim
        it at once (the caller has stopped writing to it). Only the current
        owner's release counts."""
        def release(conn: psycopg.Connection[Any]) -> None:
            epoch = self._epochs.pop(table_id, None)
            conn.execute("UPDATE tables SET owner = '' WHERE id = %s AND epoch = %s AND owner = %s",
                         (table_id, epoch, self.owner))

        await self._on_writer(release)

    def holds(self, table_id: str) -> bool:
        """Whether this store has claimed (or created) the table."""
        return table_id in self._epochs

    async def owner_of(self, table_id: str) -> tuple[str, str, str, bool] | None:
        """``(status, owner, owner's url, lease live)`` of a table, or None."""
        def query(conn: psycopg.Connection[Any]) -> tuple[str, str, str, bool] | None:
            row = conn.execute(
                "SELECT t.status, t.owner, coalesce(n.url, ''), coalesce(n.lease_until > now(), false) "
                "FROM tables t LEFT JOIN nodes n ON n.name = t.owner WHERE t.id = %s", (table_id,)).fetchone()
            return None if row is None else (row[0], row[1], row[2], bool(row[3]))

        return await self._read(query)

    async def orphans(self) -> list[str]:
        """Open and running tables whose owner holds no live lease, but for
        a tournament's tables: those go to the process directing their
        tournament only (it starts them and hears their end), so they are
        this process's orphans only when it directs that tournament."""
        def query(conn: psycopg.Connection[Any]) -> list[str]:
            return [row[0] for row in conn.execute(
                "SELECT t.id FROM tables t WHERE t.status IN ('open', 'running') AND t.wake_at IS NULL AND NOT EXISTS "
                "(SELECT 1 FROM nodes n WHERE n.name = t.owner AND n.lease_until > now()) "
                "AND NOT EXISTS (SELECT 1 FROM tournament_tables tt JOIN tournaments u ON u.id = tt.tournament_id "
                "WHERE tt.table_id = t.id AND u.owner <> %s) "
                "ORDER BY t.created_at, t.id", (self.owner,))]

        return await self._read(query)

    # -- a many-process site: the site's key, its tournaments, its creators --------

    async def site_key(self, name: str, make: Any) -> bytes:
        """The site's secret `name`: made by ``make()`` and stored by the
        first process that asks, read by every later one (one row, so
        processes starting together agree)."""
        def get(conn: psycopg.Connection[Any]) -> bytes:
            conn.execute("INSERT INTO site_keys (name, key) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING",
                         (name, make()))
            row = conn.execute("SELECT key FROM site_keys WHERE name = %s", (name,)).fetchone()
            assert row is not None
            return bytes(row[0])

        result: bytes = await self._on_writer(get)
        return result

    async def claim_tournament(self, tournament_id: str) -> bool:
        """Become the process directing a tournament nobody directs (its
        owner released it or holds no live lease); False if another does."""
        def claim(conn: psycopg.Connection[Any]) -> bool:
            row = conn.execute(
                f"UPDATE tournaments u SET owner = %s WHERE u.id = %s AND (u.owner = %s OR {_ORPHAN_TOURNAMENT}) "
                "RETURNING u.id", (self.owner, tournament_id, self.owner)).fetchone()
            return row is not None

        result: bool = await self._on_writer(claim)
        return result

    async def release_tournament(self, tournament_id: str) -> None:
        """Stop directing a tournament: another process may claim it at once."""
        def release(conn: psycopg.Connection[Any]) -> None:
            conn.execute("UPDATE tournaments SET owner = '' WHERE id = %s AND owner = %s",
                         (tournament_id, self.owner))

        await self._on_writer(release)

    async def orphan_tournaments(self) -> list[str]:
        """Tournaments nobody directs, oldest first."""
        def query(conn: psycopg.Connection[Any]) -> list[str]:
            return [row[0] for row in conn.execute(
                f"SELECT u.id FROM tournaments u WHERE {_ORPHAN_TOURNAMENT} ORDER BY u.created_at, u.id")]

        return await self._read(query)

    async def tournaments_directed(self) -> set[str]:
        """The tournaments this process is the owner of now."""
        def query(conn: psycopg.Connection[Any]) -> set[str]:
            return {row[0] for row in conn.execute("SELECT id FROM tournaments WHERE owner = %s", (self.owner,))}

        return await self._read(query)

    async def tournament_owner(self, tournament_id: str) -> tuple[str, bool] | None:
        """``(owner, lease live)`` of a tournament, or None if there is none."""
        def query(conn: psycopg.Connection[Any]) -> tuple[str, bool] | None:
            row = conn.execute(
                "SELECT u.owner, coalesce(n.lease_until > now(), false) FROM tournaments u "
                "LEFT JOIN nodes n ON n.name = u.owner WHERE u.id = %s", (tournament_id,)).fetchone()
            return None if row is None else (row[0], bool(row[1]))

        return await self._read(query)

    async def note_creator(self, table_id: str, address: str) -> None:
        """Remember the client address that created a table (T6.2)."""
        def note(conn: psycopg.Connection[Any]) -> None:
            conn.execute("INSERT INTO table_creators (table_id, address) VALUES (%s, %s) "
                         "ON CONFLICT (table_id) DO NOTHING", (table_id, address))

        await self._on_writer(note)

    async def open_tables_created_by(self, address: str) -> int:
        """How many open tables of the whole site `address` created."""
        def query(conn: psycopg.Connection[Any]) -> int:
            row = conn.execute("SELECT count(*) FROM table_creators c JOIN tables t ON t.id = c.table_id "
                               "WHERE c.address = %s AND t.status = 'open'", (address,)).fetchone()
            return int(row[0]) if row else 0

        return await self._read(query)

    async def nodes(self) -> list[tuple[str, str, bool, str]]:
        """The processes with a live lease: ``(name, url, draining, versions)``."""
        def query(conn: psycopg.Connection[Any]) -> list[tuple[str, str, bool, str]]:
            return [tuple(row) for row in conn.execute(
                "SELECT name, url, draining, versions FROM nodes WHERE lease_until > now() ORDER BY name")]

        return await self._read(query)

    # -- reads ---------------------------------------------------------------

    async def tables(self, statuses: Collection[str] | None = None, *, asleep: bool | None = None) -> list[TableRow]:
        """Tables, oldest first, optionally only those in the given statuses,
        only sleeping or only awake ones."""
        wanted: list[str] | None = None
        if statuses is not None:
            wanted = list(statuses)
            for status in wanted:
                check_status(status)
            if not wanted:
                return []
        where = ["(%(statuses)s::text[] IS NULL OR status = ANY(%(statuses)s))"]
        if asleep is not None:
            where.append(f"wake_at IS {'NOT ' if asleep else ''}NULL")

        def query(conn: psycopg.Connection[Any]) -> list[TableRow]:
            with conn.cursor(binary=True) as cur:
                cur.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {' AND '.join(where)} "
                            "ORDER BY created_at, id", {"statuses": wanted})
                return [TableRow(*row) for row in cur]

        return await self._read(query)

    # -- sleeping tables (docs/table.md T8.5, T8.7) ---------------------------------

    async def sleep(self, table_id: str, wake_at: float) -> None:
        """Index the table's wake-up and name no owner, under the epoch this
        store holds it with (StoreFenced if another claimed it since): a
        sleeping table belongs to no process, and a wake-up claims it."""
        def sleep(conn: psycopg.Connection[Any]) -> None:
            epoch = self._epochs.get(table_id)
            if epoch is None and self.cluster:  # a process of a site writes only what it claimed
                raise StoreFenced(f"sleep of {table_id!r} refused: this server does not hold the table")
            row = conn.execute("UPDATE tables SET wake_at = %s, owner = '' WHERE id = %s "
                               "AND (%s::bigint IS NULL OR epoch = %s) RETURNING id",
                               (wake_at, table_id, epoch, epoch)).fetchone()
            if row is None:
                known = conn.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,)).fetchone()
                if known is None:
                    raise StoreError(f"sleep of unknown table {table_id!r}")
                raise StoreFenced(f"sleep of {table_id!r} refused: another server claimed the table")
            self._epochs.pop(table_id, None)

        await self._on_writer(sleep)

    async def wake(self, table_id: str) -> bool:
        """A lone server's wake-up (a many-process site's is `claim`)."""
        def wake(conn: psycopg.Connection[Any]) -> bool:
            return conn.execute("UPDATE tables SET wake_at = NULL WHERE id = %s AND wake_at IS NOT NULL "
                                "RETURNING id", (table_id,)).fetchone() is not None

        result: bool = await self._on_writer(wake)
        return result

    async def due(self, now: float, limit: int) -> list[str]:
        def query(conn: psycopg.Connection[Any]) -> list[str]:
            return [row[0] for row in conn.execute(
                "SELECT id FROM tables WHERE wake_at <= %s ORDER BY wake_at, id LIMIT %s", (now, limit))]

        return await self._read(query)

    async def next_wake(self) -> float | None:
        def query(conn: psycopg.Connection[Any]) -> float | None:
            row = conn.execute("SELECT min(wake_at) FROM tables WHERE wake_at IS NOT NULL").fetchone()
            return None if row is None or row[0] is None else float(row[0])

        return await self._read(query)

    async def sleeping(self) -> int:
        def query(conn: psycopg.Connection[Any]) -> int:
            row = conn.execute("SELECT count(*) FROM tables WHERE wake_at IS NOT NULL").fetchone()
            return int(row[0]) if row else 0

        return await self._read(query)

    async def table(self, table_id: str) -> TableRow | None:
        def query(conn: psycopg.Connection[Any]) -> TableRow | None:
            with conn.cursor(binary=True) as cur:
                row = cur.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = %s", (table_id,)).fetchone()
            return None if row is None else TableRow(*row)

        return await self._read(query)

    async def log(self, table_id: str, *, after_pos: int = -1) -> list[LogRecord]:
        def query(conn: psycopg.Connection[Any]) -> list[LogRecord]:
            with conn.cursor(binary=True) as cur:
                cur.execute("SELECT pos, kind, seq, body FROM log WHERE table_id = %s AND pos > %s ORDER BY pos",
                            (table_id, after_pos))
                return [LogRecord(*row) for row in cur]

        return await self._read(query)

    async def clock(self, table_id: str) -> tuple[float, bytes] | None:
        def query(conn: psycopg.Connection[Any]) -> tuple[float, bytes] | None:
            with conn.cursor(binary=True) as cur:
                row = cur.execute("SELECT clock_at, clock FROM tables WHERE id = %s", (table_id,)).fetchone()
            return None if row is None or row[1] is None else (row[0], row[1])

        return await self._read(query)

    async def log_and_clock(self, table_id: str) -> tuple[list[LogRecord], tuple[float, bytes] | None]:
        def query(conn: psycopg.Connection[Any]) -> tuple[list[LogRecord], tuple[float, bytes] | None]:
            with conn.cursor(binary=True) as cur:
                cur.execute("SELECT pos, kind, seq, body FROM log WHERE table_id = %s ORDER BY pos", (table_id,))
                records = [LogRecord(*row) for row in cur]
                row = cur.execute("SELECT clock_at, clock FROM tables WHERE id = %s", (table_id,)).fetchone()
            return records, None if row is None or row[1] is None else (row[0], row[1])

        return await self._read(query)

    async def table_log_and_clock(self, table_id: str) -> tuple[TableRow | None, list[LogRecord],
                                                                  tuple[float, bytes] | None]:
        def query(conn: psycopg.Connection[Any]) -> tuple[TableRow | None, list[LogRecord],
                                                          tuple[float, bytes] | None]:
            with conn.cursor(binary=True) as cur:
                found = cur.execute(f"SELECT {_TABLE_COLUMNS}, clock_at, clock FROM tables WHERE id = %s",
                                    (table_id,)).fetchone()
                if found is None:
                    return None, [], None
                cur.execute("SELECT pos, kind, seq, body FROM log WHERE table_id = %s ORDER BY pos", (table_id,))
                records = [LogRecord(*row) for row in cur]
            *columns, clock_at, clock = found
            return TableRow(*columns), records, None if clock is None else (clock_at, clock)

        return await self._read(query)

    async def record(self, table_id: str) -> bytes | None:
        def query(conn: psycopg.Connection[Any]) -> bytes | None:
            with conn.cursor(binary=True) as cur:
                row = cur.execute("SELECT body FROM records WHERE table_id = %s", (table_id,)).fetchone()
            return None if row is None else row[0]

        return await self._read(query)

    async def last_heartbeat(self) -> float | None:
        def query(conn: psycopg.Connection[Any]) -> float | None:
            row = conn.execute("SELECT at FROM heartbeat WHERE id = 1").fetchone()
            return None if row is None else row[0]

        return await self._read(query)


def _op(write: _PgWrite) -> _Op:
    assert isinstance(write.payload, _Op)
    return write.payload


def _no_direct_apply(conn: psycopg.Connection[Any]) -> None:
    raise AssertionError("PostgreSQL writes are applied by the writer from their _Op")


def _refusal(exc: psycopg.Error, op: _Op) -> StoreError:
    """The contract's exception for a request the database refused."""
    message = exc.diag.message_primary or str(exc)
    match exc.sqlstate:
        case "OR003":
            return StoreFenced(message)
        case "OR001" | "OR002":
            return StoreError(message)
    if isinstance(exc, errors.UniqueViolation) and op.kind == "sql":
        return StoreConflict(op.args[1])
    if isinstance(exc, errors.UniqueViolation) and op.kind == "create":
        return StoreError(f"table {op.table!r} already exists")
    return StoreError(f"{op.kind} {op.table!r}: {_one_line(exc)}")


def _one_line(exc: BaseException) -> str:
    """libpq's messages run over several lines; a log line or a refusal wants one."""
    return " ".join(str(exc).split())


def _redact(conninfo: str) -> str:
    """The connection string without its password, for messages."""
    try:
        params = psycopg.conninfo.conninfo_to_dict(conninfo)
    except psycopg.Error:
        return "a PostgreSQL database"
    params.pop("password", None)
    return psycopg.conninfo.make_conninfo("", **params)
