"""A person plays Oro in Chromium against the server's heuristic bot.

The lobby creates an Oro table with the gods variant (its game and options
chosen in the form); the table draws the archipelago from the view's board
(16 islands, 37 connections); the person gives up a card, builds a bridge
picked on the map, takes a display card (which the bot now knows: a marker
of the bot's colour on that card), then discards face down (the pile shows
"???", the person's own view names the card), all in its own words, also
in German.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def my_turn(page: Any) -> Any:
    decision = page.locator(".decision.mine")
    expect(decision).to_contain_text("A turn", timeout=20_000)
    return decision


def test_a_person_plays_oro_on_the_map(server: Any, page: Any) -> None:
    page.goto(server.url)
    page.fill("#name", "Luca")
    form = page.locator("form.create")
    form.locator("#game").select_option("oro")
    expect(form.locator("#seats option")).to_have_count(3)  # O1.6: 2 to 4
    form.locator("#seats").select_option("2")
    form.locator("#timers").select_option("relaxed")
    form.locator("#bots").select_option("1")
    expect(form.locator("#gods")).to_be_checked()
    form.get_by_role("button", name="Create").click()

    expect(page.locator(".table-head")).to_contain_text("Oro")
    expect(page.locator(".oro-map .island")).to_have_count(16)
    expect(page.locator(".oro-map .conn")).to_have_count(37)
    expect(page.locator(".oro-map .god")).to_have_count(16)  # one stone on every island (O2.5)

    setup = page.locator(".decision")
    expect(setup).to_contain_text("Give up a card")
    setup.get_by_role("button", name=re.compile("^Give up")).first.click()
    feed = page.locator(".feed")
    expect(feed).to_contain_text("The display:")

    decision = my_turn(page)
    # A free connection (an opponent's bridge would offer a replacement instead; the deal is random);
    # force: a level line has a box of no height.
    page.locator(".oro-map .conn.open.free").first.click(force=True)
    expect(decision).to_contain_text("Choices on")
    decision.locator(".choices button").first.click()
    expect(feed).to_contain_text("Luca (you) builds a bridge on")
    expect(feed.locator("li", has_text="Luca (you) builds a bridge on")).to_have_count(1)  # told once
    expect(page.locator(".oro-map .conn.bridge.s0")).to_have_count(1)
    decision.get_by_role("button", name=re.compile("from the display")).first.click()
    expect(feed).to_contain_text(re.compile(r"Luca \(you\) takes \w+ from the display"))
    expect(page.locator(".oro-seat.me .chip .dot.s1").first).to_be_attached()  # the bot saw it (O8.6)

    decision = my_turn(page)
    discard = decision.get_by_role("button", name=re.compile("face down")).first
    card = re.match(r"\w?\s*Discard (\w+) face down", discard.inner_text()).group(1)
    discard.click()
    expect(page.locator(".oro-discard")).to_contain_text("??? ×1")
    expect(page.locator(".oro-discard")).to_contain_text(f"Your face-down cards: {card}")
    expect(feed).to_contain_text(f"Luca (you) discards {card} face down.")

    page.select_option("#lang", "de")
    expect(page.locator(".oro-table")).to_contain_text("Ablagestapel")
    expect(page.locator(".decision")).to_contain_text("Ein Zug")
    assert page.errors == []
