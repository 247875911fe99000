"""A tournament in Chromium (clients/web/src/tournament.js): the lobby
lists it, a person enters by name, the standings show, the page says when
the player's table is ready and sits down at it with the seat the server
handed out."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from oriente.fairplay.dealing import seat_nonce

pytestmark = pytest.mark.browser


def test_enter_a_tournament_see_the_standings_and_sit_down_at_the_next_table(server: Any, page: Any) -> None:
    director = server.app.director

    async def create() -> tuple[str, str]:
        t, token = await director.create({"name": "Friday Cup", "rounds": 1, "table_sizes": [4], "show_up_s": 30})
        for name in ("Aiko", "Benkei", "Chiyo"):
            await director.register(t.id, name, policy="random", organiser_token=token)
        return t.id, token

    tid, org = server.call(create)
    page.goto(server.url)
    page.locator(".tournaments a", has_text="Friday Cup").click()
    page.fill("#tournament-name", "ana")
    page.click("#tournament-enter")
    expect(page.locator("#tournament-you")).to_contain_text("ana")
    expect(page.locator("#standings tbody tr")).to_have_count(4)

    async def start() -> None:
        await director.direct(tid, org, "start_round", {})

    server.call(start)
    expect(page.locator("#tournament-table")).to_be_visible(timeout=15_000)
    expect(page.locator("#tournament-seeded")).to_have_count(0)
    page.click("#tournament-table")
    expect(page.locator(".seat.me")).to_contain_text("ana")
    # The reserved seat's share of the seed is the page's own nonce, brought
    # after the page saw the table's commitment (docs/table.md T7.1).
    table_id = page.url.split("#/t/")[1]
    table = server.app.lobby.get(table_id)
    seat = next(i for i, s in enumerate(table.seats) if s is not None and s.name == "ana")
    for _ in range(100):
        if table.seats[seat].nonce is not None:
            break
        page.wait_for_timeout(100)
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('oriente.seats'))['{table_id}']")
    assert kept["commitment"] == table.settings.commitment["sha256"]
    assert table.seats[seat].nonce == seat_nonce(table_id, kept["nonce"])
    assert page.errors == []


def test_an_event_whose_organiser_chose_the_seed_says_so_on_its_page(server: Any, page: Any) -> None:
    director = server.app.director

    async def create() -> str:
        t, _ = await director.create({"name": "Seeded Cup", "rounds": 1, "table_sizes": [4], "seed": 7})
        return t.id

    tid = server.call(create)
    page.goto(f"{server.url}#/tournament/{tid}")
    expect(page.locator("#tournament-seeded")).to_be_visible()
    assert page.errors == []
