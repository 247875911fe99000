"""A test per rule of O5 (halves, scoring, end), O6 (points) and O7 (the gods)."""

from __future__ import annotations

import random

import pytest

from oriente.server.oro import (
    Draw,
    Game,
    OroConfig,
    Rejected,
    apply,
    default_board,
    default_tiles,
    legal,
    pending,
    view,
)

from .helpers import act, check, conn, controller, isl, names, position, timeout, types

EXCLUDED = ("ALOA", "BAFI", "COCO", "HIVA", "RASI")


def ten_islands() -> dict[tuple[str, str], int]:
    """Seat 0's bridges on every connection away from EXCLUDED but DALI-FANU:
    it controls ten islands, and DALI-FANU would give it an eleventh."""
    b = default_board()
    out = {}
    for a, z in b.ends:
        pair = (b.names[a], b.names[z])
        if not set(pair) & set(EXCLUDED) and set(pair) != {"DALI", "FANU"}:
            out[pair] = 0
    return out


# -- O5 halves, scoring and the end ---------------------------------------------------------

def test_o5_1_the_first_half_ends_with_the_last_card():
    """O5.1: "When the last card of the deck and of the display has been
    taken, the first half ends with that turn and the first scoring
    follows.\""""
    s = position(2, active=0, display=["ALOA"], deck=[], bridges={("ALOA", "DALI"): 1, ("ELOI", "DALI"): 1})
    ev = act(s, 0, "draw", island="ALOA")
    assert types(ev) == ["Drew", "TurnEnded", "Scored", "Reshuffled", "TurnBegan"]
    assert ev[2].final is False and ev[4].half == 2 and s.half == 2


def test_o5_2_scoring_counts_the_places_the_controller_does_not_occupy():
    """O5.2: "Every seat scores every island it controls: one point for each
    of the island's places it does not occupy (free, or an opponent's).\""""
    s = position(2, active=0, display=["ORO"], deck=[], scores=[5, 0],
                 bridges={("ALOA", "DALI"): 1, ("ELOI", "DALI"): 1,          # DALI: 1 point for seat 1
                          ("ALOA", "BAFI"): 0, ("BAFI", "COCO"): 0, ("BAFI", "ORO"): 0,
                          ("BAFI", "NAKA"): 1})                             # BAFI: 2 points for seat 0
    ev = act(s, 0, "draw", island="ORO")
    scored = ev[2]
    assert sorted(scored.islands) == sorted([(isl(s, "DALI"), 1, 1), (isl(s, "BAFI"), 0, 2)])
    assert scored.points == (2, 1) and scored.scores == (7, 1) and s.scores == [7, 1]


def test_o5_3_the_discard_pile_becomes_the_deck():
    """O5.3: "After the first scoring the whole discard pile (face up and face
    down) is shuffled into the new deck and 4 of its cards are laid face up
    as the new display. Bridges, markers, hands, scores and god stones stay;
    the next seat continues.\""""
    s = position(3, active=1, hands={1: ["ALOA", "KULU"], 2: ["ORO"]}, display=["GUMA"], deck=[],
                 bridges={("ALOA", "BAFI"): 2})
    act(s, 1, "discard", island="KULU")
    pile = sorted(s.played + [c for _, c in s.hidden])
    act(s, 1, "draw", island="GUMA")
    assert sorted(s.deck + s.display) == pile and len(s.display) == 4
    assert s.played == [] and s.hidden == []
    assert names(s, s.hands[1]) == ["ALOA", "GUMA"] and names(s, s.hands[2]) == ["ORO"]
    assert s.bridges[conn(s, "ALOA", "BAFI")] == 2 and s.active == 2


