"""The plays of a turn (O3) and the god stones (O7): each command has a
`check_*` that raises `Rejected` without touching the state and a `do_*`
that carries it out. The engine calls one after the other, so a refused
command changes nothing.
"""

from __future__ import annotations

from collections import Counter

from . import knowledge as K
from .commands import (
    Build,
    Discard,
    Draw,
    EndTurn,
    GiveBack,
    Replace,
    Take,
    UseKu,
    UseLono,
    UsePele,
)
from .errors import Rejected
from .events import (
    Built,
    Discarded,
    Drew,
    KuLooked,
    KuTook,
    LonoUsed,
    PeleGave,
    PeleTook,
    Replaced,
)
from .majority import place
from .state import OroState

HAND_LIMIT = 5  # O3.5


# -- limits (O3.4, O3.5, O7.4, O7.9) ----------------------------------------------

def can_draw_any(state: OroState) -> bool:
    """Whether a card is left to draw (never in the final round, O5.6)."""
    return not state.final and bool(state.deck or state.display)


def draw_limit(state: OroState) -> int:
    """O3.5, O7.9: the most cards a hand may hold when its turn ends: four
    before a draw (five after it), five when nothing is left to draw."""
    return HAND_LIMIT - 1 if can_draw_any(state) else HAND_LIMIT


def revised(state: OroState) -> bool:
    """Whether the game plays rules revision 2 (O10.1), the rulebook's own
    words for the face-down discard and the god stones (O3.4, O7.4, O7.9)."""
    return state.config.rules_revision >= 2


def over_limit(state: OroState, seat: int) -> bool:
    """O3.5, O7.9: the hand holds more than its turn may end with."""
    return len(state.hands[seat]) > draw_limit(state)


def plays_allowed(state: OroState, seat: int) -> bool:
    """O3.4: after a face-down discard the seat plays no more cards this
    turn; at revision 2 unless its hand is over the limit, which it must
    play down to (O7.9)."""
    return not state.discarded or (revised(state) and over_limit(state, seat))


def card_play_open(state: OroState, seat: int) -> bool:
    """O3.4, O7.9 (revision 2): whether some card of the hand can be played
    now, by a build (O3.2) or a replacement (O3.3, with Kanaloa for the
    second card, O7.5); the face-down discard of O3.4 aside."""
    hand = Counter(state.hands[seat])
    kanaloa = state.held[seat]["kanaloa"] if gods_usable(state) else 0
    bridges, ends = state.bridges, state.board.ends
    for island in hand:
        for c in state.board.incident[island]:
            owner = bridges[c]
            if owner is None:
                return True
            if owner != seat and (sum(hand[i] for i in set(ends[c])) >= 2 or kanaloa):
                return True
    return False


def can_discard(state: OroState, seat: int) -> bool:
    """O3.4: once in a turn without played cards, and while over the limit:
    at revision 2 over the limit only when no card can be played (O7.9)."""
    hand = state.hands[seat]
    if not hand:
        return False
    if revised(state) and over_limit(state, seat):
        return not card_play_open(state, seat)
    return (state.cards_played == 0 and not state.discarded) or over_limit(state, seat)


def gods_usable(state: OroState) -> bool:
    """O7.4, O7.10: in the second half, not in the final round; at revision
    1 not after a face-down discard either (O3.4), at revision 2 at any
    time of the seat's own turn."""
    return state.gods and state.half == 2 and (revised(state) or not state.discarded)


# -- shared checks -----------------------------------------------------------------

def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_island(state: OroState, island: object, field: str = "island") -> int:
    """An island index of this board, or `command/invalid`."""
    if not _is_int(island) or not 0 <= island < state.board.islands:  # type: ignore[operator]
        raise Rejected("command/invalid", f"{field} must be an island index 0..{state.board.islands - 1}")
    return island  # type: ignore[return-value]


def check_connection(state: OroState, c: object) -> int:
    """A connection index of this board, or `command/invalid`."""
    if not _is_int(c) or not 0 <= c < state.board.connections:  # type: ignore[operator]
        raise Rejected("command/invalid", f"connection must be an index 0..{state.board.connections - 1}")
    return c  # type: ignore[return-value]


def _in_hand(state: OroState, seat: int, cards: Counter[int]) -> None:
    have = Counter(state.hands[seat])
    for island, k in cards.items():
        if have[island] < k:
            name = state.board.names[island]
            raise Rejected("card/not_in_hand", f"you do not hold {k} card(s) of {name}")


def _plays_allowed(state: OroState, seat: int) -> None:
    if not plays_allowed(state, seat):
        raise Rejected("turn/discarded", "after a face-down discard you play no more cards this turn (O3.4)")


def _god(state: OroState, seat: int, kind: str, k: int = 1) -> None:
    if not state.gods:
        raise Rejected("god/no_variant", "god stones are part of the gods variant only (O7)")
    if state.half != 2:
        raise Rejected("god/not_now", "god stones are used in the second half, not in the final round (O7.4)")
    if state.discarded and not revised(state):
        raise Rejected("turn/discarded", "after a face-down discard you use no god stones this turn "
                                         "(O3.4, rules revision 1)")
    if state.held[seat][kind] < k:
        raise Rejected("god/not_held", f"you do not hold {k} {kind} stone(s)")


