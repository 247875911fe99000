"""The rules engine's public face: new_game, apply, pending, legal, is_over.

A pure state machine: no clock, no I/O, randomness from the state's own
streams. The same config and the same ordered commands give the same events.

Flow (the phase table is drawn in state.Phase): the tile choice, a round
of sealed answers (S2.3, S7.2) -> Edo is filled (S2.4) -> one figure per
prompt, clockwise from the start seat, cities first (S2.5) -> turns from the
start seat (S3): placements, EndTurn, captures (S4), the refill (S3.7) ->
... until a kind is gone, the fourth figure is set aside, or every seat
passed in a row (S5) -> scoring (S6).
"""

from __future__ import annotations

from ._shared import TABLE, DecisionKind, Rejected, Timer
from .commands import (
    ChooseTiles,
    Command,
    EndTurn,
    Pass,
    PlaceFigure,
    PlaceTile,
    SwapFigures,
    SwapTile,
    Timeout,
)
from .config import GameConfig
from .datafiles import TILES_PER_SEAT
from .decisions import Decision, Topic
from .events import (
    CapitalFilled,
    FigurePlaced,
    GameEnded,
    GameStarted,
    SelectionBegan,
    SelectionDone,
    TilesChosen,
    TilesDrawn,
    TurnBegan,
    TurnEnded,
    TurnPassed,
)
from .moves import (
    can_place,
    check_figure,
    check_place,
    do_place,
    figure_options,
    on_board,
    placements,
    resolve_captures,
)
from .pieces import FIGURES, HAND_SIZE, SET_ASIDE_LIMIT
from .scoring import score
from .state import GameState, Phase, Selection
from .streams import derive_streams

__all__ = ["apply", "is_over", "legal", "new_game", "pending"]


# -- setup (S2) ----------------------------------------------------------------------

def new_game(config: GameConfig) -> tuple[GameState, list]:
    """Set up a game (S2.1, S2.2) and open the tile choice (S2.3)."""
    rng = derive_streams(config.seed)
    n = config.seats
    first = config.first if config.first is not None else rng["start"].below(n)
    lay = config.layout
    state = GameState(config=config, rng=rng, layout=lay, tileset=config.tileset, n=n, first=first)
    state.hand = [[] for _ in range(n)]
    state.supply = [list(range(TILES_PER_SEAT)) for _ in range(n)]  # until the choice is final (S2.3)
    state.boxed = [[] for _ in range(n)]
    state.captured = [[0, 0, 0] for _ in range(n)]
    state.figure_supply = {f: lay.figures_per_kind for f in FIGURES}
    ev: list = [GameStarted(seats=n, first=first, board=lay.name, tile_set=config.tileset.name,
                            figures_per_kind=lay.figures_per_kind)]
    asked = [(first + i) % n for i in range(n)]
    state.selection = Selection(decision=_mint(state), asked=asked)
    ev.append(SelectionBegan(decision=state.selection.decision, asked=tuple(asked)))
    return state, ev


def _mint(state: GameState) -> int:
    """A fresh decision id: never reused, so a late answer is recognised."""
    did = state.next_decision
    state.next_decision += 1
    state.decision = did
    return did


def _run_selection(state: GameState, ev: list, by_table: set[int]) -> None:
    """S7.2: sealed choices become final as their seats become the pivot."""
    sel = state.selection
    assert sel is not None
    while sel.pos < len(sel.asked):
        seat = sel.asked[sel.pos]
        chosen = sel.sealed.pop(seat, None)
        if chosen is None:
            return
        state.hand[seat] = list(chosen)
        state.supply[seat] = [t for t in range(TILES_PER_SEAT) if t not in chosen]
        ev.append(TilesChosen(seat=seat, decision=sel.decision, tiles=chosen, by_table=seat in by_table))
        sel.pos += 1
    for seat in range(state.n):  # S2.3: the other 15 shuffled face down
        state.rng["supply"].shuffle(state.supply[seat])
    ev.append(SelectionDone(decision=sel.decision, supply_sizes=tuple(len(s) for s in state.supply)))
    state.selection = None
    capital = state.layout.capital
    assert capital is not None
    state.figures_at[capital] = list(FIGURES)  # S2.4
    for f in FIGURES:
        state.figure_supply[f] -= 1
    ev.append(CapitalFilled(hex=capital, figures=FIGURES))
    _open_figure(state, state.first)


def _open_figure(state: GameState, seat: int) -> None:
    state.phase = Phase.FIGURES
    state.prompt_seat = seat
    _mint(state)


def _place_figure(state: GameState, seat: int, cmd: PlaceFigure, ev: list, by_table: bool) -> None:
    check_figure(state, cmd)
    state.figures_at.setdefault(cmd.hex, []).append(cmd.figure)
    state.figure_supply[cmd.figure] -= 1
    ev.append(FigurePlaced(seat=seat, decision=cmd.decision, hex=cmd.hex, figure=cmd.figure, by_table=by_table))
    if any(state.figure_supply.values()):
        _open_figure(state, (seat + 1) % state.n)
    else:
        _begin_turn(state, state.first, ev)  # S2.6


