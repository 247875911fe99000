"""What a person types into the terminal client, read into intents and deals (pure)."""

from __future__ import annotations

import pytest

from oriente.clients.terminal.commands import (
    DealError,
    Intent,
    build_deal,
    parse_lobby_input,
    parse_table_input,
    resolve_card,
    resolve_seat,
)
from oriente.clients.terminal.render import choice_label

NAMES = {0: "Tester", 1: "bob", 2: "cy", 3: "bobby"}


def a_view() -> dict:
    piles = [[49, 25, 45], [41, 7], [], [37]]  # Treasure 4, Nofu, Treasure 3 | Treasure 2, Daimyo | - | Ninja
    return {"seats": [{"seat": s, "pile": p} for s, p in enumerate(piles)]}


@pytest.mark.parametrize("line, intent", [
    ("", Intent("none")),
    ("  3 ", Intent("choose", 3)),
    ("/say hello there", Intent("say", "hello there")),
    ("say hello", Intent("say", "hello")),
    ("/deal give nofu to 1 for help", Intent("deal", "give nofu to 1 for help")),
    ("/accept 4", Intent("accept", 4)),
    ("/decline #4", Intent("decline", 4)),
    ("/withdraw 2", Intent("withdraw", 2)),
    ("/kept 1", Intent("kept", 1)),
    ("/broken 1", Intent("broken", 1)),
    ("/auto privilege", Intent("auto", "privilege")),
    ("/back", Intent("back")),
    ("back", Intent("back")),
    ("/auto off", Intent("auto", "off")),
    ("/auto", Intent("auto", "status")),
    ("/lobby", Intent("lobby")),
    ("/quit", Intent("quit")),
    ("quit", Intent("quit")),
    ("/help", Intent("help")),
    ("/done", Intent("done")),
    ("/deals", Intent("deals")),
    ("/ledger", Intent("ledger")),
    ("/piles", Intent("piles")),
    ("/cards", Intent("cards")),
    ("/save", Intent("save", "")),
    ("/save game.json", Intent("save", "game.json")),
    ("/bots", Intent("bots", None)),
    ("/bots 2", Intent("bots", 2)),
    ("/bots 2 honest", Intent("bots", (2, "honest"))),
    ("/bots shrewd", Intent("bots", (None, "shrewd"))),
    ("/bots ?", Intent("bots", "?")),
])
def test_table_input(line, intent):
    assert parse_table_input(line) == intent


@pytest.mark.parametrize("line", ["hello", "/say", "/accept", "/accept x", "/auto everything", "/frobnicate"])
def test_table_input_not_understood_says_why(line):
    intent = parse_table_input(line)
    assert intent.verb == "error" and isinstance(intent.arg, str) and intent.arg


@pytest.mark.parametrize("line, intent", [
    ("2", Intent("join", ("2", None))),
    ("join 2", Intent("join", ("2", None))),
    ("j AAAAAAAAAAAA 3", Intent("join", ("AAAAAAAAAAAA", 3))),
    ("watch 1", Intent("watch", "1")),
    # No game named: the table names none, and plays the server's default (oriente.v1).
    ("create 6", Intent("create", (6, "normal", "", None))),
    ("create 6 relaxed", Intent("create", (6, "relaxed", "", None))),
    ("create 5 quick Friday game", Intent("create", (5, "quick", "Friday game", None))),
    ("create 5 people slow", Intent("create", (5, "people", "slow", None))),

    ("name Ana Maria", Intent("name", "Ana Maria")),
    ("refresh", Intent("refresh")),
    ("mine", Intent("mine")),  # one's own tables (PROTOCOL.md 3, my_tables)
    ("q", Intent("quit")),
])
def test_lobby_input(line, intent):
    assert parse_lobby_input(line) == intent


@pytest.mark.parametrize("line", ["join", "join 1 x", "watch", "create", "create many", "name", "dance",
                                  "create 5 slow", "bots"])
def test_lobby_input_not_understood(line):
    assert parse_lobby_input(line).verb == "error"


def test_seats_by_number_or_name():
    assert resolve_seat("2", 4, NAMES) == 2
    assert resolve_seat("seat 3", 4, NAMES) == 3
    assert resolve_seat("CY", 4, NAMES) == 2
    assert resolve_seat("bob", 4, NAMES) == 1  # exact beats the start of "bobby"
    assert resolve_seat("bobb", 4, NAMES) == 3
    with pytest.raises(DealError):
        resolve_seat("7", 4, NAMES)
    with pytest.raises(DealError):
        resolve_seat("b", 4, NAMES)  # ambiguous


def test_cards_by_name_or_id():
    pile = [49, 25, 45]
    assert resolve_card("Treasure 3", pile) == 45
    assert resolve_card("treasure", pile) == 49
    assert resolve_card("NOFU", pile) == 25
    assert resolve_card("#45", pile) == 45
    with pytest.raises(DealError, match="holds: Treasure 4, Nofu, Treasure 3"):
        resolve_card("Shogun", pile)


def test_r8_3_a_deal_gives_a_card_for_a_stated_reason():
    """R8.3: "Every transfer states its consideration (free text ...)": /deal
    turns "give CARD to SEAT for REASON" into a transfer with that reason."""
    cmd = build_deal("give Treasure 3 to seat 1 for your support", a_view(), 0, NAMES)
    assert cmd == {"type": "ProposeDeal", "note": "", "promises": [],
                   "transfers": [{"type": "Transfer", "card": 45, "giver": 0, "receiver": 1,
                                  "consideration": "your support"}]}


