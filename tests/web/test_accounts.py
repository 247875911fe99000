"""Accounts in Chromium (clients/web/src/account.js): sign up, stay signed
in across a reload, a rated table of one's own with the account's badge at
the seat and a rated tag in the lobby, a wrong password refused in words,
and the leaderboard page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_sign_up_reload_rated_table_sign_out_and_a_wrong_password(server: Any, page: Any) -> None:
    page.goto(server.url)
    page.fill("#account-name", "ana")
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
    page.fill("#account-name", "ana")
    page.fill("#account-password", "wrong horse")
    page.click("#sign-in")
    expect(page.locator(".toast")).to_contain_text("do not match an account")
    page.fill("#account-password", "correct horse")
    page.click("#sign-in")
    expect(page.locator(".account[data-signed-in]")).to_contain_text("Signed in as ana")

    page.goto(f"{server.url}#/leaderboard")
    expect(page.locator(".leaderboard [data-ready]")).to_contain_text("No rated game has ended yet")
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
    expect(check.locator("li.ok")).to_have_count(3)
    assert page.errors == []
