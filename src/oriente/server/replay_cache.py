"""`/data/replay/TABLE.json?as=VIEWER`, built once and served many times.

A replay plays the whole game again through its rules with a view per
step (server/replays.py): tens to hundreds of milliseconds of CPU for one
GET, which anyone may send. Unbounded, eight clients fetching replays in a
loop took a table from 40 moves a second to 4. So:

- **A cache per (table, viewer).** A finished table's record never
  changes, so neither does any of its replays: each is built once, kept
  gzipped with its ETag, and served from memory after that (a client that
  does not take gzip gets it unpacked, off the server's thread). The cache
  is bounded, least recently used first out: REPLAY_CACHE_ENTRIES replays
  and REPLAY_CACHE_BYTES of gzipped bytes. Requests for a replay being
  built wait for that build instead of starting another.
- **Builds cost their client.** On top of the token every HTTP request
  costs (server/budget.py), a build costs REPLAY_BUILD_COST tokens of the
  client address's budget: one address builds a replay every two seconds
  on average, after a burst of six; a replay from the cache costs no more
  than any file.
- **Builds share the CPU.** One build runs at a time, and all of them
  together may take BUILD_SHARE of the time on average (bursts of
  BUILD_BURST_S seconds), however many addresses ask: past that the
  request waits (two seconds at most, server/budget.py) or gets 503 with
  `Retry-After`. Tables are what the server is for.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import trio

from ..games.kit.port import GamePort, Viewer
from .budget import AddressBudget
from .replays import replay_steps

REPLAY_CACHE_ENTRIES = 2048
REPLAY_CACHE_BYTES = 64 * 1024 * 1024
REPLAY_BUILD_COST = 20.0
BUILD_SHARE = 0.1
BUILD_BURST_S = 1.0


@dataclass(frozen=True, slots=True)
class Built:
    """One replay, ready to send: its JSON gzipped, and its ETag."""

    gzipped: bytes
    etag: str
    size: int  # the JSON's length, unpacked


@dataclass(frozen=True, slots=True)
class Wait:
    """Not now: the HTTP status to answer (429, 503), why, and the seconds
    to wait (`Retry-After`)."""

    status: int
    reason: str
    seconds: float

    @property
    def retry_after(self) -> int:
        return max(1, math.ceil(self.seconds))


def build(port: GamePort, record: dict[str, Any], viewer: Viewer) -> Built:
    """The replay as it is sent (runs in a worker thread)."""
    body = json.dumps(replay_steps(port, record, viewer), ensure_ascii=False, separators=(",", ":")).encode()
    return Built(gzipped=gzip.compress(body, 6, mtime=0), etag='"' + hashlib.sha256(body).hexdigest()[:32] + '"',
                 size=len(body))


# (the record of a finished table that may be shown, or None) for a table id
LoadRecord = Callable[[str], Awaitable[dict[str, Any] | None]]


class ReplayCache:
    """Replays by (table, viewer): from memory, or built within the budgets."""

    def __init__(self, ports: dict[str, GamePort], load: LoadRecord, budget: AddressBudget, *,
                 max_entries: int = REPLAY_CACHE_ENTRIES, max_bytes: int = REPLAY_CACHE_BYTES,
                 build_cost: float = REPLAY_BUILD_COST, share: float = BUILD_SHARE,
                 burst_s: float = BUILD_BURST_S, default_game: str = "oriente",
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`load` gives the record of a finished table that may be shown
        (None: there is none); `budget` is the HTTP budget of the client
        addresses, which builds are charged to; `clock` measures builds."""
        self.ports = ports
        self.load = load
        self.budget = budget
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.build_cost = build_cost
        self.share = share
        self.burst_s = burst_s
        self.default_game = default_game
        self.clock = clock
        self._cache: OrderedDict[tuple[str, Viewer], Built] = OrderedDict()
        self.bytes = 0
        self._building: dict[tuple[str, Viewer], trio.Event] = {}
        self._builder = trio.CapacityLimiter(1)
        self._cpu = burst_s  # seconds of build time the site may still spend now
        self._cpu_at: float | None = None
        self.builds = 0
        self.hits = 0

    def __len__(self) -> int:
        return len(self._cache)

    async def get(self, table_id: str, viewer_text: str, address: str,
                  viewer_of: Callable[[str, int], Viewer | None]) -> Built | Wait | None:
        """The replay of `table_id` as `viewer_text` saw it, for a client at
        `address`; None when there is none to show (unknown, not finished,
        withheld, a viewer not at the table)."""
        while True:
            for key in self._keys(table_id, viewer_text):
                cached = self._cache.get(key)
                if cached is not None:
                    self._cache.move_to_end(key)
                    self.hits += 1
                    return cached
            record = await self.load(table_id)
            if record is None or record.get("result") is None:
                return None
            port = self.ports.get(record.get("game") or self.default_game)
            viewer = viewer_of(viewer_text, len(record.get("names") or []))
            if port is None or viewer is None:
                return None
            key = (table_id, viewer)
            if key in self._cache:
                continue
            building = self._building.get(key)
            if building is not None:  # someone else's build: wait for it, then take it from the cache
                await building.wait()
                if key in self._cache:
                    continue
            return await self._build(key, port, record, viewer, address)

    @staticmethod
    def _keys(table_id: str, viewer_text: str) -> list[tuple[str, Viewer]]:
        keys: list[tuple[str, Viewer]] = [(table_id, viewer_text)]
        if viewer_text.isascii() and viewer_text.isdecimal() and len(viewer_text) <= 3:
            keys.append((table_id, int(viewer_text)))
        return keys

    def _cpu_left(self) -> float:
        now = self.clock()
        if self._cpu_at is not None:
            self._cpu = min(self.burst_s, self._cpu + (now - self._cpu_at) * self.share)
        self._cpu_at = now
        return self._cpu

    async def _build(self, key: tuple[str, Viewer], port: GamePort, record: dict[str, Any], viewer: Viewer,
                     address: str) -> Built | Wait:
        if self._cpu_left() <= 0 and (not await self.budget.hold(self._busy().seconds) or self._cpu_left() <= 0):
            return self._busy()
        wait = await self.budget.spend(address, self.build_cost)
        if wait is not None:
            return Wait(429, "this address has asked for more replays than the server builds for one address "
                             "(one every two seconds, after a burst); the ones built are served at once", wait)
        done = self._building[key] = trio.Event()
        try:
            async with self._builder:
                if self._cpu_left() <= 0:  # builds queued meanwhile spent it: this one is not charged
                    self.budget.owe(address, -self.build_cost)
                    return self._busy()
                started = self.clock()
                built = await trio.to_thread.run_sync(build, port, record, viewer)
                self._cpu_left()
                self._cpu -= self.clock() - started
            self.builds += 1
            self._keep(key, built)
            return built
        finally:
            del self._building[key]
            done.set()

    def _busy(self) -> Wait:
        return Wait(503, "the server is building as many replays as it may while its tables play; "
                         "ask again in a moment", -self._cpu / max(self.share, 1e-9) + 0.1)

    def _keep(self, key: tuple[str, Viewer], built: Built) -> None:
        old = self._cache.pop(key, None)
        if old is not None:
            self.bytes -= len(old.gzipped)
        if len(built.gzipped) > self.max_bytes:
            return
        self._cache[key] = built
        self.bytes += len(built.gzipped)
        while len(self._cache) > self.max_entries or self.bytes > self.max_bytes:
            _, dropped = self._cache.popitem(last=False)
            self.bytes -= len(dropped.gzipped)
