"""The terminal client's screens, from hand-written views and prompts (pure)."""

from __future__ import annotations

import copy
import re

from oriente.clients.terminal.render import (
    action_label,
    choice_label,
    decision_choices,
    fight_line,
    format_seconds,
    hopeless_claim,
    narrate_update_event,
    pile_total,
    render_board,
    render_deals,
    render_ledger,
    render_lobby,
    render_piles,
    render_prompt,
    render_result,
    render_seats,
    render_table,
    wants_answer,
)

# Card ids (PROTOCOL.md, Cards): 0 Shogun, 7 Daimyo, 12 Samurai, 18 Akindo,
# 25 Nofu, 37 Ninja, 41 Treasure 2, 45 Treasure 3, 49 Treasure 4.
NAMES = {0: "Tester", 1: "bob", 2: "cy", 3: "dee"}


def seat(s: int, *, inhabitant=None, revealed=False, disc=True, pile=(), known_to=None, empty=False) -> dict:
    return {"seat": s, "disc": disc, "revealed": revealed, "pile": list(pile), "kept": 0, "broken": 0,
            "inhabitant": inhabitant, "empty": empty, "known_to": known_to if known_to is not None else [s]}


def a_view(viewer=0) -> dict:
    return {
        "viewer": viewer,
        "seats": [
            seat(0, inhabitant=12 if viewer == 0 else None, pile=[49, 25]),
            seat(1, inhabitant=18, revealed=True, disc=False, pile=[41], known_to="all"),
            seat(2, pile=[45, 7, 0]),
            seat(3, pile=[]),
        ],
        "season": 2, "phase": "privilege", "stone_holder": 1,
        "workers": {"supply": 5, "hut": 0, "square": 1, "hut_used": False},
        "deck_size": 30, "deck_bottom": [3], "bonus_size": 2, "bonus_set_aside": 0, "bonus_awarded": False,
        "geisha": None, "in_play": [], "decision": None, "announcer": 1,
        "action": {"type": "Action", "kind": "attack", "target": 2}, "chain": [1], "fight": None,
        "deals": [], "ledger": [], "result": None,
    }


def a_prompt(pivot=0, *, legal=None, early=(), topic="privilege", kind="round", **extra) -> dict:
    legal = legal if legal is not None else [
        {"type": "Pass", "decision": 7},
        {"type": "Claim", "decision": 7, "action": {"type": "Action", "kind": "attack", "target": 3}},
        {"type": "Claim", "decision": 7, "action": {"type": "Action", "kind": "income", "target": None}},
    ]
    prompt = {"id": 7, "kind": kind, "topic": topic, "rule": "R10.2a", "asked": [0, 3], "pivot": pivot,
              "early": list(early), "timer": "prompt", "silence": "pass", "published": [], "legal": legal,
              "deadline_ms": 30000, "bank_ms": 0}
    prompt.update(extra)
    return prompt


# -- seats, board, deals --------------------------------------------------------------

def test_seats_show_names_discs_stone_inhabitants_and_piles_with_totals():
    lines = render_seats(a_view(), 0, NAMES, width=200)
    text = "\n".join(lines)
    me, bob, cy, dee = lines
    assert "Tester (you)" in me and "(yours, hidden) Samurai" in me
    assert "pile (5 pts): Treasure 4, Nofu" in me and "disc held" in me
    assert "bob" in bob and "Akindo (revealed)" in bob and "disc USED" in bob and "STONE" in bob
    assert "inhabitant: hidden" in cy and "pile (14 pts): Treasure 3, Daimyo, Shogun" in cy
    assert "pile (0 pts): empty" in dee
    assert text.count("STONE") == 1


def test_own_revealed_inhabitant_and_a_card_the_viewer_learnt():
    view = a_view()
    view["seats"][0]["revealed"] = True
    view["seats"][0]["known_to"] = "all"
    view["seats"][2]["inhabitant"] = 37  # seen in a Transformation, still face down
    view["seats"][2]["known_to"] = [0, 2]
    lines = render_seats(view, 0, NAMES, width=200)
    assert "Samurai (yours, revealed)" in lines[0] and "hidden)" not in lines[0]
    assert "Ninja (hidden; you know it)" in lines[2]


