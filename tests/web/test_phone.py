"""A table on a phone (390x844): the decision and its timer stay in view
wherever the page is scrolled, and the story is one tap away (phone.js)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

HEIGHT = 844


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= -1 and box["y"] + min(box["height"], 40) <= HEIGHT + 1


def test_phone_keeps_timer_and_decision_in_view_and_the_story_a_tap_away(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": HEIGHT}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url)
        page.fill("#name", "Mika")
        form = page.locator("form.create")
        form.locator("#seats").select_option("4")
        form.locator("#timers").select_option("relaxed")
        form.locator("#bots").select_option("3")
        form.get_by_role("button", name="Create").click()
        # A decision this seat may answer: its own turn, or a negotiation window open to everyone.
        expect(page.locator(".decision .choices button").first).to_be_visible(timeout=30_000)
        expect(page.locator(".decision .countdown").first).to_be_visible()
        total = page.evaluate("document.documentElement.scrollHeight")
        assert total > 1.5 * HEIGHT, "the table fits a phone's screen: nothing to scroll past"
        for y in (HEIGHT, total // 2, total):
            page.evaluate(f"window.scrollTo(0, {y})")
            page.wait_for_timeout(50)
            assert in_view(page, ".decision .countdown"), f"the timer left the screen at scroll {y}"
            assert in_view(page, ".decision .choices button"), f"the choices left the screen at scroll {y}"
        page.evaluate("window.scrollTo(0, 0)")
        assert not in_view(page, ".feed li:last-child"), "the story is on screen already: nothing to show"
        page.locator("#phone-story").tap()
        expect(page.locator(".feed li").last).to_be_in_viewport()
        assert in_view(page, ".decision .countdown")
        page.locator("#phone-table").tap()
        expect(page.locator(".ring .seat.me")).to_be_in_viewport()
        assert errors == []
    finally:
        context.close()
