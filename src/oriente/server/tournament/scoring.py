"""Tournament points from the rank at a table (TR3.1), documented in
docs/tournaments.md and configurable per event.

A table's result gives each seat a rank (1 is first; tied seats share the
best of their ranks, as the games report them: 1, 1, 3). The points of
the places the tied seats occupy are shared equally among them, so a
table always hands out the same total whatever the ties.
"""

from __future__ import annotations

from collections.abc import Sequence

# The scoring kinds an organiser may choose (TR3.1).
LINEAR = "linear"  # (size - place) / (size - 1): 1 for first, 0 for last, evenly between
WIN = "win"  # 1 for first, 0 otherwise
KINDS = (LINEAR, WIN, "table")  # "table": the organiser's own list of points by place


def place_points(kind: str, size: int, table: Sequence[float] = ()) -> list[float]:
    """The points of places 1..size before ties are shared."""
    if kind == LINEAR:
        return [(size - p) / (size - 1) for p in range(1, size + 1)]
    if kind == WIN:
        return [1.0] + [0.0] * (size - 1)
    if kind == "table":
        return [float(table[p]) if p < len(table) else 0.0 for p in range(size)]
    raise ValueError(f"scoring is one of {', '.join(KINDS)}, not {kind!r}")


def points(ranks: Sequence[int], kind: str = LINEAR, table: Sequence[float] = ()) -> list[float]:
    """TR3.1: each seat's points from its rank; tied seats share the points
    of the places they occupy, averaged."""
    size = len(ranks)
    base = place_points(kind, size, table)
    order = sorted(range(size), key=lambda s: ranks[s])
    out = [0.0] * size
    i = 0
    while i < size:
        j = i
        while j + 1 < size and ranks[order[j + 1]] == ranks[order[i]]:
            j += 1
        share = sum(base[i:j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = round(share, 9)
        i = j + 1
    return out


def forfeit_ranks(ranks: Sequence[int], forfeits: Sequence[int]) -> list[int]:
    """TR4.5: the table's ranks with every forfeiting seat moved below every
    other (sharing the last rank among themselves); the others keep their
    order."""
    if not forfeits:
        return list(ranks)
    lost = set(forfeits)
    playing = sorted((r, s) for s, r in enumerate(ranks) if s not in lost)
    out = [0] * len(ranks)
    previous: int | None = None
    place = 0
    for index, (r, s) in enumerate(playing):
        if r != previous:
            place = index + 1
            previous = r
        out[s] = place
    for s in lost:
        out[s] = len(playing) + 1
    return out
