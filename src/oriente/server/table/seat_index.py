"""The table's rows in the index of seats by account (the store's
`account_seats`; PROTOCOL.md 3, my_tables; docs/accounts.md, "E-mail"):
for each seat an account holds, whether the table awaits that seat now,
since when and until when (wall clock). The actor asks after each step
it stores; the rows are written only when one of them changed, so a table
without accounts never writes any, and a step that keeps the same seat
waiting on the same decision writes nothing. The index outlives the
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
# awaited and the decision's key, whether the table has ended.
_Key = tuple[tuple[tuple[str, int], ...], int | None, Any, bool]


class SeatIndex:
    """What this table last wrote to the index, and since when each seat
    has been awaited."""

    def __init__(self, turn_based: bool) -> None:
        self.turn_based = turn_based
        self._written: _Key | None = None
        self._since: dict[int, float] = {}
        self._pending: tuple[_Key | None, dict[int, float]] = (None, {})

    async def save(self, table: Any) -> None:
        """Write the rows of `table` (the actor) if they changed since they
        were last written (a write the store refused is tried again whole)."""
        rows = self.rows(table.id, table.seats.slots, table.play.clock, table.status, trio.current_time(),
                         table.wall())
        if rows is not None:
            await table.store.save_seats(table.id, rows)
            self._written, self._since = self._pending

    def rows(self, table_id: str, slots: Sequence[Slot | None], table_clock: TableClock, status: str, clock: float,
             now: float) -> list[SeatRow] | None:
        """The table's rows now, or None when they are those last written:
        the seat the clock's armed deadline waits on while the table runs,
        until when on the wall clock (`now`; `clock` is trio's time, which
        the deadline is in). What they record is kept once they are stored
        (`save`)."""
        deadline = table_clock.deadline
        running = status == "running" and deadline is not None
        awaited = deadline.pivot if running and deadline is not None else None
        decision = deadline.key if running and deadline is not None else None
        until = now + max(0.0, deadline.at - clock) if running and deadline is not None else None
        ended = status not in ("open", "running")
        accounts = tuple((s.account["id"], i) for i, s in enumerate(slots)
                         if s is not None and s.account is not None and s.bot is None)
        key: _Key = (accounts, awaited, decision, ended)
        if key == self._written or (self._written is None and not accounts):
            return None
        since = {} if awaited is None or ended else (
            self._since if awaited in self._since else {awaited: now})
        self._pending = (key, since)
        return [SeatRow(account, table_id, seat, seat == awaited and not ended,
                        since.get(seat, now), until if seat == awaited and not ended else None,
                        self.turn_based, ended, now)
                for account, seat in accounts]
