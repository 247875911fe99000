"""The two scorings, the end and the ranking (O5.2, O5.7-O5.9)."""

from __future__ import annotations

from collections.abc import Sequence

from .events import GameEnded, Scored
from .state import OroState, Phase


def island_points(state: OroState, island: int, final: bool) -> tuple[int, int] | None:
    """O5.2/O5.7: (controller, points) for a controlled island: each place
    the controller does not occupy is a point, plus one in the final scoring."""
    seat = state.controller[island]
    if seat is None:
        return None
    points = state.board.places[island] - state.count[island][seat]
    return seat, points + (1 if final else 0)


def score(state: OroState, ev: list, final: bool) -> None:
    """A scoring: every seat scores every island it controls."""
    points = [0] * state.n
    islands: list[tuple[int, int, int]] = []
    for i in range(state.board.islands):
        got = island_points(state, i, final)
        if got is not None:
            seat, p = got
            points[seat] += p
            islands.append((i, seat, p))
            state.scores[seat] += p
    ev.append(Scored(final=final, islands=tuple(islands), points=tuple(points), scores=tuple(state.scores)))


def competition_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """1-based ranks, higher key first; equal keys share a rank and the
    next rank skips (1, 1, 3)."""
    order = sorted(range(len(keys)), key=lambda s: keys[s], reverse=True)
    ranks = [0] * len(keys)
    for pos, s in enumerate(order):
        if pos and keys[order[pos - 1]] == keys[s]:
            ranks[s] = ranks[order[pos - 1]]
        else:
            ranks[s] = pos + 1
    return ranks


def end_game(state: OroState, ev: list, reason: str, winner: int | None = None) -> None:
    """O5.8: after the final scoring, most points first and, between equal
    scores, the seat that made its final turn earlier. O5.9: after an early
    win the winner is first and the others rank by points, equal points
    sharing a rank. Every hand is revealed (O8.8)."""
    n = state.n
    if reason == "eleven":
        assert winner is not None
        keys = [(1, state.scores[s]) if s == winner else (0, state.scores[s]) for s in range(n)]
    else:
        when = {s: k for k, s in enumerate(state.final_order)}
        keys = [(state.scores[s], -when.get(s, n)) for s in range(n)]
    ranks = competition_ranks(keys)
    if winner is None:
        winner = ranks.index(1)
    everyone = list(range(n))
    for o in range(n + 1):
        for s in everyone:
            row = state.known[o][s]
            for i in range(len(row)):
                row[i] = 0
            for c in state.hands[s]:
                row[c] += 1
    state.phase = Phase.OVER
    state.topic = None
    state.result = GameEnded(
        reason=reason, winner=winner, scores=tuple(state.scores), ranks=tuple(ranks),
        final_order=tuple(state.final_order), hands=tuple(tuple(sorted(h)) for h in state.hands),
    )
    ev.append(state.result)
