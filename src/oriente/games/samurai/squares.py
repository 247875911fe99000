"""A Samurai map's hexes named like chess squares: `K12`.

Rows are letters from the top, columns numbers from the left, in the
"odd-r" layout the terminal draws (every other row shifted half a hex), so
the name a person reads in the story, in the page and on the terminal's map
is the one they type (`helmet k12`). The squares come from the table's own
map (its view's `board.hexes`, axial `q` and `r`), so another map file is
named the same way. The page computes the same names
(clients/web/src/games/samurai/squares.js); tests/web/test_narrate_js.py
checks that both agree on every hex of the default map.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["positions", "row_name", "squares"]


def row_name(r: int) -> str:
    """The letters of the row `r` counted from the top: A … Z, then AA, AB …"""
    letters = string.ascii_uppercase
    return letters[r] if r < 26 else letters[r // 26 - 1] + letters[r % 26]


def positions(hexes: Iterable[Mapping[str, Any]]) -> dict[Any, tuple[int, int]]:
    """Each hex's (row, column) from the top left, both from 0."""
    hexes = list(hexes)
    cols = {h["id"]: h["q"] + (h["r"] - (h["r"] & 1)) // 2 for h in hexes}
    min_col = min(cols.values(), default=0)
    min_row = min((h["r"] for h in hexes), default=0)
    return {h["id"]: (h["r"] - min_row, cols[h["id"]] - min_col) for h in hexes}


def squares(hexes: Iterable[Mapping[str, Any]]) -> dict[Any, str]:
    """Each hex's square, by id: {62: 'K12', ...}."""
    return {i: f"{row_name(r)}{c + 1}" for i, (r, c) in positions(hexes).items()}
