"""A person plays Samurai in Chromium against the server's heuristic bot.

The lobby creates a two-seat Samurai table; the table draws Honshu from the
view's board (84 hexes at two players, S1.5); the person picks 5 of its 20
tiles in secret (S2.3), places a figure, then on its turn picks a hex on
the map, which narrows the choices to it, places a tile there (the hex
takes the person's colour and the feed tells it) and ends the turn; all in
its own words, also in German.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_person_plays_samurai_on_the_map(server: Any, page: Any) -> None:
    page.goto(server.url)
    page.fill("#name", "Luca")
    form = page.locator("form.create")
    form.locator("#game").select_option("samurai")
    expect(form.locator("#seats option")).to_have_count(3)  # S1.2: 2 to 4
    form.locator("#seats").select_option("2")
    form.locator("#timers").select_option("relaxed")
    form.locator("#bots").select_option("1")
    form.get_by_role("button", name="Create").click()

    expect(page.locator(".table-head")).to_contain_text("Samurai")
    expect(page.locator(".sam-map .hex")).to_have_count(84)
    expect(page.locator(".sam-map .hex.capital")).to_have_count(1)

    decision = page.locator(".decision")
    expect(decision).to_contain_text("Choose your 5 tiles", timeout=20_000)
    picker = page.locator(".sam-pick")
    send = picker.get_by_role("button", name="Take these 5 tiles")
    expect(send).to_be_disabled()
    for k in range(5):
        picker.locator("button.tile").nth(k).click()
    expect(picker.locator("button.tile.picked")).to_have_count(5)
    send.click()
    feed = page.locator(".feed")
    expect(feed).to_contain_text("Luca (you) has chosen:")
    expect(page.locator(".sam-seat.me .tiles .tile")).to_have_count(5)
    expect(page.locator(".sam-map .hex.capital .fig")).to_have_count(3)  # Edo: one of each kind (S2.4)

    while True:  # the figures, in turns with the bot, until the first turn of play (S2.5, S2.6)
        mine = page.locator(".decision.mine")
        expect(mine).to_contain_text(re.compile("Place a figure|A turn"), timeout=20_000)
        if "A turn" in mine.inner_text():
            break
        if not mine.locator(".choices button").count():  # many figures on many hexes: a hex first, then its choices
            mine.locator("#sam-hex").select_option(index=1)
        mine.locator(".choices button").first.click()
        expect(mine.locator(".choices button:enabled, #sam-hex:enabled").first).to_be_visible(timeout=20_000)
    page.locator(".sam-map .hex.land.open").first.click(force=True)
    expect(mine).to_contain_text("Choices on")
    choice = mine.locator(".choices button.choice.placetile").first
    choice.click()
    expect(feed).to_contain_text(re.compile(r"Luca \(you\) places \w+ \d+ on"))
    expect(page.locator(".sam-map .hex.tiled.s0")).to_have_count(1)
    mine.get_by_role("button", name="End the turn").click()
    expect(feed).to_contain_text(re.compile(r"Turn \d+: (?!Luca)"))  # the bot's turn

    page.select_option("#lang", "de")
    expect(page.locator(".sam-table")).to_contain_text("Neben dem Spielplan")
    assert page.errors == []
