"""A table a person can follow, in Chromium against scripted bots, each game
dealt from a configured deck (R2.8) so that it takes the same course:

- the pace: steps drawn one at a time, the queue caught up at once when a
  decision waits on the person, each change marked on the seats until the
  next step, and a recap when a season ends, kept across a reload;
- the log: grouped by season and fight, chat in a pane of its own, pinned to
  the newest line, each line of a finished game a way to its replay step;
- decisions: a claim that cannot count (R4.3c) says so before it is chosen,
  the unconditional auto-pass (R10.2d), one timer label, Tab reaches the
  decision before the cards;
- the end: the ranking first and above the fold at 1280x800, ties broken in
  words (R9.4), each total broken down into its cards, "my games", and the
  replay from the person's own seat, with jumps and autoplay.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from . import scripted
from .conftest import set_pace
from .test_play import DEAL, PERSON, sit_down

pytestmark = pytest.mark.browser


def rest_of(first: list[int]) -> list[int]:
    return first + [c for c in range(41) if c not in first]


# The end at once: the person (seat 0, a Daimyo, the stone holder) announces
# Income, which draws the Geisha (R9.2). Totals: Daimyo 4 + treasure 2 + the
# bonus Nofu 1 its fulfilment brought = 7;
# Nofu 1 + treasure 4 = 5 twice (the same cards: a shared rank) and Akindo 2
# + treasure 3 = 5 (behind them: 4 beats 3 at the first card, R9.4).
QUICK_END = {"deck": rest_of([25, 7, 26, 18, 27, 40]), "treasures": [41, 49, 45, 50], "stone_holder": 0}
# A claim that cannot count: the person's Daimyo has the announcer's rank and
# as many score cards (one treasure each), so it is not "equal and poorer" (R4.3c).
EQUAL_RANKS = {"deck": rest_of([25, 7, 8, 26, 27, 28, 29, 40]), "treasures": [41, 45, 49, 52], "stone_holder": 1}


def test_season_recap_and_change_marked_while_the_queue_waits_for_nobody(server: Any, page: Any, browser: Any) -> None:
    """A minute between two steps: only the catch-up for the person's own
    decisions can bring them on screen in time (pace.js), while a spectator
    at the same pace sees the steps that need nobody wait their turn. At a
    gap a person reads, they come one by one, and the season's end brings
    its recap."""
    table = server.call(lambda: scripted.create(server.port, seats=4, name="paced", deal=DEAL, timers=PERSON))
    watcher = browser.new_context(viewport={"width": 1400, "height": 950})
    watcher.add_init_script("localStorage.setItem('oriente.pace', '60000');")
    watch = watcher.new_page()
    watch.goto(f"{server.url}#/t/{table}")
    expect(watch.locator(".table-head")).to_contain_text("You are watching")
    server.spawn(scripted.play, server.port, table, 1, "Aiko", scripted.attacker_of(2))
    server.spawn(scripted.play, server.port, table, 2, "Benkei", scripted.passer)
    server.spawn(scripted.play, server.port, table, 3, "Chiyo", scripted.passer)
    set_pace(page, 60_000)
    sit_down(page, server, table, "Ana")
    decision = page.locator(".decision")
    # The privilege round over Aiko's attack: caught up at once, however long the gap.
    decision.get_by_role("button", name="Pass (do not claim)").click()
    decision.get_by_role("button", name=re.compile("Support the defender")).click()
    recap = page.locator(".recap")
    expect(recap).to_contain_text("Season 1 is over")
    # The spectator's page holds the same steps in its queue, a minute apart.
    watch_log = watch.locator(".feed")
    expect(watch_log).not_to_contain_text("Aiko announces")
    assert watch.locator(".recap").count() == 0
    # At a gap a person reads, they come one by one, to the same recap.
    watch.locator(".table-settings summary").click()
    watch.select_option("#pace", "400")
    expect(watch_log).to_contain_text("Aiko announces an attack on Benkei")
    assert watch.locator(".recap").count() == 0  # not yet: the steps come one by one
    watch.select_option("#pace", "0")  # no pause: the queue is drawn at once
    expect(watch.locator(".recap")).to_contain_text("Season 1 is over")
    watcher.close()

    expect(recap).to_contain_text("Aiko attacked Benkei")
    expect(recap).to_contain_text(re.compile(r"attack \d+ against defence \d+; \w+ won and took"))
    piles = recap.locator(".recap-piles tbody tr")
    expect(piles).to_have_count(4)
    before_after = [piles.nth(s).locator("td").all_inner_texts() for s in range(4)]
    assert all(row[1] != "?" and row[2] != "?" for row in before_after), before_after
    assert any(row[3] for row in before_after), before_after  # somebody's pile changed: the capture
    # Season 2: Aiko's announcement is the step on screen while the person decides; it stays marked.
    claim = decision.get_by_role("button", name=re.compile("Claim privilege: Income"))
    expect(claim).to_be_visible()
    # The step drawn last is marked on its seat, and stays marked while the person decides.
    expect(page.locator(".seat.changed .change").first).to_be_visible()
    marked = page.locator(".seat.changed").count()
    page.wait_for_timeout(1_000)
    assert page.locator(".seat.changed").count() == marked
    # A reload tells the recap again, piles and all (kept by this browser).
    page.reload()
    recap = page.locator(".recap")
    expect(recap).to_contain_text("Season 1 is over")
    again = [recap.locator(".recap-piles tbody tr").nth(s).locator("td").all_inner_texts() for s in range(4)]
    assert again == before_after
    recap.get_by_role("button", name="Close").click()
    expect(page.locator(".recap")).to_have_count(0)
    page.get_by_role("button", name="Recap of season 1").click()
    expect(page.locator(".recap")).to_be_visible()
    assert page.errors == []


def test_log_grouped_by_season_and_fight_with_chat_apart_and_lines_to_the_replay(server: Any, page: Any) -> None:
    table = server.call(lambda: scripted.create(server.port, seats=4, name="logged", deal=DEAL, timers=PERSON))
    server.spawn(scripted.play, server.port, table, 1, "Aiko", scripted.attacker_of(2))
    server.spawn(scripted.play, server.port, table, 2, "Benkei", scripted.passer)
    server.spawn(scripted.play, server.port, table, 3, "Chiyo", scripted.passer)
    sit_down(page, server, table, "Ana")
    decision = page.locator(".decision")
    decision.get_by_role("button", name="Pass (do not claim)").click()
    page.fill("#chat-input", "good luck")
    page.keyboard.press("Enter")
    decision.get_by_role("button", name=re.compile("Support the defender")).click()
    decision.get_by_role("button", name=re.compile("Claim privilege: Income")).click()
    expect(page.locator(".result")).to_be_visible()

    log = page.locator(".feed.log")
    season = log.locator("li.g-season").first
    expect(season.locator(".group-title").first).to_have_text("Season 1")
    fight = season.locator("li.g-fight")
    expect(fight.locator(".group-title")).to_have_text("Fight: Aiko attacks Benkei")
    expect(fight).to_contain_text("Ana (you) supports the defender")
    expect(log.locator("li.g-season")).to_have_count(2)
    expect(log.locator("li[data-type='Announced'] .icon").first).to_have_text("❢")
    # Chat has its own pane; the log tells what happened.
    expect(page.locator(".chat-pane")).to_contain_text("good luck")
    expect(log).not_to_contain_text("good luck")
    # Pinned to the newest line, unless the person scrolls up.
    at_end = log.evaluate("el => el.scrollHeight - el.scrollTop - el.clientHeight")
    assert at_end < 24, at_end
    log.evaluate("el => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }")
    newest = page.get_by_role("button", name=re.compile("the newest lines"))
    expect(newest).to_be_visible()
    newest.click()
    expect(newest).to_have_count(0)
    # Each line of the finished game is its step in the replay, seen from the person's seat.
    line = fight.locator("li[data-type='FightBegan'] a")
    seq = int(fight.locator("li[data-type='FightBegan']").get_attribute("data-seq"))
    line.click()
    expect(page).to_have_url(re.compile(rf"#/r/{table}\?as=0&seq={seq}$"))
    expect(page.locator("#replay-as")).to_have_value("0")
    expect(page.locator("#replay-pos")).not_to_contain_text("step 0 of")
    # The replay's log is the game's log: the same groups, up to the step (the fight begun, not yet fought).
    replayed = page.locator(".feed.log")
    expect(replayed.locator("li.g-fight .group-title")).to_have_text("Fight: Aiko attacks Benkei")
    expect(replayed.locator("li[data-type='FightBegan']")).to_have_count(1)
    expect(replayed.locator("li[data-type='FightResolved']")).to_have_count(0)
    assert page.errors == []


def test_hopeless_claim_says_why_before_it_is_chosen_and_auto_pass_answers(server: Any, page: Any) -> None:
    timers = {**PERSON, "bank_ms": 120_000}
    table = server.call(lambda: scripted.create(server.port, seats=4, name="equal ranks", deal=EQUAL_RANKS,
                                                timers=timers))
    server.spawn(scripted.play, server.port, table, 1, "Aiko", scripted.attacker_of(2))
    server.spawn(scripted.play, server.port, table, 2, "Benkei", scripted.passer)
    server.spawn(scripted.play, server.port, table, 3, "Chiyo", scripted.passer)
    sit_down(page, server, table, "Ana")
    decision = page.locator(".decision")
    claims = decision.locator("button.choice.claim")
    hopeless = decision.locator("button.choice.claim.hopeless")
    # The mark may come a render after the buttons: it needs the cards' ranks (app.refs), loaded apart.
    expect(hopeless.first).to_be_visible()
    # Every claim is marked, and the panel says why, with the figures (R4.3c).
    assert claims.count() == hopeless.count() > 0
    warning = decision.locator("#hopeless-claim")
    expect(warning).to_contain_text("cannot count")
    expect(warning).to_contain_text("you hold 1, Aiko 1; R4.3c")
    assert decision.locator("button.choice.pass.hopeless").count() == 0
    # One timer label: the seat's own time, then its bank, never "incl.".
    timer = decision.locator(".decision-head .countdown")
    expect(timer).to_have_text(re.compile(r"^\d:\d\d \+ bank 2:00$"))
    # Tab reaches the decision before any card on the table.
    page.evaluate("document.activeElement && document.activeElement.blur()")
    where = ""
    for _ in range(40):
        page.keyboard.press("Tab")
        where = page.evaluate("() => document.activeElement.closest('.decision') ? 'decision'"
                              " : document.activeElement.closest('.ring') ? 'table' : ''")
        if where:
            break
    assert where == "decision"
    # The auto-pass, unconditional (R10.2d): this round is passed at once, and every such round after it.
    page.locator(".table-settings summary").click()
    page.get_by_label("every privilege round").check()
    expect(page.locator(".feed")).to_contain_text("Ana (you) does not claim privilege.")
    expect(page.locator(".seat.me .tag", has_text="asked")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('oriente.autopass')") == '["privilege"]'
    assert page.errors == []


def test_end_ranking_above_the_fold_ties_named_and_my_games(server: Any, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    table = server.call(lambda: scripted.create(server.port, seats=4, name="quick end", deal=QUICK_END,
                                                timers=PERSON))
    for seat, name in ((1, "Aiko"), (2, "Benkei"), (3, "Chiyo")):
        server.spawn(scripted.play, server.port, table, seat, name, scripted.passer)
    sit_down(page, server, table, "Ana")
    page.locator(".decision").get_by_role("button", name="Income", exact=True).click()
    ranking = page.locator(".result table.ranking")
    expect(ranking).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    box = ranking.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800, box  # the whole ranking, above the fold
    rows = ranking.locator("tbody tr")
    expect(rows.nth(0)).to_contain_text("Ana (you)")
    expect(rows.nth(0).locator(".sum")).to_have_text("4 + 2 + 1 (pile and inhabitant)")
    assert [rows.nth(k).locator("td.rank").inner_text() for k in range(4)] == ["1", "2", "2", "4"]
    ties = page.locator(".result .ties")
    expect(ties).to_contain_text("Aiko and Chiyo both have 5 points and cards of the same values: they share the rank")
    expect(ties).to_contain_text("Chiyo and Benkei both have 5 points: Chiyo ranks ahead on the tie-break (R9.4)")
    expect(ties).to_contain_text("at card 1, 4 beats 3")

    # The replay opens from the person's own seat, and plays itself.
    page.locator(".result").get_by_role("link", name="Replay the game").click()
    expect(page.locator("#replay-as")).to_have_value("0")
    expect(page.locator("#replay-pos")).to_contain_text("step 0 of")
    expect(page.locator("#replay-next-group")).to_be_visible()
    last = page.locator("#replay-pos").inner_text().split(" of ")[1]
    page.locator("#replay-play").click()
    expect(page.locator("#replay-pos")).to_have_text(f"step {last} of {last}", timeout=30_000)

    # "My games": this table, over, with the person's rank and points.
    page.goto(server.url)
    mine = page.locator(".my-games")
    expect(mine).to_contain_text("quick end")
    expect(mine).to_contain_text("over · you ranked 1 of 4, 7 points")
    assert page.errors == []


def test_my_games_say_how_a_table_left_before_its_end_stands(server: Any, page: Any) -> None:
    """A table the person left while it ran ends without them (their
    decisions time out, every seat passes, the season's end draws the
    Geisha, R9.2): "my games" asks the server (my_tables) and says it is
    over, with the seat's rank, though this page never saw the end."""
    quick = {**PERSON, "prompt_ms": 500, "window_ms": 500}
    table = server.call(lambda: scripted.create(server.port, seats=4, name="left early", deal=QUICK_END,
                                                timers=quick))
    for seat, name in ((1, "Aiko"), (2, "Benkei"), (3, "Chiyo")):
        server.spawn(scripted.play, server.port, table, seat, name, scripted.passer)
    sit_down(page, server, table, "Ana")
    page.goto(server.url)
    mine = page.locator(".my-games li", has_text="left early")
    expect(mine).to_contain_text(re.compile(r"over · you ranked \d of 4, \d+ points"))
    page.reload()  # kept by the browser too
    expect(page.locator(".my-games li", has_text="left early")).to_contain_text("over")
    assert page.errors == []


