"""Where a store request's time went, for whoever asks (`wake_times`).

A request to a store on a real database waits for its turn (the one
connection of SQLite, a read behind the batch in progress and the reads
before it; a write for the writer's next batch), runs in a worker thread,
and comes back to trio's thread once that thread is free. Under load the
three differ by orders of magnitude, and which one grows says what to cut.
A caller that wants them sets `SINK` to a `Listener` for the duration of
its requests (a context variable: only its own task's requests land there,
and those of the tasks it starts meanwhile, which inherit the variable:
hence the listener is switched off, not just unset, when the caller is
done); each request then notes one `Timed`. Nobody listening costs a lookup.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import NamedTuple

__all__ = ["SINK", "Listener", "Timed"]


class Timed(NamedTuple):
    """One store request, in seconds: `kind` "read" or "write"; `waited`
    from the call to its start in the worker thread (for a write, the start
    of the batch that held it); `ran` in the thread (a write's whole batch
    and commit); `back` from the thread's end to the caller running again."""

    kind: str
    waited: float
    ran: float
    back: float


class Listener:
    """What one caller heard: its requests' `Timed`, while `on`."""

    __slots__ = ("heard", "on")

    def __init__(self) -> None:
        self.heard: list[Timed] = []
        self.on = True

    def note(self, timed: Timed) -> None:
        if self.on:
            self.heard.append(timed)


SINK: ContextVar[Listener | None] = ContextVar("store_timing", default=None)
