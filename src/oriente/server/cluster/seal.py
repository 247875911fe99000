"""Sealing the bus: every message between a site's processes is encrypted
and authenticated with the site's key, so that whoever reaches Redis can
neither read nor forge nor replay them.

Why seal rather than sign. The bus carries what a client sends a table and
what the table sends back: seat tokens and join nonces (a seat's
credentials), API tokens never, but private views (a player's hand) and
chat always. A MAC alone (HMAC-SHA256) would stop forgeries and hide
nothing; taking the secrets out of the forwarded frames would still leave
every hand on the wire. So each message is sealed with AES-256-GCM, an
AEAD: its 16-byte tag authenticates the header and the body (the MAC), and
its cipher hides the body, under one key and in one pass (a few
microseconds for a frame, against the 1.6 ms a forwarded step costs).

The keys:

- **The site key** (32 random bytes) is made once by the first process of
  a site and kept in the shared store (`PostgresStore.site_key`); every
  process reads it at start. `oriente serve --cluster URL` needs nothing
  more. Whoever can read the database can read the bus, which is no loss:
  the database holds every log and every token's hash already.
- **A process key** per process and start: HKDF-SHA256 of the site key with
  a random 16-byte salt that the process draws when it starts and sends in
  every header. Nonces are then a counter, never random, and never repeat
  under one key (random 96-bit GCM nonces would be safe for about 2**32
  messages only: two days of a busy site).

What a receiver checks, and drops (counted by reason) when it fails:

- `short`: not even a header; `version`: a format it does not know;
- `forged`: the tag does not authenticate the header (salt, counter, time),
  the channel it arrived on (a message for one process cannot be replayed
  to another) and the body;
- `replayed`: a counter not above the last one accepted from that salt
  (one publisher's messages reach a subscriber in order);
- `stale`: from a salt not seen lately, sent more than `window_s` ago by
  the sender's clock (a replay of an old capture; the processes' clocks
  must agree within that window, as NTP keeps them).
"""

from __future__ import annotations

import os
import struct
import time
from collections import Counter, OrderedDict
from collections.abc import Callable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

__all__ = ["KEY_BYTES", "Sealer", "new_site_key"]

VERSION = 1
KEY_BYTES = 32
_HEADER = struct.Struct(">B16sQQ")  # version, the sender's salt, its counter, sent at (ms of its wall clock)
_TAG = 16
_INFO = b"oriente bus v1"
WINDOW_S = 300.0  # how old a message from a sender not seen lately may be
MAX_SENDERS = 4096  # salts remembered (processes and their restarts)
_KEYS_CACHED = 256


def new_site_key() -> bytes:
    return os.urandom(KEY_BYTES)


def _process_key(site_key: bytes, salt: bytes) -> AESGCM:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=salt, info=_INFO)
    return AESGCM(hkdf.derive(site_key))


def _nonce(counter: int) -> bytes:
    return b"\0\0\0\0" + counter.to_bytes(8, "big")


class Sealer:
    """One process's sealing and opening of bus messages. Not thread-safe:
    call it from trio's thread (the bus does)."""

    def __init__(self, site_key: bytes, *, wall: Callable[[], float] = time.time,
                 window_s: float = WINDOW_S) -> None:
        if len(site_key) != KEY_BYTES:
            raise ValueError(f"a site key is {KEY_BYTES} bytes, not {len(site_key)}")
        self._site_key = site_key
        self._salt = os.urandom(16)
        self._own = _process_key(site_key, self._salt)
        self._counter = 0
        self.wall = wall
        self.window_s = window_s
        self._keys: OrderedDict[bytes, AESGCM] = OrderedDict({self._salt: self._own})
        self._last: OrderedDict[bytes, tuple[int, float]] = OrderedDict()  # salt -> (counter, seen at)
        self.dropped: Counter[str] = Counter()

    def seal(self, channel: str, body: bytes) -> bytes:
        self._counter += 1
        header = _HEADER.pack(VERSION, self._salt, self._counter, int(self.wall() * 1000))
        return header + self._own.encrypt(_nonce(self._counter), body, header + channel.encode())

    def open(self, channel: str, sealed: bytes) -> bytes | None:
        """The body of an authentic, fresh message; None (and counted in
        `dropped`) for anything else."""
        if len(sealed) < _HEADER.size + _TAG:
            return self._drop("short")
        version, salt, counter, sent_ms = _HEADER.unpack_from(sealed)
        if version != VERSION:
            return self._drop("version")
        header = sealed[:_HEADER.size]
        key = self._keys.get(salt) or _process_key(self._site_key, salt)
        try:
            body = key.decrypt(_nonce(counter), sealed[_HEADER.size:], header + channel.encode())
        except InvalidTag:
            return self._drop("forged")
        self._remember_key(salt, key)
        now = self.wall()
        last = self._last.get(salt)
        if last is not None and counter <= last[0]:
            return self._drop("replayed")
        if last is None and abs(now - sent_ms / 1000) > self.window_s:
            return self._drop("stale")
        self._last[salt] = (counter, now)
        self._last.move_to_end(salt)
        self._forget(now)
        return body

    def _remember_key(self, salt: bytes, key: AESGCM) -> None:
        """Keep an authenticated sender's key (only those: a flood of forged
        salts must not push the real ones out)."""
        self._keys[salt] = key
        self._keys.move_to_end(salt)
        if len(self._keys) > _KEYS_CACHED:
            self._keys.popitem(last=False)

    def _forget(self, now: float) -> None:
        """Let go of senders not heard for two windows (a replay of their
        messages is stale by then), and of the oldest beyond MAX_SENDERS."""
        while self._last:
            salt, (_, seen) = next(iter(self._last.items()))
            if now - seen <= 2 * self.window_s and len(self._last) <= MAX_SENDERS:
                break
            del self._last[salt]

    def _drop(self, reason: str) -> bytes | None:
        self.dropped[reason] += 1
        return None
