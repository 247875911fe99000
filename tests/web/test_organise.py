"""A tournament organised in the page (organise.js): created from the
lobby, the server's bots entered, a round started, its table listed with
its seats numbered as the table numbers them, and the standings kept."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_tournament_created_in_the_page_bots_entered_round_played_standings_kept(server: Any, page: Any) -> None:
    page.goto(server.url)
    page.locator("#organise summary").click()
    page.fill("#organise-name", "Sunday Cup")
    page.locator("#organise-rounds").select_option("1")
    page.locator("#organise-size").select_option("4")
    page.locator("#organise-timers").select_option("bots")
    page.click("#organise-create")
    expect(page.locator("main.tournament h1")).to_contain_text("Sunday Cup")
    panel = page.locator("#organiser")
    expect(panel).to_contain_text("You organise this tournament")
    for name in ("Aiko", "Benkei", "Chiyo", "Daigo"):
        page.fill("#organise-bot-name", name)
        page.locator("#organise-bot-kind").select_option("random")
        page.click("#organise-add-bot")
        expect(page.locator("#standings")).to_contain_text(name)
    expect(page.locator("#standings tbody tr")).to_have_count(4)
    page.click("#organise-start")
    table = panel.locator(".round-table")
    expect(table).to_have_count(1)
    # Seats as the table numbers them (#0 … #3), not counted from 1.
    expect(table).to_contain_text("seat 0:")
    expect(table).to_contain_text("seat 3:")
    expect(table).not_to_contain_text("seat 4:")
    expect(table).to_contain_text("played", timeout=60_000)
    expect(page.locator("#standings tbody")).to_contain_text("1.00")
    expect(page.locator("#standings-note")).to_contain_text("Opposition")
    expect(page.locator("#organise-start")).to_have_count(0)  # the one round is played
    # Another browser sees the standings but not the organiser's tools.
    tid = page.url.split("#/tournament/")[1]
    page.evaluate("localStorage.removeItem('oriente.organised')")
    page.goto(f"{server.url}#/")
    page.goto(f"{server.url}#/tournament/{tid}")
    expect(page.locator("#standings tbody tr")).to_have_count(4)
    expect(page.locator("#organiser")).to_have_count(0)
    assert page.errors == []
