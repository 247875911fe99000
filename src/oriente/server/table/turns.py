"""What a turn-based table adds to the actor's timing (docs/table.md T8).

Its deadlines are wall-clock times (T8.2, T8.3) and an open one is
abandoned after days without a seat taken or left (T8.4); the actor runs on
trio's clock, so these convert between the two at the moment they are asked.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import trio

from ..clock import TableClock, turn_resume

__all__ = ["TURN_ABANDON_AFTER_S", "abandon_at", "resume_clock", "wake_at"]

# An open turn-based table at which no seat was taken or left for this long is abandoned (T8.4).
TURN_ABANDON_AFTER_S = 7 * 86_400.0


def resume_clock(clock: TableClock, data: dict[str, Any], paused_ms: int,
                 turn: tuple[float, float] | None, wall: Callable[[], float]) -> None:
    """Resume a restored table's clock: a live table's with the time it had
    (T4.1); a turn-based table's on the calendar, given `turn` = (when its
    clock was saved, when this server started) (T8.2, T8.3)."""
    floor_ms: int | None = None
    if turn is not None and clock.settings.turn_based:
        paused_ms, floor_ms = turn_resume(data, turn[0], wall(), turn[1])
    clock.restore(data, trio.current_time(), paused_ms, floor_ms)


def abandon_at(status: str, seated_at: float, wall_now: float) -> float:
    """When (trio time) an open turn-based table is abandoned: 7 days after
    a seat was last taken or left (T8.4); never once it started."""
    if status != "open":
        return math.inf
    return trio.current_time() + (seated_at + TURN_ABANDON_AFTER_S - wall_now)


def wake_at(table: Any) -> float | None:
    """The wall time a table must be awake by: its deadline, or an open
    turn-based table's abandonment; None if nothing is due (T8.5)."""
    d = table.play.clock.deadline
    due = min(d.at if d is not None else math.inf, table.abandon_at())
    return None if due == math.inf else float(table.wall() + (due - trio.current_time()))