def test_o5_4_the_final_round_follows_the_second_half():
    """O5.4: "When for the second time the last card of the deck and the
    display has been taken, the second half ends and every seat has exactly
    one more turn, the seat that took the last card included, beginning
    with the next seat.\""""
    s = position(3, active=1, half=2, display=["ALOA"], deck=[])
    ev = act(s, 1, "draw", island="ALOA")
    assert types(ev)[-2:] == ["FinalRoundBegan", "TurnBegan"] and s.half == 3 and s.active == 2
    assert pending(s)[0].topic.value == "final_turn"
    for seat in (2, 0, 1):
        assert s.active == seat
        act(s, seat, "end")
    assert s.final_order == [2, 0, 1] and s.result is not None


def test_o5_5_passing_only_first_and_only_behind_a_better_seat():
    """O5.5: "A seat asked for its final turn may pass — before doing
    anything in it — while a seat with strictly more points has not made its
    final turn. It keeps its final turn: the seats that still owe one are
    asked in seat order, around again as needed.\""""
    s = position(3, active=0, half=3, scores=[3, 3, 5], hands={0: ["ALOA", "BAFI"]})
    act(s, 0, "build", island="ALOA", connection=("ALOA", "BAFI"))
    with pytest.raises(Rejected) as err:
        act(s, 0, "pass")  # after acting: too late
    assert err.value.code == "pass/not_allowed"
    s = position(3, active=0, half=3, scores=[3, 3, 5])
    act(s, 0, "pass")  # seat 2 has more points and owes its turn
    act(s, 1, "pass")
    assert s.active == 2
    with pytest.raises(Rejected):
        act(s, 2, "pass")  # the leader never passes
    act(s, 2, "end")
    assert s.active == 0  # asked again
    with pytest.raises(Rejected):
        act(s, 0, "pass")  # seat 1's equal points are not more
    act(s, 0, "end")
    act(s, 1, "end")
    assert s.final_order == [2, 0, 1]


def test_o5_6_a_final_turn_has_no_draw_and_no_stones():
    """O5.6: "A final turn is a turn without a draw: the seat builds,
    replaces or discards as it likes and ends it. God stones cannot be
    used. The cards left in hand stay there.\""""
    five = ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]
    s = position(2, active=0, half=3, gods=True, held={0: {"lono": 1, "kanaloa": 1}}, hands={0: five},
                 display=[], deck=[])
    for what, fields, code in [("draw", {}, "draw/final_round"), ("lono", {}, "god/not_now"),
                               ("build", {"kanaloa": True, "connection": 0}, "god/not_now")]:
        with pytest.raises(Rejected) as err:
            act(s, 0, what, **fields)
        assert err.value.code == code
    act(s, 0, "end")  # five cards and nothing played: fine, nothing is drawn
    assert len(s.hands[0]) == 5


def test_o5_7_the_final_scoring_adds_a_point_per_island():
    """O5.7: "Final scoring as O5.2, one point more per controlled island.\""""
    s = position(2, active=0, half=3, scores=[1, 0],
                 bridges={("ALOA", "DALI"): 0, ("ELOI", "DALI"): 0, ("DALI", "FANU"): 0})
    act(s, 0, "end")
    ev = act(s, 1, "end")
    assert ev[-2].final and ev[-2].islands == ((isl(s, "DALI"), 0, 1),) and s.scores == [2, 0]


def test_o5_8_a_tie_goes_to_the_earlier_final_turn():
    """O5.8: "The most points wins. Between equal scores, the seat that made
    its final turn earlier ranks ahead of those that made it later.\""""
    s = position(3, active=1, half=3, scores=[4, 4, 4])
    for seat in (1, 2, 0):
        ev = act(s, seat, "end")
    assert ev[-1].ranks == (3, 1, 2) and ev[-1].winner == 1


def test_o5_9_the_eleventh_island_wins_at_once():
    """O5.9: "A seat that controls 10 islands and takes control of an
    eleventh wins at once; the game ends. (...) the others rank by their
    points at that moment (no final scoring), equal points sharing a rank.\""""
    s = position(4, active=0, hands={0: ["DALI"]}, bridges=ten_islands(), scores=[0, 6, 6, 2])
    assert s.controlled[0] == 10
    ev = act(s, 0, "build", island="DALI", connection=("DALI", "FANU"))
    end = ev[-1]
    assert types(ev)[-1] == "GameEnded" and "Scored" not in types(ev)
    assert (end.reason, end.winner, end.ranks) == ("eleven", 0, (1, 2, 2, 4))
    assert pending(s) == []
    with pytest.raises(Rejected) as err:
        apply(s, 1, Draw(decision=s.decision))
    assert err.value.code == "game/over"


