"""What plain HTTP may cost, per client address (PROTOCOL.md 12, 13).

The websocket's frames have their token bucket per connection; HTTP has
none of its own (one request per connection), so a client that opens a
connection per request is counted by its address instead (the address
limits count under: server/addresses.py). Every request for something
the server makes for it (an export, an account's page, a replay) costs a
token, and one that makes it work hard (building a replay it has not
cached) costs more (`ReplayCache`); the page's files, ready in memory,
cost nothing. With the bucket empty the request is held
until the tokens are there (at most HOLD_S), or answered 429 with
`Retry-After`; the client's own bucket refills with time: one address
cannot spend the server's CPU for the players.

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
HTTP_BURST = 120.0  # what a page asks for at once is a few; a crowd behind one address, many
KEEP_ADDRESSES = 10_000
HOLD_S = 2.0  # an address out of tokens waits this long at most, then is refused
MAX_HELD = 256  # requests held at once, over all addresses; past that, refused at once


class AddressBudget:
    """A token bucket per address: `take` spends, or says how long to wait."""

    def __init__(self, rate: float = HTTP_RATE, burst: float = HTTP_BURST, *, keep: int = KEEP_ADDRESSES,
                 hold_s: float = HOLD_S, max_held: int = MAX_HELD,
                 clock: Callable[[], float] = trio.current_time) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self.hold_s = hold_s
        self.max_held = max_held
        self.clock = clock
        self._held = 0
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

    async def spend(self, address: str, cost: float = 1.0) -> float | None:
        """`take`, but a request that finds the bucket short is held until
        its tokens are there (HOLD_S at most, MAX_HELD requests at once):
        a client that asks again at once is slowed to the pace its budget
        allows, rather than answered in a loop that costs the server a
        refusal each time (nginx's `limit_req` delays the same way). None:
        spent; otherwise the seconds still to wait, and it is refused."""
        wait = self.take(address, cost)
        if wait is None or not await self.hold(wait):
            return wait
        return self.take(address, cost)

    async def hold(self, seconds: float) -> bool:
        """Hold a request for `seconds` (HOLD_S at most) before it is
        answered; False, at once, when MAX_HELD requests are held already."""
        if self._held >= self.max_held:
            return False
        self._held += 1
        try:
            await trio.sleep(min(seconds, self.hold_s))
        finally:
            self._held -= 1
        return True

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
