"""A test per rule of O1 (components), O2 (setup) and O3 (a turn)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from oriente.server.oro import (
    TABLE,
    ConfigError,
    Game,
    GiveUp,
    OroConfig,
    Rejected,
    Timeout,
    apply,
    default_board,
    legal,
    new_game,
    pending,
    project,
    view,
)
from oriente.server.oro.state import Phase

from .helpers import ADAM, BETTY, MATEO, act, check, isl, names, owner, position, types

NAMED = [("ALOA", "BAFI"), ("ALOA", "DALI"), ("ALOA", "COCO"), ("ELOI", "DALI"), ("ELOI", "ALOA"),
         ("RASI", "BAFI"), ("BAFI", "ORO")]


def finish_give_up(state):
    while state.phase is Phase.GIVE_UP:
        d = pending(state)[0]
        apply(state, TABLE, Timeout(decision=d.id, pivot=d.pivot))


# -- O1 components ----------------------------------------------------------------------

def test_o1_1_the_archipelago():
    """O1.1: "16 islands: 4 small islands with 3 connections each, 11 large
    islands with 5, and the main island ORO with 7. A connection links two
    different islands, and two islands are linked by at most one connection.\""""
    b = default_board()
    assert b.islands == 16 and b.connections == 37
    assert Counter(zip(b.sizes, (len(x) for x in b.incident), strict=True)) == {("small", 3): 4, ("large", 5): 11,
                                                                   ("main", 7): 1}
    assert b.names[b.main] == "ORO"
    assert all(a != c for a, c in b.ends)
    assert len({frozenset(e) for e in b.ends}) == b.connections


def test_o1_2_the_default_board_keeps_what_the_rulebook_names():
    """O1.2: "The rulebook gives the map only by its counts and seven named
    connections (...; DALI and KULU small, ALOA and ELOI large, and BAFI
    large by its examples).\""""
    b = default_board()
    for a, c in NAMED:
        b.connection(a, c)
    assert [b.sizes[b.index(x)] for x in ("DALI", "KULU", "ALOA", "ELOI", "BAFI")] == [
        "small", "small", "large", "large", "large"]


def test_o1_2_the_default_board_draws_without_crossings():
    """O1.2 (rulings OR1): the default map's positions draw every connection
    as a straight line that crosses no other and passes no other island."""
    b = default_board()

    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    for c1, c2 in combinations(range(b.connections), 2):
        e1, e2 = b.ends[c1], b.ends[c2]
        if set(e1) & set(e2):
            continue
        p, q = b.pos[e1[0]], b.pos[e1[1]]
        r, t = b.pos[e2[0]], b.pos[e2[1]]
        assert not (orient(p, q, r) * orient(p, q, t) < 0 and orient(r, t, p) * orient(r, t, q) < 0), (
            b.names[e1[0]], b.names[e1[1]], b.names[e2[0]], b.names[e2[1]])
    for a, z in b.ends:
        for i in range(b.islands):
            if i in (a, z):
                continue
            p, q, r = b.pos[a], b.pos[z], b.pos[i]
            length = ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
            t = ((r[0] - p[0]) * (q[0] - p[0]) + (r[1] - p[1]) * (q[1] - p[1])) / length ** 2
            if 0 < t < 1:
                assert abs(orient(p, q, r)) / length > 4, (b.names[a], b.names[z], b.names[i])


def test_o1_3_forty_eight_cards_never_told_apart():
    """O1.3: "48 island cards, 3 per island. The cards of one island are
    identical: the rules never tell copies apart, and neither do commands,
    events or views.\""""
    state, _ = new_game(OroConfig(seats=3, seed=4))
    counts = state.card_counts()
    assert all(sum(p[i] for p in counts.values()) == 3 for i in range(16))
    s = position(active=0, hands={0: ["ALOA", "ALOA", "BAFI"]})
    builds = [c for c in legal(s, 0) if type(c).__name__ == "Build" and c.island == isl(s, "ALOA")]
    assert len(builds) == len(set(builds)) == 5  # one per free connection of ALOA, not one per copy


def test_o1_4_one_bridge_per_connection_bridges_unlimited():
    """O1.4: "Bridges are unlimited (the rulebook's online note). A
    connection holds at most one bridge.\""""
    b = default_board()
    spread = {}  # 21 bridges of seat 0 already on the board, more than the printed 20
    for c in range(b.connections):
        a, z = b.ends[c]
        if len(spread) < 21 and "ORO" not in (b.names[a], b.names[z]) and "TOKA" not in (b.names[a], b.names[z]):
            spread[(b.names[a], b.names[z])] = 0
    s = position(2, active=0, hands={0: ["ORO", "TOKA"]}, bridges=spread)
    assert sum(1 for o in s.bridges if o == 0) == 21
    act(s, 0, "build", island="ORO", connection=("ORO", "TOKA"))
    assert sum(1 for o in s.bridges if o == 0) == 22
    with pytest.raises(Rejected) as err:
        act(s, 0, "build", island="TOKA", connection=("ORO", "TOKA"))
    assert err.value.code == "build/occupied"


def test_o1_5_a_marker_on_every_controlled_island():
    """O1.5: "A marker of a seat's colour lies on every island it controls.\""""
    s = position(active=BETTY, hands={BETTY: ["ELOI"]}, bridges={("ALOA", "DALI"): BETTY})
    act(s, BETTY, "build", island="ELOI", connection=("ELOI", "DALI"))
    v = view(s, "spectator")
    assert v["control"][isl(s, "DALI")] == BETTY and s.controlled[BETTY] == 1


