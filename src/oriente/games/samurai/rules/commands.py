"""Commands: everything a seat (or the table's clock) can ask of the engine.

Small frozen values, keyword-only. Every command names the decision it
answers, so a late click is rejected deterministically (`decision/closed`)
rather than applied to whatever is open now. A turn is one decision: each
placement names it, and `EndTurn` closes it (S7.1). Tiles are named by their
index in the seat's tile set, hexes by their id in the board data,
figures by kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._shared import TABLE
from .pieces import Figure


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseTiles:
    """The 5 tiles to start with, chosen secretly (S2.3, S7.2)."""

    decision: int
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceFigure:
    """Put a figure from the figure supply in a settlement (S2.5)."""

    decision: int
    hex: int
    figure: Figure


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceTile:
    """Place a tile from the hand on an empty hex (S3.3)."""

    decision: int
    tile: int
    hex: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SwapFigures:
    """Play the figure swap: exchange the `figure_a` of `hex_a` with the
    `figure_b` of `hex_b` (S3.5)."""

    decision: int
    tile: int
    hex_a: int
    figure_a: Figure
    hex_b: int
    figure_b: Figure


@dataclass(frozen=True, slots=True, kw_only=True)
class SwapTile:
    """Play the tile swap on `hex`, where an own plain tile lies, and place
    that tile again on `to` (S3.6)."""

    decision: int
    tile: int
    hex: int
    to: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn:
    """End the turn after placing at least one tile (S3.7)."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """Pass a turn in which no tile can be placed (S3.9)."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeout:
    """The table's clock: the decision's pivot ran out of time (S7.1, S7.2)."""

    decision: int
    pivot: int | None


Command = ChooseTiles | PlaceFigure | PlaceTile | SwapFigures | SwapTile | EndTurn | Pass | Timeout

# Commands a seat sends to answer a decision (everything but Timeout).
DECISION_COMMANDS = (ChooseTiles, PlaceFigure, PlaceTile, SwapFigures, SwapTile, EndTurn, Pass)
# Commands that put a tile from the hand into play during a turn.
PLACEMENTS = (PlaceTile, SwapFigures, SwapTile)

__all__ = [
    "DECISION_COMMANDS",
    "PLACEMENTS",
    "TABLE",
    "ChooseTiles",
    "Command",
    "EndTurn",
    "Pass",
    "PlaceFigure",
    "PlaceTile",
    "SwapFigures",
    "SwapTile",
    "Timeout",
]
