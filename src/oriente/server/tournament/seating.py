"""Seating a round: split the field into tables, then seat it by a seeded
optimisation, as the V:TES seater (Archon) does.

Two steps, each a pure function of its inputs:

1. `split(n, sizes)`: how many tables of which sizes, as equal as possible
   (TR2.1), and how many entrants sit out (byes, TR4.3) when `n` cannot be
   split into the allowed sizes at all.
2. `seat(...)`: who sits where. Simulated annealing over a weighted cost
   (TR2.2): pairs the organiser keeps apart, entrants who already played a
   duplicate board, repeat opponents, mixed standings groups at one table,
   and unbalanced seat positions. The weights are far apart, so the cost is
   in effect lexicographic: no number of repeats is worth putting a
   kept-apart pair together, and so on down.

The generator is the project's PCG32 (`games.kit.rng`), seeded by the
round's seed: the same inputs and seed give the same seating on every
Python, so a stored seating can be reproduced and checked (`Seating.plain`
holds everything it was computed from).

`exhaustive` finds, on small fields, the fewest repeat opponents any
seating can have; the tests hold the annealer to it (TR2.3).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...games.kit.rng import Pcg32

# TR2.2: the cost's weights, far apart so each criterion dominates the next.
W_APART = 1_000_000.0  # a kept-apart pair at one table, or an entrant meeting a board again
W_REPEAT = 1_000.0  # each earlier meeting of two entrants now at one table
W_GROUP = 10.0  # the spread of tournament points at one table (Swiss: like meets like)
W_POSITION = 1.0  # how far an entrant's seat positions drift from the middle on average
MAX_STEPS = 30_000  # about a second for 300 entrants: seating must not hold up a big event's server


def split(n: int, sizes: Iterable[int]) -> tuple[list[int], int]:
    """TR2.1: the table sizes for `n` entrants (largest first) and the number
    of byes. Among the ways to seat everyone, the one whose tables differ
    least in size, then the one with the fewest tables; if nobody can be
    left out, the fewest byes that make a split possible (TR4.3)."""
    allowed = sorted(set(sizes))
    if not allowed or allowed[0] < 2:
        raise ValueError("table sizes are at least 2")
    for byes in range(n + 1):
        m = n - byes
        if m == 0:
            return [], n
        best: tuple[int, int, list[int]] | None = None
        for k in range(math.ceil(m / allowed[-1]), m // allowed[0] + 1):
            if k == 0:
                continue
            found = _even(m, k, allowed)
            if found is not None:
                key = (found[0] - found[-1], k)
                if best is None or key < best[:2]:
                    best = (*key, found)
        if best is not None:
            return best[2], byes
    return [], n  # pragma: no cover - the loop returns at m == 0


def _even(m: int, k: int, allowed: list[int]) -> list[int] | None:
    """`m` over `k` tables of allowed sizes, as even as the sizes permit."""
    q, r = divmod(m, k)
    sizes = [q + 1] * r + [q] * (k - r)
    if all(s in allowed for s in sizes):
        return sizes
    # Sizes with gaps (say 4 and 6): the split with the least spread, by search.
    best: list[int] | None = None
    for combo in itertools.combinations_with_replacement(reversed(allowed), k):
        if sum(combo) == m and (best is None or combo[0] - combo[-1] < best[0] - best[-1]):
            best = list(combo)
    return best


@dataclass(frozen=True, slots=True)
class History:
    """What the seater knows of the rounds before: how often each pair met
    (keys are sorted pairs of entrant ids), each entrant's relative seat
    positions so far (0 first .. 1 last), the boards each entrant played,
    and the tournament points (for standings groups)."""

    met: Mapping[tuple[str, str], int] = field(default_factory=dict)
    positions: Mapping[str, Sequence[float]] = field(default_factory=dict)
    boards: Mapping[str, Sequence[str]] = field(default_factory=dict)
    points: Mapping[str, float] = field(default_factory=dict)


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class Seating:
    """A round's tables, each a list of entrant ids in seat order, with the
    cost's parts and everything it was computed from (the seed included)."""

    tables: list[list[str]]
    cost: float
    repeats: int
    apart_violations: int
    seed: int
    iterations: int

    def plain(self) -> dict[str, object]:
        return {"tables": self.tables, "cost": self.cost, "repeats": self.repeats,
                "apart_violations": self.apart_violations, "seed": self.seed, "iterations": self.iterations}


class _Cost:
    """The cost of one table, from the history, the kept-apart pairs and the
    board the table will play (None: no duplicate board)."""

    def __init__(self, history: History, apart: Iterable[tuple[str, str]], group_weight: float) -> None:
        self.history = history
        self.apart = {pair(a, b) for a, b in apart}
        self.group_weight = group_weight

    def table(self, ids: Sequence[str], board: str | None) -> float:
        h = self.history
        cost = 0.0
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                p = pair(a, b)
                if p in self.apart:
                    cost += W_APART
                cost += W_REPEAT * h.met.get(p, 0)
        if board is not None:
            cost += W_APART * sum(1 for e in ids if board in h.boards.get(e, ()))
        if self.group_weight and h.points:
            pts = [h.points.get(e, 0.0) for e in ids]
            cost += self.group_weight * (max(pts) - min(pts))
        last = len(ids) - 1
        for s, e in enumerate(ids):
            before = h.positions.get(e, ())
            mean = (sum(before) + s / last) / (len(before) + 1)
            cost += W_POSITION * (mean - 0.5) ** 2 * 4
        return cost

    def counts(self, tables: Sequence[Sequence[str]]) -> tuple[int, int]:
        """(repeat meetings, kept-apart pairs together) over a seating."""
        repeats = apart = 0
        for ids in tables:
            for i, a in enumerate(ids):
                for b in ids[i + 1:]:
                    repeats += self.history.met.get(pair(a, b), 0)
                    apart += pair(a, b) in self.apart
        return repeats, apart


