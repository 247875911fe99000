"""Quick deals in the terminal (clients/quickdeals.py, terminal/render.py
and commands.py): the common deals of a fight pre-filled from the view, as
the page has them (its games/oriente/quick.js, with its own unit tests);
offers to the person with the ways to answer them; what became of the
person's deals, who declined and why, in words (R8.8)."""

from __future__ import annotations

import re

from oriente.clients.quickdeals import cheapest_card, deals_of, quick_commands, quick_options
from oriente.clients.terminal.commands import Intent, build_deal, deal_sentence, parse_table_input
from oriente.clients.terminal.render import render_negotiation, render_table, ui_words

NAMES = {0: "Luca", 1: "Aiko", 2: "Benkei", 3: "Chiyo"}


def view(**extra):
    seats = [{"seat": s, "disc": s != 1, "pile": [[41, 45, 49, 50][s]], "kept": 0, "broken": 0} for s in range(4)]
    return {"seats": seats, "season": 1, "fight": {"attacker": 1, "defender": 0, "reinforcements": []},
            "deals": [], "ledger": [], **extra}


def window(**extra):
    return {"id": 5, "kind": "window", "topic": "negotiation", "rule": "R10.2b", "asked": [2, 3], "pivot": None,
            "early": [2, 3], "published": [], "done": [], "legal": [{"type": "Done", "decision": 5}],
            "deal": {"propose": True, "open": 0, "max_open": 3}, "deadline_ms": 45_000, **extra}


def test_the_defender_buys_support_in_one_command() -> None:
    v = view()
    buy, peace = quick_options(v, window(), 0)
    assert (buy.kind, buy.side, buy.card, buy.seats, buy.chosen) == ("buy_support", "defender", 41, (2, 3), (2,))
    assert peace.kind == "peace" and peace.chosen == (2,)  # the attacker has no disc: it cannot attack again
    [cmd] = quick_commands(buy, 41, [2], v, 0, ui_words, lambda s: NAMES[s])
    assert cmd["transfers"] == [{"type": "Transfer", "card": 41, "giver": 0, "receiver": 2,
                                 "consideration": "for your support of the defender, Luca"}]
    assert [(p["promiser"], p["promisee"], p["kind"], p["side"]) for p in cmd["promises"]] == [(2, 0, "support",
                                                                                                 "defender")]
    assert cmd["why"] == {"code": "buy_support", "attacker": 1, "defender": 0, "side": "defender"}
    assert parse_table_input("/offer 1") == Intent("offer", (1, None, None))
    assert parse_table_input("/offer 1 to 2, Chiyo card Treasure 2") == Intent("offer", (1, "2, Chiyo", "Treasure 2"))


def test_an_asked_seat_sells_its_support_and_nothing_without_a_card() -> None:
    options = quick_options(view(), window(), 2)
    assert [(o.kind, o.side, o.card) for o in options] == [("sell_support", "attacker", 45),
                                                          ("sell_support", "defender", 41), ("peace", None, 49)]
    assert cheapest_card([37, 38]) is None and cheapest_card([49, 45, 25]) == 25
    assert quick_options(view(), window(deal={"propose": False, "open": 3, "max_open": 3}), 0) == []
    assert quick_options(view(), window(), "spectator") == []


