"""People's sessions (docs/accounts.md "Sessions"): they end a while after
their last sign-in and never later than a limit from their start, both as
the server is configured; a person lists them and signs out everywhere;
bots' API tokens last until revoked. The clock is the test's."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from oriente.server.accounts import AccountError, AccountPolicy, SessionPolicy
from oriente.server.stores import MemoryStore, SQLiteStore

from .accounts_harness import RIGHT, T0, Clock, accounts_on

pytestmark = pytest.mark.trio

DAY = 86400.0
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


async def test_a_session_ends_thirty_days_after_its_last_use_and_a_year_after_its_start() -> None:
    clock = Clock()
    async with accounts_on(MemoryStore(), clock) as accounts:
        _, token = await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        for _ in range(18):  # used every 20 days: it lives on, up to its year
            clock.now += 20 * DAY
            account, cred = await accounts.sign_in_token(token, address="192.0.2.1")
            assert account.name == "ana"
        assert accounts.expires_at(cred) == T0 + 365 * DAY, "its year caps the idle expiry"
        clock.now += 5 * DAY
        with pytest.raises(AccountError) as caught:
            await accounts.sign_in_token(token)
        assert caught.value.code == "auth/session_expired"
        # A connection that signed in with it is told at its next act for the account.
        with pytest.raises(AccountError, match="auth/session_ended"):
            await accounts.still_signed_in(cred)

        _, idle = await accounts.sign_in("ana", RIGHT, address="192.0.2.1")
        _, cred = await accounts.authenticate(idle)
        clock.now += 30 * DAY - 1
        await accounts.still_signed_in(cred)
        assert (await accounts.authenticate(idle))[0].name == "ana"  # authenticate alone is no use
        clock.now += 1
        with pytest.raises(AccountError, match="auth/session_expired"):
            await accounts.authenticate(idle)


async def test_the_lifetimes_are_the_operators_and_bots_tokens_never_expire() -> None:
    clock = Clock()
    policy = AccountPolicy(sessions=SessionPolicy(idle=3600.0, most=2 * 3600.0))
    async with accounts_on(MemoryStore(), clock, policy=policy) as accounts:
        owner, token = await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        _, bot_token, _ = await accounts.bot_token(owner, "ana-bot", address="192.0.2.1")
        clock.now += 3000.0
        await accounts.sign_in_token(token, address="192.0.2.1")
        clock.now += 3000.0
        await accounts.sign_in_token(token, address="192.0.2.1")
        clock.now += 1300.0  # 7300 s since it began: past `most`
        with pytest.raises(AccountError, match="auth/session_expired"):
            await accounts.sign_in_token(token)
        clock.now += 10 * 365 * DAY
        bot, cred = await accounts.sign_in_token(bot_token, address="203.0.113.9")
        assert bot.kind == "bot" and accounts.expires_at(cred) is None
        tokens = await accounts.tokens(owner)
        assert [t["last_used_at"] for t in tokens] == [clock.now]


async def test_sessions_list_where_and_when_and_which_one_is_this() -> None:
    clock = Clock()
    async with accounts_on(MemoryStore(), clock) as accounts:
        ana, first = await accounts.sign_up("ana", RIGHT, address="192.0.2.1", client="Firefox/128\n\u202e")
        clock.now += 100.0
        _, second = await accounts.sign_in("ana", RIGHT, address="198.51.100.0/64", client="oriente-sdk/1")
        clock.now += 100.0
        _, third = await accounts.sign_in("ANA", RIGHT, address="203.0.113.5", client="")
        clock.now += 100.0
        _, here = await accounts.sign_in_token(first, address="192.0.2.77")
        _, gone = await accounts.authenticate(third)
        await accounts.sign_out(gone)
        listed = await accounts.sessions(ana, here)
        assert [(s["address"], s["client"], s["last_address"], s["current"]) for s in listed] == [
            ("192.0.2.1", "Firefox/128", "192.0.2.77", True),
            ("198.51.100.0/64", "oriente-sdk/1", "198.51.100.0/64", False)]
        assert [(s["created_at"], s["last_used_at"]) for s in listed] == [(clock.now - 300, clock.now),
                                                                          (clock.now - 200, clock.now - 200)]
        assert listed[0]["expires_at"] == clock.now + 30 * DAY
        assert {s["id"] for s in listed} == {here.id, (await accounts.authenticate(second))[1].id}
        assert all("token" not in key for s in listed for key in s), "a list never shows a token"


async def test_sign_out_everywhere_ends_every_session_but_keeps_bots_tokens() -> None:
    clock = Clock()
    async with accounts_on(MemoryStore(), clock) as accounts:
        ana, token = await accounts.sign_up("ana", RIGHT, address="192.0.2.1")
        _, bot_token, _ = await accounts.bot_token(ana, "ana-bot", address="192.0.2.1")
        others = [(await accounts.sign_in("ana", RIGHT, address=f"198.51.100.{i}"))[1] for i in range(3)]
        _, here = await accounts.authenticate(token)
        creds = [(await accounts.authenticate(t))[1] for t in others]
        assert await accounts.sign_out_everywhere(ana, keep=here) == 3
        for cred in creds:
            with pytest.raises(AccountError, match="auth/session_ended"):
                await accounts.still_signed_in(cred)
        for t in others:
            with pytest.raises(AccountError, match="auth/bad_token"):
                await accounts.authenticate(t)
        await accounts.still_signed_in(here)
        assert [s["current"] for s in await accounts.sessions(ana, here)] == [True]
        assert await accounts.sign_out_everywhere(ana) == 1
        with pytest.raises(AccountError, match="auth/session_ended"):
            await accounts.still_signed_in(here)
        assert await accounts.sessions(ana, None) == []
        bot, bot_cred = await accounts.sign_in_token(bot_token)
        await accounts.still_signed_in(bot_cred)
        with pytest.raises(AccountError, match="account/not_a_person"):
            await accounts.sign_out_everywhere(bot)
        with pytest.raises(AccountError, match="account/not_a_person"):
            await accounts.sessions(bot, bot_cred)


async def test_a_schema_4_store_keeps_its_sessions_and_tokens(tmp_path: Path) -> None:
    """tests/fixtures/store_v4.sqlite was written before sessions kept where
    they were made (see make_store_v4.py there). It opens as schema 5; as of
    the day it was made its live session signs in and is listed (from an
    unknown place, counting its idle time from when it was made), the
    signed-out one stays out, and the bot's API token still signs in ten
    years on; failed sign-ins are throttled in the new table."""
    path = tmp_path / "old.sqlite"
    path.write_bytes((FIXTURES / "store_v4.sqlite").read_bytes())
    saved = json.loads((FIXTURES / "store_v4.json").read_text())
    before = sqlite3.connect(path)
    try:
        assert before.execute("PRAGMA user_version").fetchone()[0] == 4
        assert "used_at" not in {row[1] for row in before.execute("PRAGMA table_info(credentials)")}
    finally:
        before.close()
    clock = Clock()
    clock.now = saved["made_at"] + DAY
    async with accounts_on(SQLiteStore(str(path)), clock) as accounts:
        ana, cred = await accounts.sign_in_token(saved["session"], address="192.0.2.1")
        assert (ana.name, cred.address, cred.client, cred.used_at) == ("ana", "", "", None)
        listed = await accounts.sessions(ana, cred)
        assert [(s["address"], s["current"]) for s in listed] == [("", True)]
        assert listed[0]["last_address"] == "192.0.2.1"
        with pytest.raises(AccountError, match="auth/bad_token"):
            await accounts.authenticate(saved["signed_out"])
        for i in range(6):
            with pytest.raises(AccountError, match="auth/bad_credentials"):
                await accounts.sign_in("ana", f"guess {i}", address="198.51.100.1")
        with pytest.raises(AccountError, match="auth/backing_off"):
            await accounts.sign_in("ana", RIGHT, address="198.51.100.2")
        clock.now += 10 * 365 * DAY
        with pytest.raises(AccountError, match="auth/session_expired"):
            await accounts.authenticate(saved["session"])
        bot, _ = await accounts.sign_in_token(saved["bot"])
        assert bot.name == "ana-bot"
    after = sqlite3.connect(path)
    try:
        assert after.execute("PRAGMA user_version").fetchone()[0] == 5
        assert after.execute("SELECT count(*) FROM throttles").fetchone()[0] >= 1
        assert after.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        after.close()
