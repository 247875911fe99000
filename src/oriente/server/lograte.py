"""Warnings that a client can cause, written rarely enough that no client
can fill the server's log with them: at most one per kind per `every`
seconds, with the count of those left out since the last one."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class RareWarning:
    """One kind of warning (say, "X-Forwarded-For from an untrusted peer")."""

    def __init__(self, log: logging.Logger, every: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.every = every
        self.clock = clock
        self._last = -float("inf")
        self._left_out = 0

    def warn(self, message: str, *args: object) -> bool:
        """Log `message % args` unless one went out less than `every`
        seconds ago; True when it was logged."""
        now = self.clock()
        if now - self._last < self.every:
            self._left_out += 1
            return False
        if self._left_out:
            message += " (and %d more like it in the last %d s)"
            args = (*args, self._left_out, round(now - self._last))
        self._last, self._left_out = now, 0
        self.log.warning(message, *args)
        return True
