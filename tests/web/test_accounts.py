"""Accounts in Chromium (clients/web/src/account.js): sign up, stay signed
in across a reload, a rated table of one's own with the account's badge at
the seat and a rated tag in the lobby, a wrong password refused in words,
the leaderboard page, the account's sessions (signed out there and
everywhere), and a sign-in told how long to wait."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_sign_up_reload_rated_table_sign_out_and_a_wrong_password(server: Any, page: Any) -> None:
    page.goto(server.url)
    page.fill("#name", "ana")
    page.fill("#account-password", "correct horse")
    page.click("#sign-up")
    expect(page.locator(".account[data-signed-in]")).to_contain_text("Signed in as ana")
    page.reload()
    expect(page.locator(".account[data-signed-in]")).to_contain_text("Signed in as ana")

    page.check("#rated")
    page.click("form.create button[type=submit]")
    seat = page.locator(".seat.me")
    expect(seat).to_contain_text("ana")
    expect(seat.locator(".badge.rep")).to_have_text("✓0 ✗0")
    page.goto(server.url)
    expect(page.locator(".table-row .tag.rated")).to_have_count(1)
    expect(page.locator(".table-row .names")).to_contain_text("ana")

    page.click("#sign-out")
    page.fill("#name", "ana")
    page.fill("#account-password", "wrong horse")
    page.click("#sign-in")
    expect(page.locator(".toast")).to_contain_text("do not match an account")
    page.fill("#account-password", "correct horse")
    page.click("#sign-in")
    expect(page.locator(".account[data-signed-in]")).to_contain_text("Signed in as ana")

    page.goto(f"{server.url}#/leaderboard")
    expect(page.locator(".leaderboard [data-ready]")).to_contain_text("No rated game has ended yet")
    assert page.errors == []


async def _sign_in_elsewhere(port: int, name: str, password: str) -> str:
    """Another client of the same person (a second device): its session token."""
    from oriente.clients.sdk import Client

    async with Client.connect(f"ws://127.0.0.1:{port}") as other:
        await other.sign_in(name, password)
        assert other.auth_token is not None
        return other.auth_token


@pytest.fixture
def slow_back_off() -> Iterator[Any]:
    """A server whose sign-in back-off starts at 60 s (docs/accounts.md's
    numbers, but the first wait), so that a refusal the page shows does
    not depend on how fast the browser types."""
    from oriente.clients.web import mounts
    from oriente.server.accounts import AccountPolicy, GuardPolicy
    from oriente.server.app import App
    from oriente.server.throttles import Backoff

    from .conftest import ServerThread

    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerThread(str(Path(tmp) / "store.sqlite"))
        srv.app = App(str(Path(tmp) / "store.sqlite"), port=0, web=mounts(), bot_delay=0.0,
                      accounts=AccountPolicy(guard=GuardPolicy(per_name=Backoff(base=60.0))))
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


def test_the_account_panel_lists_sessions_and_signs_out_everywhere(slow_back_off: Any, page: Any) -> None:
    server = slow_back_off
    page.goto(server.url)
    page.fill("#name", "eve")
    page.fill("#account-password", "correct horse")
    page.click("#sign-up")
    expect(page.locator(".account[data-signed-in]")).to_contain_text("Signed in as eve")
    server.call(_sign_in_elsewhere, server.port, "eve", "correct horse")
    page.click("#sessions")
    sessions = page.locator(".sessions li")
    expect(sessions).to_have_count(2)
    expect(page.locator(".sessions li.current")).to_contain_text("this browser")
    expect(page.locator(".sessions li.current")).to_contain_text("127.0.0.1")
    page.locator(".sessions li:not(.current) .end-session").click()
    expect(sessions).to_have_count(1)
    server.call(_sign_in_elsewhere, server.port, "eve", "correct horse")
    page.click("#sessions")
    page.click("#sessions")
    expect(sessions).to_have_count(2)
    page.click("#sign-out-everywhere")
    expect(page.locator(".toast")).to_contain_text("Signed out of 2 sessions")
    expect(page.locator("#sign-in")).to_be_visible()
    page.reload()
    expect(page.locator("#sign-in")).to_be_visible()

    # Six wrong passwords (each click waits for the last answer: the button
    # is disabled meanwhile), then the right one waits too, and says how long.
    for i in range(6):
        page.fill("#name", "eve")
        page.fill("#account-password", f"wrong guess {i}")
        page.click("#sign-in")
        expect(page.locator(".toast")).to_contain_text("do not match an account")
    page.fill("#account-password", "correct horse")
    page.click("#sign-in")
    # (60 s after the sixth failure: a little less by the time the seventh try is answered)
    expect(page.locator(".toast")).to_have_text(
        re.compile(r"Too many failed sign-ins under this name lately: try again in (60|5\d) s\."))
    expect(page.locator("#sign-in")).to_be_visible()
    assert page.errors == []


def test_a_finished_table_shows_that_its_cards_were_dealt_as_committed(server: Any, page: Any) -> None:
    """Commit and reveal (docs/table.md T7) checked in the page itself: the
    revealed salt gives the commitment shown at the start, the seed comes
    from the salt and the nonces, and the page's own join nonce is there."""
    import random

    from ..e2e.wsclient import BOT_TIMERS
    from . import scripted

    table = server.call(lambda: scripted.create(server.port, seats=4, name="checked", timers=BOT_TIMERS))
    page.goto(server.url)
    page.fill("#name", "ana")
    page.goto(f"{server.url}#/t/{table}")
    page.locator(".waiting").get_by_role("button", name="Join").click()
    expect(page.locator(".seat.me")).to_be_visible()
    for s in (1, 2, 3):
        server.spawn(scripted.play, server.port, table, s, f"bot{s}", scripted.randomly(random.Random(s)))
    check = page.locator(".result .check")
    expect(check).to_have_attribute("data-check", "ok", timeout=60_000)
    # the commitment seen before the join, the nonces the server supplied
    # (the scripted seats brought none), the seed, and the page's own nonce
    expect(check.locator("li.ok")).to_have_count(4)
    expect(check.locator("li.ok").first).to_contain_text("this page saw before your seat brought its nonce")
    expect(check.locator("[data-not-live]")).to_have_count(0)
    expect(check.locator("[data-servers-choice]")).to_have_count(0)
    assert page.errors == []


def test_a_table_where_no_seat_brought_a_nonce_says_the_deal_was_the_servers(server: Any, page: Any) -> None:
    """A spectator's check of a game whose four seats all joined without a
    nonce: every nonce is the server's, from the salt it chose, and the
    panel says plainly that the deal was the server's to choose."""
    import random

    from ..e2e.wsclient import BOT_TIMERS
    from . import scripted

    table = server.call(lambda: scripted.create(server.port, seats=4, name="nobody", timers=BOT_TIMERS))
    for s in range(4):
        server.spawn(scripted.play, server.port, table, s, f"bot{s}", scripted.randomly(random.Random(s)))
    page.goto(f"{server.url}#/t/{table}")
    check = page.locator(".result .check")
    expect(check).to_have_attribute("data-check", "ok", timeout=60_000)
    expect(check.locator("[data-servers-choice]")).to_contain_text("the deal was the server's to choose")
    expect(check.locator("[data-not-live]")).to_be_visible()
    assert page.errors == []