def test_spectator_sees_no_own_card_and_no_you():
    lines = render_seats(a_view("spectator"), "spectator", NAMES, width=200)
    assert "(you)" not in "\n".join(lines) and "yours" not in "\n".join(lines)
    assert "inhabitant: hidden" in lines[0]


def test_a_long_pile_keeps_its_seat_on_one_line_and_counts_the_rest():
    view = a_view()
    view["seats"][2]["pile"] = [*range(25, 37), 41, 45, 49]
    lines = render_seats(view, 0, NAMES, width=70)
    assert len(lines) == 4 and all(len(line) <= 70 for line in lines)
    assert re.search(r"\+\d+ more$", lines[2]) and "21 pts" in lines[2]
    assert "Treasure 4 (4)" in "\n".join(render_piles(view, 0, NAMES))  # /piles: every card, with its value


def test_board_shows_workers_bonus_deck_stone_and_the_announcement():
    view = a_view()
    view["fight"] = {"attacker": 1, "defender": 2, "reinforcements": [[1, 14]]}
    text = "\n".join(render_board(view, 0, NAMES, width=200))
    assert "supply 5" in text and "square 1" in text and "hut not used" in text
    assert "bonus pile 2 cards" in text
    assert "deck 30 cards" in text and "Maho-Tsukai" in text  # the known bottom card
    assert "destiny stone: seat 1 (bob)" in text
    assert "Announced: seat 1 (bob): attack seat 2 (cy)" in text
    assert fight_line(view, 0, NAMES) == ("Fight: seat 1 (bob) [Akindo 2] attacks seat 2 (cy) [hidden]; "
                                          "reinforcements: seat 1 (bob) Samurai")


def test_deals_offer_accept_decline_to_parties_and_withdraw_to_who_accepted():
    view = a_view()
    view["deals"] = [{"deal": 4, "proposer": 1, "parties": [0, 1],
                      "transfers": [{"type": "Transfer", "card": 41, "giver": 1, "receiver": 0,
                                     "consideration": "support me"}],
                      "promises": [], "accepted": [1]}]
    view["ledger"] = [{"promise": 2, "deal": 1, "season": 1, "status": "open", "promiser": 3, "promisee": 0,
                       "text": "no attack", "kind": "free"}]
    mine = "\n".join(render_deals(view, 0, NAMES, width=200))
    assert 'deal #4 by seat 1 (bob): seat 1 (bob) gives Treasure 2 to seat 0 (you) (for "support me")' in mine
    assert "/accept 4 or /decline 4" in mine
    assert "promise #2" in mine and "/kept 2 or /broken 2" in mine
    theirs = "\n".join(render_deals(view, 1, NAMES, width=200))
    assert "/withdraw 4" in theirs and "/accept 4" not in theirs and "/kept" not in theirs
    onlooker = "\n".join(render_deals(view, 2, NAMES, width=200))
    assert "/accept" not in onlooker and "/withdraw" not in onlooker
    assert render_deals(a_view(), 0, NAMES) == []


# -- decisions -----------------------------------------------------------------------

def test_actions_read_as_choices():
    assert action_label({"kind": "attack", "target": 3}) == "attack seat 3"
    assert action_label({"kind": "attack", "target": 3}, NAMES) == "attack seat 3 (dee)"
    assert action_label({"kind": "income", "target": None}).startswith("income")
    assert action_label({"kind": "succession", "target": 2}, NAMES) == "succession: take the Shogun of seat 2 (cy)"
    assert action_label({"kind": "assassination", "target": 1}) == "assassinate the inhabitant of seat 1"
    assert action_label({"kind": "newfangled", "target": 1}) == "newfangled seat 1"


def test_every_command_type_reads_as_words():
    view = a_view()
    view["fight"] = {"attacker": 1, "defender": 2, "reinforcements": []}
    assert choice_label({"type": "Pass", "decision": 1}, "announce") == "pass"
    assert choice_label({"type": "Pass", "decision": 1}, "privilege") == "pass (do not claim privilege)"
    assert choice_label({"type": "Announce", "decision": 1, "action": {"kind": "attack", "target": 3}},
                        "announce") == "attack seat 3"
    assert choice_label({"type": "Claim", "decision": 1, "action": {"kind": "attack", "target": 3}},
                        "privilege") == "claim privilege, then: attack seat 3"
    assert choice_label({"type": "Support", "decision": 1, "side": "defender"}, "support", NAMES, view) == \
        "support the defender, seat 2 (cy)"
    assert choice_label({"type": "Join", "decision": 1}, "revolution").startswith("join the revolution")
    assert choice_label({"type": "Choose", "decision": 1, "card": 49}, "trade") == "give Treasure 4"
    assert choice_label({"type": "Choose", "decision": 1, "card": 12}, "transformation") == "keep Samurai"
    assert choice_label({"type": "Choose", "decision": 1, "card": 0}, "reinforcement").startswith("take Shogun")