def _uniform(rng: Pcg32) -> float:
    return rng.next_u32() / 2**32


def seat(entrants: Sequence[str], sizes: Sequence[int], *, seed: int, history: History = History(),
         apart: Iterable[tuple[str, str]] = (), boards: Sequence[str | None] | None = None,
         group_weight: float = W_GROUP, iterations: int | None = None) -> Seating:
    """TR2.2: seat `entrants` at tables of `sizes` (in that order) by
    simulated annealing from `seed`. `boards[t]` is the duplicate board table
    t plays (entrants who played it already are kept off it). The start is
    the entrants shuffled; a move swaps two seats, at one table or two; the
    temperature falls geometrically over `iterations` (default: grows with
    the field, 3,000 + 400 per entrant, at most 30,000)."""
    n = len(entrants)
    if sum(sizes) != n:
        raise ValueError(f"{n} entrants do not fill tables of {list(sizes)}")
    deal_of = list(boards) if boards is not None else [None] * len(sizes)
    coster = _Cost(history, apart, group_weight)
    rng = Pcg32.seeded(seed, 7)
    order = list(entrants)
    rng.shuffle(order)
    bounds = list(itertools.accumulate(sizes, initial=0))
    table_of = [t for t, s in enumerate(sizes) for _ in range(s)]

    def cost_of(t: int) -> float:
        return coster.table(order[bounds[t]:bounds[t + 1]], deal_of[t])

    costs = [cost_of(t) for t in range(len(sizes))]
    total = sum(costs)
    best_total, best_order = total, list(order)
    steps = iterations if iterations is not None else min(MAX_STEPS, 3_000 + 400 * n)
    t_hi, t_lo = 2 * W_REPEAT, 0.05 * W_POSITION
    for step in range(steps if n > 1 else 0):
        temp = t_hi * (t_lo / t_hi) ** (step / steps)
        i, j = rng.below(n), rng.below(n)
        if i == j:
            continue
        ti, tj = table_of[i], table_of[j]
        order[i], order[j] = order[j], order[i]
        new_i = cost_of(ti)
        new_j = cost_of(tj) if tj != ti else 0.0
        delta = new_i + new_j - costs[ti] - (costs[tj] if tj != ti else 0.0)
        if delta <= 0 or _uniform(rng) < math.exp(-delta / temp):
            costs[ti] = new_i
            if tj != ti:
                costs[tj] = new_j
            total += delta
            if total < best_total - 1e-9:
                best_total, best_order = total, list(order)
        else:
            order[i], order[j] = order[j], order[i]
    tables = [best_order[bounds[t]:bounds[t + 1]] for t in range(len(sizes))]
    repeats, violations = coster.counts(tables)
    final = sum(coster.table(tables[t], deal_of[t]) for t in range(len(sizes)))
    return Seating(tables=tables, cost=round(final, 6), repeats=repeats, apart_violations=violations,
                   seed=seed, iterations=steps)


def exhaustive(entrants: Sequence[str], sizes: Sequence[int], *, history: History = History(),
               apart: Iterable[tuple[str, str]] = ()) -> tuple[int, int]:
    """TR2.3: the least (kept-apart pairs together, repeat meetings) over
    every way to split `entrants` into tables of `sizes`, found by trying
    them all (seat order does not change either count). For small fields
    only: 12 entrants in three tables of four are 5,775 splits."""
    coster = _Cost(history, apart, 0.0)
    best: tuple[int, int] | None = None
    for tables in _partitions(list(entrants), sorted(sizes, reverse=True)):
        repeats, violations = coster.counts(tables)
        key = (violations, repeats)
        if best is None or key < best:
            best = key
            if key == (0, 0):
                break
    assert best is not None
    return best


def _partitions(items: list[str], sizes: list[int]) -> Iterable[list[list[str]]]:
    """Every split of `items` into groups of `sizes`, each once: for each
    size in turn, which items go to the tables of that size, then how they
    split among those tables (unordered: the first item left opens the next)."""
    if not sizes:
        yield []
        return
    size = sizes[0]
    count = sizes.count(size)
    rest = sizes[count:]
    for chosen in itertools.combinations(items, size * count) if rest else [tuple(items)]:
        taken = set(chosen)
        remaining = [x for x in items if x not in taken]
        for groups in _equal(list(chosen), size):
            for tail in _partitions(remaining, rest):
                yield [*groups, *tail]


def _equal(items: list[str], size: int) -> Iterable[list[list[str]]]:
    """Every split of `items` into unordered groups of `size`."""
    if not items:
        yield []
        return
    first, others = items[0], items[1:]
    for combo in itertools.combinations(others, size - 1):
        chosen = set(combo)
        for tail in _equal([x for x in others if x not in chosen], size):
            yield [[first, *combo], *tail]
