"""A person plays Oriente in Chromium by clicking, against scripted bots.

The game is dealt from a configured deck (R2.8) so that it takes the same
course every time and is short: seat 1 attacks seat 2, the person (seat 0,
a Daimyo) passes the privilege round, proposes a deal in the page that
seat 2 accepts, supports the defender, and in season 2 claims privilege
with Income, which draws the Geisha and ends the game (R9.2).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from . import scripted

pytestmark = pytest.mark.browser

# Top first: the bonus card, the inhabitants of seats 0-3 (Daimyo, Akindo,
# Nofu, Nofu), seat 1's next inhabitant, season 1's bonus, then the Geisha.
FIRST = [25, 7, 18, 26, 27, 28, 29, 40]
DECK = FIRST + [c for c in range(41) if c not in FIRST]
DEAL = {"deck": DECK, "treasures": [41, 45, 49, 52], "stone_holder": 1}
PERSON = {"prompt_ms": 30_000, "window_ms": 1_500, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": False,
          "away_after": 5}
MARKUP = "<img src=x onerror=__x=1>"


def sit_down(page: Any, server: Any, table: str, name: str) -> None:
    """Join by the table's link: a table with a configured deal is seeded,
    so private (PROTOCOL.md 3), and the page says so to whoever joins."""
    page.goto(server.url)
    page.fill("#name", name)
    page.goto(f"{server.url}#/t/{table}")
    expect(page.locator(".table-head .tag.seeded")).to_be_visible()
    page.locator(".waiting").get_by_role("button", name="Join").click()
    expect(page.locator(".seat.me")).to_be_visible()


def test_a_person_plays_a_whole_game_by_clicking(server: Any, page: Any) -> None:
    table = server.call(lambda: scripted.create(server.port, seats=4, name="complete game", deal=DEAL,
                                                timers=PERSON))
    server.spawn(scripted.play, server.port, table, 1, "Aiko", scripted.attacker_of(2))
    server.spawn(lambda: scripted.play(server.port, table, 2, "Benkei", scripted.passer, accept_deals=True))
    server.spawn(scripted.play, server.port, table, 3, "Chiyo", scripted.passer)
    sit_down(page, server, table, MARKUP)

    # A deal built in the page: Benkei's treasure for the person's support.
    page.get_by_role("tab", name=re.compile("Deals")).click()
    page.get_by_role("button", name="Propose a deal").click()
    builder = page.locator("form.builder")
    builder.get_by_role("button", name="+ a card").click()
    card = builder.locator("fieldset").nth(0)
    card.locator("select").nth(0).select_option(label="Benkei")  # from
    card.locator("select").nth(1).select_option(label="Treasure 4")  # the card
    card.locator("select").nth(2).select_option(label=f"{MARKUP} (you)")  # to
    card.locator("input").fill("for my support against Aiko")  # what it is for (R8.3)
    builder.get_by_role("button", name="+ a promise").click()
    promise = builder.locator("fieldset").nth(1)
    promise.locator("select").nth(1).select_option(label="Benkei")  # to whom
    promise.locator("select").nth(2).select_option(value="support")
    promise.locator("select").nth(3).select_option(label="Aiko")  # attacker
    promise.locator("select").nth(4).select_option(label="Benkei")  # defender
    promise.locator("select").nth(5).select_option(value="defender")
    promise.locator("input").fill(f"I defend you {MARKUP}")
    builder.get_by_role("button", name="Propose", exact=True).click()
    page.get_by_role("tab", name=re.compile("Story")).click()
    feed = page.locator(".feed")
    expect(feed).to_contain_text("Deal #1 is carried out")

    decision = page.locator(".decision")
    decision.get_by_role("button", name="Pass (do not claim)").click()  # season 1's privilege round
    decision.get_by_role("button", name=re.compile("Support the defender")).click()
    expect(feed).to_contain_text("supports the defender")
    page.keyboard.press("Escape")
    claim = decision.get_by_role("button", name=re.compile("Claim privilege: Income"))
    claim.click()
    expect(page.locator(".result")).to_be_visible(timeout=20_000)
    expect(feed).to_contain_text(f"{MARKUP} (you) claims privilege over Aiko")
    expect(feed).to_contain_text("The Geisha is drawn")

    # Chat with markup stays text; nothing a player typed ran as script.
    page.fill("#chat-input", f"gg {MARKUP}")
    page.keyboard.press("Enter")
    expect(page.locator(".chat-pane")).to_contain_text(f"gg {MARKUP}")  # chat has a pane of its own
    page.get_by_role("tab", name=re.compile("Deals")).click()
    expect(page.locator(".ledger")).to_contain_text("kept")
    expect(page.locator(".ledger")).to_contain_text(f"I defend you {MARKUP}")
    assert page.evaluate("typeof window.__x") == "undefined"
    assert page.locator(".feed img, .chat-pane img, .seat img, .deals img").count() == 0

    # A rematch: the same settings at a new table, the person at its own
    # seat; the server's bots fill the seats the others have not taken yet.
    finished = page.url
    page.get_by_role("button", name="Rematch").click()
    expect(page).not_to_have_url(finished)
    expect(page.locator(".table-head h1")).to_contain_text("complete game")
    expect(page.locator(".waiting")).to_contain_text("3 of 4 seats free")
    expect(page.locator(".seat.me")).to_contain_text(MARKUP)
    page.get_by_role("button", name="Fill the empty seats with bots").click()
    expect(page.locator(".seat .badge.bot")).to_have_count(3)
    expect(page.locator(".decision")).not_to_contain_text("Waiting for players")
    assert page.errors == []


def test_a_reload_resumes_the_seat(server: Any, page: Any) -> None:
    deal = {**DEAL, "stone_holder": 0}
    table = server.call(lambda: scripted.create(server.port, seats=4, name="reload", deal=deal, timers=PERSON))
    for seat, name in ((1, "Aiko"), (2, "Benkei"), (3, "Chiyo")):
        server.spawn(scripted.play, server.port, table, seat, name, scripted.passer)
    sit_down(page, server, table, "Ana")
    decision = page.locator(".decision")
    expect(decision.get_by_role("button", name="Pass", exact=True)).to_be_visible()
    assert page.title().startswith("●")  # the tab says a decision waits

    page.reload()
    expect(page.locator(".seat.me")).to_contain_text("Ana")
    feed = page.locator(".feed")
    expect(feed).to_contain_text("Season 1 begins")  # the story so far came back
    page.keyboard.press("1")  # keyboard play: the first choice
    expect(feed).to_contain_text("Ana (you) passes.")
    assert page.errors == []
