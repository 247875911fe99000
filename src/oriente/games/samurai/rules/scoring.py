"""Who wins: sole majorities, contention and the tie-breaks of S6.

Pure arithmetic over the figures each seat captured, kept apart from the
engine so the rulebook's worked examples can be checked on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Score:
    majorities: tuple[int | None, int | None, int | None]
    contenders: tuple[int, ...]
    others: tuple[int | None, ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


def sole_majority(counts: Sequence[int]) -> int | None:
    """The seat holding more of a kind than every other seat (S6.1)."""
    best = max(counts)
    holders = [s for s, c in enumerate(counts) if c == best]
    return holders[0] if best > 0 and len(holders) == 1 else None


def score(captured: Sequence[Sequence[int]]) -> Score:
    """S6.1-S6.5 for `captured[s]` = seat s's (helmets, Buddhas, rice fields)."""
    n = len(captured)
    maj = tuple(sole_majority([captured[s][k] for s in range(n)]) for k in range(3))
    majorities = (maj[0], maj[1], maj[2])
    kinds = [[k for k in range(3) if majorities[k] == s] for s in range(n)]
    totals = tuple(sum(c) for c in captured)
    contenders = tuple(s for s in range(n) if kinds[s])  # S6.1
    others = tuple(totals[s] - sum(captured[s][k] for k in kinds[s]) if kinds[s] else None for s in range(n))
    ranks = [0] * n
    if not contenders:  # S6.5: nobody qualifies, nobody wins
        return Score(majorities, contenders, others, totals, tuple([1] * n), ())
    # S6.2 first (two majorities win outright), then S6.3 (others), S6.4 (all)
    def key(s: int) -> tuple[int, int, int]:
        return (len(kinds[s]) >= 2, others[s] or 0, totals[s])

    ordered = sorted(contenders, key=key, reverse=True)
    for i, s in enumerate(ordered):
        ranks[s] = ranks[ordered[i - 1]] if i and key(ordered[i - 1]) == key(s) else i + 1
    rest = len(contenders) + 1  # S6.5: out of contention, one shared rank
    for s in range(n):
        if not kinds[s]:
            ranks[s] = rest
    winners = tuple(s for s in range(n) if ranks[s] == 1)
    return Score(majorities, contenders, others, totals, tuple(ranks), winners)
