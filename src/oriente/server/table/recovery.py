"""A table rebuilt from what its store kept: its meta (settings, seats) and
its log. Every command is applied again through the rules, which must give
back exactly the events recorded, or the table is not served (docs/table.md
T4.2). The actor (`Table.restore`) runs the table rebuilt here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...games.kit.port import GamePort, GameSetup, SettingsError, replayable
from ...games.kit.replay import Replay, ReplayError
from ...protocol.codec import decode_any, encode
from ..stores import LogRecord
from .journal import LOG_SOFT_CAP, TABLE_EVENTS, Journal
from .settings import Seats, TableSettings, read_meta


class TableError(Exception):
    """A log that does not replay to what it recorded: refuse to serve it."""


@dataclass(slots=True)
class Recovered:
    """A table as its store kept it. `state`: the game's state after the
    last logged command (None before the start, or when not replayed).
    `unlogged_seats`, `unlogged_leaves`: seats its meta holds whose
    SeatTaken its log lacks, and seats it no longer holds whose SeatLeft
    the log lacks (the server stopped between the two writes of a join or a
    leave): the actor logs them first thing (`CatchUp`)."""

    settings: TableSettings
    setup: GameSetup
    seats: Seats
    rematch: dict[str, Any] | None
    journal: Journal
    state: Any = None
    status: str = "open"
    result: dict[str, Any] | None = None
    unlogged_seats: list[int] = field(default_factory=list)
    unlogged_leaves: list[int] = field(default_factory=list)


def recover(table_id: str, meta: bytes, records: list[LogRecord], port: GamePort, *, replay: bool = True,
            log_cap: int = LOG_SOFT_CAP) -> Recovered:
    """Read a stored table: re-apply every command through the rules and
    check that they give back exactly the events recorded (TableError if
    not). Without `replay` (an ended table its rules no longer replay) the
    log is taken as it is and the table has no game state: it serves its
    history, its record and snapshots without a view."""
    stored = read_meta(meta)
    if stored.rules is not None and stored.rules not in replayable(port):
        # Its log would replay differently (or not at all) on these rules:
        # leave it to a server that still runs them.
        raise TableError(f"table {table_id}: it plays the rules {stored.rules!r}; this server replays "
                         f"{', '.join(sorted(replayable(port)))}")
    settings = stored.settings
    try:
        setup = port.configure(settings.seats, settings.seed, settings.options, stored.legacy)
    except SettingsError as exc:
        raise TableError(f"table {table_id}: its stored settings no longer configure: {exc}") from None
    found = Recovered(settings=replace(settings, options=setup.options), setup=setup,
                      seats=Seats.from_plain(stored.slots, stored.nonces), rematch=stored.rematch,
                      journal=Journal(settings.seats, log_cap))
    played: Replay | None = None
    recorded: list[dict[str, Any]] = []
    for rec in records:
        body = decode_any(rec.body)
        if replay and rec.kind == "cmd":
            if played is None:
                raise TableError(f"table {table_id}: its log holds a command before the game started")
            try:
                played.apply(body["seat"], body["cmd"], timeouts_checked=True)
            except ReplayError as exc:
                raise TableError(f"table {table_id}: {exc} in its log") from None
        found.journal.read(rec, body)
        if rec.kind == "event":
            kind = body["type"]
            if kind == "TableStarted":
                found.status = "running"
                if replay:
                    played = Replay.start(port, setup.config)
                    found.state = played.state
            elif kind == "TableFinished":
                found.status, found.result, found.journal.end = "finished", body["result"], rec.seq
            elif kind == "TableFailed":  # the store missed the status: the log says it
                found.status, found.journal.end = "failed", rec.seq
            elif kind not in TABLE_EVENTS:
                recorded.append({k: v for k, v in body.items() if k != "seq"})
    regenerated = played.events if played is not None else []
    if replay and decode_any(encode(regenerated)) != recorded:
        raise TableError(f"table {table_id}: the log does not replay to the events it recorded")
    if found.status == "open":
        logged: set[int] = set()
        for event in found.journal.events:
            if event["type"] == "SeatTaken":
                logged.add(event["seat"])
            elif event["type"] == "SeatLeft":
                logged.discard(event["seat"])
        found.unlogged_seats = [i for i, s in enumerate(found.seats) if s is not None and i not in logged]
        found.unlogged_leaves = sorted(i for i in logged if found.seats[i] is None)
    return found