def test_o1_6_two_to_four_seats_in_seat_order():
    """O1.6: "2 to 4. Seats are numbered 0..n-1; play passes in increasing
    seat number, wrapping around.\""""
    for bad in (1, 5, True):
        with pytest.raises(ConfigError):
            OroConfig(seats=bad)
    s = position(3, active=2, hands={2: ["ALOA"]})
    act(s, 2, "draw")
    assert s.active == 0
    act(s, 0, "draw")
    assert s.active == 1


def test_o1_7_every_card_in_exactly_one_place():
    """O1.7: "Every card is in exactly one place: the deck, the display, a
    hand, or the discard pile — face up (played) or face down.\""""
    rng = random.Random(7)
    for seed in range(6):
        game = Game(OroConfig(seats=2 + seed % 3, seed=seed, gods=seed % 2 == 0))
        while not game.over:
            d = game.pending()[0]
            options = game.legal(d.pivot)
            game.apply(d.pivot, rng.choice(options))
            check(game.state)


# -- O2 setup --------------------------------------------------------------------------

def test_o2_1_four_cards_each_seat_zero_first():
    """O2.1: "Shuffle the 48 cards; deal 4 to each seat, face down, seat 0
    first (cards 1-4 of the deck to seat 0, 5-8 to seat 1, ...). Each seat
    sees its own hand.\""""
    deck = tuple(i for i in range(16) for _ in range(3))
    state, ev = new_game(OroConfig(seats=3, deck=deck, first_seat=0))
    assert [sorted(h) for h in state.hands] == [[0, 0, 0, 1], [1, 1, 2, 2], [2, 3, 3, 3]]
    assert project(ev[0], 1)["hands"] == [[None] * 4, [1, 1, 2, 2], [None] * 4]


def test_o2_2_given_up_cards_are_revealed_together():
    """O2.2: "Each seat chooses one of its cards it does not want to keep.
    The choices are secret and simultaneous; once every seat has chosen,
    the chosen cards are revealed together and laid face up: the display.
    Every seat then holds 3 cards.\""""
    state, _ = new_game(OroConfig(seats=4, seed=2, first_seat=0))
    d = pending(state)[0]
    picks = {s: state.hands[s][0] for s in range(4)}
    assert apply(state, 3, GiveUp(decision=d.id, island=picks[3])) == []  # sealed: no event at all
    ev = apply(state, 0, GiveUp(decision=d.id, island=picks[0]))
    assert types(ev) == ["GaveUp"] and project(ev[0], 1)["island"] is None
    apply(state, 1, GiveUp(decision=d.id, island=picks[1]))
    assert state.display == []  # nothing revealed while a choice is open
    ev = apply(state, 2, GiveUp(decision=d.id, island=picks[2]))
    assert types(ev) == ["GaveUp", "GaveUp", "DisplayOpened", "TurnBegan"]
    assert ev[2].given == tuple((s, picks[s]) for s in range(4))
    assert sorted(state.display) == sorted(picks.values())
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]


def test_o2_3_fewer_than_four_seats_fill_the_display():
    """O2.3: "With fewer than 4 seats, cards from the deck are added to the
    display until it holds 4.\""""
    state, _ = new_game(OroConfig(seats=2, seed=3))
    finish_give_up(state)
    assert len(state.display) == 4 and len(state.deck) == 48 - 8 - 2


