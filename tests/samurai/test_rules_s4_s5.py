"""Capture (S4) and the end of the game (S5), with the rulebook's examples."""

from __future__ import annotations

from oriente.server.samurai import (
    EVERYONE,
    SPECTATOR,
    EndTurn,
    Pass,
    SwapFigures,
    apply,
    view,
)

from .helpers import (
    BUDDHA_2,
    BUDDHA_3,
    FIGURE_SWAP,
    HELMET_2,
    HELMET_3,
    HELMET_4,
    RICE_2,
    RICE_3,
    RICE_4,
    RONIN,
    SAMURAI_1,
    SAMURAI_2,
    SHIP_1,
    SHIP_2,
    B,
    H,
    R,
    decision,
    end_turn,
    of_type,
    place,
    position,
    tiny_board,
)

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3

# Villages L and R, the city C between them; x touches L and C, y touches C and R.
# Z, out of the way, keeps a reserve figure on the board where a test needs
# the game to go on.
RING = [
    "~~~~~~~~~",
    "~~aLbc~~~",
    "~~dxCyg~~",
    "~~~fhRi~~",
    "~~~~jk~oZ",
    "~~~~~~~~~",
]
LAYOUT, IDS = tiny_board(RING, kinds={"C": "city"}, seats=4)
L, C, RV, Z = IDS["L"], IDS["C"], IDS["R"], IDS["Z"]


def captures(events):
    return {(e.hex, e.figure): e.seat for e in of_type(events, "FigureCaptured")}


def test_s4_rulebook_example_ronin_and_samurai_take_four_figures():
    """S4.1-S4.5, the rulebook's example: "Rot legt in seinem Zug den Reiter
    und den 2er Samurai. Er erhält den Buddha rechts und den Helm. Grün
    bekommt das Reisfeld, Gelb den Buddha links und Blau erhält nichts." """
    board = {
        IDS["a"]: (YELLOW, BUDDHA_3), IDS["b"]: (GREEN, RICE_2), IDS["f"]: (GREEN, RICE_4),
        IDS["h"]: (BLUE, HELMET_2), IDS["g"]: (BLUE, RICE_3), IDS["i"]: (YELLOW, HELMET_2),
        IDS["k"]: (GREEN, HELMET_3),
    }
    state = position(LAYOUT, seats=4, turn=RED, figures={L: [B], C: [H, R], RV: [B]}, board=board,
                     hands={RED: [RONIN, SAMURAI_2, SHIP_1, HELMET_4, BUDDHA_2]})
    assert place(state, RED, RONIN, IDS["x"]) and place(state, RED, SAMURAI_2, IDS["y"])
    ev = end_turn(state, RED)
    assert captures(ev) == {(L, B): YELLOW, (C, H): RED, (C, R): GREEN, (RV, B): RED}
    assert state.captured[RED] == [1, 1, 0] and state.captured[GREEN] == [0, 0, 1]
    assert state.captured[YELLOW] == [0, 1, 0] and state.captured[BLUE] == [0, 0, 0]


def test_s4_1_capture_needs_every_land_neighbour_and_waits_for_the_turn_end():
    """S4.1: "When every neighbouring land hex of a settlement holds a tile,
    its figures are taken from the board. Sea hexes need not be covered.
    Captures are resolved when the turn ends." """
    board = {IDS["a"]: (BLUE, HELMET_2)}
    state = position(LAYOUT, seats=2, turn=RED, figures={L: [B], C: [H, R], RV: [B]}, board=board,
                     hands={RED: [BUDDHA_2, RONIN, SHIP_1, HELMET_2, RICE_2]})
    place(state, RED, BUDDHA_2, IDS["b"])
    assert not captures(end_turn(state, RED))  # x is still open
    place(state, BLUE, state.hand[BLUE][0], IDS["d"])  # not a neighbour of L
    end_turn(state, BLUE)
    place(state, RED, RONIN, IDS["x"])
    assert state.figures_at[L] == [B]  # nothing is taken before the turn ends
    ev = end_turn(state, RED)
    assert captures(ev) == {(L, B): RED}  # L's sea neighbours are empty
    assert L not in state.figures_at


def test_s4_2_influence_counts_ships_on_sea():
    """S4.2: "each seat adds the strengths of its tiles on the settlement's
    neighbouring hexes (land and sea) that influence that figure's kind." """
    sea_next_to_l = next(h for h in LAYOUT.around[L] if h in LAYOUT.sea)
    board = {IDS["a"]: (BLUE, BUDDHA_3), IDS["b"]: (RED, SAMURAI_1), sea_next_to_l: (RED, SHIP_2)}
    state = position(LAYOUT, seats=2, turn=RED, figures={L: [B], C: [H, R], RV: [B]}, board=board,
                     hands={RED: [HELMET_2, RONIN, SHIP_1, RICE_2, BUDDHA_2]})
    place(state, RED, HELMET_2, IDS["x"])  # influences no Buddha
    ev = end_turn(state, RED)
    assert [e.influence for e in of_type(ev, "FigureCaptured")] == [(3, 3)]
    assert captures(ev) == {(L, B): None}