# -- turns (S3) -----------------------------------------------------------------------

def _begin_turn(state: GameState, seat: int, ev: list) -> None:
    state.phase = Phase.TURNS
    state.prompt_seat = seat
    state.turn += 1
    state.placed = 0
    state.plain_used = False
    ev.append(TurnBegan(seat=seat, decision=_mint(state), turn=state.turn))


def _end_turn(state: GameState, seat: int, ev: list, by_table: bool) -> None:
    """S3.7: captures, the end check (S5), the refill, the next seat."""
    assert state.decision is not None
    ev.append(TurnEnded(seat=seat, decision=state.decision, by_table=by_table))
    state.passes = 0
    resolve_captures(state, ev)
    counts = on_board(state)
    if 0 in counts:
        _finish(state, ev, "last_figure")  # S5.1
        return
    if sum(state.set_aside) >= SET_ASIDE_LIMIT:
        _finish(state, ev, "set_aside")  # S5.2
        return
    supply, hand = state.supply[seat], state.hand[seat]
    drawn = [supply.pop() for _ in range(min(HAND_SIZE - len(hand), len(supply)))]
    if drawn:
        hand.extend(drawn)
        hand.sort()
        ev.append(TilesDrawn(seat=seat, tiles=tuple(sorted(drawn)), supply_left=len(supply)))
    _begin_turn(state, (seat + 1) % state.n, ev)


def _pass(state: GameState, seat: int, ev: list, by_table: bool) -> None:
    """S3.9, S5.4."""
    assert state.decision is not None
    ev.append(TurnPassed(seat=seat, decision=state.decision, by_table=by_table))
    state.passes += 1
    if state.passes >= state.n:
        _finish(state, ev, "no_moves")
        return
    _begin_turn(state, (seat + 1) % state.n, ev)


def _finish(state: GameState, ev: list, reason: str) -> None:
    """S5.5, S6: screens lifted, the game scored."""
    s = score(state.captured)
    state.phase = Phase.OVER
    state.prompt_seat = None
    state.decision = None
    state.result = GameEnded(
        reason=reason,
        captured=tuple((c[0], c[1], c[2]) for c in state.captured),
        set_aside=(state.set_aside[0], state.set_aside[1], state.set_aside[2]),
        majorities=s.majorities, contenders=s.contenders, others=s.others, totals=s.totals,
        ranks=s.ranks, winners=s.winners, hands=tuple(tuple(h) for h in state.hand),
    )
    ev.append(state.result)


# -- commands -------------------------------------------------------------------------