def test_offers_quick_deals_and_fates_are_shown_under_the_decision_in_words() -> None:
    offer = {"deal": 4, "proposer": 3, "parties": [0, 3], "accepted": [3],
             "transfers": [{"type": "Transfer", "card": 41, "giver": 0, "receiver": 3, "consideration": "support"}],
             "promises": [{"type": "Promise", "promiser": 3, "promisee": 0, "text": "I will", "kind": "support",
                           "attacker": 1, "defender": 0, "side": "defender", "cards": [], "by_season": None,
                           "seat": None}],
             "why": {"code": "sell_support", "attacker": 1, "defender": 0, "side": "defender"}}
    events = [{"type": "SeasonBegan", "season": 1},
              {"type": "DealProposed", "deal": 3, "proposer": 0, "parties": [0, 2]},
              {"type": "DealClosed", "deal": 3, "seat": 2, "reason": "declined", "why": {"code": "worth_less"}},
              {"type": "DealProposed", "deal": 4, "proposer": 3, "parties": [0, 3]}]
    v = view(deals=[offer])
    text = "\n".join(render_negotiation(v, window(), 0, NAMES, deals_of(events, 0), width=200))
    assert "OFFER #4 from seat 3 (Chiyo)" in text and "/accept 4 | /decline 4" in text and "/counter 4" in text
    assert "It is support of the defender, seat 0 (you), in the fight of seat 1 (Aiko) against seat 0 (you)" in text
    assert "Quick deal /offer 1: My card for your support of the defender: Treasure 2 <-> seat 2 (Benkei)" in text
    assert ("Deal #3 (seat 2 (Benkei)): declined by seat 2 (Benkei): what it gives is worth less to them than what "
            "it asks") in text
    assert "worth_less" not in text.replace("/decline 4 [worth_less", "")
    screen = render_table(table="T", view=v, prompt=window(), you=0, names=NAMES, feed=["news"] * 30,
                          seconds_left=40, width=80, height=24, fates=deals_of(events, 0))
    assert len(screen) <= 24 and all(len(line) <= 80 for line in screen)
    assert any("40 s left" in line for line in screen) and any("/offer 1" in line for line in screen)


def test_a_counter_offer_starts_from_the_offers_own_terms() -> None:
    offer = {"deal": 7, "note": "",
             "transfers": [{"type": "Transfer", "card": 41, "giver": 0, "receiver": 3, "consideration": "a; b"}],
             "promises": [{"type": "Promise", "promiser": 3, "promisee": 0, "text": "x", "kind": "support",
                           "attacker": 1, "defender": 0, "side": "defender", "cards": [], "by_season": None,
                           "seat": None}]}
    sentence = deal_sentence(offer, 0)
    assert sentence == "give Treasure 2 to seat 3 for a, b; seat 3 supports defender"
    back = build_deal(sentence, view(), 0)
    assert [(t["card"], t["giver"], t["receiver"]) for t in back["transfers"]] == [(41, 0, 3)]
    assert [(p["promiser"], p["promisee"], p["kind"], p["side"]) for p in back["promises"]] == [(3, 0, "support",
                                                                                                "defender")]
    assert parse_table_input("/counter 7") == Intent("counter", (7, ""))
    assert parse_table_input("/decline 7 record") == Intent("decline", (7, "record"))
    assert parse_table_input("/decline 7") == Intent("decline", 7)


def test_at_80x24_a_fight_keeps_every_seat_and_gives_the_quick_deals_one_line() -> None:
    """Seen playing the demo at 80x24: in a window with three quick deals and
    an answer sealed, the six seats shrank to one line and the news to two.
    Now the window's explanation goes once the answer is sealed (the sealed
    line says it), and the quick deals give way to one line before a seat
    does."""
    names = {**NAMES, 4: "Daisuke", 5: "Emi"}
    seats = [{"seat": s, "disc": True, "pile": [41 + s], "kept": 0, "broken": 0} for s in range(6)]
    v = {"seats": seats, "season": 2, "fight": {"attacker": 1, "defender": 0, "reinforcements": []},
         "deals": [], "ledger": [], "workers": {"supply": 3, "square": 1}, "deck_size": 20, "bonus_size": 1}
    legal = [{"type": "Pass", "decision": 5}, {"type": "Support", "decision": 5, "side": "attacker"},
             {"type": "Support", "decision": 5, "side": "defender"}]
    prompt = window(asked=[2, 3, 4, 5], early=[2, 3, 4, 5], legal=legal, sealed={"type": "Pass", "decision": 5})
    assert len(quick_options(v, prompt, 2)) == 3
    screen = render_table(table="T", view=v, prompt=prompt, you=2, names=names, feed=[f"news {i}" for i in range(30)],
                          seconds_left=40, width=80, height=23, status="You chose: pass (support neither side).")
    text = "\n".join(screen)
    assert len(screen) <= 23 and all(len(line) <= 80 for line in screen)
    assert all(re.search(rf"^[> ] ?{s} {names[s]}", text, re.M) for s in range(6)), text
    assert sum(line.startswith("news ") for line in screen) >= 3, text
    assert "Quick deals: /offer 1-3 (a taller terminal lists them)" in text
    assert "Your sealed answer: pass (support neither side) (final when the window closes)" in " ".join(text.split())
    assert "Declare your support now" not in text
    assert ">>> YOUR DECISION #5: negotiation window (R10.2b) -- 40 s left" in text
    tall = "\n".join(render_table(table="T", view=v, prompt=prompt, you=2, names=names, feed=["news"] * 30,
                                  seconds_left=40, width=80, height=45))
    assert "Quick deal /offer 1:" in tall and "Quick deals: /offer" not in tall


