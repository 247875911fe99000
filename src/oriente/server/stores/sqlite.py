"""The table server's durable store: SQLite in one file, written in batches.

It keeps the guarantees of `contract.Store` (one event log per table is the
truth; everything a table needs to come back after a restart is its row, its
append-only log, its latest clock and, once ended, its record). The store
keeps those bytes and never interprets them.

How it talks to SQLite, and why:

- Writes are committed on trio's thread, every write of one pass of the
  run loop in one transaction (`batching.BatchingStore`, `_commits_on_trio`):
  in WAL mode with synchronous=NORMAL a commit writes into the operating
  system's cache and flushes nothing, some 100 us, far less than the GIL
  hand-over a writer thread pays under load. What can block for long runs
  on the store's own thread instead, never on trio's: reads, backups, and
  the WAL's checkpoints, which flush the disk. SQLite's automatic
  checkpoint would run inside a COMMIT (13 ms seen under load, more on a
  slow disk), so it is off, and the store queues a passive checkpoint to
  its thread after every CHECKPOINT_COMMITS commits, on a connection of
  its own (below). While the thread holds the writer's connection (a
  read, a backup), writes wait for it on trio's thread
  (`stores/batching.py`).
  The price: a disk that stops taking writes without an error (a hung
  network file system) stops the whole server in a commit, rather than
  only its tables, which would all be waiting for their commits anyway.
  Keep the store on a local disk (docs/deploy.md).
- A request that fails (an unknown table, a gap in a log) must fail only its
  own caller. The batch is first tried as a plain transaction; if anything in
  it raises, it is rolled back and replayed in order with a savepoint around
  each request, which isolates the culprit and still commits the rest in one
  go. Order is preserved either way, so two appends to the same log in one
  batch behave exactly as if they had been committed one after the other.
- WAL mode, through SQLite's `unix-excl` VFS: the process holds an
  exclusive lock on the file for as long as it has it open, and SQLite
  keeps the WAL's index in the process's own memory instead of a
  memory-mapped `-shm` file, shared by the process's connections. A mapped
  file turns an I/O error on it (a file cut short, a disk that went away
  or turned read-only) into SIGBUS, which kills the whole server
  (`mmap_size = 0` does not cover the `-shm`); a read or write returns the
  error instead, and the table pauses (docs/table.md T4.4). The price:
  while the server runs, no other process can open the store, not even to
  read it (`sqlite3` says "database is locked"): back it up through the
  server (`backup`, `oriente backup`) or after a stop (docs/deploy.md).
- Two connections. One commits on trio's thread and reads on the store's
  thread: reads wait for the batch in progress (milliseconds), and never
  see one half done. The other only checkpoints the WAL, on the store's
  thread, while commits go on: a checkpoint on the writer's connection
  held it for 4-8 ms three or four times a second at fifty tables at play,
  and every step that committed meanwhile waited for it, which was most of
  the tail of a command's latency (`bench/server.py`: p99 5.2-5.8 ms
  against 3.3-4.0 without checkpoints). SQLite's exclusive locking mode
  would not allow a second connection; the VFS keeps what it was for.
  The WAL starts over from its beginning only at a commit that finds all
  of it copied, which a checkpoint beside the commits rarely leaves it:
  once it is WAL_RESTART_FRAMES long, a checkpoint catches up holding the
  writer's connection (`SQLiteStore._checkpoint`). Reads stay on the
  writer's connection: a read on a third one held a snapshot that kept the
  catch-up from copying everything, and wakes of sleeping tables were no
  faster for it (`bench/sleep.py --quick`, one pair: wake p99 13.2 ms on
  one connection, 16.6 on two).
- synchronous=NORMAL in WAL mode: a commit survives the process being killed
  (the WAL is in the operating system's hands when COMMIT returns); only a
  power cut can lose the last few commits. That is the trade SQLite
  recommends for WAL and the one a game server can afford.
- A page cache of CACHE_KIB, not SQLite's default 2 MiB: the log is
  append-only and each table's rows are read back whole only when it
  comes back to memory, so few pages are worth keeping; the operating
  system's file cache serves the others. The default cache filled up in
  minutes of play and stayed full, some 40 KiB for each of fifty live
  tables (`bench/memory.py`, `sqlite_cache_kib_per_table`). 512 KiB cost
  nothing measurable either; since commits run on trio's thread the
  cache's pages are allocated among the Python objects of the main heap,
  where they showed as 5-10 KiB more per table at fifty tables at play
  (`bench/server.py`, paced phase). 128 KiB gave about 5 KiB of it back,
  for about 2 % of `bench/store.py`'s throughput.
- One server per file: `run` takes an exclusive flock on ``PATH.lock``
  before opening the database. SQLite's own locks only serialise
  transactions; two servers would both append to the same logs. A lock
  file beside the database, so that this lock never meddles with SQLite's
  own locking of the database file. The kernel releases a flock when its
  holder dies, so a crashed server never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import logging
import os
import sqlite3
import urllib.parse
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final, cast

from .accounts_sql import (
    INSERT_SEAT,
    AccountsSQL,
    Statement,
    credential_additions,
    seat_params,
    seats_schema,
    throttles_schema,
)
from .accounts_sql import schema as accounts_schema
from .batching import BatchingStore, StoreStatistics, Write
from .contract import (
    STATUSES,
    LogRecord,
    SeatRow,
    StoreConflict,
    StoreError,
    StoreLocked,
    TableRow,
    check_bytes,
    check_status,
)

__all__ = ["SQLiteStore", "StoreStatistics"]

log = logging.getLogger("oriente.store")

# 1: the first schema. 2: tables may be 'failed' (a wider CHECK constraint).
# 3: accounts, credentials, ratings and results (new tables only).
# 4: tournaments, each stored whole (a new table only).
# 5: where a session was made and last used (new columns of credentials),
#    and the throttles of sign-ins and sign-ups (a new table).
# Since then, with no new version (a table only, made where missing; an
# older server ignores it): tournament_tables, which tables a tournament
# withholds; sleeping, the turn-based tables out of memory and when each
# wakes (docs/table.md T8.5; an older server recovers them as awake).
# emails and account_seats: the e-mail addresses of accounts and the
# index of seats by account (accounts_sql.seats_schema).
SCHEMA_VERSION: Final = 5

# The log is a rowid table on purpose: rows land at the end of one b-tree in
# commit order, and only the small (table_id, pos) index entries scatter over
# the tables. Clustering the log by table (WITHOUT ROWID) would dirty one
# page per table per batch and measured about a third slower here.
_STATUS_LIST: Final = ", ".join(f"'{status}'" for status in sorted(STATUSES))
_TABLES: Final = f"""
CREATE TABLE IF NOT EXISTS {{name}} (
    id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ({_STATUS_LIST})),
    meta BLOB NOT NULL,
    updated_at REAL NOT NULL
) STRICT
"""
_SCHEMA: Final = _TABLES.format(name="tables") + """;
CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables (id),
    pos INTEGER NOT NULL CHECK (pos >= 0),
    kind TEXT NOT NULL,
    seq INTEGER,
    body BLOB NOT NULL,
    PRIMARY KEY (table_id, pos)
) STRICT;
CREATE TABLE IF NOT EXISTS clocks (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    saved_at REAL NOT NULL,
    body BLOB NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    body BLOB NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at REAL NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    body BLOB NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS tournament_rounds (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    number INTEGER NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (tournament_id, number)
) STRICT;
CREATE TABLE IF NOT EXISTS tournament_tables (
    table_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    withheld INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS sleeping (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    wake_at REAL NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS sleeping_by_wake ON sleeping (wake_at);
""" + accounts_schema("TEXT", "REAL", " STRICT") + ";" + throttles_schema("TEXT", "REAL", " STRICT") + ";" + (
    seats_schema("TEXT", "REAL", " STRICT")) + f""";
PRAGMA user_version = {SCHEMA_VERSION};
"""

_LOG_TAIL: Final = (
    "SELECT (SELECT 1 FROM tables WHERE id = ?), (SELECT MAX(pos) FROM log WHERE table_id = ?)"
)
_INSERT_LOG: Final = "INSERT INTO log (table_id, pos, kind, seq, body) VALUES (?, ?, ?, ?, ?)"
_UPSERT_CLOCK: Final = (
    "INSERT INTO clocks (table_id, saved_at, body) VALUES (?, ?, ?) "
    "ON CONFLICT (table_id) DO UPDATE SET saved_at = excluded.saved_at, body = excluded.body"
)
_UPSERT_RECORD: Final = (
    "INSERT INTO records (table_id, body) VALUES (?, ?) "
    "ON CONFLICT (table_id) DO UPDATE SET body = excluded.body"
)
_UPSERT_HEARTBEAT: Final = (
    "INSERT INTO heartbeat (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at"
)
_TABLE_COLUMNS: Final = "id, created_at, status, meta, updated_at"
_UPSERT_ROUND: Final = (
    "INSERT INTO tournament_rounds (tournament_id, number, body) VALUES (?, ?, ?) "
    "ON CONFLICT (tournament_id, number) DO UPDATE SET body = excluded.body"
)
_UPSERT_TOURNAMENT_TABLE: Final = (
    "INSERT INTO tournament_tables (table_id, tournament_id, withheld) VALUES (?, ?, ?) "
    "ON CONFLICT (table_id) DO UPDATE SET withheld = excluded.withheld"
)
_UPSERT_TOURNAMENT: Final = (
    "INSERT INTO tournaments (id, created_at, updated_at, body) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, body = excluded.body"
)


# For appends: (table_id, log rows, clock row, the parameters of its rows in
# the index of seats by account or None to leave them), so the writer can
# merge every append of a batch into a few multi-row statements.
_Append = tuple[str, list[tuple], tuple | None, list[tuple] | None]
_SQLiteWrite = Write[sqlite3.Connection]


@functools.lru_cache(maxsize=64)
def _multi_insert(head: str, width: int, rows: int, tail: str = "") -> str:
    """One INSERT with `rows` value tuples: a single statement step for many
    rows. Each step the writer thread makes must re-take the GIL from a busy
    trio thread (up to a switch interval each), so steps, not rows, cost."""
    one = "(" + ",".join("?" * width) + ")"
    return head + ",".join([one] * rows) + tail


def _statement_sizes(rows: int) -> list[int]:
    """The row counts of the INSERTs that write `rows` rows: up to
    _EXACT_ROWS - 1 rows in one statement of that size, more in statements
    of 16, 32, ... _ROWS_PER_STATEMENT rows (a power of two each) and one of
    what remains. SQLite's statement cache (the connection keeps its last
    128) holds every compiled statement, about 0.6 KiB a row for the log's:
    a statement for every batch size that came up held megabytes, which grew
    with the load's bursts; a few sizes hold some hundreds of KiB at most,
    for a statement or three more per large batch."""
    sizes = [_ROWS_PER_STATEMENT] * (rows // _ROWS_PER_STATEMENT)
    rest = rows % _ROWS_PER_STATEMENT
    size = _ROWS_PER_STATEMENT // 2
    while size >= _EXACT_ROWS:
        if rest >= size:
            sizes.append(size)
            rest -= size
        size //= 2
    if rest:
        sizes.append(rest)
    return sizes


def _insert_rows(conn: sqlite3.Connection, head: str, width: int, rows: list[tuple], tail: str = "") -> None:
    """Insert `rows` (each `width` values) by multi-row statements of the
    few sizes `_statement_sizes` allows."""
    i = 0
    for size in _statement_sizes(len(rows)):
        chunk = rows[i:i + size]
        i += size
        conn.execute(_multi_insert(head, width, size, tail), [v for row in chunk for v in row])


_LOG_HEAD: Final = "INSERT INTO log (table_id, pos, kind, seq, body) VALUES "
_CLOCK_HEAD: Final = "INSERT INTO clocks (table_id, saved_at, body) VALUES "
_CLOCK_TAIL: Final = " ON CONFLICT (table_id) DO UPDATE SET saved_at = excluded.saved_at, body = excluded.body"


@functools.lru_cache(maxsize=256)
def _qmarks(sql: str) -> str:
    """The accounts' statements (accounts_sql, written for psycopg's
    `%s`) with SQLite's placeholders; the statements are a fixed few,
    so each is rewritten once."""
    return sql.replace("%s", "?")


_DELETE_SEATS: Final = "DELETE FROM account_seats WHERE table_id = ?"
_INSERT_SEAT: Final = _qmarks(INSERT_SEAT)
_ROWS_PER_STATEMENT: Final = 512  # a power of two (`_statement_sizes`); 5 parameters a row, well under 32766
_EXACT_ROWS: Final = 16
# SQLite's page cache for the one connection, in KiB (see the module docstring).
CACHE_KIB: Final = 128
# Commits between two checkpoints of the WAL, queued to the store's thread.
# A step's commit adds some four pages to the WAL (a log row, its index, a
# clock): about SQLite's own default of a checkpoint per thousand pages.
CHECKPOINT_COMMITS: Final = 250
# A WAL this many frames long (pages, 4 KiB each) after a checkpoint has not
# started over for some time: the next checkpoint catches up holding the
# writer's connection, so that the WAL can start again from its beginning
# (`SQLiteStore._checkpoint`). At fifty tables at play a WAL reaches about
# 1,000 frames between two checkpoints.
WAL_RESTART_FRAMES: Final = 4096


def _uri(path: str) -> str:
    """The store's file as an SQLite URI that names the `unix-excl` VFS:
    the file locked against other processes, the WAL's index in this
    process's memory, no -shm mapped (see the module docstring)."""
    return f"file:{urllib.parse.quote(os.path.abspath(path))}?vfs=unix-excl"


def _connect(path: str) -> sqlite3.Connection:
    # isolation_level=None: the module must not open transactions behind our
    # back; the writer issues BEGIN/COMMIT itself.
    conn = sqlite3.connect(_uri(path), uri=True, isolation_level=None, check_same_thread=False)
    try:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{path}: SQLite refused WAL mode (journal_mode={mode})")
        conn.execute("PRAGMA synchronous = NORMAL")
        # Reads through mmap turn an I/O error (a file made read-only or cut
        # short under us) into SIGBUS, which kills the process; read() turns
        # it into an error the table survives (docs/table.md T4.4). The same
        # holds for the WAL index, hence the unix-excl VFS (`_uri`).
        conn.execute("PRAGMA mmap_size = 0")
        conn.execute("PRAGMA foreign_keys = ON")
        # A store left locked by another program (a copy being read, a
        # sqlite3 shell of the operator's) is waited for a moment at start.
        conn.execute("PRAGMA busy_timeout = 5000")
        conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    except BaseException:
        conn.close()
        raise
    return conn


def _migrate_1_to_2(conn: sqlite3.Connection) -> None:
    """Version 2 admits the status 'failed'. SQLite cannot alter a CHECK
    constraint, so the tables table is rebuilt, the way SQLite's ALTER TABLE
    documentation prescribes: foreign keys off (outside any transaction),
    copy into a new table, drop the old one, rename, check the references,
    all in one transaction."""
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(_TABLES.format(name="tables_v2"))
            conn.execute("INSERT INTO tables_v2 (id, created_at, status, meta, updated_at) "
                         "SELECT id, created_at, status, meta, updated_at FROM tables")
            conn.execute("DROP TABLE tables")
            conn.execute("ALTER TABLE tables_v2 RENAME TO tables")
            broken = conn.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise StoreError(f"migration to schema 2 left dangling references: {broken[:5]}")
            conn.execute("PRAGMA user_version = 2")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.execute("PRAGMA foreign_keys = ON")


def _add_credential_columns(conn: sqlite3.Connection) -> None:
    """Schema 5: the columns credentials gained, added where they are
    missing (a store of schema 3 or 4, or one just made from `_SCHEMA`,
    whose credentials table is the first one's). ADD COLUMN with a default
    rewrites nothing: older rows read the default."""
    have = {row[1] for row in conn.execute("PRAGMA table_info(credentials)")}
    for name, definition in credential_additions("TEXT", "REAL"):
        if name not in have:
            conn.execute(f"ALTER TABLE credentials ADD COLUMN {name} {definition}")


def _open(path: str) -> tuple[sqlite3.Connection, sqlite3.Connection]:
    """Open the connection and bring the schema up to date (in a thread);
    the same connection writes and reads."""
    try:
        write = _connect(path)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open store {path!r}: {exc}") from exc
    try:
        version = write.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{path!r} has schema version {version}, newer than this server's "
                f"{SCHEMA_VERSION}; upgrade the server instead of downgrading the file"
            )
        if version == 1:
            _migrate_1_to_2(write)
        write.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    write.execute(statement)
            _add_credential_columns(write)
            write.execute("COMMIT")
        except BaseException:
            write.execute("ROLLBACK")
            raise
        # Take the file now, and learn now if another program holds it.
        write.execute("BEGIN IMMEDIATE")
        write.execute("COMMIT")
    except sqlite3.Error as exc:
        write.close()
        if "locked" in str(exc):
            raise StoreLocked(f"the store {path!r} is open in another program ({exc}); close that program, "
                              "or give this server another store") from exc
        raise StoreError(f"cannot open store {path!r}: {exc}") from exc
    except BaseException:
        write.close()
        raise
    return write, write


