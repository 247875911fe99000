"""Samurai's public reference data: what a client draws and explains the
game from.

The figures, what each kind of tile influences (S1.3, S1.4), how many
figures a settlement holds (S1.5), the parts of the map and the figures of
each kind every player count uses (S1.1, S1.5), and the default map and
tile set (S1.6) as their JSON data. It depends on the code alone, so
clients read it rather than copy the rules; the map and tiles a table
actually plays with come in that table's view (a table may bring its own).
"""

from __future__ import annotations

from typing import Any

from .datafiles import FAST_PER_SEAT, TILES_PER_SEAT, default_board_data, default_tiles_data
from .hexnames import squares
from .pieces import (
    CAPACITY,
    FIGURES,
    FIGURES_PER_KIND,
    HAND_SIZE,
    INFLUENCES,
    MAX_SEATS,
    MIN_SEATS,
    PARTS,
    PARTS_IN_PLAY,
    SET_ASIDE_LIMIT,
    TileKind,
)

LANGUAGES = ("en", "de", "fr")

# The names of the pieces in the rulebook's language (de) and ours.
_NAMES: dict[str, dict[str, str]] = {
    "helmet": {"en": "helmet", "de": "Helm", "fr": "casque"},
    "buddha": {"en": "Buddha", "de": "Buddha", "fr": "Bouddha"},
    "rice": {"en": "rice field", "de": "Reisfeld", "fr": "rizière"},
    "samurai": {"en": "samurai", "de": "Samurai", "fr": "samouraï"},
    "ronin": {"en": "ronin", "de": "Reiter", "fr": "rônin"},
    "ship": {"en": "ship", "de": "Schiff", "fr": "navire"},
    "figure_swap": {"en": "figure swap", "de": "Figurentausch", "fr": "échange de figures"},
    "tile_swap": {"en": "tile swap", "de": "Plättchentausch", "fr": "échange de tuiles"},
}


def _with_squares(board: dict[str, Any]) -> dict[str, Any]:
    """The map with each hex's square counted on the whole map (hexnames.py),
    for a client that names a hex before a table's view shows its own."""
    named = squares(board["hexes"])
    return {**board, "hexes": [{**h, "square": named[h["id"]]} for h in board["hexes"]]}


def reference() -> dict[str, Any]:
    """Everything a client needs to draw and explain Samurai, as plain data."""
    return {
        "game": "samurai",
        "languages": list(LANGUAGES),
        "figures": [{"figure": f.value, "name": dict(_NAMES[f.value])} for f in FIGURES],
        "kinds": [{"kind": k.value, "name": dict(_NAMES[k.value]),
                   "influences": [f.value for f in FIGURES if f in INFLUENCES[k]], "on_sea": k is TileKind.SHIP}
                  for k in TileKind],
        "capacity": {t.value: c for t, c in CAPACITY.items()},
        "parts": list(PARTS),
        "players": [{"seats": n, "parts": list(PARTS_IN_PLAY[n]), "figures_per_kind": FIGURES_PER_KIND[n]}
                    for n in range(MIN_SEATS, MAX_SEATS + 1)],
        "tiles_per_seat": TILES_PER_SEAT,
        "fast_per_seat": FAST_PER_SEAT,
        "hand_size": HAND_SIZE,
        "set_aside_limit": SET_ASIDE_LIMIT,
        "board": _with_squares(default_board_data()),
        "tiles": default_tiles_data(),
    }