def test_the_pivot_gets_numbered_choices_and_the_countdown():
    lines = render_prompt(a_prompt(0), a_view(), 0, NAMES, seconds_left=29.2, width=120)
    text = "\n".join(lines)
    assert lines[0].startswith(">>> YOUR DECISION #7: privilege round") and "30 s left" in lines[0]
    assert " 1) pass (do not claim privilege)" in text
    assert " 2) claim privilege, then: attack seat 3 (dee)" in text
    assert " 3) claim privilege, then: income" in text
    assert "Type a number (1-3) and press Enter; silence: pass." in text


def test_deal_commands_in_legal_are_not_choices():
    legal = [{"type": "Pass", "decision": 7}, {"type": "AcceptDeal", "deal": 2}]
    prompt = a_prompt(0, legal=legal)
    assert decision_choices(prompt) == [{"type": "Pass", "decision": 7}]
    assert "Type a number (1-1)" in "\n".join(render_prompt(prompt, a_view(), 0, NAMES))


def test_r10_2d_a_seat_that_can_only_pass_gets_the_same_controls():
    """R10.2d: 'the official clients offer the same controls whatever the
    hidden card is': a seat whose card cannot claim is asked and answers
    like any other, by typing a number."""
    only_pass = a_prompt(0, legal=[{"type": "Pass", "decision": 7}])
    can_claim = a_prompt(0)
    assert wants_answer(only_pass, 0) and wants_answer(can_claim, 0)
    a = render_prompt(only_pass, a_view(), 0, NAMES, seconds_left=10)
    b = render_prompt(can_claim, a_view(), 0, NAMES, seconds_left=10)
    def frame(lines: list[str]) -> list[str]:  # everything but the numbered choices and their count
        return [line for line in lines if not re.match(r"^\s+\d+\) ", line) and not line.startswith("Type a number")
                and "allows only a pass" not in line]

    assert frame(a) == frame(b)  # the same head line, countdown and instructions
    assert "Type a number (1-1) and press Enter; silence: pass." in a
    assert "   1) pass (do not claim privilege)" in a
    # ...and it says why the table waits, and how to pass such rounds at once, whatever the card.
    why = next(line for line in a if "allows only a pass" in line)
    assert "R10.2d" in why and "/auto privilege" in why


def test_the_pivot_sees_its_time_bank_in_the_countdown():
    text = "\n".join(render_prompt(a_prompt(0, bank_ms=80_000), a_view(), 0, NAMES, seconds_left=95))
    assert "1 min 35 s left" in text and "silence: pass; time bank 1 min 20 s, counted in the time left." in text


def test_a_seat_asked_later_may_answer_early_and_sees_its_sealed_answer():
    early = a_prompt(3, early=[0])
    text = "\n".join(render_prompt(early, a_view(), 0, NAMES))
    assert ">>> YOUR DECISION #7" in text and "seat 3 (dee) decides first" in text and "sealed" in text
    assert "Type a number (1-3)" in text
    sealed = a_prompt(3, early=[0], sealed={"type": "Pass", "decision": 7})
    text = "\n".join(render_prompt(sealed, a_view(), 0, NAMES))
    assert "Your sealed answer: pass (do not claim privilege)" in text
    assert "Type a number" not in text and " 2) claim" in text  # it may still change it