def _lock(path: str) -> int:
    """Take the store's exclusive lock (PATH.lock) or raise StoreLocked."""
    lock_path = f"{path}.lock"
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise StoreError(f"cannot open the lock file {lock_path!r}: {exc}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreLocked(f"the store {path!r} is in use by another server (it holds {lock_path!r}); "
                          "stop that server first, or give this one another store") from None
    except BaseException:
        os.close(fd)
        raise
    return fd


class SQLiteStore(AccountsSQL, BatchingStore[sqlite3.Connection]):
    """The durable store; run it in a nursery with ``await nursery.start(store.run)``.

    Writes return once their transaction has committed, so an actor that
    awaits ``append`` before fanning an event out never shows a client
    something a crash could take back. A caller cancelled while waiting does
    not withdraw its write: it may still commit.
    """

    def __init__(self, path: str) -> None:
        super().__init__(path)
        # Last log position per table as committed, known to the writer thread only.
        self._tails: dict[str, int] = {}
        self._path = path
        self._lock_fd: int | None = None
        # One connection: a read takes the writer's turn, between two batches.
        self._reads_on_writer = True
        self._commits_on_trio = True  # see the module docstring
        self._commits_since_checkpoint = 0
        self._checkpointing = False  # a checkpoint is queued to the thread or running there
        # The connection that checkpoints the WAL, on the store's thread, while commits go on.
        self._checkpoint_conn: sqlite3.Connection | None = None
        self.checkpoints = 0  # checkpoints done (tests, statistics)
        self.catch_ups = 0  # checkpoints that held the writer's connection (tests, statistics)
        # The WAL's length in frames after the last checkpoint, and how many
        # of them were in the database (tests, statistics).
        self.wal_frames = self.wal_frames_copied = 0

    # -- hooks of BatchingStore ------------------------------------------------

    def _lock(self) -> None:
        self._lock_fd = _lock(self._path)

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor releases the flock
            self._lock_fd = None

    def _open(self) -> tuple[sqlite3.Connection, sqlite3.Connection]:
        write, read = _open(self._path)
        try:
            # Never inside a COMMIT on trio's thread: `_after_commit` queues them to the store's thread.
            write.execute("PRAGMA wal_autocheckpoint = 0")
            self._checkpoint_conn = _connect(self._path)
        except BaseException:
            write.close()
            raise
        return write, read

    def _after_commit(self) -> None:
        self._commits_since_checkpoint += 1
        if self._commits_since_checkpoint >= CHECKPOINT_COMMITS and not self._checkpointing:
            self._commits_since_checkpoint = 0
            self._checkpointing = True
            self._errand(self._checkpoint)

    def _passive(self) -> tuple[int, int]:
        """*thread*: one passive checkpoint on the checkpoint's connection:
        the WAL's length in frames, and how many of them are now in the
        database."""
        assert self._checkpoint_conn is not None  # closed only after the thread ends
        _busy, frames, copied = self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return frames, copied

    def _checkpoint(self) -> None:
        """*thread*: copy the WAL's committed pages into the database
        (PASSIVE: it waits for nothing), while commits go on.

        The WAL starts over from its beginning only at a commit that finds
        every frame of it copied, and a checkpoint that runs beside the
        commits rarely copies the ones committed meanwhile: left alone the
        WAL grew without end (168 MB in 30,000 appends). So once it is
        WAL_RESTART_FRAMES long, the checkpoint copies the rest holding the
        writer's connection (the frames committed since it began, and two
        flushes): commits queue behind it, as all of them did behind every
        checkpoint before it had a connection of its own.

        A failure is logged, not raised: nobody waits for a checkpoint, and
        a disk that fails it fails the next commit too, which pauses the
        tables (docs/table.md T4.4)."""
        try:
            frames, copied = self._passive()
            if frames >= WAL_RESTART_FRAMES:
                with self._holding_connection():
                    frames, copied = self._passive()
                self.catch_ups += 1
            self.wal_frames, self.wal_frames_copied = frames, copied
            self.checkpoints += 1
        except sqlite3.Error as exc:
            log.warning("store %s: a checkpoint of the WAL failed: %s", self._path, exc)
        finally:
            self._checkpointing = False

    def metrics(self) -> list[str]:
        """For /metrics, besides the writer's counters: the WAL's
        checkpoints, those that had to catch up holding the writer (many
        of them: the disk falls behind the commits), and the WAL's length
        after the last one (a length that keeps growing: it never starts
        over, and every read walks it)."""
        return [
            *super().metrics(),
            "# TYPE oriente_store_checkpoints_total counter", f"oriente_store_checkpoints_total {self.checkpoints}",
            "# TYPE oriente_store_wal_catch_ups_total counter", f"oriente_store_wal_catch_ups_total {self.catch_ups}",
            "# TYPE oriente_store_wal_frames gauge", f"oriente_store_wal_frames {self.wal_frames}",
        ]

    def _close_connection(self, conn: sqlite3.Connection) -> None:
        conn.close()

    def _close_read(self) -> None:
        self._read_conn = None  # the writer's connection: closed once, last, with it
        # Before the writer's: the last connection to close checkpoints the WAL and removes it.
        if self._checkpoint_conn is not None:
            conn, self._checkpoint_conn = self._checkpoint_conn, None
            conn.close()

    def _to_store_error(self, exc: BaseException, what: str) -> BaseException:
        if isinstance(exc, sqlite3.Error):
            return StoreError(f"{what}: {exc}")
        return exc

    # -- the writer's thread -------------------------------------------------

    def _apply_batch(self, batch: list[_SQLiteWrite]) -> None:
        """Commit the batch in one transaction; isolate failures if any.

        Appends are merged: their positions are checked against the log
        tails the writer remembers, then all their rows go in with a few
        multi-row INSERTs and all clocks with a few multi-row upserts
        (`_statement_sizes`), so a batch costs a handful of statement steps
        however many tables it holds."""
        conn = self._write_conn
        assert conn is not None
        try:
            conn.execute("BEGIN IMMEDIATE")
        except Exception as exc:
            self._fail_all(conn, batch, exc)
            return
        tails: dict[str, int] = {}
        try:
            rows: list[tuple] = []
            clocks: dict[str, tuple] = {}
            seats: dict[str, list[tuple]] = {}
            for write in batch:
                if write.payload is None:
                    write.apply(conn)
            for write in batch:
                if write.payload is not None:
                    self._stage_append(conn, write, tails, rows, clocks, seats)
            _insert_rows(conn, _LOG_HEAD, 5, rows)
            if clocks:
                _insert_rows(conn, _CLOCK_HEAD, 3, list(clocks.values()), _CLOCK_TAIL)
            if seats:
                conn.executemany(_DELETE_SEATS, [(table_id,) for table_id in seats])
                conn.executemany(_INSERT_SEAT, [row for table_rows in seats.values() for row in table_rows])
        except Exception:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for write in batch:
                write.error = None
            self._tails.clear()
            self._apply_isolated(conn, batch)
            return
        try:
            conn.execute("COMMIT")
        except Exception as exc:
            self._tails.clear()
            self._fail_all(conn, batch, exc)
            return
        self._tails.update(tails)

    def _stage_append(self, conn: sqlite3.Connection, write: _SQLiteWrite, tails: dict[str, int],
                      rows: list[tuple], clocks: dict[str, tuple], seats: dict[str, list[tuple]]) -> None:
        """Check an append against the log's tail; stage its rows (its clock,
        its seats' rows: the batch's last of each table) or fail it alone."""
        payload = cast(_Append, write.payload)
        table_id, wrows, clock, seated = payload
        last = tails.get(table_id, self._tails.get(table_id))
        if last is None:
            exists, db_last = conn.execute(_LOG_TAIL, (table_id, table_id)).fetchone()
            if exists is None:
                write.error = StoreError(f"append to unknown table {table_id!r}")
                return
            last = -1 if db_last is None else db_last
        if wrows:
            expected = last + 1
            first = wrows[0][1]
            if first != expected:
                problem = "duplicate" if first < expected else "gap"
                write.error = StoreError(
                    f"append to {table_id!r}: {problem} in the log, next pos is {expected} but got {first}")
                return
            rows.extend(wrows)
            last = wrows[-1][1]
        tails[table_id] = last
        if clock is not None:
            clocks[table_id] = clock
        if seated is not None:
            seats[table_id] = seated

    def _apply_isolated(self, conn: sqlite3.Connection, batch: list[_SQLiteWrite]) -> None:
        """Replay the batch in order with a savepoint per request, so the
        failing requests are rolled back alone and the rest still commit."""
        try:
            conn.execute("BEGIN IMMEDIATE")
            for write in batch:
                conn.execute("SAVEPOINT one_write")
                try:
                    write.apply(conn)
                except Exception as exc:
                    write.error = exc
                    conn.execute("ROLLBACK TO one_write")
                conn.execute("RELEASE one_write")
            conn.execute("COMMIT")
        except Exception as exc:
            # The transaction itself broke (disk full, I/O error): nothing in
            # the batch is committed, and every caller must hear it.
            self._fail_all(conn, batch, exc)

    @staticmethod
    def _fail_all(conn: sqlite3.Connection, batch: list[_SQLiteWrite], exc: Exception) -> None:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        for write in batch:
            if write.error is None:
                write.error = exc

    # -- writes --------------------------------------------------------------

    async def create_table(self, table_id: str, status: str, meta: bytes, now: float) -> None:
        """Record a new table; an id that already exists is refused, since two
        tables sharing one log would corrupt both."""
        check_status(status)
        check_bytes("meta", meta)

        def apply(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(
                    "INSERT INTO tables (id, created_at, status, meta, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (table_id, now, status, meta, now),
                )
            except sqlite3.IntegrityError as exc:
                if conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone():
                    raise StoreError(f"table {table_id!r} already exists") from exc
                raise

        await self._submit(apply, 0, f"create table {table_id!r}")

    async def update_table(
        self, table_id: str, *, status: str | None = None, meta: bytes | None = None, now: float
    ) -> None:
        """Change a table's status and/or meta; ``updated_at`` tells the lobby
        and the recovery how long ago the table last changed state."""
        if status is not None:
            check_status(status)
        if meta is not None:
            check_bytes("meta", meta)

        def apply(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE tables SET status = coalesce(?, status), meta = coalesce(?, meta), "
                "updated_at = ? WHERE id = ?",
                (status, meta, now, table_id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"update of unknown table {table_id!r}")

        await self._submit(apply, 0, f"update table {table_id!r}")

    async def append(
        self,
        table_id: str,
        records: Sequence[LogRecord],
        *,
        clock: bytes | None = None,
        now: float,
        seats: Sequence[SeatRow] | None = None,
    ) -> None:
        """Append to a table's log, and upsert its clock (and replace its
        rows in the index of seats by account), in one transaction.

        The records must continue the log exactly (the next ``pos`` and then
        consecutive): a gap or a repeat means the caller's idea of the log
        differs from the truth, which is a bug worth stopping for. Saving the
        clock with the records means a restart never finds timers that are
        older or newer than the log they belong to."""
        records = tuple(records)
        for index, record in enumerate(records):
            if not isinstance(record, LogRecord):
                raise TypeError(f"records[{index}] is {type(record).__name__}, not LogRecord")
            check_bytes(f"records[{index}].body", record.body)
            if index and record.pos != records[index - 1].pos + 1:
                raise StoreError(
                    f"append to {table_id!r}: positions must be consecutive, "
                    f"got {records[index - 1].pos} then {record.pos}"
                )
        if clock is not None:
            check_bytes("clock", clock)
        rows = [(table_id, r.pos, r.kind, r.seq, r.body) for r in records]

        def apply(conn: sqlite3.Connection) -> None:
            exists, last = conn.execute(_LOG_TAIL, (table_id, table_id)).fetchone()
            if exists is None:
                raise StoreError(f"append to unknown table {table_id!r}")
            if rows:
                expected = 0 if last is None else last + 1
                first = rows[0][1]
                if first != expected:
                    problem = "duplicate" if first < expected else "gap"
                    raise StoreError(
                        f"append to {table_id!r}: {problem} in the log, "
                        f"next pos is {expected} but got {first}"
                    )
                if len(rows) == 1:
                    conn.execute(_INSERT_LOG, rows[0])
                else:
                    conn.executemany(_INSERT_LOG, rows)
            if clock is not None:
                conn.execute(_UPSERT_CLOCK, (table_id, now, clock))
            if seated is not None:
                conn.execute(_DELETE_SEATS, (table_id,))
                conn.executemany(_INSERT_SEAT, seated)

        seated = None if seats is None else seat_params(seats)
        payload: _Append = (table_id, rows, (table_id, now, clock) if clock is not None else None, seated)
        await self._submit(apply, len(rows), f"append to {table_id!r}", payload)

    async def save_record(self, table_id: str, body: bytes) -> None:
        """Store the finished game's record. Saving again replaces it, so a
        recovery that re-derives the record from the log can simply re-save."""
        check_bytes("body", body)

        def apply(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(_UPSERT_RECORD, (table_id, body))
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"record for unknown table {table_id!r}") from exc

        await self._submit(apply, 0, f"save record of {table_id!r}")

    async def sleep(self, table_id: str, wake_at: float) -> None:
        """The table leaves memory until `wake_at` (docs/table.md T8.5)."""

        def apply(conn: sqlite3.Connection) -> None:
            try:
                conn.execute("INSERT INTO sleeping (table_id, wake_at) VALUES (?, ?) "
                             "ON CONFLICT (table_id) DO UPDATE SET wake_at = excluded.wake_at", (table_id, wake_at))
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"sleep of unknown table {table_id!r}") from exc

        await self._submit(apply, 0, f"sleep of {table_id!r}")

    async def wake(self, table_id: str) -> bool:
        """Take the table out of the index of sleeping tables; whether it was there."""
        woke: list[bool] = []

        def apply(conn: sqlite3.Connection) -> None:
            woke.append(conn.execute("DELETE FROM sleeping WHERE table_id = ?", (table_id,)).rowcount > 0)

        await self._submit(apply, 0, f"wake of {table_id!r}")
        return bool(woke and woke[0])

    async def due(self, now: float, limit: int) -> list[str]:
        def query(conn: sqlite3.Connection) -> list[str]:
            return [row[0] for row in conn.execute(
                "SELECT table_id FROM sleeping WHERE wake_at <= ? ORDER BY wake_at, table_id LIMIT ?", (now, limit))]

        return await self._read(query)

    async def next_wake(self) -> float | None:
        def query(conn: sqlite3.Connection) -> float | None:
            row = conn.execute("SELECT min(wake_at) FROM sleeping").fetchone()
            return None if row is None or row[0] is None else float(row[0])

        return await self._read(query)

    async def sleeping(self) -> int:
        def query(conn: sqlite3.Connection) -> int:
            return int(conn.execute("SELECT count(*) FROM sleeping").fetchone()[0])

        return await self._read(query)

    async def heartbeat(self, now: float) -> None:
        """Note that the server is alive, so that after a crash the recovery
        knows how long the tables were down (deadlines pause meanwhile)."""

        def apply(conn: sqlite3.Connection) -> None:
            conn.execute(_UPSERT_HEARTBEAT, (now,))

        await self._submit(apply, 0, "heartbeat")

    async def _sql_write(self, statements: list[Statement], what: str) -> None:
        """The accounts' writes (accounts_sql): one commit in the batch."""

        def apply(conn: sqlite3.Connection) -> None:
            try:
                for sql, params in statements:
                    if isinstance(params, list):
                        conn.executemany(_qmarks(sql), params)
                    else:
                        conn.execute(_qmarks(sql), params)
            except sqlite3.IntegrityError as exc:
                if "UNIQUE" in str(exc) or "PRIMARY KEY" in str(exc):
                    raise StoreConflict(what) from exc
                raise

        await self._submit(apply, 0, what)

    async def _sql_read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        def query(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
            return conn.execute(_qmarks(sql), params).fetchall()

        return await self._read(query)

    async def save_tournament(self, tournament_id: str, body: bytes | None, *, now: float,
                              rounds: Mapping[int, bytes] | None = None,
                              tables: Mapping[str, bool] | None = None) -> None:
        """Store a tournament's head and/or some of its rounds and tables, in one commit."""
        held = sorted((tables or {}).items())
        if body is not None:
            check_bytes("body", body)
        items = sorted((rounds or {}).items())
        for number, blob in items:
            check_bytes(f"rounds[{number}]", blob)

        def apply(conn: sqlite3.Connection) -> None:
            if body is not None:
                conn.execute(_UPSERT_TOURNAMENT, (tournament_id, now, now, body))
            try:
                conn.executemany(_UPSERT_ROUND, [(tournament_id, n, b) for n, b in items])
                conn.executemany(_UPSERT_TOURNAMENT_TABLE, [(t, tournament_id, int(h)) for t, h in held])
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"tournament {tournament_id!r} is saved first with its head") from exc

        await self._submit(apply, 0, f"save tournament {tournament_id!r}")

    async def tournament(self, tournament_id: str) -> tuple[bytes, list[bytes]] | None:
        def query(conn: sqlite3.Connection) -> tuple[bytes, list[bytes]] | None:
            row = conn.execute("SELECT body FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
            if row is None:
                return None
            rounds = conn.execute("SELECT body FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
                                  (tournament_id,)).fetchall()
            return row[0], [r[0] for r in rounds]

        return await self._read(query)

    async def tournaments(self) -> list[tuple[str, bytes, list[bytes]]]:
        def query(conn: sqlite3.Connection) -> list[tuple[str, bytes, list[bytes]]]:
            heads = conn.execute("SELECT id, body FROM tournaments ORDER BY created_at, id").fetchall()
            rounds: dict[str, list[bytes]] = {}
            for tid, body in conn.execute("SELECT tournament_id, body FROM tournament_rounds "
                                          "ORDER BY tournament_id, number"):
                rounds.setdefault(tid, []).append(body)
            return [(h[0], h[1], rounds.get(h[0], [])) for h in heads]

        return await self._read(query)

    async def withheld(self, table_id: str) -> bool:
        def query(conn: sqlite3.Connection) -> bool:
            row = conn.execute("SELECT withheld FROM tournament_tables WHERE table_id = ?", (table_id,)).fetchone()
            return bool(row and row[0])

        return await self._read(query)

    # -- backup ----------------------------------------------------------------

    async def backup(self, dest: str) -> int:
        """A consistent copy of the store at `dest`, which it replaces at once
        when complete (never a half-written file there); its size in bytes.
        Taken between two batches, on the store's own connection, since no
        other process may open the file while the server runs: writes wait
        meanwhile (SQLite copies about 100 MB a second). The copy is a
        plain SQLite file (rollback journal), ready to be copied away or
        opened with `oriente serve --store`."""
        if self._state != "running":
            raise StoreError("store is not running: copy the file itself")

        def copy() -> int:
            conn = self._write_conn
            if conn is None:
                raise StoreError("store is closed")
            partial = f"{dest}.partial"
            with contextlib.suppress(FileNotFoundError):
                os.remove(partial)
            target = sqlite3.connect(partial, isolation_level=None)
            try:
                conn.backup(target)
                target.execute("PRAGMA journal_mode = DELETE")
            finally:
                target.close()
            os.replace(partial, dest)
            return os.path.getsize(dest)

        try:
            return await self._on_write_connection(lambda conn: copy())
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"backup to {dest!r}: {exc}") from exc

    # -- reads ---------------------------------------------------------------

    async def tables(self, statuses: Collection[str] | None = None, *, asleep: bool | None = None) -> list[TableRow]:
        """Tables, oldest first, optionally only those in the given statuses
        (the recovery asks for 'open' and 'running', awake ones)."""
        params: tuple[str, ...] = ()
        where: list[str] = []
        if statuses is not None:
            wanted = tuple(statuses)
            for status in wanted:
                check_status(status)
            if not wanted:
                return []
            where.append(f"status IN ({', '.join('?' * len(wanted))})")
            params = wanted
        if asleep is not None:
            where.append(f"id {'IN' if asleep else 'NOT IN'} (SELECT table_id FROM sleeping)")
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        sql = f"SELECT {_TABLE_COLUMNS} FROM tables{clause} ORDER BY created_at, id"

        def query(conn: sqlite3.Connection) -> list[TableRow]:
            return [TableRow(*row) for row in conn.execute(sql, params)]

        return await self._read(query)

    async def table(self, table_id: str) -> TableRow | None:
        """One table's row, or None if no such table was ever created."""

        def query(conn: sqlite3.Connection) -> TableRow | None:
            row = conn.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
            return None if row is None else TableRow(*row)

        return await self._read(query)

    async def log(self, table_id: str, *, after_pos: int = -1) -> list[LogRecord]:
        """The table's log in order, from ``after_pos + 1``: the replay input."""

        def query(conn: sqlite3.Connection) -> list[LogRecord]:
            rows = conn.execute(
                "SELECT pos, kind, seq, body FROM log WHERE table_id = ? AND pos > ? ORDER BY pos",
                (table_id, after_pos),
            )
            return [LogRecord(*row) for row in rows]

        return await self._read(query)

    async def clock(self, table_id: str) -> tuple[float, bytes] | None:
        """The latest saved timer state and when it was saved, or None."""

        def query(conn: sqlite3.Connection) -> tuple[float, bytes] | None:
            row = conn.execute("SELECT saved_at, body FROM clocks WHERE table_id = ?", (table_id,)).fetchone()
            return None if row is None else (row[0], row[1])

        return await self._read(query)

    async def log_and_clock(self, table_id: str) -> tuple[list[LogRecord], tuple[float, bytes] | None]:
        """`log` and `clock` in one read, one snapshot: a rebuild's input."""

        def query(conn: sqlite3.Connection) -> tuple[list[LogRecord], tuple[float, bytes] | None]:
            conn.execute("BEGIN")
            try:
                records = [LogRecord(*row) for row in conn.execute(
                    "SELECT pos, kind, seq, body FROM log WHERE table_id = ? ORDER BY pos", (table_id,))]
                row = conn.execute("SELECT saved_at, body FROM clocks WHERE table_id = ?", (table_id,)).fetchone()
            finally:
                conn.execute("COMMIT")
            return records, None if row is None else (row[0], row[1])

        return await self._read(query)

    async def table_log_and_clock(self, table_id: str) -> tuple[TableRow | None, list[LogRecord],
                                                                  tuple[float, bytes] | None]:
        """`table`, `log` and `clock` in one read, one snapshot."""

        def query(conn: sqlite3.Connection) -> tuple[TableRow | None, list[LogRecord], tuple[float, bytes] | None]:
            conn.execute("BEGIN")
            try:
                found = conn.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
                if found is None:
                    return None, [], None
                records = [LogRecord(*row) for row in conn.execute(
                    "SELECT pos, kind, seq, body FROM log WHERE table_id = ? ORDER BY pos", (table_id,))]
                row = conn.execute("SELECT saved_at, body FROM clocks WHERE table_id = ?", (table_id,)).fetchone()
            finally:
                conn.execute("COMMIT")
            return TableRow(*found), records, None if row is None else (row[0], row[1])

        return await self._read(query)

    async def record(self, table_id: str) -> bytes | None:
        """The finished game's record, or None while the game has none."""

        def query(conn: sqlite3.Connection) -> bytes | None:
            row = conn.execute("SELECT body FROM records WHERE table_id = ?", (table_id,)).fetchone()
            return None if row is None else row[0]

        return await self._read(query)

    async def last_heartbeat(self) -> float | None:
        """When the server last said it was alive, or None on a fresh file."""

        def query(conn: sqlite3.Connection) -> float | None:
            row = conn.execute("SELECT at FROM heartbeat WHERE id = 1").fetchone()
            return None if row is None else row[0]

        return await self._read(query)
