"""Durable storage for the table server: the contract every store keeps
(`contract`), SQLite in one file (`sqlite`), PostgreSQL for a site that
outgrows one process (`postgres`, with psycopg: ``pip install
'oriente[postgres]'``), a store in memory for tests (`memory`), and
`open_store`, which picks one from the server's ``--store``."""

from .batching import StoreStatistics
from .contract import (
    STATUSES,
    AccountRow,
    CredentialRow,
    EmailRow,
    LogRecord,
    RatingRow,
    ResultRow,
    SeatRow,
    Store,
    StoreConflict,
    StoreError,
    StoreFenced,
    StoreLocked,
    TableRow,
    ThrottleRow,
)
from .memory import MemoryStore
from .sqlite import SQLiteStore

__all__ = [
    "STATUSES",
    "AccountRow",
    "CredentialRow",
    "EmailRow",
    "LogRecord",
    "MemoryStore",
    "RatingRow",
    "ResultRow",
    "SQLiteStore",
    "SeatRow",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreFenced",
    "StoreLocked",
    "StoreStatistics",
    "TableRow",
    "ThrottleRow",
    "open_store",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(spec: str, *, cluster: bool = False) -> Store:
    """The store named by ``spec``: a ``postgresql://`` URL (``?schema=NAME``
    picks the site's schema, default ``oriente``) or the path of a SQLite
    file. psycopg is imported only for PostgreSQL, so the embedded store
    needs nothing beyond the base install."""
    if spec.startswith(POSTGRES_SCHEMES):
        try:
            from .postgres import PostgresStore
        except ImportError as exc:
            raise StoreError(f"a PostgreSQL store needs psycopg ({exc}); install it with "
                             "pip install -e '.[postgres]'") from exc
        try:
            return PostgresStore(spec, cluster=cluster)
        except ValueError as exc:  # a schema name PostgreSQL would need quoting for
            raise StoreError(str(exc)) from exc
    if cluster:
        raise StoreError("a many-process site keeps its tables in PostgreSQL: --store postgresql://...")
    return SQLiteStore(spec)