def test_others_decisions_show_who_is_waited_on_without_choices():
    prompt = a_prompt(3, early=[], published=[[0, None]])
    prompt.pop("legal")
    lines = render_prompt(prompt, a_view(), 0, NAMES, seconds_left=75, width=120)
    assert lines[1] == "Waiting for seat 3 (dee): privilege round: claim privilege or pass (R10.2a) -- 1 min 15 s left"
    assert lines[0] == "So far: seat 0 (you): pass"
    assert not wants_answer(prompt, 0)
    # A seat that answered already is still in `asked` (and gets `legal`) but is not asked again.
    after = a_prompt(3, early=[])
    assert not wants_answer(after, 0)
    assert "YOUR DECISION" not in "\n".join(render_prompt(after, a_view(), 0, NAMES))


def test_a_negotiation_window():
    legal = [{"type": "Pass", "decision": 9}, {"type": "Support", "decision": 9, "side": "attacker"},
             {"type": "Support", "decision": 9, "side": "defender"}]
    window = a_prompt(None, legal=legal, early=[0, 2], topic="negotiation", kind="window", asked=[0, 2],
                      rule="R10.2b")
    view = a_view()
    view["fight"] = {"attacker": 1, "defender": 3, "reinforcements": []}
    text = "\n".join(render_prompt(window, view, 0, NAMES, seconds_left=3))
    assert "YOUR DECISION #7: negotiation" in text and "support the attacker, seat 1 (bob)" in text
    assert text.startswith("Fight: seat 1 (bob) [Akindo 2] attacks seat 3 (dee) [hidden]")
    others = render_prompt({**window, "early": [0]}, view, 2, NAMES, seconds_left=3)
    assert others[1].startswith("Negotiation window (R10.2b): seat 0 (Tester), seat 2 (you) may support a side next")
    assert "You are in this fight" not in "\n".join(others)
    fighter = {**window, "legal": [{"type": "Done", "decision": 7}]}
    text = "\n".join(render_prompt(fighter, view, 1, NAMES, seconds_left=3))
    assert "You are in this fight" in text and "/done" in text


def test_sending_hides_the_choices():
    text = "\n".join(render_prompt(a_prompt(0), a_view(), 0, NAMES, sending="pass"))
    assert "Answer sent: pass" in text and "YOUR DECISION" not in text and "1)" not in text


def test_many_choices_go_into_columns():
    legal = [{"type": "Pass", "decision": 1}] + [
        {"type": "Announce", "decision": 1, "action": {"kind": "attack", "target": t}} for t in range(1, 12)]
    lines = render_prompt(a_prompt(0, legal=legal, topic="announce", kind="prompt"), a_view(), 0, NAMES, width=100)
    numbered = [line for line in lines if (")" in line and "attack" in line) or " 1) pass" in line]
    assert len(numbered) < 12 and all(len(line) <= 100 for line in lines)
    assert "12) attack seat 11" in "\n".join(lines)


def test_format_seconds_and_pile_total():
    assert format_seconds(None) == ""
    assert format_seconds(0) == "time is up"
    assert format_seconds(4.2) == "5 s"
    assert format_seconds(125) == "2 min 05 s"
    assert format_seconds(86_396) == "23 h 59 min"  # a turn-based decision
    assert format_seconds(4 * 86_400 - 3) == "3 d 23 h"  # a turn-based bank
    assert pile_total([49, 45, 41, 0, 37]) == 16


# -- whole screens ------------------------------------------------------------------------

RESULT = {"type": "GameEnded", "reason": "geisha", "ninja_victor": None, "inhabitants": [12, 18, None, 25],
          "scores": [12, 7, 3, 20], "ranks": [2, 3, 4, 1],
          "tiebreaks": [[4, 3, 3, 1, 1], [2, 2, 2, 1], [3], [7, 6, 4, 2, 1]]}


def test_the_table_screen_fits_and_keeps_the_latest_news():
    feed = [f"event {i}" for i in range(200)]
    lines = render_table(table="T1", view=a_view(), prompt=a_prompt(0), you=0, names=NAMES, feed=feed,
                         seconds_left=12, width=120, height=50)
    text = "\n".join(lines)
    assert len(lines) == 50 and all(len(line) <= 120 for line in lines)
    assert lines[0] == "Table T1 | you are seat 0 (Tester) | season 2, privilege"
    assert "event 199" in text and "event 0\n" not in text
    assert "(yours, hidden) Samurai" in text and ">>> YOUR DECISION #7" in text and "12 s left" in text
    assert "/say TEXT" in "".join(lines[-2:])
    # The order on screen: seats, then the feed, then the decision near the input line.
    assert text.index("seat 3") < text.index("event 199") < text.index("YOUR DECISION")


