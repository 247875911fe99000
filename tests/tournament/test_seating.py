"""Seating (docs/tournaments.md TR2): the split into tables, the annealer
held to the exhaustive optimum on small fields, kept-apart pairs, seat
positions, and reproduction from the stored seed."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from oriente.server.tournament.seating import History, exhaustive, pair, seat, split


def ids(n: int) -> list[str]:
    return [f"e{i + 1}" for i in range(n)]


def test_tr2_1_split_is_as_equal_as_possible() -> None:
    """TR2.1: tables of the allowed sizes, as equal as possible, fewest tables next."""
    assert split(23, [5, 6]) == ([6, 6, 6, 5], 0)
    assert split(24, [5, 6]) == ([6, 6, 6, 6], 0)
    assert split(29, [5, 6]) == ([6, 6, 6, 6, 5], 0)
    assert split(13, range(4, 13)) == ([7, 6], 0)
    assert split(8, [3, 4]) == ([4, 4], 0)


def test_tr4_3_byes_when_no_split_exists() -> None:
    """TR4.3: the fewest entrants sit out that make a split possible."""
    assert split(7, [5, 6]) == ([6], 1)
    assert split(9, [5, 6]) == ([6], 3)
    assert split(13, [5, 6]) == ([6, 6], 1)
    assert split(4, [5, 6]) == ([], 4)
    assert split(9, [4, 6]) == ([4, 4], 1)


@given(st.integers(0, 60), st.sets(st.integers(2, 12), min_size=1, max_size=4))
def test_tr2_1_split_seats_everyone_it_can(n: int, sizes: set[int]) -> None:
    tables, byes = split(n, sizes)
    assert sum(tables) + byes == n
    assert all(t in sizes for t in tables)
    # No smaller number of byes could have been split.
    for fewer in range(byes):
        m = n - fewer
        assert not any(sum(c) == m for k in range(1, m // min(sizes) + 1)
                       for c in itertools.combinations_with_replacement(sorted(sizes), k))


def _history(tables: list[list[str]]) -> History:
    met: dict[tuple[str, str], int] = {}
    for t in tables:
        for a, b in itertools.combinations(t, 2):
            met[pair(a, b)] = met.get(pair(a, b), 0) + 1
    return History(met=met)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(8, [4, 4]), (9, [5, 4]), (10, [5, 5]), (11, [4, 4, 3]), (12, [4, 4, 4]),
                        (12, [6, 6])]),
       st.integers(0, 2**32), st.integers(1, 3))
def test_tr2_3_repeats_match_the_exhaustive_optimum(field: tuple[int, list[int]], seed: int, rounds: int) -> None:
    """TR2.3: on small fields the annealer finds as few repeat meetings as
    an exhaustive search over every split, round after round."""
    n, sizes = field
    entrants = ids(n)
    played: list[list[str]] = []
    for r in range(rounds):
        history = _history(played)
        best = exhaustive(entrants, sizes, history=history)
        got = seat(entrants, sizes, seed=seed + r, history=history)
        assert (got.apart_violations, got.repeats) == best
        played += got.tables


def test_tr2_2_kept_apart_pairs_are_apart() -> None:
    apart = [("e1", "e2"), ("e3", "e4"), ("e1", "e5"), ("e6", "e7")]
    for s in range(20):
        got = seat(ids(12), [6, 6], seed=s, apart=apart)
        assert got.apart_violations == 0
        for a, b in apart:
            assert not any(a in t and b in t for t in got.tables)


def test_tr2_2_seat_positions_balance_over_rounds() -> None:
    """TR2.2: over six rounds of 12 at two tables of 6, nobody keeps the
    first or the last seat: every entrant's mean relative position ends
    near the middle."""
    entrants = ids(12)
    positions: dict[str, list[float]] = {}
    for r in range(6):
        got = seat(entrants, [6, 6], seed=r, history=History(positions=positions))
        for t in got.tables:
            for s, e in enumerate(t):
                positions.setdefault(e, []).append(s / 5)
    means = [sum(p) / len(p) for p in positions.values()]
    assert max(abs(m - 0.5) for m in means) <= 0.2, means


def test_tr2_4_reproducible_from_the_seed() -> None:
    history = _history([ids(12)[:6], ids(12)[6:]])
    a = seat(ids(12), [4, 4, 4], seed=99, history=history)
    b = seat(ids(12), [4, 4, 4], seed=99, history=history)
    assert a == b
    assert seat(ids(12), [4, 4, 4], seed=100, history=history).tables != a.tables


def test_duplicate_deal_is_never_met_twice() -> None:
    """TR3.2: an entrant who played a board is not seated at it again."""
    history = History(boards={e: ["d1"] for e in ids(6)})
    got = seat(ids(12), [6, 6], seed=3, history=history, boards=["d1", "d2"])
    assert not set(got.tables[0]) & set(ids(6))
