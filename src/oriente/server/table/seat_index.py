"""The table's rows in the index of seats by account (the store's
`account_seats`; PROTOCOL.md 3, my_tables; docs/accounts.md, "E-mail"):
for each seat an account holds, whether the table awaits that seat now,
since when and until when (wall clock). The actor asks at each step it
stores, and the step's append carries the rows in its commit only when
one of them changed, so a table without accounts never writes any, and a
step that keeps the same seat waiting on the same decision writes none. The index outlives the
table's memory: a sleeping table is listed, and mailed about, from it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import trio

from ..clock import TableClock
from ..stores import SeatRow
from .settings import Slot

__all__ = ["SeatIndex"]

# What decides whether the rows changed: each account's seat, the seat
# awaited and the decision's key, the seats an offer awaits, whether the
# table has ended.
_Key = tuple[tuple[tuple[str, int], ...], int | None, Any, frozenset[int], bool]


class SeatIndex:
    """What this table last wrote to the index, and since when each seat
    has been awaited. A table rebuilt from its log (a wake, a recovery)
    starts a new index: it takes each seat's `since` from the rows last
    stored, so that a wait that went on across the rebuild keeps its start
    and is not mailed about again (docs/accounts.md, "E-mail")."""

    def __init__(self, turn_based: bool) -> None:
        self.turn_based = turn_based
        self._written: _Key | None = None
        self._since: dict[int, float] = {}
        self._seeded = False
        self._pending: tuple[_Key | None, dict[int, float]] = (None, {})

    async def changed(self, table: Any) -> list[SeatRow] | None:
        """The rows of `table` (the actor) as its step leaves them, if they
        changed since they were last written, for the step's own append to
        carry (`Store.append`'s `seats`), so that they cost no commit of
        their own; `written` once the store has them (a write the store
        refused is tried again whole). A table that never had an account at
        a seat asks nothing more (this runs at every step: the game's offers
        are not looked at)."""
        if self._written is None and not any(s is not None and s.account is not None and s.bot is None
                                             for s in table.seats.slots):
            return None
        if not self._seeded and self.turn_based:
            self.seed(await table.store.table_seats(table.id))
        state = table.play.state
        offered = table.port.offered(state) if state is not None and table.status == "running" else frozenset()
        return self.rows(table.id, table.seats.slots, table.play.clock, table.status, trio.current_time(),
                         table.wall(), offered)

    def written(self) -> None:
        """The rows `changed` gave last are stored (after None: they were already)."""
        self._written, self._since = self._pending

    def seed(self, stored: Sequence[SeatRow]) -> None:
        """Take the start of every wait from the table's rows as stored
        (before the first write of this index)."""
        self._seeded = True
        self._since = {r.seat: r.since for r in stored if r.awaits and not r.ended}

    def rows(self, table_id: str, slots: Sequence[Slot | None], table_clock: TableClock, status: str, clock: float,
             now: float, offered: frozenset[int] = frozenset()) -> list[SeatRow] | None:
        """The table's rows now, or None when they are those last written:
        the seat the clock's armed deadline waits on while the table runs,
        until when on the wall clock (`now`; `clock` is trio's time, which
        the deadline is in), and the seats an offer awaits (`offered`,
        `GamePort.offered`: awaited with no deadline of their own). What
        they record is kept once they are stored (`save`)."""
        deadline = table_clock.deadline
        running = status == "running"
        armed = deadline if running else None
        awaited = armed.pivot if armed is not None else None
        decision = armed.key if armed is not None else None
        until = now + max(0.0, armed.at - clock) if armed is not None else None
        ended = status not in ("open", "running")
        owed = frozenset(offered) if running else frozenset()
        accounts = tuple((s.account["id"], i) for i, s in enumerate(slots)
                         if s is not None and s.account is not None and s.bot is None)
        key: _Key = (accounts, awaited, decision, owed, ended)
        if key == self._written or (self._written is None and not accounts):
            return None
        waits = set() if ended else ({awaited} | owed) - {None}
        since = {seat: self._since.get(seat, now) for seat in waits if seat is not None}
        self._pending = (key, since)
        # A window (a deadline that waits on no one seat) runs out for every seat it awaits.
        window = armed is not None and armed.pivot is None
        return [SeatRow(account, table_id, seat, seat in since, since.get(seat, now),
                        until if seat in since and (seat == awaited or window) else None,
                        self.turn_based, ended, now)
                for account, seat in accounts]
