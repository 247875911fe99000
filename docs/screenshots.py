"""Regenerates docs/screenshots/*.png: the web client's key screens.

A server with the web client (its own process, a fresh store), the
server's bots, and Debian's Chromium through Playwright:

    .venv/bin/python docs/screenshots.py

lobby (wide and on a phone), a 4-seat table mid-game with a decision
waiting, the deal builder (wide and on a phone), a 12-seat table, the card
reference, the end of a game (in English, German and French), a replay
seen by everyone, Oro: a table with the gods variant after a few turns
(wide, in German, and on a phone) and its reference, and Samurai: the
secret tile choice, a table after a few turns (wide, in German, and on a
phone) and its reference (`docs/screenshots.py samurai` takes these alone);
a person's screens (`follow`): the phone's decision in view, Samurai and Oro
at 1280x800 with their symbols explained, a tournament organised in the
page, the lobby in French; following a table (`pace`): a season's recap with
the last step marked and the grouped log, a claim that cannot count, the
end's ranking above the fold with its ties named, the replay from the
person's seat, and "my games"; a turn-based table (`turn`): its creation,
a decision whose clock reads in days, the lobby with "My games" first, and
the card reference.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def start_server(store: str, delay: float) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", store,
                             "--quiet", "--bot-delay", str(delay)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    port = int(proc.stdout.readline().split("ws://127.0.0.1:")[1].split()[0])
    return proc, f"http://127.0.0.1:{port}/"


def configured(url: str, name: str, seats: int, deal: dict[str, Any], timers: str = "relaxed") -> str:
    """A table dealt from a configured deck (docs/rules.md R2.8), made over the
    protocol as a bot's author would (the SDK): its id."""
    import trio

    from oriente.clients.sdk import Client
    from oriente.protocol.presets import preset

    async def make() -> str:
        async with Client.connect(url.replace("http://", "ws://").rstrip("/")) as client:
            return await client.create_table(seats=seats, name=name, timers=preset(timers), options={"deal": deal})
    return trio.run(make)


def sit_with_bots(page: Any, url: str, table: str, name: str) -> None:
    """Join a table by its link and fill the other seats with the server's bots."""
    page.goto(url)
    page.wait_for_selector("[data-ready]")
    page.fill("#name", name)
    page.goto(f"{url}#/t/{table}")
    page.locator(".waiting").get_by_role("button", name="Join").click()
    page.get_by_role("button", name="Fill the empty seats with bots").click()
    page.wait_for_selector(".seat.me")


def rest_of(first: list[int]) -> list[int]:
    return first + [c for c in range(41) if c not in first]


def pass_when_asked(page: Any, wait: float = 0.3) -> None:
    """Pass the person's open decision if it has a pass (announcing nothing),
    or say done bargaining as a fighter."""
    passes = page.locator(".decision .choices button.pass:not([disabled]), "
                          ".decision .choices button.done:not([disabled])")
    if passes.count():
        with contextlib.suppress(Exception):  # answered or gone meanwhile
            passes.first.click(timeout=2_000)
    time.sleep(wait)