def test_at_80x24_a_support_decision_shows_the_fight_and_news_with_six_seats():
    """Before: at 80x24 the attacker was off screen during a support decision
    and only 3 lines of news were left."""
    view = a_view()
    view["seats"] += [seat(4, pile=[41, 45]), seat(5, pile=[25])]
    view["fight"] = {"attacker": 1, "defender": 3, "reinforcements": []}
    legal = [{"type": "Pass", "decision": 9}, {"type": "Support", "decision": 9, "side": "attacker"},
             {"type": "Support", "decision": 9, "side": "defender"}]
    prompt = a_prompt(0, legal=legal, topic="support", kind="round", rule="R10.2c", asked=[0, 2])
    lines = render_table(table="T1", view=view, prompt=prompt, you=0, names=NAMES,
                         feed=[f"news {i}" for i in range(40)],
                         seconds_left=20, width=80, height=23, status="You chose: pass.")
    text = "\n".join(lines)
    assert len(lines) == 23 and all(len(line) <= 80 for line in lines)
    assert "Fight: seat 1 (bob) [Akindo 2] attacks seat 3 (dee) [hidden]" in text
    assert all(f"{s} " in text for s in ("Tester", "bob", "cy", "dee"))  # every seat stays on screen
    assert sum(1 for line in lines if line.startswith("news ")) >= 5
    assert "Type a number (1-3)" in text and " 2) support the attacker, seat 1 (bob)" in text


def test_scrolling_back_shows_older_news_and_says_what_is_below():
    feed = [f"event {i}" for i in range(100)]
    kw = dict(table="T1", view=a_view(), prompt=a_prompt(0), you=0, names=NAMES, feed=feed, width=120, height=40)
    latest = "\n".join(render_table(**kw))
    back = render_table(**kw, scroll=30)
    assert "event 99" in latest and "event 99" not in "\n".join(back)
    assert "event 69" in "\n".join(back)
    assert any("30 more lines below: PgDn" in line for line in back)
    far = "\n".join(render_table(**kw, scroll=10_000))  # beyond the start: the first lines
    assert "event 0\n" in far and "YOUR DECISION" in far


def test_a_lost_connection_shows_in_the_header():
    lines = render_table(table="T1", view=a_view(), prompt=a_prompt(0), you=0, names=NAMES,
                         link="CONNECTION LOST: reconnecting")
    assert lines[0].startswith("[CONNECTION LOST: reconnecting] Table T1")


def test_a_small_terminal_still_shows_the_choices():
    lines = render_table(table="T1", view=a_view(), prompt=a_prompt(0), you=0, names=NAMES,
                         feed=["x"] * 50, width=80, height=20)
    assert len(lines) <= 20
    assert "Type a number (1-3) and press Enter" in "\n".join(lines)


def test_before_the_start_the_screen_lists_who_sat_down():
    info = {"table": "T1", "status": "open", "settings": {"seats": 4, "name": "friday"},
            "seats": [{"seat": 0, "name": "Tester"}, None, {"seat": 2, "name": "cy"}, None]}
    text = "\n".join(render_table(table="T1", view=None, prompt=None, you=0, names=NAMES, info=info))
    assert 'Table T1 "friday"' in text
    assert "Waiting for players: 2 of 4 seats taken" in text and "seat 0: Tester (you)" in text


def test_the_waiting_screen_says_how_to_fill_the_seats_with_bots():
    """It said the game starts when every seat is taken, and never how to
    get the seats taken; at 80 columns its first line was cut off too."""
    info = {"table": "T1", "status": "open", "settings": {"seats": 4},
            "seats": [{"seat": 0, "name": "Tester"}, None, None, None]}
    lines = render_table(table="T1", view=None, prompt=None, you=0, names=NAMES, info=info, width=80, height=24)
    text = " ".join(" ".join(lines).split())
    assert "Type /bots to give the free seats to the server's bots" in text
    assert "The game starts when every seat is taken." in text
    spectator = " ".join(render_table(table="T1", view=None, prompt=None, you="spectator", info=info))
    assert "/bots" not in spectator