def test_o5_10_every_game_ends():
    """O5.10: "each half has at most 48 turns; the final round has at most
    n turns and n·(n−1) passes (...) Every wait has a deadline.\""""
    rng = random.Random(3)
    for seed in range(12):
        n = 2 + seed % 3
        game = Game(OroConfig(seats=n, seed=seed, gods=seed % 2 == 1))
        steps = 0
        while not game.over:
            d = game.pending()[0]
            if rng.random() < 0.2:
                timeout(game.state)
            else:
                game.apply(d.pivot, rng.choice(game.legal(d.pivot)))
            steps += 1
            assert game.state.turns <= 48 + 48 + n * n
        assert steps < 2000


# -- O6 points -----------------------------------------------------------------------------

def test_o6_1_scores_only_grow_and_are_public():
    """O6.1: "Points are only ever added: by the two scorings and by Kane. A
    seat's score is public at all times.\""""
    rng = random.Random(5)
    game = Game(OroConfig(seats=3, seed=11, gods=True))
    last = [0, 0, 0]
    while not game.over:
        d = game.pending()[0]
        game.apply(d.pivot, rng.choice(game.legal(d.pivot)))
        now = game.view("spectator")["scores"]
        assert all(a >= b for a, b in zip(now, last, strict=True)) and now == game.state.scores
        last = now


# -- O7 the gods ---------------------------------------------------------------------------

def test_o7_1_sixteen_stones_of_five_gods():
    """O7.1: "16 stones, one per island at setup, of five gods: Kane,
    Kanaloa, Ku, Pele and Lono (...) default: 4 Kane and 3 of each other
    god.\""""
    tiles = default_tiles()
    assert dict(tiles.stones) == {"kane": 4, "kanaloa": 3, "ku": 3, "pele": 3, "lono": 3}
    assert len(tiles.stone_list()) == 16


def test_o7_2_the_first_controller_takes_the_stone():
    """O7.2: "The first seat to take control of an island takes the stone
    lying there; later takeovers find none. A stone stays with its seat when
    the island is lost.\""""
    s = position(2, active=0, gods=True, stones={"DALI": "ku"}, hands={0: ["ELOI"], 1: ["DALI", "DALI", "FANU"]},
                 bridges={("ALOA", "DALI"): 0})
    ev = act(s, 0, "build", island="ELOI", connection=("ELOI", "DALI"))
    assert ev[1].stone == "ku" and s.held[0]["ku"] == 1 and s.stones[isl(s, "DALI")] is None
    act(s, 0, "draw")
    act(s, 1, "replace", islands=("DALI", "DALI"), connection=("ALOA", "DALI"))
    ev = act(s, 1, "build", island="FANU", connection=("DALI", "FANU"))
    assert controller(s, "DALI") == 1 and ev[1].stone is None
    assert s.held[0]["ku"] == 1 and s.held[1]["ku"] == 0


@pytest.mark.parametrize("island, bridges, last, points", [
    ("DALI", {("ALOA", "DALI"): 0}, ("ELOI", "DALI"), 1),
    ("BAFI", {("ALOA", "BAFI"): 0, ("BAFI", "COCO"): 0}, ("BAFI", "ORO"), 2),
    ("ORO", {("BAFI", "ORO"): 0, ("COCO", "ORO"): 0, ("GUMA", "ORO"): 0}, ("HIVA", "ORO"), 3),
])
def test_o7_3_kane_scores_at_once_by_island_size(island, bridges, last, points):
    """O7.3: "Kane scores at once when taken — 1 point for a small island, 2
    for a large one, 3 for ORO — and leaves the game (...) it scores even
    when taken in the final round.\""""
    for half in (1, 3):
        s = position(2, active=0, half=half, gods=True, stones={island: "kane"}, hands={0: [island, *last]},
                     bridges=bridges)
        ev = act(s, 0, "build", island=island, connection=last)
        assert ev[1].kane == points and s.scores[0] == points and s.used == ["kane"]
        assert s.held[0]["kane"] == 0


