"""A table's log in memory: every event and command as written to the
store, in order, and the record read from them.

The log is the truth (one event log per table): it is written before
anyone sees a step, and what the table keeps in memory changes only once
the store has it (`prepare`, then `took`). It is kept as the msgpack bytes
written to the store: thousands of live dicts per table would survive into
the garbage collector's young generation and lengthen every pause. Those
bytes sit end to end in one buffer per kind (`Records`), not one bytes
object each: a record of a game is some 70 bytes, and a bytes object of its
own, with its slot in a list, would add some 50 more to every one of them;
every 64 records are then compressed together.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Iterator
from typing import Any

from ...games.kit.port import TABLE_SEAT
from ...protocol.codec import decode_any, encode
from ..stores import LogRecord
from .settings import Seats

RECORD_FORMAT = "oriente.record.v1"
# Events the table itself records around the game; all of them are public.
TABLE_EVENTS = frozenset({
    "TableOpened", "SeatTaken", "SeatLeft", "TableStarted", "Chat", "SeatAway", "SeatBack",
    "SeatPresence", "TableFinished", "TableFailed", "ProxyOn", "ProxyOff", "RematchOffered", "TimedOut",
    "TableAbandoned",
})
# A table's log is bounded by what it lets people say (docs/table.md T5.4):
# past this many bytes of log, chat and the game's talk (port.talk_commands)
# are refused; the game itself goes on to its end.
LOG_SOFT_CAP = 4 * 1024 * 1024


class Records:
    """Encoded records end to end, with where each one ends: a list of bytes
    objects without the per-object cost. Items are read back as bytes equal
    to the ones appended.

    Every CHUNK records are compressed together (zlib, level 1) once the
    last of them is appended: the log is most of what a table holds of its
    own (a random game of six, 320 events, is 19.6 KiB of msgpack; a chunk
    of 64 of its records compresses to about a quarter), and it is read
    only when a viewer catches up, a record is written or the table is
    replayed. Sealing a chunk costs some 30 us, once per 64 records; a read
    decompresses each chunk it touches once (`between`)."""

    __slots__ = ("_data", "_ends", "_sealed")
    CHUNK = 64

    def __init__(self) -> None:
        self._data = bytearray()  # the records of the chunk not yet sealed
        self._ends = array("I")  # offset past each record in all the bytes; a log is capped far below 4 GiB
        self._sealed: list[bytes] = []  # chunk k: records k*CHUNK .. (k+1)*CHUNK - 1, compressed

    def __len__(self) -> int:
        return len(self._ends)

    def append(self, body: bytes) -> None:
        self._data += body
        self._ends.append((self._ends[-1] if self._ends else 0) + len(body))
        if len(self._ends) % self.CHUNK == 0:
            self._sealed.append(zlib.compress(self._data, 1))
            self._data = bytearray()

    def _start(self, chunk: int) -> int:
        """Where chunk `chunk`'s bytes begin in all the bytes."""
        return self._ends[chunk * self.CHUNK - 1] if chunk else 0

    def _chunk(self, chunk: int) -> bytes | bytearray:
        return zlib.decompress(self._sealed[chunk]) if chunk < len(self._sealed) else self._data

    def __getitem__(self, i: int) -> bytes:
        if i < 0:
            i += len(self._ends)
        if not 0 <= i < len(self._ends):
            raise IndexError("record index out of range")
        return next(self.between(i, i + 1))

    def between(self, start: int, stop: int) -> Iterator[bytes]:
        """The records start..stop-1 (clipped like a slice of a list)."""
        start, stop, _ = slice(start, stop).indices(len(self._ends))
        ends = self._ends
        chunk, base = -1, 0
        data: bytes | bytearray = b""
        for i in range(start, stop):
            if i // self.CHUNK != chunk:
                chunk = i // self.CHUNK
                data, base = self._chunk(chunk), self._start(chunk)
            yield bytes(data[(ends[i - 1] if i else 0) - base:ends[i] - base])

    def __iter__(self) -> Iterator[bytes]:
        return self.between(0, len(self._ends))


class Ids:
    """The command ids one seat sent that the log holds. A seat sends a few
    dozen commands a game: a list of them is a fifth of the memory of a set
    and as quick to search; past SMALL ids (a long game, a chatty bot) it
    becomes a set, so a search never walks more than SMALL."""

    __slots__ = ("_ids",)
    SMALL = 64

    def __init__(self) -> None:
        self._ids: list[Any] | set[Any] = []

    def __contains__(self, cid: object) -> bool:
        return cid in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._ids)

    def add(self, cid: Any) -> None:
        ids = self._ids
        if isinstance(ids, set):
            ids.add(cid)
        elif cid not in ids:
            ids.append(cid)
            if len(ids) > self.SMALL:
                self._ids = set(ids)