def test_a_deal_of_several_parts():
    cmd = build_deal("give nofu to cy for the fight; ask Daimyo from bob for my Nofu; promise 3 I will not attack you",
                     a_view(), 0, NAMES)
    assert [(t["card"], t["giver"], t["receiver"]) for t in cmd["transfers"]] == [(25, 0, 2), (7, 1, 0)]
    assert [(p["promiser"], p["promisee"], p["text"], p["kind"]) for p in cmd["promises"]] == [
        (0, 3, "I will not attack you", "free")]


def fighting() -> dict:
    view = a_view()
    view["fight"] = {"attacker": 1, "defender": 3, "reinforcements": []}
    return view


def test_r8_6_structured_promises_made_and_asked_for():
    """R8.6: promises "optionally in a structured form the server can check —
    support a named side in a named fight, pay named cards by the end of a
    named season, not attack a named seat this season": each made by you, or
    asked of another seat, in one deal of any number of parties."""
    cmd = build_deal("support defender; bob supports attacker; spare cy; bobby spares me; "
                     "pay 1 nofu, treasure 3 by season 4; bob pays me Daimyo by season 3; note a package",
                     fighting(), 0, NAMES)
    got = [(p["promiser"], p["promisee"], p["kind"], p["side"], p["attacker"], p["defender"], p["seat"],
            p["cards"], p["by_season"]) for p in cmd["promises"]]
    assert got == [
        (0, 3, "support", "defender", 1, 3, None, [], None),  # to the defender by default
        (1, 0, "support", "attacker", 1, 3, None, [], None),  # asked of bob, promised to me
        (0, 2, "no_attack", None, None, None, 2, [], None),
        (3, 0, "no_attack", None, None, None, 0, [], None),
        (0, 1, "pay", None, None, None, None, [25, 45], 4),
        (1, 0, "pay", None, None, None, None, [7], 3),
    ]
    assert cmd["note"] == "a package"
    assert all(set(p) == {"type", "promiser", "promisee", "text", "kind", "attacker", "defender", "side", "cards",
                          "by_season", "seat"} for p in cmd["promises"])  # the canonical form (PROTOCOL.md 7)


def test_a_deal_between_others_needs_you_among_its_parties():
    """Ruling D3: only a party proposes."""
    cmd = build_deal("bob gives Daimyo to bobby for the Ninja; bobby gives ninja to me for my silence", a_view(), 0,
                     NAMES)
    assert [(t["giver"], t["receiver"]) for t in cmd["transfers"]] == [(1, 3), (3, 0)]
    with pytest.raises(DealError, match="D3"):
        build_deal("bob gives Daimyo to bobby for the Ninja", a_view(), 0, NAMES)


@pytest.mark.parametrize("spec", [
    "give Shogun to 1 for nothing",      # not in my pile
    "give nofu to 0 for myself",         # to myself
    "give nofu to 1",                    # no reason (R8.3)
    "ask nofu from 2 for fun",           # not in seat 2's pile
    "promise 0 I keep my word",          # to myself
    "dance with 2",
    " ; ",
    "support attacker",                  # no fight under way
    "pay 1 shogun by season 2",          # not in my pile
])
def test_deals_that_cannot_be_proposed(spec):
    with pytest.raises(DealError):
        build_deal(spec, a_view(), 0, NAMES)


def test_a_choice_says_whether_it_keeps_or_breaks_the_seats_promise() -> None:
    """R8.6: the support round marks the promised side and warns on every
    other answer; an attack on a seat promised peace this season warns too."""
    view = {"season": 1, "fight": {"attacker": 2, "defender": 3}, "ledger": [
        {"status": "open", "promiser": 0, "promisee": 3, "kind": "support", "attacker": 2, "defender": 3,
         "side": "defender", "season": 1},
        {"status": "open", "promiser": 0, "promisee": 1, "kind": "no_attack", "seat": 1, "season": 1}]}
    assert choice_label({"type": "Support", "side": "defender"}, "support", None, view, 0).endswith(" (promised)")
    assert choice_label({"type": "Support", "side": "attacker"}, "support", None, view, 0).endswith(" (breaks promise)")
    assert choice_label({"type": "Pass"}, "support", None, view, 0).endswith(" (breaks promise)")
    attack = {"type": "Announce", "action": {"type": "Action", "kind": "attack", "target": 1}}
    assert choice_label(attack, "announce", None, view, 0).endswith(" (breaks promise)")
    other = {"type": "Announce", "action": {"type": "Action", "kind": "attack", "target": 2}}
    assert "promise" not in choice_label(other, "announce", None, view, 0)
    assert "promise" not in choice_label({"type": "Support", "side": "attacker"}, "support", None, view, 1)


def test_email_and_bell_are_read_in_the_lobby_and_bell_at_the_table() -> None:
    assert parse_lobby_input("email") == Intent("email", None)
    assert parse_lobby_input("email ana@example.org") == Intent("email", "ana@example.org")
    assert parse_lobby_input("/email off") == Intent("email", "")
    assert parse_lobby_input("email not-an-address").verb == "error"
    assert parse_lobby_input("email a@b c@d").verb == "error"
    assert parse_lobby_input("bell on") == Intent("bell", "on")
    assert parse_lobby_input("bell") == Intent("bell", "status")
    assert parse_lobby_input("bell loud").verb == "error"
    assert parse_table_input("/bell off") == Intent("bell", "off")
    assert parse_table_input("bell on") == Intent("bell", "on")
