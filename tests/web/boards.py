"""What the board tests share: a table of a game created in the lobby, as a person does."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


def create_in_lobby(page: Any, url: str, game: str, seats: int, bots: int, name: str = "Luca",
                    timers: str = "relaxed") -> None:
    """The lobby's form: a table of `game` with `bots` of the server's bots; the page goes to it."""
    page.goto(url)
    page.fill("#name", name)
    form = page.locator("form.create").first
    form.locator("#game").select_option(game)
    form.locator("#seats").select_option(str(seats))
    form.locator("#timers").select_option(timers)
    form.locator("#bots").select_option(str(bots))
    form.get_by_role("button", name="Create").click()
    expect(page.locator(".table-head")).to_be_visible()


def choose_samurai_tiles(page: Any) -> None:
    """The secret choice of five tiles (S2.3): the first five."""
    picker = page.locator(".sam-pick")
    expect(picker.locator("button.tile").first).to_be_visible(timeout=20_000)
    for k in range(5):
        picker.locator("button.tile").nth(k).click()
    picker.locator("button.primary").click()
    expect(page.locator(".sam-seat.me .tiles .tile")).to_have_count(5)


def label_sizes(page: Any, selector: str) -> list[float]:
    """The height on screen, in CSS pixels, of every SVG text matched: its
    font size times the SVG's scale."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map((el) =>
        parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a)""", selector)