def test_o7_4_stones_are_used_once_and_only_in_the_second_half():
    """O7.4: "Each other stone is used once, during its holder's own turn
    (...), and then leaves the game. Stones are used only in the second
    half.\""""
    s = position(2, active=0, half=1, gods=True, held={0: {"lono": 1}}, deck=["ALOA", "BAFI", "COCO"])
    with pytest.raises(Rejected) as err:
        act(s, 0, "lono")
    assert err.value.code == "god/not_now"
    s = position(2, active=0, half=2, gods=True, held={0: {"lono": 1}}, deck=["ALOA", "BAFI", "COCO"])
    act(s, 0, "lono")
    assert s.held[0]["lono"] == 0 and s.used == ["lono"]
    with pytest.raises(Rejected) as err:
        act(s, 0, "lono")
    assert err.value.code == "god/not_held"
    s = position(2, active=0, half=2, gods=False, deck=["ALOA"])
    with pytest.raises(Rejected) as err:
        act(s, 0, "lono")
    assert err.value.code == "god/no_variant"


def test_o7_5_kanaloa_is_a_card_for_any_island():
    """O7.5: "Kanaloa is a card for any island: a build on any free
    connection, or one of the two cards of a replacement (with a matching
    card, or with a second Kanaloa).\""""
    s = position(2, active=0, half=2, gods=True, held={0: {"kanaloa": 4}}, hands={0: ["BAFI"]},
                 bridges={("ALOA", "BAFI"): 1, ("GUMA", "MOTU"): 1})
    act(s, 0, "build", kanaloa=True, connection=("ORO", "TOKA"))
    act(s, 0, "replace", islands=("BAFI",), kanaloa=1, connection=("ALOA", "BAFI"))
    act(s, 0, "replace", kanaloa=2, connection=("GUMA", "MOTU"))
    assert [s.bridges[conn(s, *c)] for c in [("ORO", "TOKA"), ("ALOA", "BAFI"), ("GUMA", "MOTU")]] == [0, 0, 0]
    assert s.held[0]["kanaloa"] == 0 and s.used == ["kanaloa"] * 4


def test_o7_6_ku_looks_at_a_hand_and_takes_a_card():
    """O7.6: "The seat names an opponent that holds a card, looks at its
    whole hand, and takes one of its cards into its own hand.\""""
    s = position(3, active=0, half=2, gods=True, held={0: {"ku": 1}}, hands={1: ["ALOA", "BAFI", "BAFI"]})
    with pytest.raises(Rejected) as err:
        act(s, 0, "ku", target=2)
    assert err.value.code == "ku/empty_hand"
    ev = act(s, 0, "ku", target=1)
    assert ev[0].hand == (isl(s, "ALOA"), isl(s, "BAFI"), isl(s, "BAFI"))
    v0, v2 = view(s, 0), view(s, 2)
    assert names(s, v0["hands"][1]["known"]) == ["ALOA", "BAFI", "BAFI"] and v2["hands"][1]["known"] == []
    assert pending(s)[0].topic.value == "ku"
    ev = act(s, 0, "take", island="BAFI")
    assert names(s, s.hands[0]) == ["BAFI"] and names(s, s.hands[1]) == ["ALOA", "BAFI"]
    assert names(s, view(s, 0)["hands"][1]["known"]) == ["ALOA", "BAFI"]
    assert names(s, view(s, 1)["hands"][0]["known"]) == ["BAFI"]  # the target knows what it lost
    assert view(s, 2)["hands"][0]["known"] == [] and pending(s)[0].topic.value == "turn"


