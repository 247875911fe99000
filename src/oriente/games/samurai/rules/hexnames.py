"""What a person calls a hex: a square like `K12`, and a place by its name.

The one place hexes get their names. The terminal draws the map in rows
of text (every other row shifted, "odd-r"), so a hex is named like a
chess square: the row's letter from the top, the column's number from
the left (`K12`), counted on the hexes in play at the table's player
count (S1.5), so that the top row of the map a table plays is row A.
Every view's `board.hexes` carries each hex's `square` (views.py), and
the narrators, the terminal and the page read it there rather than count
again, so the story, the map drawn and the command typed all agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["column", "describe", "row_name", "square_positions", "squares"]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def column(q: int, r: int) -> int:
    """The text column of axial (q, r) in odd-r rows (before the shift to 1)."""
    return q + (r - (r & 1)) // 2


def row_name(row: int) -> str:
    """A row's letters, from 0: A .. Z, then AA, AB ..."""
    return LETTERS[row] if row < 26 else LETTERS[row // 26 - 1] + LETTERS[row % 26]


def square_positions(hexes: Iterable[Mapping[str, Any]]) -> dict[int, tuple[int, int]]:
    """Each hex id's (row, column) from 0, the top-left hex in play at (0, 0)."""
    listed = list(hexes)
    if not listed:
        return {}
    cols = {h["id"]: column(h["q"], h["r"]) for h in listed}
    top = min(h["r"] for h in listed)
    left = min(cols.values())
    return {h["id"]: (h["r"] - top, cols[h["id"]] - left) for h in listed}


def squares(hexes: Iterable[Mapping[str, Any]]) -> dict[int, str]:
    """Each hex id's square ('K12') on the map these hexes make."""
    return {i: f"{row_name(r)}{c + 1}" for i, (r, c) in square_positions(hexes).items()}


def describe(info: Mapping[str, Any] | None, square: str) -> str:
    """A hex as a player names it: 'Kyoto (K12)' for a named place, 'K12'
    otherwise. Only the words around a village ('the village at K7') are
    each language's, so the narrators add them."""
    name = (info or {}).get("name")
    return f"{name} ({square})" if name else square
