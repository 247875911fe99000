"""Bridges and control of the islands (O4).

One bridge is resolved in the order of O4.9: place it (a replaced bridge
leaves first), settle lost control everywhere it matters, take over the
connection's islands where the seat now holds more than half of the places
(removing every opponent's bridge there), and finally check the two
islands for a relative majority, which may need the seat's choice of a
bridge to remove (the engine then opens a prompt and comes back to
`run_queue`).
"""

from __future__ import annotations

from .events import BridgeRemoved, ControlGained, ControlLost
from .state import OroState

MARKERS = 11  # O1.5, O5.9: the eleventh island wins at once

# O7.3: Kane's points by the size of the island its stone lay on.
KANE_POINTS = {"small": 1, "large": 2, "main": 3}


class EarlyWin(Exception):
    """O5.9: raised once a seat's takeover of its eleventh island is complete."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


def absolute(state: OroState, seat: int, island: int) -> bool:
    """O4.1: more than half of the island's places."""
    return state.count[island][seat] * 2 > state.board.places[island]


def free_places(state: OroState, island: int) -> int:
    return state.board.places[island] - sum(state.count[island])


def _set(state: OroState, c: int, owner: int | None) -> None:
    """Put `owner`'s bridge on connection c (None: take it away), keeping counts."""
    old = state.bridges[c]
    a, b = state.board.ends[c]
    if old is not None:
        state.count[a][old] -= 1
        state.count[b][old] -= 1
    if owner is not None:
        state.count[a][owner] += 1
        state.count[b][owner] += 1
    state.bridges[c] = owner


def _losses(state: OroState, ev: list, islands: tuple[int, ...] | list[int]) -> None:
    """O4.3: a controller without more than half of the places loses control."""
    for i in islands:
        s = state.controller[i]
        if s is not None and not absolute(state, s, i):
            state.controller[i] = None
            state.controlled[s] -= 1
            ev.append(ControlLost(seat=s, island=i))


def _take_over(state: OroState, ev: list, seat: int, island: int) -> None:
    """O4.1, O4.2, O7.2, O7.3: the marker, the stone, and every opponent's
    bridge on the island's connections removed (then O4.3 at their far ends)."""
    board = state.board
    state.controller[island] = seat
    state.controlled[seat] += 1
    removed: list[tuple[int, int]] = []
    far: list[int] = []
    for c in board.incident[island]:
        owner = state.bridges[c]
        if owner is not None and owner != seat:
            removed.append((c, owner))
            _set(state, c, None)
            far.append(board.other(c, island))
    stone = state.stones[island]
    kane = 0
    if stone is not None:
        state.stones[island] = None
        if stone == "kane":
            kane = KANE_POINTS[board.sizes[island]]
            state.scores[seat] += kane
            state.used.append(stone)
        else:
            state.held[seat][stone] += 1
    ev.append(ControlGained(seat=seat, island=island, removed=tuple(removed), stone=stone, kane=kane))
    _losses(state, ev, far)


def place(state: OroState, ev: list, seat: int, c: int) -> None:
    """Steps 1-3 of O4.9 for the seat's new bridge on connection c (its
    event is already out); queues step 4. Raises EarlyWin (O5.9)."""
    ends = state.board.ends[c]
    _set(state, c, seat)
    _losses(state, ev, ends)
    for i in ends:
        if state.controller[i] != seat and absolute(state, seat, i):
            _take_over(state, ev, seat, i)
    if state.controlled[seat] >= MARKERS:  # after both takeovers: control stays absolute majority
        raise EarlyWin(seat)
    state.queue = list(ends)


def relative_options(state: OroState, seat: int, island: int) -> list[int]:
    """O4.5-O4.7: the connections whose bridge a relative majority at
    `island` may remove: none on a small island, none unless the island is
    full and the seat has the most bridges without more than half; every
    opponent's bridge when
    the seat has the most alone; the single bridge of the seat that has
    only one when the most is shared."""
    if state.board.sizes[island] == "small":  # O4.7
        return []
    if free_places(state, island) or absolute(state, seat, island):
        return []
    counts = state.count[island]
    top = max(counts)
    if counts[seat] < top:
        return []
    shared = any(k == top for s, k in enumerate(counts) if s != seat)
    out = []
    for c in state.board.incident[island]:
        owner = state.bridges[c]
        if owner is None or owner == seat:
            continue
        if not shared or counts[owner] == 1:
            out.append(c)
    return out


def remove(state: OroState, ev: list, seat: int, island: int, c: int) -> None:
    """O4.5: take away the bridge on c, then O4.3 at both its islands."""
    owner = state.bridges[c]
    assert owner is not None and owner != seat
    _set(state, c, None)
    ev.append(BridgeRemoved(seat=seat, island=island, connection=c, owner=owner))
    _losses(state, ev, state.board.ends[c])


def run_queue(state: OroState, ev: list, seat: int) -> list[int] | None:
    """Step 4 of O4.9: check the queued islands in order. Returns the
    options of the first relative majority that needs the seat's choice
    (that island stays first in the queue), or None when all are settled."""
    while state.queue:
        island = state.queue[0]
        options = relative_options(state, seat, island)
        if len(options) > 1:
            return options
        state.queue.pop(0)
        if options:
            remove(state, ev, seat, island, options[0])
    return None
