"""Accounts: people who sign in with a password, bots that sign in with an
API token their owner made, the ratings and reputation finished games give
them (docs/accounts.md, PROTOCOL.md 19).

The small API the rest of the server uses:

- `sign_up`, `sign_in`, `sign_out`, `authenticate` (a session or API
  token to its account), `sign_in_token` (the same, noting the use),
  `still_signed_in` (a connection's session, checked again before it acts
  for the account), `sessions` and `sign_out_everywhere` (a person's
  sessions), `bot_token`, `tokens` and `revoke` (a person's bots and their
  tokens);
- `card(account)`: what a table shows beside a seat's name (the account,
  whether it is a bot, its reputation), taken when the seat is taken;
- `record_game(...)`: a finished table's results, ratings (rated tables
  only) and promises, stored once per table;
- `leaderboard(game)` and `profile(name)`: reads for the protocol and HTTP.

Passwords are hashed with argon2id (argon2-cffi's PasswordHasher: a
maintained binding of the reference implementation, with its parameters and
their upgrade path in the hash string), in worker threads, at most two at
a time so that a flood of sign-ins cannot take every core (server/hash_queue.py).
Before a password is hashed, server/sign_in_guard.py decides whether it may
be tried now at all (back-off per name, budgets per address). Tokens are
256 random bits; the store keeps their SHA-256 only, as it does for seat
tokens. A sign-in under an unknown name still verifies a password against
a hash, so the answer and its timing are the same as for a wrong password:
neither says whether the name exists. A session ends `SessionPolicy.idle`
after it last signed a connection in, and `SessionPolicy.most` after it
began; a bot's API token lasts until it is revoked.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import trio
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from . import ratings
from .account_errors import AccountError
from .hash_queue import HashQueue
from .ids import new_id, new_token
from .sign_in_guard import DAY, GuardPolicy, SignInGuard
from .stores import AccountRow, CredentialRow, RatingRow, ResultRow, Store, StoreConflict, StoreError
from .throttles import Throttles

__all__ = ["AccountError", "AccountPolicy", "Accounts", "GuardPolicy", "Promises", "Seated", "SessionPolicy",
           "valid_name"]

log = logging.getLogger("oriente.accounts")

NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,23}")
SERVER_BOT_PREFIX: Final = "server-"  # reserved: the server's own bots are named so in the lobby
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 128
MAX_LEADERBOARD: Final = 100
BAD_CREDENTIALS: Final = "that name and password do not match an account"
MAX_CLIENT: Final = 100  # characters of a client's name kept with its session
USE_NOTED_EVERY_S: Final = 60.0  # a session's sign-ins closer together than this from one address are noted once


@dataclass(frozen=True, slots=True)
class SessionPolicy:
    """How long a person's session signs in: `idle` seconds after its last
    sign-in, and never more than `most` seconds after it began
    (`oriente serve --session-days`, `--session-max-days`)."""

    idle: float = 30 * DAY
    most: float = 365 * DAY


@dataclass(frozen=True, slots=True)
class AccountPolicy:
    """Everything about accounts an operator or a test may set."""

    sessions: SessionPolicy = field(default_factory=SessionPolicy)
    guard: GuardPolicy = field(default_factory=GuardPolicy)
    hash_threads: int = 2
    reserved_for_owners: int = 1  # of the hash threads, kept for tries from an account's familiar addresses
    max_waiting_hashes: int = 32


def client_label(text: str) -> str:
    """What a client called itself (hello's `client`, else its User-Agent),
    as a session list shows it: printable characters, at most MAX_CLIENT."""
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    return " ".join(kept.split())[:MAX_CLIENT]


@dataclass(frozen=True, slots=True)
class Promises:
    """One seat's own promises in one game: kept, broken, released."""

    kept: int = 0
    broken: int = 0
    released: int = 0


@dataclass(frozen=True, slots=True)
class Seated:
    """A finished table's seat, for `record_game`: the account that held
    it, its rank (1 is first) and its promises."""

    account_id: str
    rank: int
    promises: Promises


def valid_name(name: str) -> bool:
    return NAME.fullmatch(name) is not None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def account_plain(a: AccountRow) -> dict[str, Any]:
    """An account as every client sees it: bots are marked as bots."""
    return {"id": a.id, "name": a.name, "bot": a.kind == "bot"}


def reputation_plain(counts: tuple[int, int, int] | None) -> dict[str, int]:
    kept, broken, released = counts or (0, 0, 0)
    return {"kept": kept, "broken": broken, "released": released}


class Accounts:
    """The server's accounts over its store. `hasher`: argon2's defaults
    unless given (tests pass a cheap one). `inline`: hash on trio's thread
    (only for runs under a mock clock, which cannot see a worker thread)."""

    def __init__(self, store: Store, *, hasher: PasswordHasher | None = None,
                 wall: Callable[[], float] = time.time, inline: bool = False,
                 policy: AccountPolicy | None = None) -> None:
        self.store = store
        self.inline = inline
        self.hasher = hasher or PasswordHasher()
        self.wall = wall
        self.policy = policy or AccountPolicy()
        self.hashes = HashQueue(self.policy.hash_threads, max_waiting=self.policy.max_waiting_hashes,
                                reserved=self.policy.reserved_for_owners, inline=inline)
        self.throttles = Throttles(store, wall)
        self.guard = SignInGuard(store, self.throttles, self.policy.guard, wall)
        self._dummy: str | None = None  # a hash to verify against when the name is unknown
        self._making_dummy = trio.Lock()
        self._results = trio.Lock()  # ratings are read, moved and written one game at a time

    # -- passwords ------------------------------------------------------------------

    def _room(self, priority: int) -> None:
        """Refuse at once (auth/busy) a hash that would wait behind too many."""
        if self.hashes.full(priority):
            wait = self.hashes.retry_after(priority)
            raise AccountError("auth/busy", f"the server is checking many passwords right now: try again in "
                                            f"{wait:g} s", retry_after=wait)

    async def _hash(self, password: str, *, priority: int) -> str:
        return await self.hashes.run(lambda: self.hasher.hash(password), priority=priority)

    async def _verify(self, stored: str, password: str, *, priority: int) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

        return await self.hashes.run(verify, priority=priority)

    @staticmethod
    def _check_password(password: str) -> None:
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise AccountError("account/bad_password",
                               f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")

    @staticmethod
    def _check_name(name: str) -> None:
        if not valid_name(name):
            raise AccountError("account/bad_name", "a name has 2 to 24 letters, digits, '_', '.' or '-', "
                                                   "and begins with a letter or a digit")
        if name.casefold().startswith(SERVER_BOT_PREFIX):
            raise AccountError("account/bad_name", f"names beginning with {SERVER_BOT_PREFIX!r} are the "
                                                   "server's own bots'")

    # -- sessions ------------------------------------------------------------------------

    async def _issue(self, account: AccountRow, kind: str, label: str, *, address: str = "",
                     client: str = "") -> tuple[str, CredentialRow]:
        token = ("s_" if kind == "session" else "b_") + new_token(length=43)
        row = CredentialRow(id=new_id(), account_id=account.id, kind=kind,
                            token_hash=token_hash(token), label=label, created_at=self.wall(),
                            address=address, client=client_label(client))
        await self.store.add_credential(row)
        return token, row

    async def sign_up(self, name: str, password: str, *, address: str = "",
                      client: str = "") -> tuple[AccountRow, str]:
        """A new person's account and a session token for it; `address`
        (the client's address key) has a budget of new accounts."""
        self._check_name(name)
        self._check_password(password)
        if await self.store.account_by_key(name.casefold()) is not None:
            raise AccountError("account/name_taken", f"the name {name!r} is taken")
        priority = self.guard.priority(address)
        self._room(priority)
        await self.guard.admit_account(address)
        made = False
        try:
            row = AccountRow(id=new_id(), name=name, key=name.casefold(), kind="person",
                             owner=None, password=await self._hash(password, priority=priority), created_at=self.wall())
            try:
                await self.store.create_account(row)
            except StoreConflict:
                raise AccountError("account/name_taken", f"the name {name!r} is taken") from None
            made = True
        finally:
            if not made:
                with trio.CancelScope(shield=True):
                    await self.guard.account_void(address)
        token, _ = await self._issue(row, "session", "sign up", address=address, client=client)
        return row, token

    async def sign_in(self, name: str, password: str, *, address: str = "",
                      client: str = "") -> tuple[AccountRow, str]:
        """A session token for a person whose password matches; the same
        refusal whether the name is unknown or the password wrong. Before
        any hashing the try must pass the guard (auth/backing_off,
        auth/address_limited) and find room in the queue (auth/busy)."""
        ticket, account = await self.guard.admit(name, address, room=self._room)
        if account is None or account.password is None or len(password) > MAX_PASSWORD:
            async with self._making_dummy:  # made once, not once per try that arrives before it exists
                if self._dummy is None:
                    self._dummy = await self._hash(secrets.token_urlsafe(16), priority=ticket.priority)
            await self._verify(self._dummy, password[:MAX_PASSWORD], priority=ticket.priority)
            raise AccountError("auth/bad_credentials", BAD_CREDENTIALS)
        if not await self._verify(account.password, password, priority=ticket.priority):
            raise AccountError("auth/bad_credentials", BAD_CREDENTIALS)
        await self.guard.passed(ticket)
        token, _ = await self._issue(account, "session", "sign in", address=address, client=client)
        return account, token

    def expires_at(self, cred: CredentialRow) -> float | None:
        """When a session stops signing in (None: an API token, which lasts
        until revoked). Rows from before sessions kept their last use count
        from when they were made."""
        if cred.kind != "session":
            return None
        policy = self.policy.sessions
        return min((cred.used_at or cred.created_at) + policy.idle, cred.created_at + policy.most)

    def _live(self, cred: CredentialRow) -> bool:
        expires = self.expires_at(cred)
        return cred.revoked_at is None and (expires is None or self.wall() < expires)

    async def authenticate(self, token: str) -> tuple[AccountRow, CredentialRow]:
        """The account a session or API token signs in, unless revoked or expired."""
        cred = await self.store.credential(token_hash(token)) if 0 < len(token) <= 128 else None
        if cred is None or cred.revoked_at is not None:
            raise AccountError("auth/bad_token", "that token signs no one in (unknown, signed out or revoked)")
        if not self._live(cred):
            raise AccountError("auth/session_expired", "that session has expired: sign in with your password")
        account = await self.store.account(cred.account_id)
        if account is None:  # pragma: no cover - the store's references forbid it
            raise AccountError("auth/bad_token", "that token's account is gone")
        return account, cred

    async def sign_in_token(self, token: str, *, address: str = "") -> tuple[AccountRow, CredentialRow]:
        """`authenticate`, noting the use (it keeps a session alive: its idle
        expiry counts from here), at most once a minute per address."""
        account, cred = await self.authenticate(token)
        now = self.wall()
        if cred.used_at is None or now - cred.used_at >= USE_NOTED_EVERY_S or cred.used_address != address:
            try:
                await self.store.use_credential(cred.id, now, address)
            except StoreError as exc:  # the sign-in stands; only its note is lost
                log.warning("the use of a credential was not noted: %s", exc)
        return account, cred

    async def still_signed_in(self, cred: CredentialRow) -> None:
        """Refuse (auth/session_ended) a connection whose credential was
        revoked (signed out elsewhere, sign_out_everywhere) or expired since
        it signed in: asked before it acts for its account."""
        fresh = await self.store.credential(cred.token_hash)
        if fresh is None or not self._live(fresh):
            raise AccountError("auth/session_ended", "this connection's session has ended (signed out elsewhere, "
                                                     "or expired): sign in again")

    async def sign_out(self, cred: CredentialRow) -> None:
        """End a session (its token signs no one in from now on)."""
        await self.store.revoke_credential(cred.id, self.wall())
        account = await self.store.account(cred.account_id)
        if account is not None:
            self.guard.sessions_changed(account)

    async def sessions(self, account: AccountRow, current: CredentialRow | None) -> list[dict[str, Any]]:
        """A person's live sessions, the latest used first: when each began
        and from where (address, client), when and where it last signed in,
        when it ends unused, and whether it is `current` (this connection's)."""
        if account.kind != "person":
            raise AccountError("account/not_a_person", "a bot signs in with API tokens and has no sessions")
        rows = [c for c in await self.store.credentials(account.id) if c.kind == "session" and self._live(c)]
        rows.sort(key=lambda c: (c.used_at or c.created_at, c.created_at, c.id), reverse=True)
        return [{"id": c.id, "created_at": c.created_at, "address": c.address, "client": c.client,
                 "last_used_at": c.used_at or c.created_at, "last_address": c.used_address or c.address,
                 "expires_at": self.expires_at(c), "current": current is not None and c.id == current.id}
                for c in rows]

    async def sign_out_everywhere(self, account: AccountRow, keep: CredentialRow | None = None) -> int:
        """End every live session of a person's (but `keep`, if given); how
        many ended. Their connections are refused at their next act for the
        account (`still_signed_in`); bots' API tokens are left alone."""
        if account.kind != "person":
            raise AccountError("account/not_a_person", "a bot signs in with API tokens and has no sessions")
        ended = [c.id for c in await self.store.credentials(account.id)
                 if c.kind == "session" and self._live(c) and (keep is None or c.id != keep.id)]
        count = len(await self.store.revoke_credentials(ended, self.wall()))
        self.guard.sessions_changed(account)
        return count

    # -- bots and their tokens ------------------------------------------------------------

    async def bot_token(self, owner: AccountRow, bot_name: str, label: str = "", *,
                        address: str = "") -> tuple[AccountRow, str, str]:
        """A new API token for the person's bot `bot_name`, creating the bot
        account on first use (charged to `address`'s budget of new
        accounts, as a sign-up is): (bot, token, the token's id)."""
        if owner.kind != "person":
            raise AccountError("account/not_a_person", "only a person signed in with a password makes bots")
        self._check_name(bot_name)
        bot = await self.store.account_by_key(bot_name.casefold())
        if bot is None:
            await self.guard.admit_account(address)
            bot = AccountRow(id=new_id(), name=bot_name, key=bot_name.casefold(), kind="bot",
                             owner=owner.id, password=None, created_at=self.wall())
            try:
                await self.store.create_account(bot)
            except StoreConflict:
                await self.guard.account_void(address)
                raise AccountError("account/name_taken", f"the name {bot_name!r} is taken") from None
        elif bot.owner != owner.id:
            raise AccountError("account/name_taken", f"the name {bot_name!r} is taken")
        token, cred = await self._issue(bot, "api", label[:64] or "api token", address=address)
        return bot, token, cred.id

    async def tokens(self, owner: AccountRow) -> list[dict[str, Any]]:
        """The API tokens of a person's bots (ids and labels, never tokens)."""
        out = []
        for bot in await self.store.bots_of(owner.id):
            for c in await self.store.credentials(bot.id):
                out.append({"id": c.id, "bot": bot.name, "label": c.label, "created_at": c.created_at,
                            "last_used_at": c.used_at, "revoked": c.revoked_at is not None})
        return out

    async def revoke(self, owner: AccountRow, credential_id: str) -> None:
        """Revoke a token of one of the person's bots, or a session of their own."""
        mine = {c.id for c in await self.store.credentials(owner.id)}
        for bot in await self.store.bots_of(owner.id):
            mine |= {c.id for c in await self.store.credentials(bot.id)}
        if credential_id not in mine:
            raise AccountError("account/unknown_token", "no token of yours or of your bots has that id")
        if not await self.store.revoke_credential(credential_id, self.wall()):
            raise AccountError("account/unknown_token", "that token is revoked already")
        self.guard.sessions_changed(owner)

    # -- what tables show -------------------------------------------------------------------

    async def card(self, account: AccountRow) -> dict[str, Any]:
        """What a seat shows of its account: id, name, bot, reputation."""
        rep = await self.store.reputation([account.id])
        return {**account_plain(account), "reputation": reputation_plain(rep.get(account.id))}

    # -- finished games ------------------------------------------------------------------------

    async def record_game(self, table_id: str, game: str, seated: Sequence[Seated], *, rated: bool) -> bool:
        """Store a finished table's results: each account's rank and promises,
        and, on a rated table, everyone's new rating. False if this table's
        results were stored before (a table brought back may end again)."""
        if not seated:
            return False
        async with self._results:
            now = self.wall()
            new: dict[str, ratings.Rating] = {}
            if rated and len(seated) >= 2:
                stored = await self.store.ratings(game, [s.account_id for s in seated])
                before = [ratings.Rating(stored[s.account_id].mu, stored[s.account_id].sigma,
                                         stored[s.account_id].games) if s.account_id in stored
                          else ratings.initial() for s in seated]
                after = ratings.rate(before, [s.rank for s in seated])
                new = {s.account_id: r for s, r in zip(seated, after, strict=True)}
            results = [ResultRow(table_id, s.account_id, game, s.rank,
                                 new[s.account_id].mu if s.account_id in new else None,
                                 new[s.account_id].sigma if s.account_id in new else None,
                                 s.promises.kept, s.promises.broken, s.promises.released, now)
                       for s in seated]
            rows = [RatingRow(a, game, r.mu, r.sigma, r.games, now) for a, r in new.items()]
            return await self.store.save_results(table_id, results, rows)

    # -- reads --------------------------------------------------------------------------------------

    async def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        rows = await self.store.leaderboard(game, max(1, min(limit, MAX_LEADERBOARD)))
        return [{"rank": i + 1, **account_plain(a), **ratings.Rating(r.mu, r.sigma, r.games).plain()}
                for i, (a, r) in enumerate(rows)]

    async def profile(self, name: str, games: Sequence[str]) -> dict[str, Any]:
        """An account's public page: its ratings per game, their history
        (the latest games), and its reputation."""
        account = await self.store.account_by_key(name.casefold())
        if account is None:
            raise AccountError("account/unknown", f"there is no account {name!r}")
        out: dict[str, Any] = {**(await self.card(account)), "ratings": {}, "history": {}}
        for game in games:
            r = (await self.store.ratings(game, [account.id])).get(account.id)
            if r is not None:
                out["ratings"][game] = ratings.Rating(r.mu, r.sigma, r.games).plain()
            history = [{"table": x.table_id, "rank": x.rank, "at": x.at,
                        **ratings.Rating(x.mu, x.sigma or 0.0).plain()}
                       for x in await self.store.results(account.id, game) if x.mu is not None]
            for h in history:
                del h["games"]
            if history:
                out["history"][game] = history
        if account.owner is not None:
            owner = await self.store.account(account.owner)
            out["owner"] = owner.name if owner is not None else None
        return out
