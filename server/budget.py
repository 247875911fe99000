"""What plain HTTP may cost, per client address (PROTOCOL.md 12, 13).

The websocket's frames have their token bucket per connection; HTTP has
none of its own (one request per connection), so a client that opens a
connection per request is counted by its address instead (the address
limits count under: server/addresses.py). Every request costs a token;
one that makes the server work (building a replay it has not cached)
costs more (`ReplayCache`). With the bucket empty the request is answered
429 with `Retry-After`, and the client's own bucket refills with time:
one address cannot spend the server's CPU for the players.

Memory stays bounded with many addresses: a bucket that has refilled
completely is the same as no bucket, so those are dropped once there are
more than `keep` of them; past `keep` addresses that all still owe,
the oldest are dropped (they start again from a full bucket, which is what
an address never seen gets anyway).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import trio

HTTP_RATE = 10.0  # tokens a second, per address
HTTP_BURST = 120.0  # a page load is about ten requests; a dozen of them at once
KEEP_ADDRESSES = 10_000


class AddressBudget:
    """A token bucket per address: `take` spends, or says how long to wait."""

    def __init__(self, rate: float = HTTP_RATE, burst: float = HTTP_BURST, *, keep: int = KEEP_ADDRESSES,
                 clock: Callable[[], float] = trio.current_time) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when), oldest first

    def _tokens(self, address: str, now: float) -> float:
        tokens, when = self._buckets.get(address, (self.burst, now))
        return min(self.burst, tokens + (now - when) * self.rate)

    def take(self, address: str, cost: float = 1.0) -> float | None:
        """Spend `cost` tokens of `address`: None when it had them, else the
        seconds until it will (nothing is spent then)."""
        now = self.clock()
        tokens = self._tokens(address, now)
        if tokens < cost:
            return max(0.0, (cost - tokens) / self.rate) if self.rate > 0 else math.inf
        self._buckets.pop(address, None)  # re-inserted last: the dict's order is the age
        self._buckets[address] = (tokens - cost, now)
        if len(self._buckets) > self.keep:
            self._prune(now)
        return None

    def owe(self, address: str, cost: float) -> None:
        """Charge `cost` after the fact (the work is done; the bucket may go
        below zero, and the address then waits for it to refill)."""
        now = self.clock()
        tokens = self._tokens(address, now)
        self._buckets.pop(address, None)
        self._buckets[address] = (tokens - cost, now)

    def _prune(self, now: float) -> None:
        for address in [a for a in self._buckets if self._tokens(a, now) >= self.burst]:
            del self._buckets[address]
        while len(self._buckets) > self.keep:
            del self._buckets[next(iter(self._buckets))]

    def __len__(self) -> int:
        return len(self._buckets)
