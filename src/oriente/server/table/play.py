"""The game played at a table: its state under its rules (through the
game's port, the table's only view of a game), the clock of its decisions,
and its result. The actor decides when a step happens and logs it; this
says what the step is: a seat's command applied, a deadline's silence
(docs/table.md T1.6), the seat proxy's move (T3)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ...games.kit.port import TABLE_SEAT, GamePort, RulesRejection, Waiting
from ..clock import TableClock
from .seat_index import SeatIndex
from .settings import TableSettings

log = logging.getLogger("oriente.table")

Events = list[dict[str, Any]]


class Play:
    """`state` is None before the start (and for a table served from its
    log without replaying it); `result` is the game's once it has ended."""

    def __init__(self, port: GamePort, settings: TableSettings) -> None:
        self.port = port
        self.state: Any = None
        self.result: dict[str, Any] | None = None
        self.clock = TableClock.new(settings.timers, settings.seats)
        self.index = SeatIndex(settings.timers.turn_based)  # whom the clock awaits, by account (T8.8)
        self.proxy_after = settings.proxy_after
        self.talk: frozenset[str] = frozenset(port.talk_commands)
        # Told how late each deadline applied, seconds (a turn-based table's, for /metrics: T8.2).
        self.on_late: Callable[[float], None] | None = None

    def start(self, config: Any) -> Events:
        """Set the game up; its first events."""
        self.state, events = self.port.start(config)
        return list(events)

    def is_talk(self, cmd: Any) -> bool:
        """Is `cmd` the game's talk, refused once the log is full (T5.4)?"""
        return isinstance(cmd, dict) and cmd.get("type") in self.talk

    def apply(self, seat: int, cmd: Any) -> Events:
        """The seat's command through the rules (RulesRejection if refused:
        nothing changed)."""
        return self.port.apply(self.state, seat, cmd)

    def rearm(self, running: bool, now: float, refills: int = 0) -> None:
        """Arm a deadline for the open decision, if the game runs
        (`TableClock.rearm`), after the step's `refills` (T1.4)."""
        waiting = self.port.waiting(self.state) if self.state is not None and running else None
        if waiting is None:
            self.clock.rearm(None, None, "", now, refills)
        else:
            self.clock.rearm(waiting.key, waiting.pivot, waiting.timer, now, refills)

    def due(self, running: bool, now: float) -> Waiting | None:
        """The armed deadline passed: the decision whose silence applies now;
        None if the deadline was another decision's (rearmed for this one)."""
        d = self.clock.deadline
        waiting = self.port.waiting(self.state) if self.state is not None else None
        if d is None or waiting is None or waiting.key != d.key:
            self.rearm(running, now)
            return None
        if self.on_late is not None:
            self.on_late(max(0.0, now - d.at) + d.late_s)
        return waiting

    def proxy_move(self, seat: int, table_id: str) -> tuple[Any, Events] | None:
        """The reference bot's answer for a proxied seat (T3.2-T3.4), decided
        from the seat's own view, and its events; None: the silence applies."""
        cmd = self.port.proxy_command(self.state, seat)
        if cmd is None:
            return None
        try:
            return cmd, self.port.apply(self.state, seat, cmd)
        except RulesRejection:
            log.warning("table %s: the proxy for seat %d chose a refused command", table_id, seat)
            return None

    def silence(self, waiting: Waiting) -> tuple[Any, Events, Events]:
        """The silence of the decision `waiting` applied as the table's own
        timeout command: the command, the table's events and the game's (the
        seat's timeout told first), and the game's events alone."""
        new: Events = []
        if waiting.pivot is not None:
            new = self.clock.silent(waiting.pivot, waiting.key[0], self.proxy_after)
        cmd = self.port.timeout_command(waiting)
        game_events = self.port.apply(self.state, TABLE_SEAT, cmd)
        return cmd, [*new, *game_events], game_events

    def ended(self) -> bool:
        """Has the game ended (its `result` then set)?"""
        result = self.port.result(self.state)
        if result is not None:
            self.result = result
        return result is not None
