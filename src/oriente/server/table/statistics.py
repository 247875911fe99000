"""What the server's other parts may know of a table at a moment: a
snapshot the actor gives on request (`Table.statistics`), so that the
lobby, the bots and the tournament director ask the table instead of
reading (or writing) the state its actor owns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import trio


@dataclass(frozen=True, slots=True)
class SeatStatistics:
    """A taken seat: its name, whether a connection holds it now, the
    server's bot that plays it (its policy) and the account card it was
    taken with, if any."""

    name: str
    connected: bool
    bot: str | None = None
    account: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class TableStatistics:
    """One table now. `seats`: None for a free seat. `unattended_since`:
    since when (trio time) no client has held a seat of this open table,
    None while one does (T6.1). `paused`: its store refuses its writes
    (T4.4). `commitment`: the digest of its setup shown to anyone (T7.1).
    `watchers`: the connections that follow it now (seats and spectators,
    the server's bots included)."""

    status: str
    seats: tuple[SeatStatistics | None, ...]
    result: dict[str, Any] | None
    seq: int
    log_bytes: int
    paused: bool
    unattended_since: float | None
    commitment: str | None
    watchers: int = 0

    @property
    def free(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    @property
    def absent(self) -> list[int]:
        """The taken seats that nobody holds: no connection, no server bot."""
        return [i for i, s in enumerate(self.seats) if s is not None and not s.connected and not s.bot]

    @property
    def present(self) -> bool:
        """Every seat taken and held, by a connection or the server's bot."""
        return self.full and not self.absent


class Change:
    """An event for whoever waits for the table's next change: made when
    somebody asks for one (`next`), set and forgotten when the table tells
    (`tell`), so a table nobody waits on makes no event at all."""

    def __init__(self) -> None:
        self._event: trio.Event | None = None

    def next(self) -> trio.Event:
        if self._event is None:
            self._event = trio.Event()
        return self._event

    def tell(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = None
