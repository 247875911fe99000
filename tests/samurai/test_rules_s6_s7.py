"""Winning (S6) with the rulebook's worked examples, and online play (S7)."""

from __future__ import annotations

import pytest

from oriente.server.samurai import (
    EVERYONE,
    SPECTATOR,
    TABLE,
    ChooseTiles,
    EndTurn,
    Game,
    GameConfig,
    PlaceTile,
    Rejected,
    SwapFigures,
    Timeout,
    Topic,
    apply,
    decision_view,
    legal,
    pending,
    project,
    view,
)
from oriente.server.samurai.scoring import score

from .helpers import (
    FIGURE_SWAP,
    HELMET_2,
    HELMET_3,
    RICE_2,
    SAMURAI_1,
    SHIP_1,
    B,
    H,
    R,
    decision,
    end_turn,
    of_type,
    place,
    position,
)
from .test_rules_s4_s5 import IDS, LAYOUT, RV, C, L, Z

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def test_s6_rulebook_first_example():
    """S6.1-S6.3, the rulebook's first example: "Gelb ist aus der Wertung ...
    Grün besitzt die Mehrheit bei den Reisfeldern, Blau bei den Helmen und
    Rot bei den Buddhas. Grün gewinnt, da er neben seiner Mehrheit an
    Reisfeldern 6 andere Figuren gesammelt hat. Blau wird Zweiter mit 5
    anderen Figuren, Rot mit 4 anderen Figuren Dritter." (The picture with
    the counts is lost; these counts fit the text.)"""
    s = score([(2, 5, 2), (4, 3, 2), (3, 3, 4), (1, 1, 3)])
    assert s.majorities == (BLUE, RED, GREEN)
    assert s.contenders == (RED, BLUE, GREEN)
    assert s.others == (4, 5, 6, None)
    assert s.ranks == (3, 2, 1, 4) and s.winners == (GREEN,)


def test_s6_rulebook_second_example():
    """S6.4, the rulebook's second example: "Blau und Grün sind aus der
    Wertung ... Rot kommt in die Wertung, da er bei den Helmen die Mehrheit
    besitzt. Gelb ... bei den Buddhas ... jeder der beiden 3 Figuren
    gesammelt. Es herrscht also Gleichstand. Nun werden alle Figuren dieser
    beiden Spieler gezählt. Rot gewinnt. Er besitzt insgesamt 9 Figuren, Gelb
    nur 8." """
    s = score([(6, 1, 2), (2, 2, 2), (3, 2, 1), (1, 5, 2)])
    assert s.majorities == (RED, YELLOW, None)
    assert s.others[RED] == s.others[YELLOW] == 3 and s.totals[RED] == 9 and s.totals[YELLOW] == 8
    assert s.ranks == (1, 3, 3, 2) and s.winners == (RED,)


def test_s6_1_only_a_sole_majority_qualifies():
    """S6.1: "Only a seat with the sole majority of a kind — more figures of
    that kind than every other seat — is in contention." """
    s = score([(3, 0, 0), (3, 0, 0), (0, 1, 0)])
    assert s.majorities == (None, 2, None) and s.contenders == (2,)
    assert s.ranks == (2, 2, 1)


def test_s6_2_two_majorities_win_outright():
    """S6.2: "A seat with the sole majority in two kinds wins outright." """
    s = score([(2, 2, 0), (0, 0, 9), (1, 1, 0)])
    assert s.others == (0, 0, None)
    assert s.ranks == (1, 2, 3) and s.winners == (0,)


def test_s6_3_others_besides_the_majority_kind():
    """S6.3: "each seat in contention sets aside the figures of the kind it has
    the majority in and counts its remaining figures; the most wins." """
    s = score([(5, 0, 1), (0, 2, 3), (1, 1, 4)])
    assert s.others == (1, 3, 2) and s.ranks == (3, 1, 2)


def test_s6_4_ties_count_all_figures_then_share():
    """S6.4: "A tie there is broken by counting all their figures; a tie in
    that too shares the win." """
    s = score([(3, 1, 0), (1, 3, 0), (0, 0, 0)])
    assert s.others == (1, 1, None) and s.totals == (4, 4, 0)
    assert s.ranks == (1, 1, 3) and s.winners == (0, 1)


def test_s6_5_nobody_qualifies_nobody_wins():
    """S6.5: "If no seat holds a sole majority, nobody wins: every seat shares
    rank 1 and the result lists no winner." """
    s = score([(1, 1, 0), (1, 1, 0)])
    assert s.contenders == () and s.ranks == (1, 1) and s.winners == ()
    assert score([(0, 0, 0)] * 3).winners == ()


def _setup(seats, first=0):
    game = Game(GameConfig(seats=seats, seed=6, first=first))
    d = game.pending()[0]
    for s in range(seats):
        game.apply(s, ChooseTiles(decision=d.id, tiles=(14, 15, 16, 17, 18)))
    return game