def test_s4_3_the_greatest_influence_captures_blue_3_against_red_2():
    """S4.3, the rulebook's example: "Blau erhält den Helm, er beeinflusst ihn
    mit Stärke 3, Rot nur mit Stärke 2." """
    board = {IDS["a"]: (BLUE, HELMET_3), IDS["b"]: (RED, HELMET_2)}
    state = position(LAYOUT, seats=4, turn=GREEN, figures={L: [H], C: [B, R], RV: [B]}, board=board,
                     hands={GREEN: [RICE_2, RONIN, SHIP_1, BUDDHA_2, SAMURAI_1]})
    place(state, GREEN, RICE_2, IDS["x"])
    assert captures(end_turn(state, GREEN)) == {(L, H): BLUE}


def test_s4_3_captured_figures_behind_the_screen_except_at_two_players():
    """S4.3: "puts it behind its screen. With 2 players captured figures stand
    in front of the screen, in the open." """
    for seats, open_to_others in ((2, True), (3, False), (4, False)):
        board = {IDS["a"]: (1, HELMET_3), IDS["b"]: (0, HELMET_2)}
        state = position(LAYOUT, seats=seats, turn=0, figures={L: [H], C: [B, R], RV: [B], Z: [H]}, board=board,
                         hands={0: [RICE_2, RONIN, SHIP_1, BUDDHA_2, SAMURAI_1]})
        place(state, 0, RICE_2, IDS["x"])
        end_turn(state, 0)
        assert view(state, 1)["players"][1]["captured"] == {"helmet": 1, "buddha": 0, "rice": 0}
        for viewer in (0, SPECTATOR):
            shown = view(state, viewer)["players"][1]["captured"]
            assert (shown is not None) == open_to_others, (seats, viewer)
        assert view(state, EVERYONE)["players"][1]["captured"] is not None


def test_s4_4_a_tie_or_no_influence_sets_the_figure_aside():
    """S4.4: "If no seat has the greatest influence alone — a tie for the
    most — the figure is set aside ... Ruling: a figure that no tile
    influences (the greatest influence is 0) is set aside too." """
    board = {IDS["a"]: (BLUE, HELMET_3), IDS["b"]: (RED, HELMET_2)}
    state = position(LAYOUT, seats=2, turn=RED, figures={L: [H], C: [B, R], RV: [B]}, board=board,
                     hands={RED: [SAMURAI_1, RONIN, SHIP_1, BUDDHA_2, RICE_2]})
    place(state, RED, SAMURAI_1, IDS["x"])
    assert captures(end_turn(state, RED)) == {(L, H): None}
    board = {IDS["a"]: (BLUE, RICE_3), IDS["b"]: (RED, RICE_2)}
    state = position(LAYOUT, seats=2, turn=RED, figures={L: [H], C: [B, R], RV: [B]}, board=board,
                     hands={RED: [BUDDHA_2, RONIN, SHIP_1, SAMURAI_1, HELMET_2]})
    place(state, RED, BUDDHA_2, IDS["x"])
    ev = end_turn(state, RED)
    assert captures(ev) == {(L, H): None} and state.set_aside == [1, 0, 0]
    assert of_type(ev, "FigureCaptured")[0].influence == (0, 0)


def test_s4_5_each_figure_of_a_city_on_its_own():
    """S4.5: "Each figure of a settlement is judged on its own (a city's two
    figures may go to different seats)." """
    board = {IDS["b"]: (BLUE, RICE_4), IDS["f"]: (RED, HELMET_3), IDS["h"]: (BLUE, SAMURAI_1),
             IDS["y"]: (RED, SAMURAI_1)}
    state = position(LAYOUT, seats=2, turn=RED, figures={L: [B], C: [H, R], RV: [B]}, board=board,
                     hands={RED: [BUDDHA_2, RONIN, SHIP_1, SAMURAI_2, HELMET_2]})
    place(state, RED, BUDDHA_2, IDS["x"])
    ev = end_turn(state, RED)
    assert captures(ev) == {(C, H): RED, (C, R): BLUE}


def test_s5_1_last_figure_of_a_kind_ends_the_game_after_the_turn():
    """S5.1: "When the last figure of one kind ... leaves the board, the turn
    is played to its end and the game ends." S5.3: "The refill of S3.7 is
    skipped in that last turn." """
    board = {IDS["a"]: (RED, HELMET_3), IDS["b"]: (RED, BUDDHA_2), IDS["f"]: (BLUE, RICE_2),
             IDS["h"]: (BLUE, RICE_3)}
    state = position(LAYOUT, seats=2, turn=RED, figures={L: [H], C: [B, R], RV: [B, ]}, board=board,
                     hands={RED: [RONIN, SAMURAI_2, SHIP_1, BUDDHA_3, HELMET_2]})
    place(state, RED, RONIN, IDS["x"])  # completes L (the only helmet) ...
    place(state, RED, SAMURAI_2, IDS["y"])  # ... and C, in the same turn
    ev = end_turn(state, RED)
    assert captures(ev) == {(L, H): RED, (C, B): RED, (C, R): BLUE}
    assert state.over and state.result.reason == "last_figure"
    assert not of_type(ev, "TilesDrawn") and len(state.hand[RED]) == 3