def test_the_end_of_the_game_shows_the_final_scores():
    view = a_view()
    view["phase"] = "over"
    view["result"] = RESULT
    text = "\n".join(render_table(table="T1", view=view, prompt=None, you=0, names=NAMES, result=RESULT,
                                  width=120, height=50))
    assert "GAME OVER" in text and "Final result (the Geisha was drawn):" in text
    rows = [line.split() for line in render_result(RESULT)[3:]]
    assert [(r[0], r[1], r[2]) for r in rows] == [("1", "3", "20"), ("2", "0", "12"), ("3", "1", "7"), ("4", "2", "3")]
    assert "Announced:" not in text  # the last announcement is history now
    assert "/lobby" in text


def test_a_spectator_screen_has_no_choices():
    prompt = a_prompt(0)
    prompt.pop("legal")
    text = "\n".join(render_table(table="T1", view=a_view("spectator"), prompt=prompt, you="spectator",
                                  names=NAMES))
    assert "you are a spectator" in text and "Waiting for seat 0 (Tester)" in text
    assert "YOUR DECISION" not in text and "/say" not in text


def test_the_screen_does_not_change_the_view():
    view, prompt = a_view(), a_prompt(0)
    before = copy.deepcopy((view, prompt))
    render_table(table="T1", view=view, prompt=prompt, you=0, names=NAMES, feed=["a"])
    assert (view, prompt) == before


# -- the feed and the lobby ---------------------------------------------------------------

def test_feed_lines_for_table_and_game_events():
    assert narrate_update_event({"type": "Chat", "seat": 1, "name": "bob", "text": "hi", "seq": 9}, 0) == \
        "[chat] bob (seat 1): hi"
    assert narrate_update_event({"type": "SeatTaken", "seat": 2, "name": "cy", "seq": 3}, 0) == "cy takes seat 2."
    assert narrate_update_event({"type": "SeatAway", "seat": 0, "seq": 30}, 0, NAMES).startswith("Seat 0 (you) is away")
    assert narrate_update_event({"type": "TableFinished", "result": RESULT, "seq": 99}, 0) is None
    drawn = {"type": "InhabitantDrawn", "seat": 0, "card": 12, "seq": 40}
    assert narrate_update_event(drawn, 0) == "Seat 0 draws a new inhabitant (you: Samurai)."
    assert "Something happened" in narrate_update_event({"type": "FromTheFuture", "seq": 41}, 0)


def test_the_lobby_numbers_the_tables():
    tables = [
        {"table": "AAAAAAAAAAAA", "status": "open", "settings": {"name": "friday", "timers": {"prompt_ms": 60000}},
         "seats": [{"seat": 0, "name": "ana"}, None, None, None]},
        {"table": "BBBBBBBBBBBB", "status": "running", "settings": {"name": "", "timers": {"zero_wait": True}},
         "seats": [{"seat": s, "name": f"b{s}"} for s in range(4)]},
    ]
    lines = render_lobby(tables, url="ws://h:1", name="Tester", width=120, mine={"BBBBBBBBBBBB"})
    text = "\n".join(lines)
    assert "your name: Tester" in lines[0]
    assert any(line.startswith("  1  AAAAAAAAAAAA  open      1/4") and "friday [ana]" in line for line in lines)
    assert any(line.startswith("  2  BBBBBBBBBBBB  running   4/4") and "your seat" in line for line in lines)
    assert "join N" in text and "watch N" in text and "create [GAME] SEATS [PRESET]" in text
    assert "PRESET: relaxed|normal|quick, or turn-based (accounts only) daily|leisurely" in text
    assert "No tables yet" in "\n".join(render_lobby([], url="ws://h:1", name="x"))


def test_a_long_table_list_leaves_room_for_the_commands():
    tables = [{"table": f"T{i:011d}", "status": "open", "settings": {}, "seats": [None] * 4} for i in range(50)]
    lines = render_lobby(tables, url="ws://h:1", name="x", width=100, height=30)
    assert len(lines) <= 30 and "  quit" in lines
    assert any("... and" in line and "more" in line for line in lines)