def test_o7_7_pele_takes_from_everyone_and_gives_back():
    """O7.7: "The seat takes one card at random from each opponent that
    holds any (in seat order from its left), then gives each of them one card
    of its choice back, in the same order — any card of its hand.\""""
    s = position(4, active=1, half=2, gods=True, held={1: {"pele": 1}},
                 hands={1: ["ORO"], 2: ["ALOA"], 0: ["BAFI", "BAFI"]})
    ev = act(s, 1, "pele")
    assert ev[0].taken == ((2, isl(s, "ALOA")), (0, isl(s, "BAFI")))  # seat 3 holds nothing
    assert names(s, s.hands[1]) == ["ALOA", "BAFI", "ORO"]
    assert pending(s)[0].topic.value == "pele" and s.pele_queue == [2, 0]
    assert names(s, view(s, 0)["hands"][1]["known"]) == ["BAFI"]  # seat 0 saw its BAFI go there
    act(s, 1, "give_back", island="ORO")
    assert names(s, s.hands[2]) == ["ORO"]
    assert names(s, view(s, 2)["hands"][1]["known"]) == ["ALOA"]  # its ALOA, still there
    assert view(s, 0)["hands"][1]["known"] == []  # unseen: the card given may have been the BAFI
    act(s, 1, "give_back", island="ALOA")
    assert names(s, s.hands[0]) == ["ALOA", "BAFI"] and names(s, s.hands[1]) == ["BAFI"]
    assert pending(s)[0].topic.value == "turn"
    assert view(s, 2)["hands"][1]["known"] == []


def test_o7_8_lono_draws_an_extra_card():
    """O7.8: "The seat draws one extra card during its turn, as O3.6 (from
    the display, refilled at once, or the deck's top); it may play it at
    once.\""""
    s = position(2, active=0, half=2, gods=True, held={0: {"lono": 1}}, display=["ORO"], deck=["TOKA", "ALOA"])
    ev = act(s, 0, "lono", island="ORO")
    assert types(ev) == ["LonoUsed", "Drew"] and ev[1].lono and ev[1].refill == isl(s, "TOKA")
    act(s, 0, "build", island="ORO", connection=("ORO", "TOKA"))
    assert s.active == 0
    act(s, 0, "draw")
    assert s.active == 1


def test_o7_9_over_the_limit_discard_down_before_the_draw():
    """O7.9: "Stones may take a hand above 5 during the turn; the limit of
    O3.5 applies when the turn ends (...), and a seat over it may discard face
    down to reach it" — any card, at rules revision 1 (O10.2); revision 2
    plays first (test_revision_2.py)."""
    five = ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]
    s = position(2, active=0, half=2, gods=True, held={0: {"lono": 2}}, hands={0: five},
                 deck=["ORO", "ORO", "TOKA", "GUMA"], revision=1)
    act(s, 0, "lono")
    act(s, 0, "lono")
    act(s, 0, "build", island="ORO", connection=("ORO", "TOKA"))
    assert len(s.hands[0]) == 6
    with pytest.raises(Rejected):
        act(s, 0, "draw")
    act(s, 0, "discard", island="ALOA")  # allowed after playing: over the limit
    act(s, 0, "discard", island="BAFI")
    with pytest.raises(Rejected) as err:
        act(s, 0, "discard", island="COCO")  # within the limit now
    assert err.value.code == "discard/not_allowed"
    act(s, 0, "draw")
    assert len(s.hands[0]) == 5
    check(s)


def test_o7_10_no_stone_in_the_final_round():
    """O7.10: "No stone is used in the final round.\""""
    s = position(2, active=0, half=3, gods=True, held={0: {"ku": 1, "pele": 1}}, hands={1: ["ALOA"]})
    for what, fields in [("ku", {"target": 1}), ("pele", {})]:
        with pytest.raises(Rejected) as err:
            act(s, 0, what, **fields)
        assert err.value.code == "god/not_now"
    assert not any(type(c).__name__.startswith("Use") for c in legal(s, 0))