class Journal:
    """The log of one table with `seats` seats. `pos` is the next log
    position (commands and events share them); `seq` the last event's
    number (events are numbered from 1, without gaps). `cids`: per seat,
    the ids of the commands it sent that the log holds (a command sent
    again with its id is answered as a duplicate). `end`: the seq of
    TableFinished or TableFailed, where the record ends."""

    def __init__(self, seats: int, cap: int = LOG_SOFT_CAP) -> None:
        self.raw_events = Records()  # every event, full detail, with its seq (seq == index + 1)
        self.raw_commands = Records()  # [seat, plain command] of the game, in order
        self.pos = 0
        self.cap = cap
        self.bytes = 0  # the encoded size of every record of the log
        self.cids = [Ids() for _ in range(seats)]
        self.end: int | None = None

    @property
    def seq(self) -> int:
        return len(self.raw_events)

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event so far, full detail, decoded (for records and tests)."""
        return [decode_any(b) for b in self.raw_events]

    @property
    def commands(self) -> list[list[Any]]:
        """[seat, plain command] of the game so far, decoded."""
        return [decode_any(b) for b in self.raw_commands]

    def full(self) -> bool:
        """The log reached its soft cap: talk is refused, play goes on (T5.4)."""
        return self.bytes >= self.cap

    def prepare(self, command: dict[str, Any] | None, new: list[dict[str, Any]]) -> list[LogRecord]:
        """The records of one step, to store: its command, if any, then its
        events, each given its seq (in place: the events are sent with it)."""
        records = []
        pos = self.pos
        if command is not None:
            records.append(LogRecord(pos=pos, kind="cmd", seq=None, body=encode(command)))
            pos += 1
        seq = self.seq
        for e in new:
            seq += 1
            e["seq"] = seq
            records.append(LogRecord(pos=pos, kind="event", seq=seq, body=encode(e)))
            pos += 1
        return records

    def took(self, command: dict[str, Any] | None, records: list[LogRecord]) -> None:
        """The store has the step `prepare` made: the memory follows."""
        if records:
            self.pos = records[-1].pos + 1
        if command is not None:
            self.raw_commands.append(encode([command["seat"], command["cmd"]]))
        for r in records:
            if r.kind == "event":
                self.raw_events.append(r.body)
        self.bytes += sum(len(r.body) for r in records)

    def read(self, rec: LogRecord, body: dict[str, Any]) -> None:
        """One stored record, read back as it is (recovery)."""
        self.bytes += len(rec.body)
        if rec.kind == "cmd":
            seat = body["seat"]
            if seat != TABLE_SEAT and body.get("cid") is not None:
                self.cids[seat].add(body["cid"])
            self.raw_commands.append(encode([seat, body["cmd"]]))
        else:
            self.raw_events.append(rec.body)
        self.pos = rec.pos + 1

    def record(self, *, table_id: str, game: str, status: str, config: Any, seats: Seats,
               result: dict[str, Any] | None, commitment: dict[str, Any] | None) -> dict[str, Any]:
        """The game, fully revealed: its game and config (enough to replay the
        commands), commands, events, and the table's own events (names, chat)
        beside them. The format name is the protocol's; `game` says whose
        rules replay it. A failed table's record holds the game up to the
        last stored step, and no result. It ends with TableFinished (or
        TableFailed): chat and RematchOffered after the end are in the log,
        not in the record, so the record is the same whenever it is read."""
        ended = self.raw_events.between(0, len(self.raw_events) if self.end is None else self.end)
        events = [decode_any(b) for b in ended]
        return {
            "format": RECORD_FORMAT,
            "game": game,
            "status": status,
            "table": table_id,
            "config": config,
            "names": [None if x is None else x.name for x in seats],
            **({"accounts": [None if x is None else x.account for x in seats]}
               if any(x is not None and x.account is not None for x in seats) else {}),
            "commands": self.commands,
            "events": [{k: v for k, v in e.items() if k != "seq"} for e in events
                       if e["type"] not in TABLE_EVENTS],
            "table_events": [e for e in events if e["type"] in TABLE_EVENTS],
            "result": result,
            # The salt is revealed once the game has ended: anyone can then
            # check the setup against the digest shown from the start
            # (dealing.verify_record).
            "commitment": commitment,
        }
