"""Oro's rules engine: new_game, apply, pending, is_over, result.

A pure state machine: no clock, no I/O, randomness from the state's own
streams; the same config and the same ordered commands give the same
events. The flow, in docs/rules-oro.md terms: the deal and the setup round
(O2) -> turns (O3: plays, relative-majority choices O4.5, god stones O7)
-> the first half ends with the last card, the first scoring and the
reshuffle (O5.1-O5.3) -> the second half -> the final round (O5.4, O5.5)
-> the final scoring (O5.7); an eleventh island ends it at once (O5.9).
"""

from __future__ import annotations

from ...kit.plain import plain
from . import knowledge as K
from . import turn as T
from .commands import (
    SEAT_COMMANDS,
    TABLE,
    Build,
    Command,
    Discard,
    Draw,
    EndTurn,
    GiveBack,
    GiveUp,
    Pass,
    Remove,
    Replace,
    Take,
    Timeout,
    UseKu,
    UseLono,
    UsePele,
)
from .config import OroConfig
from .decisions import Decision, DecisionKind, Timer, Topic
from .errors import Rejected
from .events import (
    DisplayOpened,
    FinalRoundBegan,
    GameStarted,
    GaveUp,
    Passed,
    Reshuffled,
    TurnBegan,
    TurnEnded,
)
from .majority import EarlyWin, remove, run_queue
from .rng import derive_streams
from .scoring import end_game, score
from .state import OroState, Phase

__all__ = ["apply", "is_over", "new_game", "pending", "result"]

DISPLAY = 4  # O2.3, O3.6: the open display holds four cards
HAND = 4  # O2.1: cards dealt to each seat


# -- setup (O2) ---------------------------------------------------------------------

def new_game(config: OroConfig) -> tuple[OroState, list]:
    """Deal (O2.1), place the god stones (O2.5) and open the setup round (O2.2)."""
    state = OroState(config, derive_streams(config.seed))
    board, tiles, n = state.board, config.the_tiles, state.n
    if config.deck is not None:
        top_first = list(config.deck)
    else:
        top_first = [i for i in range(board.islands) for _ in range(tiles.cards_per_island)]
        state.rng["deck"].shuffle(top_first)
    state.deck = top_first[::-1]
    for s in range(n):  # O2.1: four cards to each seat, seat 0 first
        state.hands[s] = [state.deck.pop() for _ in range(HAND)]
    first = config.first_seat if config.first_seat is not None else state.rng["first"].below(n)  # O2.4
    state.first_seat = first
    if config.gods:  # O2.5
        if config.stones is not None:
            stones = list(config.stones)
        else:
            stones = tiles.stone_list()
            state.rng["stones"].shuffle(stones)
        state.stones = list(stones)
    ev: list = [GameStarted(
        seats=n, gods=config.gods, board=board.name, first_seat=first,
        hands=tuple(tuple(h) for h in state.hands), deck_size=len(state.deck), stones=tuple(state.stones),
    )]
    state.asked = [(first + k) % n for k in range(n)]
    _open(state, Phase.GIVE_UP, Topic.GIVE_UP)
    return state, ev


def _open(state: OroState, phase: Phase, topic: Topic) -> None:
    """A new decision; ids are never reused, so a late answer is recognised."""
    state.decision = state.next_decision
    state.next_decision += 1
    state.phase = phase
    state.topic = topic


def _run_give_up(state: OroState, ev: list) -> None:
    """O8.2: sealed choices become final as their seats become the pivot;
    once all are final they are revealed together (O2.2)."""
    while state.pos < len(state.asked):
        seat = state.asked[state.pos]
        island = state.sealed.pop(seat, None)
        if island is None:
            return
        state.given[seat] = island
        state.pos += 1
        ev.append(GaveUp(seat=seat, decision=state.decision, island=island))
    given = []
    for seat in state.asked:
        island = state.given[seat]
        state.hands[seat].remove(island)
        K.lose(state, seat, island, K.everyone(state))
        state.display.append(island)
        given.append((seat, island))
    filled = []
    while len(state.display) < DISPLAY and state.deck:  # O2.3
        card = state.deck.pop()
        state.display.append(card)
        filled.append(card)
    ev.append(DisplayOpened(given=tuple(given), filled=tuple(filled), display=tuple(state.display),
                            deck_size=len(state.deck)))
    _begin_turn(state, ev, state.first_seat)


