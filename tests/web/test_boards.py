"""Samurai's and Oro's boards a person can read and pick on, at 1280x800.

Samurai: a hex at least 40 px across and every label at least 12 px,
hexes named by the terminal's squares (K12), villages as villages, a
zoom, a hex picked by the keyboard (not a list of sixty buttons first),
every symbol explained. Oro: its map's labels at least 12 px, its
god-stone letters and "who knows this card" dots explained under the map
and in the reference. Neither promises time to negotiate: they have no
negotiation windows (welcome.game_info)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .boards import choose_samurai_tiles, create_in_lobby, label_sizes

pytestmark = pytest.mark.browser

SQUARE = re.compile(r"\b[A-Z]{1,2}\d{1,2}\b")


def test_samurai_hex_by_keyboard_narrows_the_choices_and_a_turn_asks_for_a_hex_first(server: Any, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    create_in_lobby(page, server.url, "samurai", 2, 1)
    choose_samurai_tiles(page)
    mine = page.locator(".decision.mine")
    expect(mine).to_contain_text("Place a figure", timeout=20_000)
    # The map is one stop for Tab, right after its zoom buttons; the arrows move between open hexes.
    page.locator(".sam-map .zoom-in").focus()
    page.keyboard.press("Tab")
    first = page.evaluate("document.activeElement.dataset.hex")
    assert first is not None, "Tab did not reach the map's hexes"
    page.keyboard.press("ArrowRight")
    if page.evaluate("document.activeElement.dataset.hex") == first:
        page.keyboard.press("ArrowLeft")
    moved = page.evaluate("document.activeElement.dataset.hex")
    assert moved is not None and moved != first
    told = page.locator(".sam-map .hex-told")
    expect(told).to_contain_text(SQUARE)
    page.keyboard.press("Enter")
    square = SQUARE.search(told.inner_text()).group(0)
    expect(mine).to_contain_text("Choices on")
    expect(mine).to_contain_text(square)
    choices = mine.locator(".choices button")
    expect(choices.first).to_contain_text(square)
    assert choices.count() <= 3  # a figure of each kind there
    page.keyboard.press("1")
    expect(page.locator(".feed")).to_contain_text(re.compile(rf"Luca \(you\) puts an? .*\b{square}\b"))
    # The figures, by the keys, until the first turn of play: a tile on any of some fifty
    # hexes is hundreds of choices, so the decision asks for a hex first (the map or a list).
    ready = mine.locator(".choices button:enabled, #sam-hex:enabled")
    while True:
        expect(ready.first).to_be_visible(timeout=20_000)
        if "A turn" in mine.inner_text():
            break
        if not mine.locator(".choices button").count():
            mine.locator("#sam-hex").select_option(index=1)
        mine.locator(".choices button").first.click()
        page.wait_for_timeout(100)
    expect(mine).to_contain_text("Pick a hex on the map")
    assert mine.locator(".choices button").count() <= 2  # the end of the turn, a pass: no tile yet
    mine.locator("#sam-hex").select_option(index=1)
    expect(mine).to_contain_text("Choices on")
    assert 1 <= mine.locator(".choices button.placetile").count() <= 5  # the tiles of a hand, on that hex
    mine.locator(".choices button.placetile").first.click()
    mine.get_by_role("button", name="End the turn").click()
    expect(page.locator(".feed")).to_contain_text(re.compile(r"Turn \d+: Aiko"))
    # A turn's end is told by the next turn's line: the story has no empty line for it.
    empty = page.evaluate("[...document.querySelectorAll('.feed li')].filter((li) => "
                          "!li.classList.contains('group') && li.innerText.replace(/[•·\\s]/g, '') === '').length")
    assert empty == 0, f"{empty} empty lines in the story"
    assert page.errors == []


def test_samurai_board_legible_at_1280x800_with_hexes_named_as_the_terminal_names_them(server: Any, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    create_in_lobby(page, server.url, "samurai", 3, 2)
    expect(page.locator(".sam-map .hex.capital")).to_have_count(1)
    assert page.locator(".sam-map .hex").count() > 100  # three parts of the map at three seats (S1.5)
    widths = page.evaluate("[...document.querySelectorAll('.sam-map .hex polygon')]"
                           ".map((p) => p.getBoundingClientRect().width)")
    assert min(widths) >= 40, f"hexes {min(widths):.1f} px across"
    sizes = label_sizes(page, ".sam-map text")
    assert sizes and min(sizes) >= 12, f"a label {min(sizes):.1f} px high"
    # Every hex's words name its square; Edo and (on the map of rules revision 2, S8.1) every village by its name.
    titles = page.evaluate("[...document.querySelectorAll('.sam-map .hex > title')].map((x) => x.textContent)")
    assert all(SQUARE.search(x) for x in titles)
    assert any(x.startswith("Nara (") for x in titles)
    assert any(x.startswith("Edo (") for x in titles)
    assert not any(re.search(r"\bhex \d+", x) for x in titles)
    # Zoom: larger hexes, kept for the next visit.
    page.locator(".sam-map .zoom-in").click()
    wider = page.evaluate("document.querySelector('.sam-map .hex polygon').getBoundingClientRect().width")
    assert wider > min(widths) * 1.2
    # A tap on any hex says what is there; every symbol is in the legend.
    page.locator(".sam-map .hex.capital").click()
    expect(page.locator(".sam-map .hex-told")).to_contain_text("Edo")
    legend = page.locator(".sam-map details.legend")
    legend.locator("summary").click()
    for words in ("K12 is row K", "helmet", "ronin", "figure swap", "fast tile"):
        expect(legend).to_contain_text(words)
    assert page.errors == []


def test_oro_symbols_explained_and_its_map_legible_at_1280x800(server: Any, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server.url)
    page.fill("#name", "Luca")
    form = page.locator("form.create")
    form.locator("#game").select_option("oro")
    form.locator("#gods").check()
    form.locator("#seats").select_option("2")
    form.locator("#timers").select_option("relaxed")
    form.locator("#bots").select_option("1")
    form.get_by_role("button", name="Create").click()
    expect(page.locator(".oro-map .island").first).to_be_visible()
    expect(page.locator(".oro-map .god").first).to_be_visible()
    sizes = label_sizes(page, ".oro-map text")
    assert sizes and min(sizes) >= 12, f"a label {min(sizes):.1f} px high"
    legend = page.locator(".oro-map details.legend")
    legend.locator("summary").click()
    for words in ("Ka", "Kanaloa", "Pele", "each seat that knows you hold it", "controls it"):
        expect(legend).to_contain_text(words)
    page.get_by_role("button", name="Cards", exact=True).click()
    expect(page.locator(".dialog .legend")).to_contain_text("each seat that knows you hold it")
    expect(page.locator(".dialog .god-letter").first).to_be_visible()
    assert page.errors == []


def test_no_negotiation_timer_for_games_without_windows(server: Any, page: Any) -> None:
    """Oro and Samurai have no negotiation windows: their timers promise none."""
    page.goto(server.url)
    page.fill("#name", "Luca")
    form = page.locator("form.create")
    expect(form.locator("#timers")).to_contain_text("to negotiate")  # Oriente, the first game, has windows
    for game in ("oro", "samurai"):
        form.locator("#game").select_option(game)
        expect(form.locator("#timers")).not_to_contain_text("negotiate")
        expect(form.locator("#timers")).to_contain_text("s per decision")
    form.get_by_role("button", name="Create").click()
    page.goto(server.url)
    row = page.locator(".table-row").first
    expect(row).to_contain_text("s per decision")
    expect(row).not_to_contain_text("negotiate")
    assert page.errors == []


def test_oro_connection_by_keyboard_narrows_the_choices(server: Any, page: Any) -> None:
    """Oro's map is one Tab stop too: the arrows move between the
    connections a bridge may go on, Enter picks one and the decision
    narrows to it."""
    page.set_viewport_size({"width": 1280, "height": 800})
    create_in_lobby(page, server.url, "oro", 2, 1)
    mine = page.locator(".decision.mine")
    for _ in range(6):  # the card given up (O2), then the person's turns until a bridge may be built
        expect(mine.locator(".choices button:enabled").first).to_be_visible(timeout=20_000)
        if page.locator(".oro-map .conn.open").count():
            break
        mine.locator(".choices button").first.click()
        page.wait_for_timeout(200)
    assert page.locator(".oro-map .conn.open").count() > 1
    page.locator(".oro-map .zoom-in").focus()
    page.keyboard.press("Tab")
    first = page.evaluate("document.activeElement.dataset.conn")
    assert first is not None, "Tab did not reach the map's connections"
    for key in ("ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)
        if page.evaluate("document.activeElement.dataset.conn") != first:
            break
    picked = page.evaluate("document.activeElement.dataset.conn")
    assert picked is not None and picked != first
    told = page.locator(".oro-map .conn-told").inner_text()
    page.keyboard.press("Enter")
    expect(mine).to_contain_text(f"Choices on {told}")
    buttons = mine.locator(".choices button")
    assert all(told in buttons.nth(k).inner_text() for k in range(buttons.count()))
    assert page.errors == []
