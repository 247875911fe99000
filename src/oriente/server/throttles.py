"""How often something may be tried: exponential back-off and budgets per
key, decided in memory before any costly work, and kept in the store so
that a restart, and a site's other processes, see them (docs/accounts.md,
"Failed sign-ins").

Two rules, each a pure function of a key's row (`ThrottleRow`) and the time:

- `Backoff`: every try counts. The first `free` tries pass at once; after
  the n-th try beyond them the next one waits ``base * 2**(n-1)`` seconds,
  at most `cap`. A key that saw no try for `forget` seconds starts again,
  and a success clears it (`Throttles.clear`).
- `Budget`: a token bucket of `burst` tries, refilled one every `every`
  seconds, kept as one number (the generic cell rate algorithm's
  theoretical arrival time, in `until`), so that a row stays four fields.

`Throttles` holds the rows this process knows. A refusal it can decide
from memory costs no I/O (`wait`); an admission reads the keys' stored rows
first (another process's tries, or those from before a restart), decides
on the newer of each, and writes the charged rows back before the caller
goes on to the costly work. Within one process that is exact (the decision
and the charge happen without a checkpoint between them); on a site of
several processes two of them may admit one try each at the same moment,
so a bound holds per process at worst, and across the site as long as the
tries are not simultaneous.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Final

from .stores import Store, StoreError, ThrottleRow

__all__ = ["KEEP_S", "Backoff", "Budget", "Rule", "Throttles"]

log = logging.getLogger("oriente.throttles")

# A row untouched this long says nothing any more (every rule's windows are
# far shorter): the store's copy is pruned, at most once per PRUNE_EVERY_S.
KEEP_S: Final = 24 * 3600.0
PRUNE_EVERY_S: Final = 3600.0


@dataclass(frozen=True, slots=True)
class Backoff:
    """Exponential back-off after `free` tries: waits of base, 2·base,
    4·base, ... seconds, at most `cap`; forgotten after `forget` quiet seconds."""

    free: int = 5
    base: float = 1.0
    cap: float = 300.0
    forget: float = 3600.0

    def wait(self, row: ThrottleRow | None, now: float) -> float:
        return 0.0 if row is None else max(0.0, row.until - now)

    def tried(self, key: str, row: ThrottleRow | None, now: float) -> ThrottleRow:
        """The row after one more try at `now`."""
        count = 1 if row is None or now - row.updated_at > self.forget else row.count + 1
        delay = 0.0 if count <= self.free else min(self.cap, self.base * 2.0 ** (count - self.free - 1))
        return ThrottleRow(key, count, now + delay, now)

    def delay(self, tries: int) -> float:
        """The wait after `tries` tries in a row (for the docs and tests)."""
        return 0.0 if tries <= self.free else min(self.cap, self.base * 2.0 ** (tries - self.free - 1))


@dataclass(frozen=True, slots=True)
class Budget:
    """`burst` tries at once, then one more every `every` seconds."""

    burst: int
    every: float

    def _tat(self, row: ThrottleRow | None, now: float) -> float:
        return now if row is None else max(row.until, now)

    def wait(self, row: ThrottleRow | None, now: float) -> float:
        return max(0.0, self._tat(row, now) - (self.burst - 1) * self.every - now)

    def tried(self, key: str, row: ThrottleRow | None, now: float) -> ThrottleRow:
        return ThrottleRow(key, (row.count if row is not None else 0) + 1, self._tat(row, now) + self.every, now)

    def returned(self, key: str, row: ThrottleRow | None, now: float) -> ThrottleRow | None:
        """The row once one try is given back (None: the bucket is full again)."""
        if row is None:
            return None
        until = row.until - self.every
        return ThrottleRow(key, max(0, row.count - 1), until, now) if until > now else None

    def full(self, row: ThrottleRow | None, now: float) -> bool:
        """No try was charged lately (the bucket holds `burst`)."""
        return row is None or row.until <= now


Rule = Backoff | Budget


class Throttles:
    """Rows by key, in memory and in the store. `wall` is the clock (the
    store's times are wall times, so that they mean the same after a
    restart); tests pass their own. At most `max_keys` rows stay in memory:
    past that, the rows whose windows have passed go first, then the oldest."""

    def __init__(self, store: Store, wall: Callable[[], float], *, max_keys: int = 100_000) -> None:
        self.store = store
        self.wall = wall
        self.max_keys = max_keys
        self._rows: dict[str, ThrottleRow] = {}
        self._pruned_at = float("-inf")

    def row(self, key: str) -> ThrottleRow | None:
        """The row this process knows for `key` (no I/O)."""
        return self._rows.get(key)

    def wait(self, key: str, rule: Rule) -> float:
        """Seconds before a try under `key` may pass, as far as this process
        knows without asking the store: a refusal decided here costs nothing."""
        return rule.wait(self._rows.get(key), self.wall())

    async def refresh(self, keys: Collection[str]) -> None:
        """Take the store's row of each key where it is newer than ours."""
        try:
            stored = await self.store.throttles(keys)
        except StoreError as exc:  # the store is down: this process's own rows still hold
            log.warning("throttles not read (%s); deciding on this process's own", exc)
            return
        for key, row in stored.items():
            mine = self._rows.get(key)
            # The newer row wins; at the same instant, the one that holds back more.
            if mine is None or (row.updated_at, row.count, row.until) > (mine.updated_at, mine.count, mine.until):
                self._rows[key] = row

    async def take(self, charges: Sequence[tuple[str, Rule]]) -> tuple[str, float] | None:
        """One try under every key, or under none: None when it passes (each
        key charged, here and in the store, before this returns); else the
        key that refused it and the seconds it asks to wait."""
        await self.refresh([key for key, _ in charges])
        now = self.wall()
        # No checkpoint from here to the charge: two tries in this process
        # cannot both pass on the same state.
        blocking = max(((key, rule.wait(self._rows.get(key), now)) for key, rule in charges), key=lambda kw: kw[1])
        if blocking[1] > 0:
            return blocking
        rows = [rule.tried(key, self._rows.get(key), now) for key, rule in charges]
        for row in rows:
            self._rows[row.key] = row
        self._trim(now)
        await self._save(rows, (), now)
        return None

    async def give_back(self, key: str, rule: Budget) -> None:
        """Return one try to a budget (the work it paid for did not count)."""
        await self.release(give_back=[(key, rule)])

    async def clear(self, key: str) -> None:
        """Forget every try under `key` (a back-off after a success)."""
        await self.release(clear=[key])

    async def release(self, *, clear: Collection[str] = (), give_back: Sequence[tuple[str, Budget]] = ()) -> None:
        """`clear` and `give_back` at once, in one write."""
        now = self.wall()
        rows: list[ThrottleRow] = []
        drop = [key for key in clear if self._rows.pop(key, None) is not None]
        for key, rule in give_back:
            row = rule.returned(key, self._rows.get(key), now)
            if row is None:
                if self._rows.pop(key, None) is not None:
                    drop.append(key)
            else:
                self._rows[key] = row
                rows.append(row)
        if rows or drop:
            await self._save(rows, drop, now)

    async def _save(self, rows: Sequence[ThrottleRow], drop: Collection[str], now: float) -> None:
        try:
            await self.store.save_throttles(rows, drop)
            if now - self._pruned_at >= PRUNE_EVERY_S:
                self._pruned_at = now
                await self.store.prune_throttles(now - KEEP_S)
        except StoreError as exc:  # this process's rows still hold; a restart would forget these
            log.warning("throttles not saved (%s); kept in this process only", exc)

    def _trim(self, now: float) -> None:
        if len(self._rows) <= self.max_keys:
            return
        for key in [k for k, r in self._rows.items() if r.until <= now and now - r.updated_at > 3600.0]:
            del self._rows[key]
        if len(self._rows) > self.max_keys:
            for key in list(self._rows)[: len(self._rows) - self.max_keys // 2]:
                del self._rows[key]