def test_keys_reach_every_choice_past_nine_at_twelve_seats(server: Any, page: Any) -> None:
    """A Daimyo holding the stone at a 12-seat table may attack any of 11
    seats, take Income or pass: more than nine choices, each with its key
    (1-9, then 0 and the letters), and a letter picks its choice."""
    deal = {"deck": rest_of([25, 7, *range(26, 37)]), "treasures": list(range(41, 53)), "stone_holder": 0}
    table = server.call(lambda: scripted.create(server.port, seats=12, name="twelve", deal=deal, timers=PERSON))
    for seat in range(1, 12):
        server.spawn(scripted.play, server.port, table, seat, f"P{seat}", scripted.passer)
    sit_down(page, server, table, "Ana")
    choices = page.locator(".decision .choices button")
    expect(choices.nth(10)).to_be_visible()
    n = choices.count()
    keys = [choices.nth(k).locator("kbd").inner_text() for k in range(n)]
    assert n > 10 and keys == list("1234567890abcdefghijklmnopqrstuvwxyz"[:n]), keys
    picked = choices.nth(10).inner_text().split("\n")[-1].strip()  # e.g. "Attack → P11"
    page.keyboard.press("a")
    told = page.locator(".feed li[data-type='Announced']").first
    expect(told).to_contain_text("Ana (you) announces")
    expect(told).to_contain_text(picked.split("→")[1].strip() if "→" in picked else picked.lower())
    assert page.errors == []


def test_bank_running_warned_in_one_timer_label(server: Any, page: Any) -> None:
    """Once the seat's own time is spent its time bank runs (R10.3): the
    label says "bank M:SS", never a time that contradicts its own note,
    and warns that what the bank loses is gone."""
    timers = {**PERSON, "prompt_ms": 100, "bank_ms": 60_000}
    table = server.call(lambda: scripted.create(server.port, seats=4, name="bank", deal=QUICK_END, timers=timers))
    for seat, name in ((1, "Aiko"), (2, "Benkei"), (3, "Chiyo")):
        server.spawn(scripted.play, server.port, table, seat, name, scripted.passer)
    sit_down(page, server, table, "Ana")
    timer = page.locator(".decision-head .countdown")
    expect(timer).to_have_class(re.compile("bank-running"))
    expect(timer).to_contain_text(re.compile(r"^bank [01]:\d\d"))
    expect(timer.locator(".bank-warning")).to_have_text(re.compile("Your time bank is running"))
    assert "incl." not in timer.inner_text()
    assert page.errors == []