def test_s7_1_silence_when_placing_figures():
    """S7.1: "placing a figure — a legal placement drawn at random from the
    seed". A timeout from anyone but the table, or naming a pivot that has
    moved on, is refused."""
    game = _setup(2)
    d = game.pending()[0]
    assert d.topic is Topic.FIGURE and d.timer.value == "prompt"
    with pytest.raises(Rejected) as err:
        game.apply(0, Timeout(decision=d.id, pivot=0))
    assert err.value.code == "timeout/not_table"
    with pytest.raises(Rejected) as err:
        game.apply(TABLE, Timeout(decision=d.id, pivot=1))
    assert err.value.code == "decision/closed"
    options = {(c.hex, c.figure) for c in game.legal(0)}
    ev = game.apply(TABLE, Timeout(decision=d.id, pivot=0))
    placed = of_type(ev, "FigurePlaced")[0]
    assert (placed.hex, placed.figure) in options and placed.by_table and placed.seat == 0


def test_s7_1_silence_in_a_turn():
    """S7.1: "a turn in which a tile was placed — the turn ends; a turn with
    nothing placed yet — the table places one tile for the seat, drawn at
    random among its legal placements, and ends the turn; a seat that can
    place nothing — it passes." """
    state = position(LAYOUT, seats=2, turn=0, figures={L: [H], C: [B, R], RV: [B], Z: [H]},
                     hands={0: [HELMET_2, SHIP_1], 1: [HELMET_3, RICE_2]})
    place(state, 0, SHIP_1, next(iter(LAYOUT.sea)))
    ev = apply(state, TABLE, Timeout(decision=decision(state), pivot=0))
    assert of_type(ev, "TurnEnded")[0].by_table and state.prompt_seat == 1
    options = legal(state, 1)
    ev = apply(state, TABLE, Timeout(decision=decision(state), pivot=1))
    placed = of_type(ev, "TilePlaced")
    assert len(placed) == 1 and placed[0].by_table
    assert PlaceTile(decision=of_type(ev, "TurnEnded")[0].decision, tile=placed[0].tile,
                     hex=placed[0].hex) in options
    assert of_type(ev, "TurnEnded")[0].by_table
    state.hand[0], state.supply[0], state.boxed[0] = [], [], state.hand[0] + state.supply[0]
    ev = apply(state, TABLE, Timeout(decision=decision(state), pivot=0))
    assert of_type(ev, "TurnPassed")[0].by_table


def test_s7_2_the_tile_choice_is_a_round_of_sealed_answers():
    """S7.2: "Any seat may hand in its choice at any time; it stays sealed —
    shown to nobody but that seat, not even that it exists — and may be
    changed until it becomes final. Only the pivot ... is waited on ... A
    round whose seats all answered early never waits. ... the public learns
    only that it is final." """
    game = Game(GameConfig(seats=3, seed=1, first=1))
    d = game.pending()[0]
    assert (d.kind.value, d.asked, d.pivot, d.early) == ("round", (1, 2, 0), 1, (2, 0))
    assert game.legal(1) == []  # a combination: described by the prompt instead
    assert decision_view(game.state, 1)["choose"]["count"] == 5
    assert game.apply(0, ChooseTiles(decision=d.id, tiles=(0, 1, 2, 3, 4))) == []
    assert game.apply(0, ChooseTiles(decision=d.id, tiles=(5, 6, 7, 8, 9))) == []  # changed, still sealed
    assert decision_view(game.state, 0)["sealed"] == [5, 6, 7, 8, 9]
    for viewer in (1, 2, SPECTATOR):
        shown = decision_view(game.state, viewer)
        assert "sealed" not in shown and shown["final"] == []
        assert view(game.state, viewer)["players"][0]["chosen"] is False
    assert game.pending()[0].key == d.key  # nothing moved: seat 1 is still the pivot
    ev = game.apply(1, ChooseTiles(decision=d.id, tiles=(10, 11, 12, 13, 14)))
    assert [e.seat for e in of_type(ev, "TilesChosen")] == [1]
    assert game.pending()[0].pivot == 2 and game.pending()[0].early == (0,)
    ev = game.apply(TABLE, Timeout(decision=d.id, pivot=2))
    assert [(e.seat, e.by_table) for e in of_type(ev, "TilesChosen")] == [(2, True), (0, False)]
    assert game.state.hand[0] == [5, 6, 7, 8, 9]
    chosen = of_type(ev, "TilesChosen")[1]
    assert project(chosen, 0)["tiles"] == [5, 6, 7, 8, 9]
    assert project(chosen, 1)["tiles"] == [None] * 5 and project(chosen, SPECTATOR)["tiles"] == [None] * 5
    assert project(chosen, EVERYONE)["tiles"] == [5, 6, 7, 8, 9]
    assert of_type(ev, "SelectionDone") and game.pending()[0].topic is Topic.FIGURE
    with pytest.raises(Rejected) as err:
        game.apply(0, ChooseTiles(decision=d.id, tiles=(0, 1, 2, 3, 4)))
    assert err.value.code == "decision/closed"


