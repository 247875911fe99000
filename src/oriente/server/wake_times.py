"""Where the time of a message's wake went (docs/table.md T8.5), for /metrics.

A message for a sleeping table waits for its wake: the store's read of the
table's row, log and clock (its turn on the store's connection, the read
itself, the hop back), the claim that takes it out of the index (a write:
the writer's next batch and its commit), and the rebuild (the replay of
the log, checked against the recorded events, and the actor's start). A
wake's total alone cannot say which of these makes the slow ones slow;
this keeps each step of the last `keep` wakes and, for /metrics, each
step's median, 99th percentile and maximum, and each step's mean over the
slowest hundredth of wakes: the tail's own breakdown.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from .stores.timing import Timed

__all__ = ["STEPS", "WakeTimes"]

# A wake's steps, in seconds, in the order they happen; "total" is the whole
# of `Lobby.find` for a table that was asleep.
STEPS = ("read_wait", "read", "read_back", "claim_wait", "claim", "claim_back", "rebuild", "total")


class WakeTimes:
    """The steps of the last `keep` wakes by a message."""

    __slots__ = ("_wakes", "count")

    def __init__(self, keep: int = 20_000) -> None:
        self._wakes: deque[tuple[float, ...]] = deque(maxlen=keep)
        self.count = 0

    def add(self, store: Sequence[Timed], rebuild: float, total: float) -> None:
        """One wake: its store requests (the read, then the claim's write;
        a wake without either counts it as 0) and the rebuild's time."""
        read = next((t for t in store if t.kind == "read"), None)
        claim = next((t for t in store if t.kind == "write"), None)
        steps = (*(read[1:] if read is not None else (0.0, 0.0, 0.0)),
                 *(claim[1:] if claim is not None else (0.0, 0.0, 0.0)), rebuild, total)
        self._wakes.append(steps)
        self.count += 1

    def metrics(self) -> list[str]:
        wakes = list(self._wakes)
        lines = ["# TYPE oriente_wake_step_seconds summary"]
        if not wakes:
            return [*lines, "oriente_wake_step_seconds_count 0"]
        total = len(STEPS) - 1
        slowest = sorted(wakes, key=lambda w: w[total])[-max(1, len(wakes) // 100):]
        for i, step in enumerate(STEPS):
            values = sorted(w[i] for w in wakes)
            for label, value in (("0.5", values[len(values) // 2]),
                                 ("0.99", values[min(len(values) - 1, int(0.99 * len(values)))]),
                                 ("1", values[-1])):
                lines.append(f'oriente_wake_step_seconds{{step="{step}",quantile="{label}"}} {value:.6f}')
            tail = sum(w[i] for w in slowest) / len(slowest)
            lines.append(f'oriente_wake_step_tail_seconds{{step="{step}"}} {tail:.6f}')
        lines.append(f"oriente_wake_step_seconds_count {self.count}")
        return lines
