"""A Samurai map's hexes named like chess squares: `K12`.

Rows are letters from the top, columns numbers from the left, in the
"odd-r" layout the terminal draws (every other row shifted half a hex), so
the name a person reads in the story, in the page and on the terminal's map
is the one they type (`helmet k12`). The squares come from the table's own
map (its view's `board.hexes`, axial `q` and `r`), so another map file is
named the same way.

The arithmetic lives in the rules (`rules/hexnames.py`), so that every
view's map carries each hex's `square` too; this module is the clients'
door to it. The page computes the same names
(clients/web/src/games/samurai/squares.js); tests/web/test_narrate_js.py
checks that both agree on every hex of the default map.
"""

from __future__ import annotations

from .rules.hexnames import row_name, square_positions, squares

positions = square_positions  # each hex's (row, column) from the top left, both from 0

__all__ = ["positions", "row_name", "squares"]
