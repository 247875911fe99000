"""A turn-based table in Chromium, from a person's chair (docs/web.md,
docs/table.md T8): a person not signed in who picks a turn-based preset is
told to sign in before any table is made; signed in, the table says it is
turn-based, its clock reads in hours and days rather than "1439:56", and
back in the lobby "My games" comes before the list of tables, with the
table that awaits the person marked as their turn."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_turn_based_table_asks_for_an_account_reads_in_days_and_comes_first(server: Any, page: Any) -> None:
    page.goto(server.url)
    page.fill("#name", "ana")
    page.select_option("#timers", "daily")
    expect(page.locator("#turn-based-note")).to_be_visible()
    page.click("form.create button[type=submit]")
    expect(page.locator(".toast")).to_contain_text(re.compile("Sign in first.*signed in to an account"))

    page.fill("#account-password", "correct horse")
    page.click("#sign-up")
    expect(page.locator(".account[data-signed-in]")).to_contain_text("Signed in as ana")
    page.select_option("#timers", "daily")
    page.select_option("#bots", "3")
    page.click("form.create button[type=submit]")
    expect(page.locator(".seat.me")).to_contain_text("ana")
    expect(page.locator("header, .table-head, main").locator(".tag.turn-based").first).to_be_visible()
    # The bots play at once; the table then waits on the person: in a dealt
    # game that may first be a negotiation window of 8 h, whose clock reads in
    # hours too. Declining what is offered, saying "done", passing early when
    # asked to support: the game goes on to the person's own decision, 24 h
    # of its own with a bank of 3 days beside it (preset "daily").
    decision = page.locator(".decision")
    for _ in range(20):
        expect(decision).to_contain_text(re.compile("Your decision|Done bargaining"), timeout=30_000)
        text = decision.inner_text()
        if "Your decision" in text:
            break
        expect(decision.locator("[role=timer]")).to_contain_text(re.compile(r"^\d+ h \d+ min"))
        done = re.search(r"Done bargaining: (.*)", text)
        for name, taken in (("Decline", False), ("Done bargaining", bool(done and "ana" in done.group(1))),
                            ("Pass (support neither side)", "Your sealed answer" in text)):
            button = decision.get_by_role("button", name=name)
            if not taken and button.count():
                button.first.click()
                break
        # Taken, or answered already and waiting on others: the offers, the
        # list of those done, or the window itself, change.
        expect(decision).not_to_have_text(text, timeout=30_000)
    expect(decision).to_contain_text("Your decision", timeout=30_000)
    timer = page.locator(".decision [role=timer]")
    expect(timer).to_contain_text(re.compile(r"^23 h \d+ min"))
    expect(timer).to_contain_text("bank 3 d 0 h")
    assert not re.search(r"\d{3,}:\d\d", timer.inner_text()), timer.inner_text()
    assert len(server.app.lobby.tables) == 1, "no table was made before the person signed in"

    page.goto(server.url)
    mine = page.locator(".my-games")
    expect(mine.locator(".tag.your-turn")).to_contain_text("your turn, until")
    order = page.evaluate("""() => {
        const a = document.querySelector('.my-games'), b = document.querySelector('.lobby-grid section > h2');
        return Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""")
    assert order, "My games comes before the list of tables"
    assert page.errors == []