def pace_shots(browser: Any, url: str) -> None:
    """Following a table: a season's recap with the last step marked on the
    seats and the log grouped by season and fight, a claim that cannot count
    said before it is chosen, the end's ranking above the fold at 1280x800
    with its ties named, the replay opened from the person's seat, and "my
    games" in the lobby (`docs/screenshots.py pace` takes these alone)."""
    wide = browser.new_context(viewport={"width": 1440, "height": 1000}, device_scale_factor=1)
    page = wide.new_page()
    create(page, url, "Ana", 4, 3, "relaxed", "Season's end")
    page.locator(".table-settings summary").click()
    for topic in ("privilege", "support", "revolution"):
        page.locator(f"input[name=auto-{topic}]").check()
    page.locator(".table-settings summary").click()
    end = time.time() + 180
    while time.time() < end and not page.locator(".recap").count():
        pass_when_asked(page)
    page.wait_for_selector(".recap")
    page.screenshot(path=str(OUT / "season-recap.png"), full_page=True)
    page.locator(".log-wrap").screenshot(path=str(OUT / "log.png"))
    end = time.time() + 240  # until a fight's result is the step on screen: the winner's capture marked
    while time.time() < end:
        if page.locator(".seat.changed .change.won").count():
            page.locator(".ring").screenshot(path=str(OUT / "change-marked.png"))
            break
        pass_when_asked(page, 0.02)
    wide.close()

    small = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
    page = small.new_page()
    # Equal ranks and as many score cards: the person's claim would not count (R4.3c).
    table = configured(url, "Equal ranks", 4, {"deck": rest_of([25, 7, 8, 26, 27, 28, 29, 40]),
                                               "treasures": [41, 45, 49, 52], "stone_holder": 1})
    sit_with_bots(page, url, table, "Ana")
    page.wait_for_selector(".decision.mine .choice.hopeless", timeout=120_000)
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "hopeless-claim.png"))
    # The end at once: Income draws the Geisha; three seats tie on 5 points (R9.4).
    table = configured(url, "Quick end", 4, {"deck": rest_of([25, 7, 26, 18, 27, 40]),
                                             "treasures": [41, 49, 45, 50], "stone_holder": 0})
    sit_with_bots(page, url, table, "Ana")
    page.locator(".decision.mine").get_by_role("button", name="Income", exact=True).click()
    page.wait_for_selector(".result .ranking", timeout=120_000)
    page.evaluate("window.scrollTo(0, 0)")
    page.mouse.move(1, 1)  # no line under the pointer
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "end-ranking.png"))
    page.locator(".result").get_by_role("link", name="Replay the game").click()
    page.wait_for_selector("#replay-pos")
    page.locator("#replay-next-group").click()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "replay-from-seat.png"))
    page.goto(url)
    page.wait_for_selector(".my-games")
    page.locator(".my-games").screenshot(path=str(OUT / "my-games.png"))
    small.close()


def create(page: Any, url: str, name: str, seats: int, bots: int, preset: str = "normal", table: str = "",
           game: str = "oriente") -> None:
    page.goto(url)
    page.wait_for_selector("[data-ready]")
    page.fill("#name", name)
    form = page.locator("form.create")
    form.locator("#game").select_option(game)
    form.locator("input").first.fill(table)
    form.locator("#seats").select_option(str(seats))
    form.locator("#timers").select_option(preset)
    form.locator("#bots").select_option(str(bots))
    form.get_by_role("button").last.click()
    page.wait_for_selector(".seat.me, .oro-seat.me, .sam-seat.me")


def play_oro_turns(page: Any, turns: int) -> None:
    """Play a few turns of Oro as a person might: a card given up, then
    each turn a bridge where one can be built, then a display card."""
    for _ in range(turns):
        if not wait_for_choice(page):
            return
        buttons = page.locator(".decision.mine .choices button")
        labels = [buttons.nth(k).inner_text() for k in range(buttons.count())]
        pick = next((k for k, label in enumerate(labels) if "Bridge" in label),
                    next((k for k, label in enumerate(labels) if "display" in label), 0))
        buttons.nth(pick).click()
        time.sleep(0.6)


def play_samurai_turns(page: Any, turns: int) -> None:
    """Play a few decisions of Samurai as a person might: the strongest-looking
    five tiles picked, figures placed, then each turn one tile and the end."""
    for _ in range(turns):
        end = time.time() + 60
        while time.time() < end and not page.locator(".sam-pick button.tile:not(.picked)").count() \
                and not page.locator(".decision.mine .choices button:enabled, .decision.mine #sam-hex:enabled").count():
            time.sleep(0.2)
        if page.locator(".sam-pick button.tile").count() and not page.locator(".sam-pick button.tile.picked").count():
            tiles = page.locator(".sam-pick button.tile")
            for k in (12, 13, 14, 15, 16):  # samurai, ronin, ships: the all-round tiles
                tiles.nth(k).click()
            page.locator(".sam-pick button.primary").click()
        elif not wait_for_choice(page):
            return
        else:
            buttons = page.locator(".decision.mine .choices button")
            labels = [buttons.nth(k).inner_text() for k in range(buttons.count())]
            hexes = page.locator(".decision.mine #sam-hex:enabled")
            if not any("End the turn" in label for label in labels) and hexes.count():
                # Many choices on the map: a hex first (as a person picks one), then its first choice.
                hexes.select_option(index=1 + len(labels) % max(1, hexes.locator("option").count() - 1))
                time.sleep(0.3)
                buttons = page.locator(".decision.mine .choices button")
                labels = [buttons.nth(k).inner_text() for k in range(buttons.count())]
            pick = next((k for k, label in enumerate(labels) if "End the turn" in label),
                        next((k for k, label in enumerate(labels) if " on " in label or " in " in label), 0))
            buttons.nth(pick).click()
        time.sleep(0.6)


