"""'It's your turn' in an open page, in Chromium (docs/web.md): "Notify me"
asks the browser's permission, and then a decision that awaits the page's
seat while the page is not in front shows one notification, naming the
table, and only one per decision. The test grants the permission and
records the page's calls to `Notification`; the page is told it is not
in front (`document.hasFocus`), as a tab in the background is."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from . import scripted

pytestmark = pytest.mark.browser

FIRST = [25, 7, 18, 26, 27, 28, 29, 40]
DEAL = {"deck": FIRST + [c for c in range(41) if c not in FIRST], "treasures": [41, 45, 49, 52], "stone_holder": 0}
PERSON = {"prompt_ms": 30_000, "window_ms": 1_500, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": False,
          "away_after": 5}

RECORDER = """
window.__notes = []; window.__asked = 0;
const Real = window.Notification;
class Recorded {
  constructor(title, options) { window.__notes.push({ title, ...(options || {}) }); this.onclick = null; }
  close() {}
  static get permission() { return Real.permission; }
  static requestPermission() { window.__asked += 1; return Real.requestPermission(); }
}
window.Notification = Recorded;
document.hasFocus = () => false;
"""


def page_until(page: Any, expression: str, done: Callable[[Any], bool], guard_s: float = 60.0) -> Any:
    """What `expression` evaluates to in the page, once `done` says it is
    enough. Polled from here: the page's Content-Security-Policy forbids the
    string evaluation that Playwright's wait_for_function polls with.
    `guard_s` guards against a hang; it is not a budget."""
    end = time.monotonic() + guard_s
    while True:
        value = page.evaluate(expression)
        if done(value):
            return value
        assert time.monotonic() < end, f"{expression}: {value!r}"
        page.wait_for_timeout(100)


def notes_until(page: Any, done: Callable[[list[dict]], bool]) -> list[dict]:
    """The notifications the page made, once `done` says they are enough."""
    return page_until(page, "window.__notes", done)


def test_notify_me_asks_permission_and_tells_each_decision_once(server: Any, page: Any) -> None:
    page.context.grant_permissions(["notifications"], origin=server.url)
    page.context.add_init_script(RECORDER)
    table = server.call(lambda: scripted.create(server.port, seats=4, name="the slow table", deal=DEAL,
                                                timers=PERSON))
    for seat, name in ((1, "Aiko"), (2, "Benkei"), (3, "Chiyo")):
        server.spawn(scripted.play, server.port, table, seat, name, scripted.passer)
    page.goto(server.url)
    page.fill("#name", "Ana")
    page.check("#notify")
    expect(page.locator("#notify")).to_be_checked()
    assert page.evaluate("window.__asked") == 1, "the browser's permission is asked for"
    # Kept once the browser has answered, which the checkbox does not wait for.
    page_until(page, "localStorage.getItem('oriente.notify')", lambda value: value == "on")

    page.goto(f"{server.url}#/t/{table}")
    assert page.evaluate("window.__notes") == [], "nothing awaits the page yet"
    page.locator(".waiting").get_by_role("button", name="Join").click()
    decision = page.locator(".decision")
    expect(decision.get_by_role("button", name="Pass", exact=True)).to_be_visible()
    notes_until(page, lambda notes: len(notes) > 0)
    notes = page.evaluate("window.__notes")
    assert len(notes) == 1, notes
    assert notes[0]["title"] == "Oriente: your turn"
    assert "the slow table" in notes[0]["body"] and notes[0]["tag"] == f"oriente-{table}"
    page.locator(".feed").click()  # the page draws again: the same decision is not told twice
    assert len(page.evaluate("window.__notes")) == 1
    assert page.errors == []


def test_without_notify_me_nothing_is_shown(server: Any, page: Any) -> None:
    page.context.grant_permissions(["notifications"], origin=server.url)
    page.context.add_init_script(RECORDER)
    table = server.call(lambda: scripted.create(server.port, seats=4, name="quiet", deal=DEAL, timers=PERSON))
    for seat, name in ((1, "Aiko"), (2, "Benkei"), (3, "Chiyo")):
        server.spawn(scripted.play, server.port, table, seat, name, scripted.passer)
    page.goto(server.url)
    page.fill("#name", "Ana")
    page.goto(f"{server.url}#/t/{table}")
    page.locator(".waiting").get_by_role("button", name="Join").click()
    expect(page.locator(".decision").get_by_role("button", name="Pass", exact=True)).to_be_visible()
    assert page.evaluate("window.__notes") == [] and page.evaluate("window.__asked") == 0


def test_a_deal_offered_to_the_page_is_told_once(server: Any, page: Any) -> None:
    """A bot offers the person its support for the person's card during a
    fight (the configured deal of test_deal_in_seconds): the offer awaits
    the person's answer, so a page not in front tells it, once for that
    deal, in its own words."""
    from .test_deal_in_seconds import seat_the_bots, sit_down

    page.context.grant_permissions(["notifications"], origin=server.url)
    page.context.add_init_script(RECORDER)
    page.goto(server.url)
    page.fill("#name", "Ana")
    page.check("#notify")
    page_until(page, "localStorage.getItem('oriente.notify')", lambda value: value == "on")
    table = seat_the_bots(server)
    sit_down(page, server, table, "Ana")
    notes_until(page, lambda notes: any("deal offered to you" in n["body"] for n in notes))
    offers = [n for n in page.evaluate("window.__notes") if "deal offered to you" in n["body"]]
    assert len(offers) == 1, offers
    assert offers[0]["body"] == "A deal offered to you awaits your answer at a deal in seconds."
    assert offers[0]["tag"] == f"oriente-{table}"
    page.locator(".feed").click()  # drawn again: the same offer is not told twice
    assert len([n for n in page.evaluate("window.__notes") if "deal offered to you" in n["body"]]) == 1
