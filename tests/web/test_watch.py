"""Watching in Chromium: a spectator's page gets no hidden card, a finished
game replays step by step as any viewer, and the lobby works on a phone."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from playwright.sync_api import expect

from oriente.server.rules import replay

from ..e2e.test_leak import check_client
from ..e2e.wsclient import BOT_TIMERS
from . import scripted

pytestmark = pytest.mark.browser


def bot_game(server: Any, seats: int, seed: int, name: str) -> str:
    table = server.call(lambda: scripted.create(server.port, seats=seats, seed=seed, name=name, timers=BOT_TIMERS))
    for s in range(seats):
        server.spawn(scripted.play, server.port, table, s, f"bot{s}", scripted.randomly(random.Random(seed * 10 + s)))
    return table


def test_a_spectator_page_receives_no_hidden_card(server: Any, page: Any) -> None:
    """Every frame the page received is checked against the independent
    who-knows-what model (tests/rules/knowledge_model.py), built from the
    full record after the game (R10.4: spectators see public information)."""
    table = server.call(lambda: scripted.create(server.port, seats=5, seed=21, name="watched", timers=BOT_TIMERS))
    frames: list[dict] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(msgpack.unpackb(payload))
              if isinstance(payload, bytes) else None)

    page.on("websocket", on_socket)
    page.goto(f"{server.url}#/t/{table}")
    expect(page.locator(".table-head")).to_contain_text("You are watching")
    for s in range(5):
        server.spawn(scripted.play, server.port, table, s, f"bot{s}", scripted.randomly(random.Random(s)))
    expect(page.locator(".result")).to_be_visible(timeout=60_000)
    record = server.call(scripted.record, server.port, table)
    checked = check_client("spectator", [f for f in frames if f.get("table") in (table, None)], replay(record).events)
    assert checked > 50
    # No face of a hidden inhabitant on the page either: a spectator is never shown "your" card.
    assert page.locator(".card.mine").count() == 0
    assert page.errors == []


def test_a_finished_game_replays_forwards_and_backwards_as_any_viewer(server: Any, page: Any) -> None:
    table = bot_game(server, 4, 5, "replayed")
    record = server.call(scripted.record, server.port, table)
    page.goto(f"{server.url}#/r/{table}?as=spectator")
    position = page.locator("#replay-pos")
    expect(position).to_contain_text("step 0 of")
    assert page.locator(".seat .card.face").count() == 4  # the treasures; every inhabitant face down
    page.locator("#replay-next").click()
    page.keyboard.press("ArrowRight")
    expect(position).to_contain_text("step 2 of")
    page.locator("#replay-back").click()
    expect(position).to_contain_text("step 1 of")
    page.keyboard.press("End")
    expect(position).to_contain_text(f"step {len(record['commands'])} of {len(record['commands'])}")
    expect(page.locator(".feed")).to_contain_text("The game is over")
    page.keyboard.press("Home")
    page.select_option("#replay-as", "2")  # as seat 2: its own card, face up to it alone
    expect(page.locator(".seat.me .card.mine")).to_have_count(1)
    assert page.locator(".seat:not(.me) .inh .card.face").count() == 0
    page.select_option("#replay-as", "all")  # everything revealed
    expect(page.locator(".seat .inh .card.face")).to_have_count(4)
    assert page.errors == []


def test_the_lobby_works_on_a_phone(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.url)
        expect(page.locator("[data-ready]")).to_be_visible()
        page.fill("#name", "Mika")
        form = page.locator("form.create")
        form.locator("#timers").select_option("quick")
        form.locator("#bots").select_option("3")
        form.get_by_role("button", name="Create and sit down").click()
        expect(page.locator(".seat.me")).to_contain_text("Mika")
        expect(page.locator(".seat")).to_have_count(4)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the table page is {width} px wide on a 375 px screen"
        # The deal builder fits too, every field of a structured promise included.
        page.get_by_role("tab", name="Deals").click()
        page.get_by_role("button", name="Propose a deal").click()
        builder = page.locator("form.builder")
        builder.get_by_role("button", name="+ a card").click()
        builder.get_by_role("button", name="+ a promise").click()
        builder.locator("fieldset").nth(1).locator("select").nth(2).select_option("support")
        expect(builder.locator("fieldset").nth(1).locator("select")).to_have_count(6)
        for box in (builder.locator("select, input").all()):
            edge = box.evaluate("e => e.getBoundingClientRect().right")
            assert edge <= 375, f"a field of the deal builder ends at {edge} px"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the deal builder makes the page {width} px wide on a 375 px screen"
        page.goto(server.url)
        expect(page.locator(".table-row")).to_contain_text("Back to your seat")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        # A refusal is told in the page's language (its stable code), with the way on.
        page.select_option("#lang", "de")
        page.goto(f"{server.url}#/t/noSuchTable1")
        expect(page.locator("main .error")).to_have_text(
            "Diesen Tisch gibt es nicht (ein beendeter Tisch bleibt nur als Wiederholung).")
        expect(page.get_by_role("link", name="Partie wiederholen")).to_have_attribute("href", "#/r/noSuchTable1")
    finally:
        context.close()