# -- turns, halves and the final round (O3, O5) ------------------------------------------

def _turn_phase(state: OroState) -> tuple[Phase, Topic]:
    return (Phase.FINAL, Topic.FINAL_TURN) if state.final else (Phase.TURN, Topic.TURN)


def _begin_turn(state: OroState, ev: list, seat: int) -> None:
    state.active = seat
    state.cards_played = 0
    state.discarded = False
    state.acted = False
    state.queue = []
    state.turns += 1
    ev.append(TurnBegan(seat=seat, half=state.half))
    _open(state, *_turn_phase(state))


def _resume_turn(state: OroState) -> None:
    """Back to the turn after a choice (O8.3): a new decision id."""
    _open(state, *_turn_phase(state))


def _end_turn(state: OroState, ev: list) -> None:
    seat = state.active
    if state.final and T.revised(state):  # O5.6: the story tells a final turn by what it was
        ev.append(TurnEnded(seat=seat, final=True, played=state.cards_played))
    else:
        ev.append(TurnEnded(seat=seat))
    if state.final:
        state.owed[seat] = False
        state.final_order.append(seat)
        _next_final(state, ev, seat)
        return
    if not state.deck and not state.display:
        if state.half == 1:  # O5.1-O5.3
            score(state, ev, final=False)
            _reshuffle(state, ev)
            state.half = 2
            if state.deck or state.display:
                _begin_turn(state, ev, (seat + 1) % state.n)
                return
        _begin_final(state, ev, seat)  # O5.4
        return
    _begin_turn(state, ev, (seat + 1) % state.n)


def _reshuffle(state: OroState, ev: list) -> None:
    """O5.3: the whole discard pile, face up and face down, is the new deck."""
    deck = state.played + [c for _, c in state.hidden]
    state.played, state.hidden = [], []
    state.rng["reshuffle"].shuffle(deck)
    state.deck = deck
    while len(state.display) < DISPLAY and state.deck:
        state.display.append(state.deck.pop())
    ev.append(Reshuffled(deck_size=len(state.deck), display=tuple(state.display)))


def _begin_final(state: OroState, ev: list, last: int) -> None:
    state.half = 3
    state.owed = [True] * state.n
    ev.append(FinalRoundBegan(scores=tuple(state.scores)))
    _next_final(state, ev, last)


def _next_final(state: OroState, ev: list, after: int) -> None:
    """O5.5: the next seat in order that still owes its final turn (the same
    seat again if it is the last); when none is left, the final scoring."""
    n = state.n
    for k in range(1, n + 1):
        s = (after + k) % n
        if state.owed[s]:
            _begin_turn(state, ev, s)
            return
    score(state, ev, final=True)
    end_game(state, ev, "scoring")


def may_pass(state: OroState, seat: int) -> bool:
    """O5.5: in the final round, before doing anything, while a seat with
    strictly more points has not made its final turn."""
    if not state.final or state.acted:
        return False
    mine = state.scores[seat]
    return any(state.owed[s] and state.scores[s] > mine for s in range(state.n) if s != seat)


def _after_bridge(state: OroState, ev: list) -> None:
    """O4.9 step 4: a relative majority with a choice opens a prompt."""
    options = run_queue(state, ev, state.active)
    if options is not None:
        state.remove_options = options
        _open(state, Phase.REMOVE, Topic.REMOVE)
    elif state.phase is Phase.REMOVE:
        _resume_turn(state)


# -- commands ---------------------------------------------------------------------------