def test_o2_4_first_seat_from_the_seed_or_configured():
    """O2.4: "a seat drawn from the seed begins (or the one the table
    configures).\""""
    firsts = {new_game(OroConfig(seats=4, seed=seed))[0].first_seat for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    state, _ = new_game(OroConfig(seats=4, seed=1, first_seat=2))
    finish_give_up(state)
    assert state.active == 2 and state.asked == [2, 3, 0, 1]


def test_o2_5_one_stone_on_every_island():
    """O2.5: "In the gods variant, one god stone lies face up on every
    island, placed at random from the seed (or as configured).\""""
    state, ev = new_game(OroConfig(seats=2, seed=5, gods=True))
    assert Counter(state.stones) == {"kane": 4, "kanaloa": 3, "ku": 3, "pele": 3, "lono": 3}
    assert list(project(ev[0], "spectator")["stones"]) == state.stones  # face up
    layout = tuple(["kane"] * 4 + ["kanaloa", "ku", "pele", "lono"] * 3)
    state, _ = new_game(OroConfig(seats=2, gods=True, stones=layout))
    assert tuple(state.stones) == layout
    assert new_game(OroConfig(seats=2))[0].stones == [None] * 16


def test_o2_6_seeds_and_configured_setups():
    """O2.6: "All randomness of setup and play comes from the table's seed
    (...). A configured deck must hold exactly 3 cards of each island,
    configured stones exactly the tiles file's stones, or the table is
    refused with a clear error.\""""
    a, b = Game(OroConfig(seats=3, seed=9)), Game(OroConfig(seats=3, seed=9))
    assert a.events == b.events
    assert Game(OroConfig(seats=3, seed=10)).events != a.events
    with pytest.raises(ConfigError, match="3 cards of each"):
        OroConfig(seats=2, deck=tuple(range(16)) * 3 + (0,))
    with pytest.raises(ConfigError, match="gods variant"):
        OroConfig(seats=2, stones=("kane",) * 16)
    with pytest.raises(ConfigError, match="each stone"):
        OroConfig(seats=2, gods=True, stones=("kane",) * 16)


# -- O3 a turn -----------------------------------------------------------------------------

def test_o3_1_play_as_many_cards_as_wanted_then_draw():
    """O3.1: "The seat whose turn it is may, in any order and as often as its
    hand allows, build and replace (...) and ends its turn by drawing. Played
    cards go face up onto the discard pile. It may also play nothing.\""""
    s = position(active=BETTY, hands={BETTY: ["GUMA", "HIVA", "KULU"], MATEO: ["ALOA"]},
                 bridges={("GUMA", "LIMU"): ADAM})
    act(s, BETTY, "build", island="HIVA", connection=("HIVA", "KULU"))
    act(s, BETTY, "build", island="KULU", connection=("FANU", "KULU"))
    act(s, BETTY, "build", island="GUMA", connection=("GUMA", "MOTU"))
    assert s.hands[BETTY] == [] and s.played[-3:] == [isl(s, x) for x in ("HIVA", "KULU", "GUMA")]
    act(s, BETTY, "draw")
    assert s.active == MATEO
    act(s, MATEO, "draw")  # playing nothing is allowed
    assert len(s.hands[MATEO]) == 2


def test_o3_2_build_on_a_free_connection_of_the_cards_island():
    """O3.2: "Play one card of island X and put a bridge on a free
    connection of X.\""""
    s = position(active=0, hands={0: ["ALOA"]})
    for bad, code in [(("BAFI", "ORO"), "build/wrong_island")]:
        with pytest.raises(Rejected) as err:
            act(s, 0, "build", island="ALOA", connection=bad)
        assert err.value.code == code
    with pytest.raises(Rejected) as err:
        act(s, 0, "build", island="BAFI", connection=("ALOA", "BAFI"))
    assert err.value.code == "card/not_in_hand"
    act(s, 0, "build", island="ALOA", connection=("ALOA", "BAFI"))
    assert owner(s, "ALOA", "BAFI") == 0


def test_o3_3_replace_only_an_opponents_bridge_with_two_matching_cards():
    """O3.3: "Play two matching cards at once and replace an opponent's
    bridge on the connection A-B with one's own (...). One's own bridge
    cannot be replaced.\""""
    s = position(active=0, hands={0: ["ALOA", "ALOA", "BAFI", "COCO", "COCO"]},
                 bridges={("ALOA", "BAFI"): 0, ("ALOA", "COCO"): 1})
    cases = [(("ALOA", "BAFI"), ("ALOA", "BAFI"), "replace/own_bridge"),
             (("ALOA", "ELOI"), ("ALOA", "ALOA"), "replace/no_bridge"),
             (("ALOA", "COCO"), ("ALOA",), "replace/two_cards"),
             (("ALOA", "COCO"), ("BAFI", "COCO"), "replace/wrong_island")]
    for connection, cards, code in cases:
        with pytest.raises(Rejected) as err:
            act(s, 0, "replace", islands=cards, connection=connection)
        assert err.value.code == code
    act(s, 0, "replace", islands=("COCO", "COCO"), connection=("ALOA", "COCO"))
    assert owner(s, "ALOA", "COCO") == 0


def test_o3_4_face_down_discard():
    """O3.4: "A seat that has played no card this turn, and whose hand is
    within the limit of O3.5, may discard one card face down instead, unseen
    by the others (...); after it the seat plays no more cards this turn."""
    s = position(active=0, hands={0: ["ALOA", "BAFI", "COCO"]})
    ev = act(s, 0, "discard", island="COCO")
    assert project(ev[0], 1)["island"] is None and project(ev[0], 0)["island"] == isl(s, "COCO")
    assert s.hidden == [(0, isl(s, "COCO"))]
    for what, fields, code in [("discard", {"island": "ALOA"}, "discard/not_allowed"),
                               ("build", {"island": "ALOA", "connection": ("ALOA", "BAFI")}, "turn/discarded")]:
        with pytest.raises(Rejected) as err:
            act(s, 0, what, **fields)
        assert err.value.code == code
    s = position(active=0, hands={0: ["ALOA", "BAFI"]})
    act(s, 0, "build", island="ALOA", connection=("ALOA", "BAFI"))
    with pytest.raises(Rejected) as err:
        act(s, 0, "discard", island="BAFI")
    assert err.value.code == "discard/not_allowed"


def test_o3_5_hand_limit_at_the_draw():
    """O3.5: "A hand holds at most 5 cards when a turn ends. A seat may
    therefore draw only with at most 4 cards in hand, and a seat that begins
    its turn with 5 must play at least one card first" — at rules revision 1
    it could discard one instead (O10.2; revision 2: test_revision_2.py)."""
    five = ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]
    s = position(active=0, hands={0: five})
    with pytest.raises(Rejected) as err:
        act(s, 0, "draw")
    assert err.value.code == "draw/hand_full"
    assert not any(type(c).__name__ == "Draw" for c in legal(s, 0))
    act(s, 0, "build", island="ALOA", connection=("ALOA", "BAFI"))
    act(s, 0, "draw")
    assert len(s.hands[0]) == 5
    s = position(active=0, hands={0: five}, revision=1)
    act(s, 0, "discard", island="DALI")
    act(s, 0, "draw")
    assert len(s.hands[0]) == 5