def samurai_shots(browser: Any, url: str) -> None:
    """Samurai's table: the tile choice, mid-game (wide, German, phone), its reference."""
    wide = browser.new_context(viewport={"width": 1440, "height": 1000}, device_scale_factor=1)
    page = wide.new_page()
    create(page, url, "Luca", 3, 2, "relaxed", "Edo evening", game="samurai")
    page.wait_for_selector(".sam-pick button.tile")
    for k in (0, 5, 12, 14, 16):
        page.locator(".sam-pick button.tile").nth(k).click()
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "samurai-choose.png"), full_page=True)
    page.locator(".sam-pick button.primary").click()
    play_samurai_turns(page, 15)
    wait_for_choice(page)
    if page.locator(".sam-map .hex.land.open").count():  # a hex picked on the map
        page.locator(".sam-map .hex.land.open").nth(3).click(force=True)
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "samurai-table.png"), full_page=True)
    page.select_option("#lang", "de")
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "samurai-table-de.png"), full_page=True)
    page.select_option("#lang", "en")
    page.get_by_role("button", name="Cards", exact=True).click()
    page.wait_for_selector(".dialog")
    page.screenshot(path=str(OUT / "samurai-reference.png"))
    page.keyboard.press("Escape")
    wide.close()
    phone = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True,
                                device_scale_factor=2)
    page = phone.new_page()
    create(page, url, "Mika", 2, 1, "normal", "Two daimyo", game="samurai")
    play_samurai_turns(page, 10)
    wait_for_choice(page)
    page.screenshot(path=str(OUT / "samurai-table-phone.png"), full_page=True)
    phone.close()


def follow_shots(browser: Any, url: str) -> None:
    """A person's screens: a phone keeping the decision and its timer in
    view (and its story a tap away), Samurai and Oro at 1280x800 with their
    symbols explained, a tournament organised in the page, and the lobby in
    French (`docs/screenshots.py follow` takes these alone)."""
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                device_scale_factor=2)
    page = phone.new_page()
    create(page, url, "Mika", 4, 3, "relaxed", "On the train")
    wait_for_choice(page)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "phone-decision-in-view.png"))
    page.locator("#phone-story").tap()
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "phone-story.png"))
    phone.close()

    small = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
    page = small.new_page()
    create(page, url, "Luca", 3, 2, "relaxed", "Three daimyo", game="samurai")
    page.wait_for_selector(".sam-pick button.tile")
    for k in (12, 13, 14, 15, 16):
        page.locator(".sam-pick button.tile").nth(k).click()
    page.locator(".sam-pick button.primary").click()
    page.wait_for_selector(".decision.mine #sam-hex", timeout=60_000)
    page.locator(".sam-map .zoom-in").focus()
    page.keyboard.press("Tab")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.locator(".sam-map details.legend summary").click()
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "samurai-board.png"))
    page.screenshot(path=str(OUT / "samurai-board-full.png"), full_page=True)

    page.goto(url)
    page.wait_for_selector("[data-ready]")
    form = page.locator("form.create")
    form.locator("#game").select_option("oro")
    form.locator("#gods").check()
    form.locator("#seats").select_option("3")
    form.locator("#timers").select_option("relaxed")
    form.locator("#bots").select_option("2")
    form.get_by_role("button").last.click()
    page.wait_for_selector(".oro-seat.me")
    play_oro_turns(page, 4)
    wait_for_choice(page)
    page.locator(".oro-map details.legend summary").click()
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "oro-board.png"))

    page.goto(url)
    page.wait_for_selector("[data-ready]")
    page.locator("#organise summary").click()
    page.fill("#organise-name", "Sunday Cup")
    page.locator("#organise-rounds").select_option("2")
    page.locator("#organise-size").select_option("4")
    page.locator("#organise-timers").select_option("bots")
    page.locator("#organise-create").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / "tournament-create.png"))
    page.click("#organise-create")
    page.wait_for_selector("#organiser")
    for name in ("Aiko", "Benkei", "Chiyo", "Daigo"):
        page.fill("#organise-bot-name", name)
        page.click("#organise-add-bot")
        page.wait_for_selector(f"#standings >> text={name}")
    page.click("#organise-start")
    page.wait_for_selector(".round-table >> text=played", timeout=120_000)
    time.sleep(0.5)
    page.screenshot(path=str(OUT / "tournament-organiser.png"), full_page=True)

    page.goto(url)
    page.wait_for_selector("[data-ready]")
    page.select_option("#lang", "fr")
    time.sleep(0.3)
    page.screenshot(path=str(OUT / "lobby-fr.png"), full_page=True)
    page.select_option("#lang", "en")
    small.close()