def test_s5_2_the_fourth_figure_set_aside_ends_the_game():
    """S5.2: "The same when the fourth figure is set aside." """
    board = {IDS["a"]: (BLUE, SAMURAI_1), IDS["b"]: (RED, SAMURAI_1)}
    state = position(LAYOUT, seats=2, turn=RED, figures={L: [H], C: [B, R], RV: [B], Z: [H]}, board=board,
                     hands={RED: [HELMET_2, RONIN, SHIP_1, BUDDHA_2, RICE_2], BLUE: [RICE_2, RICE_3]})
    state.set_aside = [1, 1, 1]
    place(state, RED, HELMET_2, IDS["d"])  # nothing completed: three set aside is not the end
    end_turn(state, RED)
    assert not state.over
    place(state, BLUE, RICE_2, IDS["x"])  # L's helmet: samurai 1 against samurai 1
    ev = end_turn(state, BLUE)
    assert captures(ev) == {(L, H): None}
    assert state.over and state.result.reason == "set_aside" and state.result.set_aside == (2, 1, 1)


def test_s5_4_everyone_passing_ends_the_game():
    """S5.4: "When every seat in turn has passed (S3.9) with no tile placed in
    between, the game ends." """
    state = position(LAYOUT, seats=3, turn=1, figures={L: [H], C: [B, R], RV: [B]},
                     hands={0: [], 1: [], 2: []})
    for seat in (1, 2):
        apply(state, seat, Pass(decision=decision(state)))
        assert not state.over
    ev = apply(state, 0, Pass(decision=decision(state)))
    assert state.over and state.result.reason == "no_moves" and of_type(ev, "GameEnded")


def test_s5_4_a_placement_between_passes_restarts_the_count():
    """S5.4: passes count only "with no tile placed in between"."""
    state = position(LAYOUT, seats=2, turn=0, figures={L: [H], C: [B, R], RV: [B]},
                     hands={0: [], 1: [FIGURE_SWAP]})
    for seat in (0, 1):  # nothing left to draw: every other tile is back in the box
        state.boxed[seat], state.supply[seat] = state.supply[seat], []
    apply(state, 0, Pass(decision=decision(state)))
    apply(state, 1, SwapFigures(decision=decision(state), tile=FIGURE_SWAP, hex_a=L, figure_a=H, hex_b=RV,
                                figure_b=B))
    apply(state, 1, EndTurn(decision=decision(state)))
    apply(state, 0, Pass(decision=decision(state)))
    assert not state.over
    apply(state, 1, Pass(decision=decision(state)))
    assert state.over


def test_s5_5_screens_lifted_at_the_end():
    """S5.5: "At the end every screen is lifted: everything becomes public." """
    state = position(LAYOUT, seats=3, turn=0, figures={L: [H], C: [B, R], RV: [B]},
                     board={IDS["a"]: (0, HELMET_3), IDS["b"]: (1, RICE_2)}, captured={2: [2, 0, 1]})
    hidden = view(state, SPECTATOR)["players"]
    assert hidden[2]["captured"] is None and hidden[1]["hand"] == [None] * 5 and hidden[1]["supply"] is None
    place(state, 0, state.hand[0][0], IDS["x"])
    end_turn(state, 0)
    assert state.over
    public = view(state, SPECTATOR)["players"]
    assert public[2]["captured"] == {"helmet": 2, "buddha": 0, "rice": 1}
    assert public[1]["hand"] == state.hand[1] and public[1]["supply"] == sorted(state.supply[1])
    assert state.result.hands[1] == tuple(state.hand[1])


def test_s5_3_no_refill_in_the_last_turn():
    """S5.3: "The refill of S3.7 is skipped in that last turn; it cannot
    change the outcome." """
    board = {IDS["a"]: (BLUE, HELMET_3), IDS["b"]: (RED, RICE_2)}
    state = position(LAYOUT, seats=2, turn=RED, figures={L: [H], C: [B, R], RV: [B]}, board=board,
                     hands={RED: [BUDDHA_2, RONIN, SHIP_1, SAMURAI_1, HELMET_2]})
    supply = list(state.supply[RED])
    place(state, RED, BUDDHA_2, IDS["x"])
    ev = end_turn(state, RED)
    assert state.over and not of_type(ev, "TilesDrawn")
    assert state.supply[RED] == supply and len(state.hand[RED]) == 4