def _use_stone(state: OroState, seat: int, kind: str, k: int = 1) -> None:
    state.held[seat][kind] -= k
    state.used.extend([kind] * k)


def _play_card(state: OroState, seat: int, island: int) -> None:
    """A card played face up onto the discard pile (O3.1): public."""
    state.hands[seat].remove(island)
    state.played.append(island)
    K.lose(state, seat, island, K.everyone(state))


# -- build and replace (O3.2, O3.3, O7.5) ------------------------------------------------

def check_build(state: OroState, seat: int, cmd: Build) -> None:
    if not (cmd.kanaloa is True and revised(state)):  # O7.4: a stone, not a card, at revision 2
        _plays_allowed(state, seat)
    c = check_connection(state, cmd.connection)
    if state.bridges[c] is not None:
        raise Rejected("build/occupied", "that connection already holds a bridge: replace it with two cards (O3.3)")
    if not isinstance(cmd.kanaloa, bool):
        raise Rejected("command/invalid", "kanaloa is true or false")
    if cmd.kanaloa:
        if cmd.island is not None:
            raise Rejected("command/invalid", "a Kanaloa build names no island (O7.5)")
        _god(state, seat, "kanaloa")
        return
    island = check_island(state, cmd.island)
    if island not in state.board.ends[c]:
        raise Rejected("build/wrong_island", f"a card of {state.board.names[island]} builds only on that island's "
                                              "connections (O3.2)")
    _in_hand(state, seat, Counter({island: 1}))


def do_build(state: OroState, ev: list, seat: int, cmd: Build) -> None:
    if cmd.kanaloa:
        _use_stone(state, seat, "kanaloa")
    else:
        assert cmd.island is not None
        _play_card(state, seat, cmd.island)
    state.cards_played += 1
    state.acted = True
    ev.append(Built(seat=seat, connection=cmd.connection, island=cmd.island, kanaloa=cmd.kanaloa))
    place(state, ev, seat, cmd.connection)


def check_replace(state: OroState, seat: int, cmd: Replace) -> None:
    if not (cmd.islands == () and revised(state)):  # O7.4: two Kanaloa stones, no card, at revision 2
        _plays_allowed(state, seat)
    c = check_connection(state, cmd.connection)
    owner = state.bridges[c]
    if owner is None:
        raise Rejected("replace/no_bridge", "that connection is free: build on it with one card (O3.2)")
    if owner == seat:
        raise Rejected("replace/own_bridge", "only an opponent's bridge can be replaced (O3.3)")
    k = cmd.kanaloa
    if not _is_int(k) or not isinstance(cmd.islands, tuple):
        raise Rejected("command/invalid", "islands is a list of island indices, kanaloa a count")
    islands = [check_island(state, i, "islands") for i in cmd.islands]
    if k < 0 or len(islands) + k != 2:
        raise Rejected("replace/two_cards", "a replacement plays exactly two cards (O3.3)")
    ends = state.board.ends[c]
    for i in islands:
        if i not in ends:
            raise Rejected("replace/wrong_island", f"a card of {state.board.names[i]} does not match that "
                                                   "connection (O3.3)")
    _in_hand(state, seat, Counter(islands))
    if k:
        _god(state, seat, "kanaloa", k)


def do_replace(state: OroState, ev: list, seat: int, cmd: Replace) -> None:
    owner = state.bridges[cmd.connection]
    assert owner is not None
    for i in cmd.islands:
        _play_card(state, seat, i)
    if cmd.kanaloa:
        _use_stone(state, seat, "kanaloa", cmd.kanaloa)
    state.cards_played += 2
    state.acted = True
    ev.append(Replaced(seat=seat, connection=cmd.connection, owner=owner, islands=cmd.islands,
                       kanaloa=cmd.kanaloa))
    place(state, ev, seat, cmd.connection)


# -- discard, draw, end (O3.4-O3.7) --------------------------------------------------

def check_discard(state: OroState, seat: int, cmd: Discard) -> None:
    island = check_island(state, cmd.island)
    _in_hand(state, seat, Counter({island: 1}))
    if not can_discard(state, seat):
        if revised(state) and over_limit(state, seat):
            raise Rejected("discard/not_allowed", "your hand is over the limit: play cards down to it; only when "
                                                  "no card can be played may you discard face down (O7.9)")
        raise Rejected("discard/not_allowed", "a face-down discard is for a turn without played cards, or while "
                                              "your hand is over the limit (O3.4)")


def do_discard(state: OroState, ev: list, seat: int, island: int) -> None:
    state.hands[seat].remove(island)
    state.hidden.append((seat, island))
    K.lose(state, seat, island, K.only(seat))
    state.discarded = True
    state.acted = True
    ev.append(Discarded(seat=seat, island=island))


def check_source(state: OroState, island: object) -> None:
    """A card to draw: the display's card of `island`, or the deck's top."""
    if island is None:
        if not state.deck:
            raise Rejected("draw/deck_empty", "the deck is empty: draw from the display (O3.6)")
        return
    i = check_island(state, island)
    if i not in state.display:
        raise Rejected("draw/not_in_display", f"no card of {state.board.names[i]} lies in the display")