def turn_shots(browser: Any, url: str) -> None:
    """A turn-based table (docs/table.md T8): a person signs up in the page,
    creates a table from the "a day a move" preset with three bots, and
    waits for a decision of theirs, whose clock reads in hours and days;
    then the lobby, "My games" first, with the table that awaits them; and
    the card reference."""
    wide = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
    page = wide.new_page()
    page.goto(url)
    page.wait_for_selector("[data-ready]")
    page.fill("#name", "Sora")
    page.fill("#account-password", "correct horse battery")
    page.click("#sign-up")
    page.wait_for_selector(".account[data-signed-in]")
    form = page.locator("form.create")
    form.locator("input").first.fill("A letter a day")
    form.locator("#timers").select_option("daily")
    page.wait_for_selector("#turn-based-note")
    page.screenshot(path=str(OUT / "turn-based-create.png"))
    form.locator("#bots").select_option("3")
    form.get_by_role("button").last.click()
    page.wait_for_selector(".seat.me")
    page.locator(".decision").filter(has_text="Your decision").wait_for(timeout=120_000)
    time.sleep(0.5)
    page.screenshot(path=str(OUT / "turn-based-table.png"))
    page.get_by_role("button", name="Cards", exact=True).click()
    page.wait_for_selector(".dialog")
    page.screenshot(path=str(OUT / "card-reference.png"))
    page.keyboard.press("Escape")
    page.goto(url)
    page.wait_for_selector(".my-games .tag.your-turn")
    page.screenshot(path=str(OUT / "turn-based-lobby.png"))
    wide.close()


def wait_for_choice(page: Any, timeout: float = 60) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if page.locator(".decision.mine .choices button:enabled, .decision.mine #sam-hex:enabled").count():
            return True
        time.sleep(0.2)
    return False


def build_deal(page: Any) -> None:
    """Open the deal builder with a card for a promise of support, and a promise."""
    page.get_by_role("tab", name="Deals").click()
    page.get_by_role("button", name="Propose a deal").click()
    builder = page.locator("form.builder")
    builder.get_by_role("button", name="+ a card").click()
    row = builder.locator("fieldset").nth(0)
    row.locator("select").nth(2).select_option(index=2)
    row.locator("select").nth(1).select_option(index=1)
    row.locator("input").fill("for your support in the next fight")
    builder.get_by_role("button", name="+ a promise").click()
    prom = builder.locator("fieldset").nth(1)
    prom.locator("select").nth(1).select_option(index=2)
    prom.locator("select").nth(2).select_option("no_attack")
    prom.locator("select").nth(3).select_option(index=2)
    prom.locator("input").fill("I will not attack you this season")