def _check_seat(state: OroState, seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise Rejected("seat/unknown", f"there is no seat {seat!r} at this table")
    return seat


def _check_decision(state: OroState, did: object) -> None:
    if not isinstance(did, int) or isinstance(did, bool):
        raise Rejected("command/invalid", "decision must be an integer id")
    if did == state.decision:
        return
    if 0 < did < state.next_decision:
        raise Rejected("decision/closed", f"decision {did} is already closed")
    raise Rejected("decision/unknown", f"there is no decision {did}")


# What answers each decision. A turn's commands are the same in the final
# round, so that a draw or a god stone there is refused with its own reason.
_TURN = (Build, Replace, Discard, Draw, EndTurn, Pass, UseKu, UsePele, UseLono)
_ANSWERS: dict[Phase, tuple[type, ...]] = {
    Phase.TURN: _TURN,
    Phase.FINAL: _TURN,
    Phase.REMOVE: (Remove,),
    Phase.KU: (Take,),
    Phase.PELE: (GiveBack,),
}


def _give_up(state: OroState, seat: int, cmd: GiveUp, ev: list) -> None:
    if seat not in state.asked[state.pos:]:
        raise Rejected("decision/answered", "your card for the display is already final (O8.2)")
    island = T.check_island(state, cmd.island)
    if island not in state.hands[seat]:
        raise Rejected("card/not_in_hand", f"you hold no card of {state.board.names[island]}")
    state.sealed[seat] = island  # sealed until the seat is the pivot (O8.2)
    if seat == state.asked[state.pos]:
        _run_give_up(state, ev)


def _answer(state: OroState, seat: int, cmd: Command, ev: list) -> None:
    """Every seat command: checked completely, then carried out."""
    _check_decision(state, cmd.decision)
    if state.phase is Phase.GIVE_UP:
        if not isinstance(cmd, GiveUp):
            raise Rejected("decision/wrong_answer", "now every seat gives up one card to the display (O2.2)")
        _give_up(state, seat, cmd, ev)
        return
    if seat != state.active:
        raise Rejected("decision/not_yours", f"decision {state.decision} waits on seat {state.active}")
    if not isinstance(cmd, _ANSWERS[state.phase]):
        raise Rejected("decision/wrong_answer", f"{type(cmd).__name__} does not answer the open "
                                                f"{state.phase.value} decision ({_RULE_HINT[state.phase]})")
    match cmd:
        case Build():
            T.check_build(state, seat, cmd)
            T.do_build(state, ev, seat, cmd)
            _after_bridge(state, ev)
        case Replace():
            T.check_replace(state, seat, cmd)
            T.do_replace(state, ev, seat, cmd)
            _after_bridge(state, ev)
        case Discard():
            T.check_discard(state, seat, cmd)
            T.do_discard(state, ev, seat, cmd.island)
        case Draw():
            T.check_draw(state, seat, cmd)
            T.take_card(state, ev, seat, cmd.island, lono=False)
            _end_turn(state, ev)
        case EndTurn():
            T.check_end(state, seat, cmd)
            _end_turn(state, ev)
        case Pass():
            if not may_pass(state, seat):
                raise Rejected("pass/not_allowed", "you may pass only before doing anything in your final turn, "
                                                   "while a seat with more points still owes its own (O5.5)")
            ev.append(Passed(seat=seat))
            _next_final(state, ev, seat)
        case Remove():
            if T.check_connection(state, cmd.connection) not in state.remove_options:
                raise Rejected("remove/not_an_option", "that bridge is not one the relative majority may remove "
                                                       "(O4.5, O4.6)")
            _remove(state, ev, cmd.connection)
        case UseKu():
            T.check_ku(state, seat, cmd)
            T.do_ku(state, ev, seat, cmd.target)
            _open(state, Phase.KU, Topic.KU)
        case Take():
            T.check_take(state, seat, cmd)
            T.do_take(state, ev, seat, cmd.island)
            _resume_turn(state)
        case UsePele():
            T.check_pele(state, seat, cmd)
            T.do_pele(state, ev, seat)
            _open(state, Phase.PELE, Topic.PELE)
        case GiveBack():
            T.check_give_back(state, seat, cmd)
            T.do_give_back(state, ev, seat, cmd.island)
            if state.pele_queue:
                _open(state, Phase.PELE, Topic.PELE)
            else:
                _resume_turn(state)
        case UseLono():
            T.check_lono(state, seat, cmd)
            T.do_lono(state, ev, seat, cmd.island)
        case _:
            raise Rejected("command/unknown", f"unknown command {type(cmd).__name__}")


_RULE_HINT = {
    Phase.TURN: "O3.1", Phase.FINAL: "O5.5", Phase.REMOVE: "O4.5", Phase.KU: "O7.6", Phase.PELE: "O7.7",
}


def _remove(state: OroState, ev: list, c: int) -> None:
    island = state.queue.pop(0)
    state.remove_options = []
    remove(state, ev, state.active, island, c)
    _after_bridge(state, ev)


def _timeout(state: OroState, seat: int, cmd: Timeout, ev: list) -> None:
    """The table's clock ran out: silence means what O8.4 says."""
    if seat != TABLE:
        raise Rejected("timeout/not_table", "only the table's clock sends timeouts")
    _check_decision(state, cmd.decision)
    silence = state.rng["silence"]
    if state.phase is Phase.GIVE_UP:
        pivot = state.asked[state.pos]
        if cmd.pivot != pivot:
            raise Rejected("decision/closed", f"decision {cmd.decision} no longer waits on seat {cmd.pivot}")
        hand = state.hands[pivot]
        state.sealed[pivot] = hand[silence.below(len(hand))]
        _run_give_up(state, ev)
        return
    if cmd.pivot != state.active:
        raise Rejected("decision/closed", f"decision {cmd.decision} no longer waits on seat {cmd.pivot}")
    seat = state.active
    hand = state.hands[seat]
    match state.phase:
        case Phase.TURN | Phase.FINAL:
            while len(hand) > T.draw_limit(state):
                T.do_discard(state, ev, seat, hand[silence.below(len(hand))])
            if T.can_draw_any(state):
                source = None if state.deck else state.display[0]
                T.take_card(state, ev, seat, source, lono=False)
            _end_turn(state, ev)
        case Phase.REMOVE:
            _remove(state, ev, state.remove_options[silence.below(len(state.remove_options))])
        case Phase.KU:
            target = state.ku_target
            assert target is not None
            other = state.hands[target]
            T.do_take(state, ev, seat, other[silence.below(len(other))])
            _resume_turn(state)
        case Phase.PELE:
            T.do_give_back(state, ev, seat, hand[silence.below(len(hand))])
            if state.pele_queue:
                _open(state, Phase.PELE, Topic.PELE)
            else:
                _resume_turn(state)


def apply(state: OroState, seat: int, cmd: Command) -> list:
    """Apply one command from `seat` (or TABLE for a timeout); return the
    events, full detail. Raises `Rejected`, leaving the state untouched."""
    if state.phase is Phase.OVER:
        raise Rejected("game/over", "the game is over")
    ev: list = []
    try:
        if isinstance(cmd, Timeout):
            _timeout(state, seat, cmd, ev)
        elif isinstance(cmd, SEAT_COMMANDS):
            _answer(state, _check_seat(state, seat), cmd, ev)
        else:
            raise Rejected("command/unknown", f"unknown command {type(cmd).__name__}")
    except EarlyWin as win:  # O5.9
        end_game(state, ev, "eleven", win.seat)
    return ev


def is_over(state: OroState) -> bool:
    return state.phase is Phase.OVER


def result(state: OroState) -> dict | None:
    """The finished game's result as plain data (ranks, scores, reason)."""
    return plain(state.result) if state.result is not None else None


# -- what is open -------------------------------------------------------------------------

def pending(state: OroState) -> list[Decision]:
    """The open decision (at most one): who is waited on, who may answer
    early (the setup round only, O8.2), which timer applies."""
    if state.phase is Phase.OVER or state.topic is None:
        return []
    if state.phase is Phase.GIVE_UP:
        asked = tuple(state.asked)
        return [Decision(id=state.decision, kind=DecisionKind.ROUND, topic=Topic.GIVE_UP, asked=asked,
                         pivot=asked[state.pos], early=asked[state.pos + 1:], timer=Timer.PROMPT)]
    seat = state.active
    return [Decision(id=state.decision, kind=DecisionKind.PROMPT, topic=state.topic, asked=(seat,),
                     pivot=seat, early=(), timer=Timer.PROMPT)]