def test_other_peoples_text_cannot_send_escape_sequences_to_the_terminal():
    import io

    from oriente.clients.terminal.screen import Terminal

    out = io.StringIO()
    term = Terminal(stdin=io.StringIO(), stdout=out, ansi=False)
    term.draw([narrate_update_event({"type": "Chat", "seat": 1, "name": "evil\x1b[2J", "text": "hi\x07\x9b31m",
                                     "seq": 5}, 0)])
    assert "\x1b" not in out.getvalue() and "\x07" not in out.getvalue() and "\x9b" not in out.getvalue()
    assert "[chat] evil?[2J (seat 1): hi??31m" in out.getvalue()


def test_the_ledger_tells_every_promise_and_each_seats_record():
    """R8.6: "each player's kept/broken record is public"; /ledger tells the
    ledger with structured promises in words."""
    view = a_view()
    view["seats"][1]["kept"], view["seats"][1]["broken"] = 2, 1
    view["ledger"] = [
        {"promise": 1, "deal": 1, "season": 1, "status": "kept", "promiser": 1, "promisee": 0, "text": "x",
         "kind": "support", "attacker": 2, "defender": 0, "side": "defender", "cards": [], "by_season": None,
         "seat": None},
        {"promise": 2, "deal": 2, "season": 2, "status": "open", "promiser": 3, "promisee": 0, "text": "no attack",
         "kind": "free"},
    ]
    text = "\n".join(render_ledger(view, 0, NAMES))
    assert "seat 1 (bob) 2/1" in text
    assert ("#1 (kept, season 1): seat 1 (bob) will support the defender, seat 0 (you), in the fight of seat 2 "
            "against seat 0") in text
    assert '#2 (open, season 2): seat 3 (dee) promises seat 0 (you) "no attack"  -> /kept 2 or /broken 2' in text


def test_a_long_name_with_a_promise_record_keeps_the_record_whole_at_80_columns():
    """Seen at 80x24: "Benkei (bot) ... 5 pts: 2 cards  kept 1/bro", the
    record cut off; the cards give way to it (/piles shows them)."""
    view = a_view()
    names = {0: "Luca", 1: "Aiko (bot)", 2: "Benkei (bot)", 3: "Chiyo (bot)"}
    view["seats"][2].update(pile=[41, 45], kept=1, broken=0, inhabitant=7, revealed=True)
    line = render_seats(view, 0, names, width=80)[2]
    assert len(line) <= 80 and line.endswith("kept 1/broken 0"), line


def test_r4_3c_a_claim_that_cannot_count_says_so_before_it_is_chosen():
    """R4.3c: 'equal [rank] and the claimant has strictly fewer score cards'.
    Seat 0's Samurai (rank 3) meets a rank to beat of 3 holding two score
    cards to the announcer's one: its claims are offered, and the screen
    says they cannot count, from the seat's own view and the public piles."""
    text = "\n".join(render_prompt(a_prompt(0, rank=3), a_view(), 0, NAMES, seconds_left=20))
    assert "cannot count as things stand (R4.3c)" in text
    assert "(you hold 2, they hold 1)" in text
    assert hopeless_claim(a_view(), a_prompt(0, rank=2), 0) is None  # a higher rank counts
    fewer = a_view()
    fewer["seats"][0]["pile"] = []
    assert hopeless_claim(fewer, a_prompt(0, rank=3), 0) is None  # equal and poorer counts
    assert hopeless_claim(a_view(viewer=1), a_prompt(0, rank=3), 0) is None  # a card it does not see: nothing said


def test_what_was_said_stays_on_a_short_lobby_and_the_list_keeps_its_lines():
    """`mine`'s answer (the status) used to be the first thing a short
    terminal cut; now the presets' words go first, and the list keeps room."""
    tables = [{"table": f"T{i}", "status": "open", "settings": {}, "seats": [None] * 4} for i in range(8)]
    said = "Your tables: T1 (running, seat 0, your turn until 2026-12-02 14:33 UTC). join ID goes back to one."
    lines = render_lobby(tables, url="ws://h:1", name="x", status=said, width=80, height=24)
    assert len(lines) <= 24
    assert " ".join(" ".join(lines[-2:]).split()).endswith("UTC). join ID goes back to one.")
    assert sum(1 for line in lines if line.lstrip().startswith(tuple(f"{n}  T" for n in range(1, 9)))) == 8
    tall = render_lobby(tables, url="ws://h:1", name="x", status=said, width=80, height=40)
    assert any(line.startswith("    daily: 24 h per decision") for line in tall), tall