def main() -> None:
    """All the screenshots; `samurai`, `follow`, `pace` or `turn` as the argument: those alone."""
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    only = sys.argv[1] if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        proc, url = start_server(str(Path(tmp) / "shots.sqlite"), 0.4)
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        try:
            if only in (None, "turn"):
                turn_shots(browser, url)
            if only == "turn":
                return
            if only in (None, "pace"):
                pace_shots(browser, url)
            if only == "pace":
                return
            if only in (None, "follow"):
                follow_shots(browser, url)
            if only == "follow":
                return
            samurai_shots(browser, url)
            if only == "samurai":
                return
            wide = browser.new_context(viewport={"width": 1440, "height": 1000}, device_scale_factor=1)
            page = wide.new_page()
            # A finished bot game first, so the lobby lists every state.
            create(page, url, "Ren", 5, 4, "bots", "Bots only")
            page.wait_for_selector(".result", timeout=120_000)
            page.screenshot(path=str(OUT / "game-over.png"), full_page=True)
            finished = page.url.split("/t/")[1]
            for lang in ("de", "fr"):  # while the finished table is still live
                page.select_option("#lang", lang)
                time.sleep(0.3)
                page.screenshot(path=str(OUT / f"game-over-{lang}.png"), full_page=True)
            page.select_option("#lang", "en")

            create(page, url, "Luca", 4, 3, "relaxed", "Evening game")
            wait_for_choice(page)
            page.goto(url)
            page.wait_for_selector(".table-row")
            page.screenshot(path=str(OUT / "lobby.png"), full_page=True)
            page.go_back()
            wait_for_choice(page)
            page.screenshot(path=str(OUT / "table-4.png"), full_page=True)
            build_deal(page)
            page.screenshot(path=str(OUT / "deal-builder.png"), full_page=True)
            page.get_by_role("button", name="Cards", exact=True).click()
            page.wait_for_selector(".dialog")
            page.screenshot(path=str(OUT / "card-reference.png"))
            page.keyboard.press("Escape")

            create(page, url, "Luca", 12, 11, "normal", "Twelve lords")
            wait_for_choice(page, 90)
            page.screenshot(path=str(OUT / "table-12.png"), full_page=True)

            page.goto(f"{url}#/r/{finished}?as=all")
            page.wait_for_selector("#replay-pos")
            for _ in range(25):
                page.keyboard.press("ArrowRight")
            time.sleep(0.3)
            page.screenshot(path=str(OUT / "replay.png"), full_page=True)

            create(page, url, "Luca", 3, 2, "relaxed", "Island evening", game="oro")
            play_oro_turns(page, 10)
            wait_for_choice(page)
            if page.locator(".oro-map .conn.open").count():  # a connection picked on the map
                page.locator(".oro-map .conn.open").first.click(force=True)
            time.sleep(0.3)
            page.screenshot(path=str(OUT / "oro-table.png"), full_page=True)
            page.select_option("#lang", "de")
            time.sleep(0.3)
            page.screenshot(path=str(OUT / "oro-table-de.png"), full_page=True)
            page.select_option("#lang", "en")
            page.get_by_role("button", name="Cards", exact=True).click()
            page.wait_for_selector(".dialog")
            page.screenshot(path=str(OUT / "oro-reference.png"))
            page.keyboard.press("Escape")

            wide.close()

            phone = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True,
                                        device_scale_factor=2)
            page = phone.new_page()
            page.goto(url)
            page.wait_for_selector("[data-ready]")
            page.screenshot(path=str(OUT / "lobby-phone.png"))
            create(page, url, "Mika", 4, 3, "normal", "On the bus")
            wait_for_choice(page)
            page.screenshot(path=str(OUT / "table-phone.png"), full_page=True)
            build_deal(page)
            page.locator("form.builder").scroll_into_view_if_needed()
            page.screenshot(path=str(OUT / "deal-builder-phone.png"))
            create(page, url, "Mika", 2, 1, "normal", "Two islanders", game="oro")
            play_oro_turns(page, 6)
            wait_for_choice(page)
            page.screenshot(path=str(OUT / "oro-table-phone.png"), full_page=True)
            phone.close()
        finally:
            browser.close()
            proc.terminate()
            proc.wait(10)
    for path in sorted(OUT.glob("*.png")):
        print(path.relative_to(OUT.parent.parent))


if __name__ == "__main__":
    main()
