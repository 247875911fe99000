"""What the accounts' tests share: a wall clock the test moves, a cheap
argon2 that counts its verifications (a try that reached the hasher), and
an `Accounts` over a running store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

import trio
from argon2 import PasswordHasher

from oriente.server.accounts import AccountPolicy, Accounts
from oriente.server.stores import Store

T0 = 1_800_000_000.0
RIGHT = "correct horse"


class Clock:
    """The wall clock the accounts read, moved by the test."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


class CountingHasher(PasswordHasher):
    """Cheap argon2 that counts every verification: a try that reached the hasher."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified = 0

    def verify(self, hash: Any, password: Any) -> Literal[True]:
        self.verified += 1
        return super().verify(hash, password)


@asynccontextmanager
async def accounts_on(store: Store, clock: Clock, hasher: CountingHasher | None = None,
                      policy: AccountPolicy | None = None) -> AsyncIterator[Accounts]:
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        try:
            yield Accounts(store, hasher=hasher or CountingHasher(), wall=clock, inline=True, policy=policy)
        finally:
            await store.aclose()
