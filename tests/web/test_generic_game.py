"""A game that brings no page screen of its own is played in Chromium
through the generic screen: the toy game of tests/toy_game (high card),
registered with the server by one entry of its `games`, is listed in the
lobby under its own name (its words catalogue), created with a bot, and
played to its end with the open decision's legal commands as buttons and
its events told by the generic narrator in its own words."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from oriente.server.games import PORTS
from tests.toy_game import ToyPort

from .conftest import ServerThread

pytestmark = pytest.mark.browser


@pytest.fixture
def toy_server() -> Iterator[ServerThread]:
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerThread(str(Path(tmp) / "store.sqlite"), games={**PORTS, "highcard": ToyPort()}).start()
        try:
            yield srv
        finally:
            srv.stop()


def test_a_game_without_a_screen_is_played_through_the_generic_one(toy_server: Any, page: Any) -> None:
    page.goto(toy_server.url)
    page.fill("#name", "Luca")
    form = page.locator("form.create")
    expect(form.locator("#game option[value=highcard]")).to_have_text("High card")  # the game's own words
    form.locator("#game").select_option("highcard")
    form.locator("#seats").select_option("2")
    form.locator("#timers").select_option("relaxed")
    form.locator("#bots").select_option("1")
    form.get_by_role("button", name="Create").click()

    expect(page.locator(".table-head")).to_contain_text("High card")
    feed = page.locator(".feed")
    expect(feed).to_contain_text("High card for 2 seats, 3 rounds.")
    stage = page.locator(".board.generic")
    expect(stage.locator("[data-field=round]")).to_contain_text("1")
    decision = page.locator(".decision")
    expect(decision.locator("h2")).to_contain_text("Bid")  # the topic, in the game's words
    for round_ in (1, 2, 3):
        raise_ = decision.locator(".choices button", has_text="Bid: raise true")
        expect(decision.locator(".choices button")).to_have_count(2)
        expect(raise_).to_be_enabled()
        raise_.click()
        expect(feed).to_contain_text(f"Round {round_}: cards ")
    expect(feed).to_contain_text("The game is over.")
    result = page.locator(".result")
    expect(result.locator("tbody tr")).to_have_count(2)
    expect(result).to_contain_text("Luca (you)")

    page.select_option("#lang", "de")
    expect(page.locator(".table-head")).to_contain_text("Hohe Karte")
    expect(feed).to_contain_text("Das Spiel ist aus.")
    assert page.errors == []
