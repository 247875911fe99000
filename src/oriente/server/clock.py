"""Timer settings and the per-seat clock state of a table (docs/table.md T1-T4, PROTOCOL.md 11).

Pure bookkeeping, no trio: the actor passes in `now` (trio time) so the
same code runs under the real clock and trio's MockClock.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..protocol.messages import Timers

MIN_RESUME_MS = 1_000  # after a restart, a deadline gets at least this much
RESTART_GRACE_MS = 600_000  # a turn-based deadline the server's downtime let pass (docs/table.md T8.3)
HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
# Limits of a live table's timers and of a turn-based one's (docs/table.md T1.1, T8.1).
LIVE_LIMITS = {"prompt_ms": HOUR_MS, "window_ms": 600_000, "bank_ms": HOUR_MS}
TURN_LIMITS = {"prompt_ms": 7 * DAY_MS, "window_ms": 2 * DAY_MS, "bank_ms": 30 * DAY_MS}
_DEFAULTS = Timers()  # the protocol's create_table defaults are the one source


@dataclass(frozen=True, slots=True, kw_only=True)
class TimerSettings:
    """Table timer settings, milliseconds. `zero_wait` tables (bots) add no
    waiting of their own: windows close at once, but every prompt still has
    a deadline so a crashed bot cannot hang the table."""

    prompt_ms: int = _DEFAULTS.prompt_ms
    window_ms: int = _DEFAULTS.window_ms
    bank_ms: int = _DEFAULTS.bank_ms
    bank_refill_ms: int = _DEFAULTS.bank_refill_ms
    zero_wait: bool = _DEFAULTS.zero_wait
    away_after: int = _DEFAULTS.away_after
    turn_based: bool = _DEFAULTS.turn_based

    @classmethod
    def bots(cls) -> TimerSettings:
        return cls(prompt_ms=2_000, window_ms=0, bank_ms=0, bank_refill_ms=0, zero_wait=True, away_after=3)

    def validate(self) -> None:
        """Raise ValueError for timers out of their limits: a turn-based
        table's are days long (T8.1), a live table's an hour at most (T1.1)."""
        limits = TURN_LIMITS if self.turn_based else LIVE_LIMITS
        kind = "a turn-based table's " if self.turn_based else ""
        if not 100 <= self.prompt_ms <= limits["prompt_ms"]:
            raise ValueError(f"{kind}prompt_ms must be between 100 and {limits['prompt_ms']}")
        if not 0 <= self.window_ms <= limits["window_ms"]:
            raise ValueError(f"{kind}window_ms must be between 0 and {limits['window_ms']}")
        if not 0 <= self.bank_ms <= limits["bank_ms"] or not 0 <= self.bank_refill_ms <= limits["bank_ms"]:
            raise ValueError(f"{kind}bank_ms and bank_refill_ms must be between 0 and {limits['bank_ms']}")
        if not 1 <= self.away_after <= 100:
            raise ValueError("away_after must be between 1 and 100")
        if self.turn_based and self.zero_wait:
            raise ValueError("a turn-based table cannot be zero_wait")

    def as_dict(self) -> dict[str, Any]:
        """The settings as the table information shows them. `turn_based`
        appears only on a turn-based table, so that a live table's timers,
        its stored settings and its record read as before."""
        d = asdict(self)
        if not self.turn_based:
            del d["turn_based"]
        return d


@dataclass(slots=True)
class Deadline:
    """An armed deadline: `key` is the decision's (id, pivot)."""

    key: tuple[int, int | None]
    pivot: int | None
    started: float  # trio time when it was armed (for time bank charging)
    at: float  # trio time when it expires
    base_ms: int  # the part that does not use the time bank
    late_s: float = 0.0  # how late it already was when its table was rebuilt (a turn-based table's, T8.2)


@dataclass(slots=True)
class SeatClock:
    bank_ms: int
    timeouts_in_row: int = 0
    away: bool = False
    proxied: bool = False  # a reference bot plays the seat until its owner returns


