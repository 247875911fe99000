"""A table's log in memory is one buffer per kind, not one bytes object per
record, and reads back every event and command exactly as stored."""

from __future__ import annotations

import gc
import sys
from typing import Any

from oriente.protocol.codec import decode_any, encode
from oriente.server.stores import LogRecord
from oriente.server.table.journal import Journal, Records


def _play(journal: Journal, steps: int) -> tuple[list[bytes], list[list[Any]]]:
    events: list[bytes] = []
    commands: list[list[Any]] = []
    for n in range(steps):
        command = {"seat": n % 3, "cid": n, "cmd": {"t": "move", "to": [n, "é" * (n % 5)]}, "at": n}
        new = [{"type": "Moved", "seat": n % 3, "to": n}, {"type": "Turn", "seat": (n + 1) % 3}][: 1 + n % 2]
        records = journal.prepare(command if n % 4 else None, new)
        journal.took(command if n % 4 else None, records)
        events.extend(r.body for r in records if r.kind == "event")
        if n % 4:
            commands.append([command["seat"], command["cmd"]])
    return events, commands


def test_every_event_and_command_reads_back_as_stored() -> None:
    journal = Journal(3)
    events, commands = _play(journal, 300)
    assert journal.seq == len(events)
    assert list(journal.raw_events) == events
    assert [journal.raw_events[i] for i in range(journal.seq)] == events
    assert journal.raw_events[-1] == events[-1]
    assert list(journal.raw_events.between(17, 45)) == events[17:45]
    assert list(journal.raw_events.between(60, 200)) == events[60:200]  # across sealed chunks
    assert list(journal.raw_events.between(40, 10_000)) == events[40:]
    assert journal.events == [decode_any(b) for b in events]
    assert journal.commands == commands
    assert list(journal.raw_commands) == [encode(c) for c in commands]


def test_a_log_read_back_from_the_store_is_the_same() -> None:
    journal = Journal(3)
    _play(journal, 120)
    again = Journal(3)
    pos = 0
    commands = iter(journal.commands)
    for seq, raw in enumerate(journal.raw_events, start=1):
        event = decode_any(raw)
        if event["type"] == "Moved" and event["to"] % 4:
            seat, cmd = next(commands)
            body = {"seat": seat, "cid": event["to"], "cmd": cmd, "at": 0}
            again.read(LogRecord(pos=pos, kind="cmd", seq=None, body=encode(body)), body)
            pos += 1
        again.read(LogRecord(pos=pos, kind="event", seq=seq, body=raw), event)
        pos += 1
    assert list(again.raw_events) == list(journal.raw_events)
    assert again.commands == journal.commands
    assert again.cids[1] and all(cid % 4 for cid in again.cids[1])


def test_the_log_holds_no_object_per_record() -> None:
    """Hundreds of records per game, each a bytes object in a list, cost
    some 50 bytes apiece beyond their own; the buffer does not grow in
    objects with the log."""
    journal = Journal(3)
    _play(journal, 300)
    for records in (journal.raw_events, journal.raw_commands):
        # the open buffer, the ends, the list of sealed chunks, the class
        assert len(gc.get_referents(records)) <= 4
        assert len(records._sealed) == len(records) // Records.CHUNK


def test_every_chunk_of_records_is_held_compressed() -> None:
    """The log is most of a table's own memory; every Records.CHUNK records
    are held compressed, and a log of 450 events takes far less than its
    bytes."""
    journal = Journal(3)
    events, _ = _play(journal, 300)
    raw = sum(len(b) for b in events)
    records = journal.raw_events
    held = sum(len(c) for c in records._sealed) + len(records._data)
    assert len(records._sealed) >= 5
    assert held < raw / 3, (held, raw)


def test_a_seats_command_ids_are_a_short_list_until_there_are_many() -> None:
    """Some 25 ids a seat a game: a list is a fifth of a set's memory; past
    Ids.SMALL a set keeps each search short. Either way, the same answers."""
    journal = Journal(2)
    ids = journal.cids[0]
    for cid in range(20):
        ids.add(cid)
        ids.add(cid)
    assert len(ids) == 20 and 7 in ids and 20 not in ids and "7" not in ids
    assert sys.getsizeof(ids._ids) < sys.getsizeof(set(range(20))) // 2
    for cid in range(20, 200):
        ids.add(f"id-{cid}")
    assert len(ids) == 200 and 19 in ids and "id-150" in ids and "id-200" not in ids
    assert isinstance(ids._ids, set)
    assert len(journal.cids[1]) == 0