def check_draw(state: OroState, seat: int, cmd: Draw) -> None:
    if state.final:
        raise Rejected("draw/final_round", "nothing is drawn in the final round: end your turn (O5.6)")
    hand = len(state.hands[seat])
    if hand > HAND_LIMIT - 1:
        raise Rejected("draw/hand_full", f"you hold {hand} cards: play or discard down to 4 before drawing (O3.5)")
    check_source(state, cmd.island)


def take_card(state: OroState, ev: list, seat: int, island: int | None, *, lono: bool) -> None:
    """O3.6, O7.8: a display card (public; the deck's top replaces it at
    once) or the deck's top card (its drawer's alone)."""
    refill = None
    if island is None:
        card = state.deck.pop()
        K.gain(state, seat, card, K.only(seat))
        from_display = False
    else:
        card = island
        state.display.remove(card)
        if state.deck:
            refill = state.deck.pop()
            state.display.append(refill)
        K.gain(state, seat, card, K.everyone(state))
        from_display = True
    state.hands[seat].append(card)
    ev.append(Drew(seat=seat, island=card, from_display=from_display, refill=refill,
                   deck_size=len(state.deck), lono=lono))


def check_end(state: OroState, seat: int, cmd: EndTurn) -> None:
    if can_draw_any(state):
        raise Rejected("end/must_draw", "a turn ends by drawing a card while any is left (O3.6)")
    hand = len(state.hands[seat])
    if hand > HAND_LIMIT:
        raise Rejected("end/hand_full", f"you hold {hand} cards: play or discard down to 5 first (O7.9)")


# -- god stones (O7.6-O7.8) ---------------------------------------------------------------

def check_ku(state: OroState, seat: int, cmd: UseKu) -> None:
    _god(state, seat, "ku")
    t = cmd.target
    if not _is_int(t) or not 0 <= t < state.n or t == seat:
        raise Rejected("ku/bad_target", "Ku names another seat (O7.6)")
    if not state.hands[t]:
        raise Rejected("ku/empty_hand", "that seat holds no card (O7.6)")


def do_ku(state: OroState, ev: list, seat: int, target: int) -> None:
    _use_stone(state, seat, "ku")
    state.acted = True
    K.show_hand(state, target, seat)
    state.ku_target = target
    ev.append(KuLooked(seat=seat, target=target, hand=tuple(sorted(state.hands[target]))))


def _move(state: OroState, giver: int, taker: int, island: int) -> None:
    """A card passes between two hands in front of those two seats only."""
    witnesses = K.only(giver, taker)
    state.hands[giver].remove(island)
    K.lose(state, giver, island, witnesses)
    state.hands[taker].append(island)
    K.gain(state, taker, island, witnesses)


def check_take(state: OroState, seat: int, cmd: Take) -> None:
    target = state.ku_target
    assert target is not None
    island = check_island(state, cmd.island)
    if island not in state.hands[target]:
        raise Rejected("ku/not_in_hand", f"seat {target} holds no card of {state.board.names[island]}")


def do_take(state: OroState, ev: list, seat: int, island: int) -> None:
    target = state.ku_target
    assert target is not None
    _move(state, target, seat, island)
    state.ku_target = None
    ev.append(KuTook(seat=seat, target=target, island=island))


def check_pele(state: OroState, seat: int, cmd: UsePele) -> None:
    _god(state, seat, "pele")
    if not any(state.hands[s] for s in range(state.n) if s != seat):
        raise Rejected("pele/no_cards", "no other seat holds a card (O7.7)")


def do_pele(state: OroState, ev: list, seat: int) -> None:
    """O7.7: one card at random from each opponent that holds any, in seat
    order from the user's left; the gives-back follow in the same order."""
    _use_stone(state, seat, "pele")
    state.acted = True
    taken: list[tuple[int, int]] = []
    rng = state.rng["pele"]
    for k in range(1, state.n):
        o = (seat + k) % state.n
        hand = state.hands[o]
        if hand:
            island = hand[rng.below(len(hand))]
            _move(state, o, seat, island)
            taken.append((o, island))
    state.pele_queue = [o for o, _ in taken]
    ev.append(PeleTook(seat=seat, taken=tuple(taken)))


def check_give_back(state: OroState, seat: int, cmd: GiveBack) -> None:
    island = check_island(state, cmd.island)
    _in_hand(state, seat, Counter({island: 1}))


def do_give_back(state: OroState, ev: list, seat: int, island: int) -> None:
    to = state.pele_queue.pop(0)
    _move(state, seat, to, island)
    ev.append(PeleGave(seat=seat, to=to, island=island))


def check_lono(state: OroState, seat: int, cmd: UseLono) -> None:
    _god(state, seat, "lono")
    check_source(state, cmd.island)


def do_lono(state: OroState, ev: list, seat: int, island: int | None) -> None:
    _use_stone(state, seat, "lono")
    state.acted = True
    ev.append(LonoUsed(seat=seat))
    take_card(state, ev, seat, island, lono=True)
