"""Failed sign-ins and new accounts, held back before any hashing
(server/sign_in_guard.py, server/throttles.py, docs/accounts.md "Failed
sign-ins"): per name an exponential back-off whatever the addresses, a
familiar address with a lane of its own, per address budgets of failures
and of new accounts, all of it kept in the store across a restart and seen
by a second process on the same store. Time is a clock the test moves;
hashes are counted, so that "a refused try never reaches argon2" is what
is checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oriente.server.accounts import AccountError, Accounts
from oriente.server.stores import MemoryStore, SQLiteStore

from .accounts_harness import RIGHT, Clock, CountingHasher, accounts_on

pytestmark = pytest.mark.trio

async def attempt(accounts: Accounts, name: str, password: str, address: str) -> str:
    """The outcome of one sign-in: "ok" or the refusal's code."""
    try:
        await accounts.sign_in(name, password, address=address, client="test")
    except AccountError as exc:
        if exc.code in ("auth/backing_off", "auth/address_limited"):
            assert exc.retry_after is not None and exc.retry_after > 0, exc
        return exc.code
    return "ok"


async def test_a_flood_from_many_addresses_gets_about_ten_guesses_a_minute_and_the_rest_never_hash() -> None:
    """Sixty addresses guess one account's password twice a second each for
    ten minutes (72,000 tries): the hasher sees 11 of them in the first
    minute and 15 in all — far under 100 a minute — and every other try is
    refused with a wait, unhashed."""
    clock, hasher = Clock(), CountingHasher()
    async with accounts_on(MemoryStore(), clock, hasher) as accounts:
        await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        hasher.verified = 0
        outcomes: dict[str, int] = {}
        hashed_by_minute = [0] * 10
        for tick in range(10 * 60 * 2):
            for a in range(60):
                before = hasher.verified
                code = await attempt(accounts, "ana", f"guess {tick} {a}", f"198.51.100.{a}")
                outcomes[code] = outcomes.get(code, 0) + 1
                hashed_by_minute[tick // 120] += hasher.verified - before
            clock.now += 0.5
        # At 0 s six tries, then one at 1, 3, 7, 15, 31 s; 63, 127, 255 and 511 s in the later minutes.
        assert hashed_by_minute == [11, 1, 1, 0, 1, 0, 0, 0, 1, 0]
        assert outcomes == {"auth/bad_credentials": 15, "auth/backing_off": 72_000 - 15}
        # The refusals came before the hasher: it verified exactly the tries that were answered bad_credentials.
        assert hasher.verified == 15


async def test_the_waits_double_from_one_second_to_five_minutes() -> None:
    clock = Clock()
    async with accounts_on(MemoryStore(), clock) as accounts:
        waits = []
        for _ in range(16):
            assert await attempt(accounts, "bob", "wrong one", "203.0.113.5") == "auth/bad_credentials"
            try:
                accounts.guard.refuse_early("bob", "203.0.113.9")
                waits.append(0.0)
            except AccountError as exc:
                assert exc.code == "auth/backing_off" and exc.retry_after is not None
                waits.append(exc.retry_after)
            clock.now += waits[-1]
        assert waits == [0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]
        assert [accounts.policy.guard.per_name.delay(n) for n in range(1, 17)] == waits
        # An hour without a try, and the name starts again.
        clock.now += 3601.0
        for _ in range(5):
            assert await attempt(accounts, "bob", "wrong one", "203.0.113.5") == "auth/bad_credentials"


async def test_the_right_password_waits_like_a_wrong_one_but_not_where_the_owner_signs_in() -> None:
    """The choice docs/accounts.md explains: while a name backs off, a try
    from an unfamiliar address is refused unhashed, right password or not;
    an address a live session of the account was made or used at has its
    own back-off, which a flood from elsewhere does not touch; a success
    clears the lane it was tried in."""
    clock, hasher = Clock(), CountingHasher()
    async with accounts_on(MemoryStore(), clock, hasher) as accounts:
        await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        for i in range(12):
            await attempt(accounts, "ana", f"guess {i}", "198.51.100.7")
        hasher.verified = 0
        assert await attempt(accounts, "ANA", RIGHT, "203.0.113.40") == "auth/backing_off"
        assert hasher.verified == 0, "refused before the hasher"
        assert await attempt(accounts, "ana", RIGHT, "192.0.2.1") == "ok", "the owner's own address has its own lane"
        for i in range(6):  # a guesser at the owner's address backs off there too
            await attempt(accounts, "ana", f"local guess {i}", "192.0.2.1")
        assert await attempt(accounts, "ana", RIGHT, "192.0.2.1") == "auth/backing_off"
        # Once the shared lane's wait has passed, the right password from anywhere signs in and clears it.
        clock.now += 64.0
        assert await attempt(accounts, "ana", RIGHT, "203.0.113.40") == "ok"
        assert await attempt(accounts, "ana", "wrong", "203.0.113.41") == "auth/bad_credentials"
        # A signed-out session no longer makes its address familiar.
        _, token = await accounts.sign_in("ana", RIGHT, address="192.0.2.99")
        _, cred = await accounts.authenticate(token)
        await accounts.sign_out(cred)
        for i in range(12):
            await attempt(accounts, "ana", f"guess again {i}", "198.51.100.8")
        assert await attempt(accounts, "ana", RIGHT, "192.0.2.99") == "auth/backing_off"


async def test_an_unknown_name_backs_off_exactly_as_an_account_does() -> None:
    """The answers never say whether a name exists: the same codes, in the
    same order, with the same waits."""
    clock = Clock()
    async with accounts_on(MemoryStore(), clock) as accounts:
        await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        seen: dict[str, list[tuple[str, float | None]]] = {"ana": [], "nobody": []}
        for name in seen:
            for _ in range(12):
                try:
                    await accounts.sign_in(name, "wrong horse", address="198.51.100.1")
                except AccountError as exc:
                    seen[name].append((exc.code, exc.retry_after))
                clock.now += 0.5
            clock.now += 1000.0
        assert seen["ana"] == seen["nobody"]
        bad, wait = "auth/bad_credentials", "auth/backing_off"
        assert [code for code, _ in seen["ana"]] == [bad] * 6 + [wait, bad, wait, wait, wait, bad]


async def test_one_address_trying_many_names_spends_its_budget_and_others_are_untouched() -> None:
    clock, hasher = Clock(), CountingHasher()
    async with accounts_on(MemoryStore(), clock, hasher) as accounts:
        await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        codes = [await attempt(accounts, f"user{i}", "password1", "198.51.100.66") for i in range(40)]
        assert codes == ["auth/bad_credentials"] * 30 + ["auth/address_limited"] * 10
        before = hasher.verified
        try:
            await accounts.sign_in("user99", "password1", address="198.51.100.66")
        except AccountError as exc:
            assert exc.code == "auth/address_limited" and exc.retry_after == 10.0
        assert hasher.verified == before, "refused before the hasher"
        assert await attempt(accounts, "ana", RIGHT, "203.0.113.2") == "ok", "another address signs in"
        clock.now += 10.0
        assert await attempt(accounts, "user41", "password1", "198.51.100.66") == "auth/bad_credentials"
        assert await attempt(accounts, "user42", "password1", "198.51.100.66") == "auth/address_limited"
        # A right password costs the address nothing: it is given back.
        clock.now += 10.0
        assert await attempt(accounts, "ana", RIGHT, "198.51.100.66") == "ok"
        assert await attempt(accounts, "ana", RIGHT, "198.51.100.66") == "ok"


async def test_one_address_cannot_make_150_accounts_in_a_row() -> None:
    clock = Clock()
    async with accounts_on(MemoryStore(), clock) as accounts:
        made, refused = 0, []
        for i in range(150):
            try:
                await accounts.sign_up(f"spam{i}", RIGHT, address="198.51.100.9")
                made += 1
            except AccountError as exc:
                refused.append((exc.code, exc.retry_after))
        assert made == 20
        assert set(refused) == {("account/sign_up_limited", 180.0)}
        owner, _ = await accounts.sign_up("owner", RIGHT, address="203.0.113.3")
        assert owner.name == "owner", "another address signs up"
        with pytest.raises(AccountError, match="account/name_taken"):  # a taken name costs nothing
            await accounts.sign_up("spam0", RIGHT, address="203.0.113.3")
        # Bots' accounts count too; a new token for an existing bot does not.
        for i in range(19):
            await accounts.bot_token(owner, f"bot{i}", address="203.0.113.3")
        with pytest.raises(AccountError) as caught:
            await accounts.bot_token(owner, "bot19", address="203.0.113.3")
        assert caught.value.code == "account/sign_up_limited"
        await accounts.bot_token(owner, "bot3", address="203.0.113.3")
        clock.now += 180.0
        await accounts.sign_up("spam150", RIGHT, address="198.51.100.9")
        with pytest.raises(AccountError, match="account/sign_up_limited"):
            await accounts.sign_up("spam151", RIGHT, address="198.51.100.9")


async def test_the_back_off_holds_across_a_restart(tmp_path: Path) -> None:
    """The rows are in the store: a server started again on the same file
    refuses the next guess, unhashed, for the rest of the wait."""
    clock, path = Clock(), str(tmp_path / "s.sqlite")
    async with accounts_on(SQLiteStore(path), clock) as accounts:
        await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        for i in range(12):  # twelve hashed guesses, each as soon as it may: the last at +63 s, then 64 s to wait
            if i >= 6:
                clock.now += accounts.policy.guard.per_name.delay(i)
            assert await attempt(accounts, "ana", f"guess {i}", "198.51.100.1") == "auth/bad_credentials"
    clock.now += 30.0
    hasher = CountingHasher()
    async with accounts_on(SQLiteStore(path), clock, hasher) as again:
        with pytest.raises(AccountError) as caught:
            await again.sign_in("ana", "guess 99", address="198.51.100.2")
        assert caught.value.code == "auth/backing_off" and caught.value.retry_after == 34.0
        assert hasher.verified == 0
        clock.now += 34.0
        assert await attempt(again, "ana", RIGHT, "198.51.100.2") == "ok"


async def test_two_processes_on_one_store_see_each_others_tries() -> None:
    """Two servers sharing a store (a site of many processes on PostgreSQL
    does so): guesses through one push the other's back-off."""
    clock, store = Clock(), MemoryStore()
    async with accounts_on(store, clock) as first:
        second = Accounts(store, hasher=CountingHasher(), wall=clock, inline=True)
        await first.sign_up("ana", RIGHT, address="192.0.2.1")
        for i in range(6):
            one = first if i % 2 else second
            assert await attempt(one, "ana", f"guess {i}", f"198.51.100.{i}") == "auth/bad_credentials"
        assert await attempt(first, "ana", "guess", "198.51.100.50") == "auth/backing_off"
        assert await attempt(second, "ana", "guess", "198.51.100.51") == "auth/backing_off"


async def test_two_processes_on_one_postgresql_site_share_the_back_off(postgres_schemas: Any) -> None:
    from oriente.server.stores.postgres import PostgresStore

    schema = postgres_schemas.fresh()
    clock = Clock()
    async with accounts_on(PostgresStore(postgres_schemas.url, schema=schema, cluster=True), clock) as first, \
            accounts_on(PostgresStore(postgres_schemas.url, schema=schema, cluster=True), clock) as second:
        await first.sign_up("ana", RIGHT, address="192.0.2.1")
        for i in range(6):
            assert await attempt(second if i % 2 else first, "ana", f"guess {i}", "198.51.100.1") == \
                "auth/bad_credentials"
        assert await attempt(second, "ana", RIGHT, "198.51.100.2") == "auth/backing_off"
        clock.now += 1.0
        assert await attempt(second, "ana", RIGHT, "198.51.100.2") == "ok"


async def test_the_owner_s_hashes_go_first_and_a_guesser_s_last() -> None:
    """The hashing queue's lane of a try (server/hash_queue.py): from an
    address the account signed in from, first; from an address without
    failures, next; from one that failed lately, last."""
    from oriente.server.hash_queue import CLEAN, FAMILIAR, SUSPECT

    clock = Clock()
    async with accounts_on(MemoryStore(), clock) as accounts:
        await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        assert (await accounts.guard.admit("ana", "192.0.2.1"))[0].priority == FAMILIAR
        assert (await accounts.guard.admit("ana", "198.51.100.1"))[0].priority == CLEAN
        assert await attempt(accounts, "someone", "wrong one", "198.51.100.2") == "auth/bad_credentials"
        assert (await accounts.guard.admit("ana", "198.51.100.2"))[0].priority == SUSPECT