@dataclass(slots=True)
class TableClock:
    """Everything about time at one table that must survive a restart."""

    settings: TimerSettings
    seats: list[SeatClock] = field(default_factory=list)
    deadline: Deadline | None = None

    @classmethod
    def new(cls, settings: TimerSettings, n: int) -> TableClock:
        return cls(settings=settings, seats=[SeatClock(bank_ms=settings.bank_ms) for _ in range(n)])

    def duration_ms(self, pivot: int | None, timer: str) -> tuple[int, int]:
        """(total, base) for a new deadline: a window's length, or the prompt
        time plus the pivot's time bank; zero for an away seat."""
        s = self.settings
        if pivot is None or timer == "window":
            w = 0 if s.zero_wait else s.window_ms
            return w, w
        seat = self.seats[pivot]
        if seat.away or seat.proxied:
            return 0, 0
        return s.prompt_ms + seat.bank_ms, s.prompt_ms

    def charge(self, now: float) -> None:
        """The armed deadline ends: time beyond its base comes off the bank (T1.3)."""
        d = self.deadline
        self.deadline = None
        if d is None or d.pivot is None:
            return
        used_ms = int((now - d.started) * 1000)
        over = used_ms - d.base_ms
        if over > 0:
            seat = self.seats[d.pivot]
            seat.bank_ms = max(0, seat.bank_ms - over)

    def refill(self, times: int) -> None:
        """Every bank grows, `times` over, at the points the game names (T1.4)."""
        if times <= 0 or not self.settings.bank_refill_ms:
            return
        for seat in self.seats:
            seat.bank_ms = min(self.settings.bank_ms, seat.bank_ms + times * self.settings.bank_refill_ms)

    def rearm(self, key: tuple[int, int | None] | None, pivot: int | None, timer: str, now: float,
              refills: int = 0) -> None:
        """Arm a deadline for a new (decision, pivot) `key`, keep a running
        one (None: nothing is waited on). The deadline that ends is charged
        to its bank before the game's `refills`, so that a refill is never
        eaten by the time already spent (T1.2, T1.4)."""
        d = self.deadline
        if key is not None and d is not None and d.key == key:
            self.refill(refills)
            return
        self.charge(now)
        self.refill(refills)
        if key is None:
            return
        total, base = self.duration_ms(pivot, timer)
        self.deadline = Deadline(key=key, pivot=pivot, started=now, at=now + total / 1000, base_ms=base)

    def attended(self, seat: int) -> list[dict[str, Any]]:
        """The seat's owner is there (a command, or `back`): its timeouts in
        a row start again from zero, an away seat is back and a proxy hands
        the seat over (T2.2, T3.6). Returns the table events that say so."""
        new: list[dict[str, Any]] = []
        seat_clock = self.seats[seat]
        seat_clock.timeouts_in_row = 0
        if seat_clock.away:
            seat_clock.away = False
            new.append({"type": "SeatBack", "seat": seat})
        if seat_clock.proxied:
            seat_clock.proxied = False
            new.append({"type": "ProxyOff", "seat": seat})
        return new

    def proxy(self, seats: list[int]) -> None:
        """These seats are played by the seat proxy from now on, as away
        seats (their players did not come: T3)."""
        for seat in seats:
            self.seats[seat].proxied = True
            self.seats[seat].away = True

    def silent(self, seat: int, decision: int, proxy_after: int | None) -> list[dict[str, Any]]:
        """The seat let its deadline pass: one timeout more in a row, and the
        table events that say so, said before the silence's own events so
        that clients tell a timeout as one and not as a choice (TimedOut;
        SeatAway at `away_after` in a row, T2.1; ProxyOn at `proxy_after`, T3.1)."""
        new: list[dict[str, Any]] = []
        seat_clock = self.seats[seat]
        if not seat_clock.away:  # an away seat's silence is already told as such (SeatAway)
            new.append({"type": "TimedOut", "seat": seat, "decision": decision})
        seat_clock.timeouts_in_row += 1
        if not seat_clock.away and seat_clock.timeouts_in_row >= self.settings.away_after:
            seat_clock.away = True
            new.append({"type": "SeatAway", "seat": seat})
        if proxy_after is not None and not seat_clock.proxied and seat_clock.timeouts_in_row >= proxy_after:
            seat_clock.proxied = True
            new.append({"type": "ProxyOn", "seat": seat})
        return new

    def to_plain(self, now: float) -> dict[str, Any]:
        d = self.deadline
        return {
            "seats": [[s.bank_ms, s.timeouts_in_row, s.away, s.proxied] for s in self.seats],
            "deadline": None if d is None else {
                "key": list(d.key), "pivot": d.pivot, "base_ms": d.base_ms,
                "elapsed_ms": int((now - d.started) * 1000),
                "remaining_ms": max(0, int((d.at - now) * 1000)),
            },
        }

    def restore(self, data: dict[str, Any], now: float, paused_ms: int, floor_ms: int | None = None) -> None:
        """Resume after a restart. `paused_ms` is how long the table ran
        before the server went down without a saved clock: that time counts,
        the downtime does not: deadlines pause while the table is down (T4.1).
        A turn-based table passes the whole time since its clock was saved
        and its `floor_ms` (`turn_resume`), its deadline being a wall-clock
        time (T8.2, T8.3)."""
        self.seats = [SeatClock(bank_ms=s[0], timeouts_in_row=s[1], away=s[2], proxied=s[3] if len(s) > 3 else False)
                      for s in data["seats"]]
        d = data.get("deadline")
        if d is None:
            self.deadline = None
            return
        floor = min(MIN_RESUME_MS, d["remaining_ms"]) if floor_ms is None else floor_ms
        remaining = max(d["remaining_ms"] - paused_ms, floor)
        elapsed = d["elapsed_ms"] + (d["remaining_ms"] - remaining)
        key = (d["key"][0], d["key"][1])
        late = max(0, paused_ms - d["remaining_ms"]) / 1000 if floor_ms == 0 else 0.0
        self.deadline = Deadline(key=key, pivot=d["pivot"], started=now - elapsed / 1000,
                                 at=now + remaining / 1000, base_ms=d["base_ms"], late_s=late)


def turn_resume(data: dict[str, Any], saved_at: float, wall_now: float, started: float) -> tuple[int, int]:
    """How a turn-based table's saved clock resumes (docs/table.md T8.2,
    T8.3): `(paused_ms, floor_ms)` for `TableClock.restore`. Its deadline is a
    wall-clock time, so all the time since the clock was saved at `saved_at`
    counts, the server's downtime and the table's sleep alike; but a deadline
    armed before this server started at `started` gets at least the restart
    grace after that start."""
    paused_ms = max(0, int((wall_now - saved_at) * 1000))
    d = data.get("deadline")
    if d is None:
        return paused_ms, 0
    armed = saved_at - d["elapsed_ms"] / 1000
    if armed >= started:
        return paused_ms, 0
    return paused_ms, max(0, int((started - wall_now) * 1000) + RESTART_GRACE_MS)
