"""Oro's public reference data: what a client draws the game from.

The island sizes with their places and what a controlled island scores
(O1.1, O5.2, O5.7), the god stones with their effect in the rulebooks'
languages (O7), the default archipelago (O1.2) and the numbers of the game
(hand limit, display, cards per island). It depends on the code alone, so
clients read it rather than copy the rules; the board a table actually
plays on comes in that table's view (a table may bring its own, O9).
"""

from __future__ import annotations

from typing import Any

from .board import GODS, PLACES, SIZE_COUNTS, default_board, default_tiles
from .engine import DISPLAY
from .majority import KANE_POINTS
from .turn import HAND_LIMIT

LANGUAGES = ("en", "de", "fr")

# O7.3-O7.8, in the words of the rules reference (en) and the rulebook (de).
_GOD_TEXT: dict[str, tuple[str, dict[str, str]]] = {
    "kane": ("O7.3", {
        "en": "Scores at once when taken: 1 point for a small island, 2 for a large one, 3 for ORO.",
        "de": "Bringt sofort beim Nehmen Siegpunkte: 1 für eine kleine Insel, 2 für eine große, 3 für ORO.",
        "fr": "Rapporte aussitôt pris : 1 point pour une petite île, 2 pour une grande, 3 pour ORO.",
    }),
    "kanaloa": ("O7.5", {
        "en": "A card for any island: build on any free connection, or replace with one matching card "
              "(or a second Kanaloa).",
        "de": "Joker: eine Brücke an beliebiger freier Stelle, oder mit einer passenden Karte (oder "
              "nochmal Kanaloa) eine gegnerische Brücke austauschen.",
        "fr": "Joker : un pont sur n'importe quelle liaison libre, ou avec une carte assortie (ou un "
              "second Kanaloa) remplacer un pont adverse.",
    }),
    "ku": ("O7.6", {
        "en": "Look at an opponent's hand and take one of its cards.",
        "de": "Die Handkarten eines Mitspielers ansehen und ihm eine davon wegnehmen.",
        "fr": "Regarder la main d'un adversaire et lui prendre une carte.",
    }),
    "pele": ("O7.7", {
        "en": "Take a card at random from every opponent, then give each of them one card of your choice back.",
        "de": "Von jedem Mitspieler blind eine Karte ziehen, dann jedem eine Karte nach Wahl zurückgeben.",
        "fr": "Piocher une carte au hasard chez chaque adversaire, puis rendre à chacun une carte de son choix.",
    }),
    "lono": ("O7.8", {
        "en": "Draw one extra card during your turn; you may play it at once.",
        "de": "Während des eigenen Zuges eine zusätzliche Karte nachziehen; sie darf sofort gespielt werden.",
        "fr": "Piocher une carte de plus pendant son tour ; elle peut être jouée aussitôt.",
    }),
}
assert tuple(_GOD_TEXT) == GODS


def _scoring(places: int) -> list[dict[str, int]]:
    """O5.2/O5.7: with b of the controller's bridges on an island of p
    places it scores p - b, one more in the final scoring. Control needs
    more than half of the places (O4.1)."""
    return [{"bridges": b, "first": places - b, "final": places - b + 1}
            for b in range(places // 2 + 1, places + 1)]


def reference() -> dict[str, Any]:
    """Everything a client needs to draw and explain Oro, as plain data."""
    stones = dict(default_tiles().stones)
    return {
        "game": "oro",
        "languages": list(LANGUAGES),
        "sizes": [{"size": size, "places": places, "count": SIZE_COUNTS[size], "kane": KANE_POINTS[size],
                   "scoring": _scoring(places)} for size, places in PLACES.items()],
        "gods": [{"god": god, "rule": rule, "count": stones.get(god, 0), "name": god.capitalize(),
                  "text": dict(text)} for god, (rule, text) in _GOD_TEXT.items()],
        "board": default_board().plain(),
        "cards_per_island": default_tiles().cards_per_island,
        "hand_limit": HAND_LIMIT,
        "display": DISPLAY,
    }