def test_s7_2_final_answers_cannot_change():
    """S7.2: a choice "may be changed until it becomes final"."""
    game = Game(GameConfig(seats=2, seed=1, first=0))
    d = game.pending()[0]
    game.apply(0, ChooseTiles(decision=d.id, tiles=(0, 1, 2, 3, 4)))
    with pytest.raises(Rejected) as err:
        game.apply(0, ChooseTiles(decision=d.id, tiles=(5, 6, 7, 8, 9)))
    assert err.value.code == "decision/answered"


def test_s7_3_a_figure_swap_after_closing_a_ring_changes_the_capture():
    """S7.3: "captures wait for the end of the turn (S4.1), so a figure swap
    later in the same turn can still change what a completed ring captures,
    as at the table." """
    board = {IDS["a"]: (1, HELMET_3), IDS["b"]: (0, SAMURAI_1)}
    state = position(LAYOUT, seats=2, turn=0, figures={L: [H], C: [B, R], RV: [B], Z: [H]}, board=board,
                     hands={0: [RICE_2, FIGURE_SWAP]})
    place(state, 0, RICE_2, IDS["x"])  # L's helmet would go to seat 1 (3 against 1)
    apply(state, 0, SwapFigures(decision=decision(state), tile=FIGURE_SWAP, hex_a=L, figure_a=H, hex_b=RV,
                                figure_b=B))
    ev = end_turn(state, 0)
    assert [(e.hex, e.figure, e.seat) for e in of_type(ev, "FigureCaptured")] == [(L, B, 0)]


def test_s7_4_hands_and_supplies_are_private():
    """S7.4: "Known to a seat only: its hand, its supply's contents (never its
    order, which nobody knows)." """
    game = _setup(3)
    for viewer in (0, 1, 2, SPECTATOR):
        for p in view(game.state, viewer)["players"]:
            if p["seat"] == viewer:
                assert p["hand"] == [14, 15, 16, 17, 18]
                assert p["supply"] == [*range(14), 19]  # contents, sorted: not the order
            else:
                assert p["hand"] == [None] * 5 and p["supply"] is None
            assert p["hand_size"] == 5 and p["supply_size"] == 15


def test_s7_5_the_round_moves_on_answers_alone():
    """S7.5: "Who is asked and when the selection round moves on depend only
    on public information and the answers handed in." """
    keys = []
    for tiles in ((0, 1, 2, 3, 4), (15, 16, 17, 18, 19)):
        game = Game(GameConfig(seats=3, seed=2, first=0))
        d = game.pending()[0]
        game.apply(0, ChooseTiles(decision=d.id, tiles=tiles))
        keys.append([x.key for x in game.pending()] + [x.asked for x in game.pending()])
    assert keys[0] == keys[1]


def test_s7_7_streams_keep_a_timeout_from_changing_the_draws():
    """S7.7: "one stream per kind of random event (start seat, supply
    shuffles, silence)": a seat that times out does not change the order of
    anyone's supply."""
    timed = Game(GameConfig(seats=2, seed=12, first=0))
    d = timed.pending()[0]
    timed.apply(TABLE, Timeout(decision=d.id, pivot=0))
    timed.apply(1, ChooseTiles(decision=d.id, tiles=(0, 1, 2, 3, 4)))
    chosen = Game(GameConfig(seats=2, seed=12, first=0))
    chosen.apply(0, ChooseTiles(decision=d.id, tiles=tuple(timed.state.hand[0])))
    chosen.apply(1, ChooseTiles(decision=d.id, tiles=(0, 1, 2, 3, 4)))
    assert timed.state.supply == chosen.state.supply


def test_s7_1_a_turn_keeps_its_decision_and_deadline():
    """S7.1: "A turn is one decision however many tiles it places ... One
    deadline covers the whole turn." """
    state = position(LAYOUT, seats=2, turn=0, figures={L: [H], C: [B, R], RV: [B], Z: [H]},
                     hands={0: [HELMET_2, SHIP_1]})
    before = pending(state)[0].key
    place(state, 0, SHIP_1, next(iter(LAYOUT.sea)))
    assert pending(state)[0].key == before
    assert EndTurn(decision=decision(state)) in legal(state, 0)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_s7_6_a_table_of_silent_seats_still_ends(seats):
    """S7.6: "Every game ends ... every wait has a deadline": with nobody
    answering, the table's silence alone plays the game to its end."""
    game = Game(GameConfig(seats=seats, seed=seats))
    steps = 0
    while not game.over:
        d = game.pending()[0]
        game.apply(TABLE, Timeout(decision=d.id, pivot=d.pivot))
        steps += 1
        assert steps < 4 * seats + 3 * 13 + 20 * seats * seats + seats
    assert game.state.result is not None
