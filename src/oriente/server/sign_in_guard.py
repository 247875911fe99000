"""Who may try a password now, decided before the hashing queue: a refused
try never reaches argon2 (docs/accounts.md, "Failed sign-ins").

- **Per name, exponential back-off.** Every password try under a name (the
  name case-folded, whether an account has it or not, so that the answers
  say nothing about which names exist) is charged to the name's back-off
  before its hash; a success clears it. After five tries in a row the next
  waits 1 s, then 2, 4, ... at most 5 minutes: a guesser gets about ten
  tries in the first minute and then one per 5 minutes however many
  addresses it has.
- **A familiar address has its own back-off.** An address the account
  signed in from lately (a live session made or used there in the last 30
  days) is charged to a back-off of its own, so a flood from elsewhere
  does not lock the owner out where they usually sign in; elsewhere the
  right password waits like a wrong one (without hashing it, nothing can
  tell them apart).
- **Per address, a budget of failed sign-ins** over every name: 30, then one
  more every 10 s. A try is charged when it starts and given back when it
  succeeds.
- **Per address, a budget of new accounts** (people by `sign_up`, bots by
  their first `bot_token`): 20, then one more every 3 minutes.

Refusals say how many seconds to wait (`retry_after`). The rows live in
server/throttles.py's `Throttles`, in memory and in the store.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from .account_errors import AccountError
from .hash_queue import CLEAN, FAMILIAR, SUSPECT
from .stores import AccountRow, Store
from .throttles import Backoff, Budget, Throttles

__all__ = ["GuardPolicy", "SignInGuard", "Ticket"]

DAY: Final = 86400.0
MAX_KEY: Final = 40  # characters of a name that make its key (a longer name is no account's)
FAMILIAR_CACHE_S: Final = 60.0
FAMILIAR_CACHE_KEYS: Final = 10_000


@dataclass(frozen=True, slots=True)
class GuardPolicy:
    """The numbers of docs/accounts.md; tests pass their own."""

    per_name: Backoff = field(default_factory=Backoff)
    failures_per_address: Budget = field(default_factory=lambda: Budget(burst=30, every=10.0))
    accounts_per_address: Budget = field(default_factory=lambda: Budget(burst=20, every=180.0))
    familiar_for: float = 30 * DAY


@dataclass(frozen=True, slots=True)
class Ticket:
    """A password try let through: the back-off lane it was charged to, the
    address's key, and its hash's lane in the queue (server/hash_queue.py)."""

    lane: str
    address: str
    priority: int


def name_key(name: str) -> str:
    return name.casefold()[:MAX_KEY]


def seconds(wait: float) -> float:
    """A wait as the refusal says it: tenths of a second, rounded up."""
    return max(0.1, math.ceil(wait * 10 - 1e-9) / 10)


class SignInGuard:
    def __init__(self, store: Store, throttles: Throttles, policy: GuardPolicy,
                 wall: Callable[[], float]) -> None:
        self.store = store
        self.throttles = throttles
        self.policy = policy
        self.wall = wall
        self._familiar: dict[str, tuple[float, frozenset[str]]] = {}  # name key -> (read at, addresses)

    # -- sign-ins ----------------------------------------------------------------------

    def priority(self, address: str) -> int:
        """The queue's lane of a hash for an address not known to be
        familiar: CLEAN without recent failed sign-ins, else SUSPECT."""
        clean = self.policy.failures_per_address.full(self.throttles.row(f"fail:{address}"), self.wall())
        return CLEAN if clean else SUSPECT

    def refuse_early(self, name: str, address: str) -> None:
        """Refuse, without any I/O, a try this process already knows must
        wait: the address's budget is spent, or the name is backing off and
        the address is not known to be familiar."""
        self._check_address(self.throttles.wait(f"fail:{address}", self.policy.failures_per_address))
        key = name_key(name)
        cached = self._familiar.get(key)
        if cached is not None and self.wall() - cached[0] < FAMILIAR_CACHE_S and address not in cached[1]:
            self._check_name(self.throttles.wait(f"in:{key}", self.policy.per_name))

    async def admit(self, name: str, address: str,
                    room: Callable[[int], None] = lambda priority: None) -> tuple[Ticket, AccountRow | None]:
        """Charge one password try, or refuse it (AccountError with
        retry_after); with the account the name is, if any. `room(priority)`
        may refuse it first, uncharged (the hashing queue's lane is full)."""
        self.refuse_early(name, address)
        key = name_key(name)
        account = await self.store.account_by_key(key)
        familiar = address in await self._familiar_addresses(key, account)
        lane = f"in:{key}@{address}" if familiar else f"in:{key}"
        priority = FAMILIAR if familiar else self.priority(address)
        room(priority)
        refused = await self.throttles.take([(f"fail:{address}", self.policy.failures_per_address),
                                             (lane, self.policy.per_name)])
        if refused is not None:
            blocker, wait = refused
            if blocker.startswith("fail:"):
                self._check_address(wait)
            self._check_name(wait)
        return Ticket(lane, address, priority), account

    async def passed(self, ticket: Ticket) -> None:
        """The try's password was right: its name's lane starts again, the
        address gets its try back, and (a session is made there) is familiar."""
        await self.throttles.release(clear=[ticket.lane],
                                     give_back=[(f"fail:{ticket.address}", self.policy.failures_per_address)])
        key = ticket.lane.removeprefix("in:").split("@", 1)[0]
        cached = self._familiar.get(key)
        if cached is not None:
            self._familiar[key] = (cached[0], cached[1] | {ticket.address})

    def sessions_changed(self, account: AccountRow) -> None:
        """Sessions of the account ended: read its familiar addresses anew."""
        self._familiar.pop(name_key(account.name), None)

    def _check_address(self, wait: float) -> None:
        if wait > 0:
            raise AccountError("auth/address_limited",
                               f"too many failed sign-ins from your address lately: try again in "
                               f"{seconds(wait):g} s", retry_after=seconds(wait))

    def _check_name(self, wait: float) -> None:
        if wait > 0:
            raise AccountError("auth/backing_off",
                               f"too many failed sign-ins under this name lately: try again in {seconds(wait):g} s "
                               "(a session you still hold signs in at once)", retry_after=seconds(wait))

    async def _familiar_addresses(self, key: str, account: AccountRow | None) -> frozenset[str]:
        """The addresses the account's live sessions were made or used at
        within `familiar_for` (read at most once a minute per name)."""
        now = self.wall()
        cached = self._familiar.get(key)
        if cached is not None and now - cached[0] < FAMILIAR_CACHE_S:
            return cached[1]
        found: set[str] = set()
        if account is not None:
            for c in await self.store.credentials(account.id):
                if c.kind == "session" and c.revoked_at is None and \
                        max(c.created_at, c.used_at or 0.0) >= now - self.policy.familiar_for:
                    found |= {a for a in (c.address, c.used_address) if a}
        if len(self._familiar) >= FAMILIAR_CACHE_KEYS:
            self._familiar.clear()
        self._familiar[key] = (now, frozenset(found))
        return self._familiar[key][1]

    # -- new accounts --------------------------------------------------------------------

    async def admit_account(self, address: str) -> None:
        """Charge the address one new account, or refuse it."""
        rule = self.policy.accounts_per_address
        wait = self.throttles.wait(f"up:{address}", rule)
        refused = (f"up:{address}", wait) if wait > 0 else await self.throttles.take([(f"up:{address}", rule)])
        if refused is not None:
            raise AccountError("account/sign_up_limited",
                               f"your address made {rule.burst} accounts lately, the most it may at once; "
                               f"one more every {rule.every:g} s: try again in {seconds(refused[1]):g} s",
                               retry_after=seconds(refused[1]))

    async def account_void(self, address: str) -> None:
        """The account charged was not made after all: give the try back."""
        await self.throttles.give_back(f"up:{address}", self.policy.accounts_per_address)
