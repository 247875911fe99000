"""Durable storage for the table server: the contract every store keeps
(`contract`), SQLite in one file (`sqlite`) and a store in memory for tests
(`memory`)."""

from .batching import StoreStatistics
from .contract import STATUSES, LogRecord, Store, StoreError, StoreLocked, TableRow
from .memory import MemoryStore
from .sqlite import SQLiteStore

__all__ = ["STATUSES", "LogRecord", "MemoryStore", "SQLiteStore", "Store", "StoreError", "StoreLocked",
           "StoreStatistics", "TableRow"]