def _check_seat(state: GameState, seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise Rejected("seat/unknown", f"there is no seat {seat!r} at this table")
    return seat


def _check_decision(state: GameState, did: object) -> None:
    if not isinstance(did, int) or isinstance(did, bool):
        raise Rejected("command/invalid", "decision must be an integer id")
    if did == state.decision:
        return
    if 0 < did < state.next_decision:
        raise Rejected("decision/closed", f"decision {did} is already closed")
    raise Rejected("decision/unknown", f"there is no decision {did}")


def _check_prompt(state: GameState, seat: int, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        raise Rejected("decision/wrong_answer", f"decision {state.decision} is not answered by {what}")
    if seat != state.prompt_seat:
        raise Rejected("decision/not_yours", f"decision {state.decision} waits on seat {state.prompt_seat}")


def _check_choice(tiles: object) -> tuple[int, ...]:
    if not isinstance(tiles, (tuple, list)) or not all(isinstance(t, int) and not isinstance(t, bool) for t in tiles):
        raise Rejected("command/invalid", "tiles must be a list of tile indices")
    if len(tiles) != HAND_SIZE:
        raise Rejected("select/count", f"choose exactly {HAND_SIZE} tiles, not {len(tiles)} (S2.3)")
    if len(set(tiles)) != len(tiles):
        raise Rejected("select/duplicate", "choose 5 different tiles (S2.3)")
    if not all(0 <= t < TILES_PER_SEAT for t in tiles):
        raise Rejected("select/unknown_tile", f"tiles are numbered 0..{TILES_PER_SEAT - 1}")
    return tuple(sorted(tiles))


def _choose(state: GameState, seat: int, cmd: ChooseTiles, ev: list) -> None:
    sel = state.selection
    if state.phase is not Phase.SELECT or sel is None:
        raise Rejected("decision/wrong_answer", f"decision {state.decision} is not the tile choice")
    index = sel.asked.index(seat)
    if index < sel.pos:
        raise Rejected("decision/answered", "your tile choice is already final (S7.2)")
    sel.sealed[seat] = _check_choice(cmd.tiles)  # sealed until the seat is the pivot (S7.2)
    if index == sel.pos:
        _run_selection(state, ev, set())


def _timeout(state: GameState, seat: int, cmd: Timeout, ev: list) -> None:
    """The table's clock ran out: silence means what S7.1 / S7.2 say."""
    if seat != TABLE:
        raise Rejected("timeout/not_table", "only the table's clock sends timeouts")
    _check_decision(state, cmd.decision)
    silence = state.rng["silence"]
    if state.phase is Phase.SELECT:
        sel = state.selection
        assert sel is not None
        if cmd.pivot != sel.pivot or sel.pivot is None:
            raise Rejected("decision/closed", f"decision {cmd.decision} no longer waits on seat {cmd.pivot}")
        sel.sealed[sel.pivot] = tuple(sorted(silence.sample_indices(TILES_PER_SEAT, HAND_SIZE)))  # S2.3
        _run_selection(state, ev, {sel.pivot})
        return
    pivot = state.prompt_seat
    if cmd.pivot != pivot or pivot is None:
        raise Rejected("decision/closed", f"decision {cmd.decision} no longer waits on seat {cmd.pivot}")
    did = cmd.decision
    if state.phase is Phase.FIGURES:
        hex_id, fig = silence.choice(figure_options(state))
        _place_figure(state, pivot, PlaceFigure(decision=did, hex=hex_id, figure=fig), ev, True)
        return
    if state.placed == 0:
        options = placements(state, pivot, did)
        if not options:
            _pass(state, pivot, ev, True)
            return
        cmd_ = silence.choice(options)
        do_place(state, pivot, cmd_, check_place(state, pivot, cmd_), ev, True)
    _end_turn(state, pivot, ev, True)


def apply(state: GameState, seat: int, cmd: Command) -> list:
    """Apply one command from `seat` (or TABLE for a timeout); return the
    events, full detail. Raises `Rejected`, leaving the state untouched."""
    if state.phase is Phase.OVER:
        raise Rejected("game/over", "the game is over")
    ev: list = []
    match cmd:
        case Timeout():
            _timeout(state, seat, cmd, ev)
        case ChooseTiles():
            seat = _check_seat(state, seat)
            _check_decision(state, cmd.decision)
            _choose(state, seat, cmd, ev)
        case PlaceFigure():
            seat = _check_seat(state, seat)
            _check_decision(state, cmd.decision)
            _check_prompt(state, seat, Phase.FIGURES, "placing a figure")
            _place_figure(state, seat, cmd, ev, False)
        case PlaceTile() | SwapFigures() | SwapTile():
            seat = _check_seat(state, seat)
            _check_decision(state, cmd.decision)
            _check_prompt(state, seat, Phase.TURNS, "placing a tile")
            tile = check_place(state, seat, cmd)
            do_place(state, seat, cmd, tile, ev, False)
        case EndTurn():
            seat = _check_seat(state, seat)
            _check_decision(state, cmd.decision)
            _check_prompt(state, seat, Phase.TURNS, "ending a turn")
            if state.placed == 0:
                raise Rejected("turn/nothing_placed", "place at least one tile before ending the turn (S3.1)")
            _end_turn(state, seat, ev, False)
        case Pass():
            seat = _check_seat(state, seat)
            _check_decision(state, cmd.decision)
            _check_prompt(state, seat, Phase.TURNS, "passing")
            if state.placed:
                raise Rejected("turn/already_placed", "you placed a tile: end the turn instead (S3.7)")
            if can_place(state, seat):
                raise Rejected("turn/must_place", "a seat that can place a tile must place one (S3.1, S3.9)")
            _pass(state, seat, ev, False)
        case _:
            raise Rejected("command/unknown", f"unknown command {type(cmd).__name__}")
    return ev


def is_over(state: GameState) -> bool:
    return state.phase is Phase.OVER


# -- what is open, and what each seat may do ------------------------------------------

def pending(state: GameState) -> list[Decision]:
    """The open decision (at most one): who is waited on, who may answer
    early, which timer applies (S7.1, S7.2)."""
    did = state.decision
    if state.phase is Phase.OVER or did is None:
        return []
    if state.phase is Phase.SELECT:
        sel = state.selection
        assert sel is not None
        asked = tuple(sel.asked)
        return [Decision(id=did, kind=DecisionKind.ROUND, topic=Topic.SELECT, asked=asked, pivot=sel.pivot,
                         early=asked[sel.pos + 1:], timer=Timer.PROMPT)]
    seat = state.prompt_seat
    assert seat is not None
    topic = Topic.FIGURE if state.phase is Phase.FIGURES else Topic.TURN
    return [Decision(id=did, kind=DecisionKind.PROMPT, topic=topic, asked=(seat,), pivot=seat, early=(),
                     timer=Timer.PROMPT)]


def legal(state: GameState, seat: int) -> list[Command]:
    """Every command `seat` may send now, structured. The tile choice is a
    combination (C(20, 5) answers) and, like a deal proposal in Oriente, is
    not listed: its prompt describes it instead (views.decision_view)."""
    did = state.decision
    if did is None or seat != state.prompt_seat:
        return []
    if state.phase is Phase.FIGURES:
        return [PlaceFigure(decision=did, hex=h, figure=f) for h, f in figure_options(state)]
    out: list[Command] = list(placements(state, seat, did))
    if state.placed:
        out.append(EndTurn(decision=did))
    elif not out:
        out.append(Pass(decision=did))
    return out