def test_o3_6_draw_from_the_display_or_the_deck():
    """O3.6: "exactly one card, either a display card (the seat chooses
    which) or the top card of the deck (unseen by the others). A display
    card taken is replaced at once by the deck's top card, while the deck
    has any.\""""
    s = position(3, active=0, display=["ALOA", "BAFI"], deck=["COCO", "DALI"])
    ev = act(s, 0, "draw")
    assert ev[0].island == isl(s, "COCO") and project(ev[0], 1)["island"] is None
    assert s.active == 1
    ev = act(s, 1, "draw", island="BAFI")
    assert project(ev[0], 2)["island"] == isl(s, "BAFI") and ev[0].refill == isl(s, "DALI")
    assert names(s, s.display) == ["ALOA", "DALI"]
    with pytest.raises(Rejected) as err:
        act(s, 2, "draw")
    assert err.value.code == "draw/deck_empty"
    with pytest.raises(Rejected) as err:
        act(s, 2, "draw", island="ORO")
    assert err.value.code == "draw/not_in_display"
    act(s, 2, "draw", island="ALOA")
    assert names(s, s.display) == ["DALI"]  # nothing left to refill from


def test_o3_7_nothing_to_draw_ends_the_turn_without_a_draw():
    """O3.7: "When the deck and the display are both empty the turn ends
    without a draw (the seat says so). This happens in the final round, and
    after a god stone's draw took the last card.\""""
    s = position(2, active=0, half=2, gods=True, held={0: {"lono": 1}}, display=["ALOA"], deck=[])
    with pytest.raises(Rejected) as err:
        act(s, 0, "end")
    assert err.value.code == "end/must_draw"
    act(s, 0, "lono", island="ALOA")
    with pytest.raises(Rejected):
        act(s, 0, "draw")
    ev = act(s, 0, "end")
    assert "FinalRoundBegan" in types(ev)


def test_o3_8_the_turn_passes_to_the_next_seat():
    """O3.8: "The turn passes to the next seat.\""""
    s = position(4, active=3)
    ev = act(s, 3, "draw")
    assert types(ev) == ["Drew", "TurnEnded", "TurnBegan"] and ev[2].seat == 0 and s.active == 0
