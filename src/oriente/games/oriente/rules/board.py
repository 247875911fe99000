"""Card movements, each keeping the who-knows-what bookkeeping in step.

Every move of a card goes through here so that `state.knows[card]` (the
seats that know which card lies at its current place) is always right: the
views read it, and a move that forgot it would leak or hide a card.
"""

from __future__ import annotations

from .cards import GEISHA
from .events import GeishaDrawn
from .state import GameState


class GeishaEnd(Exception):
    """The Geisha was drawn (R9.2): the game ends at once. Raised from a draw
    and caught by the engine's command loop, which scores the game."""


def draw_top(state: GameState, ev: list, purpose: str, seat: int | None) -> int:
    """Take the top card of the deck. Drawing the Geisha ends the game (R9.2):
    it is laid face up beside the deck and `GeishaEnd` unwinds the action."""
    card = state.deck.pop()
    if card == GEISHA:
        state.geisha_out = card
        state.knows[card] = state.all_mask
        ev.append(GeishaDrawn(purpose=purpose, seat=seat))
        raise GeishaEnd
    return card


def to_pile(state: GameState, seat: int, card: int) -> None:
    """Score cards are always face up (R10.4)."""
    state.pile[seat].append(card)
    state.knows[card] = state.all_mask


def set_inhabitant(state: GameState, seat: int, card: int, *, revealed: bool) -> None:
    state.inhabitant[seat] = card
    state.revealed[seat] = revealed
    state.knows[card] = state.all_mask if revealed else (1 << seat)


def take_inhabitant(state: GameState, seat: int) -> int:
    """Empty a seat's inhabitant slot and return the card that was there."""
    card = state.inhabitant[seat]
    assert card is not None, f"seat {seat} has no inhabitant"
    state.inhabitant[seat] = None
    state.revealed[seat] = False
    return card


def reveal(state: GameState, seat: int) -> int:
    """Turn a seat's inhabitant face up; it stays revealed (R3.4a)."""
    card = state.inhabitant[seat]
    assert card is not None
    state.revealed[seat] = True
    state.knows[card] = state.all_mask
    return card


def to_bottom(state: GameState, card: int) -> None:
    """Put a card face down under the deck, where everyone saw it go (R5.3,
    R6.7): the known bottom of the deck (R10.4). It is never drawn again:
    it lies below the Geisha (R9.5)."""
    state.deck.insert(0, card)
    state.known_bottom += 1
    state.knows[card] = state.all_mask


def remove_from_pile(state: GameState, seat: int, card: int) -> None:
    state.pile[seat].remove(card)