def test_at_80x24_an_offer_keeps_the_persons_own_seat_and_the_fighters() -> None:
    """Seen in a lobby game at 80x24: an offer of seven lines left one seat
    on screen, seat 0's, whoever the person was; and a sealed answer in a
    window read "nobody decides first", and an offer "for "for your ..."."""
    names = {0: "Aiko (bot)", 1: "Benkei (bot)", 2: "Luca", 3: "Chiyo (bot)"}
    seats = [{"seat": s, "disc": True, "pile": [41 + s], "kept": 0, "broken": 0} for s in range(4)]
    offer = {"deal": 1, "proposer": 1, "parties": [1, 2], "accepted": [1],
             "transfers": [{"type": "Transfer", "card": 42, "giver": 1, "receiver": 2,
                            "consideration": "for your support of me, the defender, in this fight"}],
             "promises": [{"type": "Promise", "promiser": 2, "promisee": 1, "text": "", "kind": "support",
                           "attacker": 3, "defender": 1, "side": "defender", "cards": [], "by_season": None,
                           "seat": None}],
             "why": {"code": "buy_support", "attacker": 3, "defender": 1, "side": "defender"}}
    v = {"seats": seats, "season": 1, "fight": {"attacker": 3, "defender": 1, "reinforcements": []},
         "deals": [offer], "ledger": [], "workers": {"supply": 3, "square": 1}, "deck_size": 20, "bonus_size": 1}
    legal = [{"type": "Pass", "decision": 2}, {"type": "Support", "decision": 2, "side": "attacker"},
             {"type": "Support", "decision": 2, "side": "defender"}]
    prompt = window(id=2, asked=[0, 2], early=[0, 2], legal=legal, sealed={"type": "Pass", "decision": 2})
    screen = render_table(table="T", view=v, prompt=prompt, you=2, names=names, feed=[f"news {i}" for i in range(30)],
                          seconds_left=20, width=80, height=23)
    text = "\n".join(screen)
    assert len(screen) <= 23 and all(len(line) <= 80 for line in screen)
    shown = [int(m) for m in re.findall(r"^[> ] ?(\d) ", text, re.M)]
    assert {1, 2, 3} <= set(shown) and shown == sorted(shown), text  # the person (2) and both fighters
    assert "OFFER #1 from seat 1 (Benkei (bot))" in text and 'for "for' not in " ".join(text.split())
    assert "decides first" not in text and "Declare your support" not in text


def test_the_story_never_shows_the_wrapped_rest_of_an_entry_without_its_start() -> None:
    """At 80x24 the story shows its newest lines; an entry whose first line
    falls above the window is left out whole rather than begun mid-sentence
    (seen in tmux: a line reading "(you)'s attack on seat 1 (Benkei).")."""
    long = "Seat 0 (you) says" + " zzz" * 60
    for n in range(1, 12):  # every place the window's top may fall within the entry
        feed = [long, *(f"news {i}" for i in range(n))]
        screen = render_table(table="T", view=view(), prompt=window(), you=0, names=NAMES, feed=feed,
                              seconds_left=40, width=80, height=24)
        story = [line for line in screen if "zzz" in line or line.startswith("news")]
        assert story and not story[0].startswith("    "), (n, screen)
        assert all(len(line) <= 80 for line in screen) and len(screen) <= 24
