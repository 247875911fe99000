"""The rules of Knizia's Samurai as a pure, deterministic state machine.

No I/O (beyond reading its own packaged board and tile data), no clock, no
global randomness: `new_game(config)` then `apply(state, seat, command)`
yields the same events for the same inputs. docs/rules-samurai.md is the
reference; rule ids (`S3.2`) are cited throughout. The surface mirrors
Oriente's engine (`oriente.games.oriente.rules`) so that a table port is a thin
adapter: new_game, apply, pending, legal, view, project, plain,
command_from_plain, is_over, result, Game, replay.
"""

from __future__ import annotations

from typing import Any

from ._shared import TABLE, ConfigError, Rejected
from .commands import (
    ChooseTiles,
    Command,
    EndTurn,
    Pass,
    PlaceFigure,
    PlaceTile,
    SwapFigures,
    SwapTile,
    Timeout,
)
from .config import GameConfig
from .datafiles import (
    Board,
    DataError,
    TileSet,
    default_board_data,
    default_tiles_data,
    read_board,
    read_tiles,
)
from .decisions import Decision, DecisionKind, Timer, Topic
from .engine import apply, is_over, legal, new_game, pending
from .game import Game, replay
from .pieces import Figure, Terrain, TileKind
from .serial import command_from_plain, plain
from .state import GameState, Phase
from .views import EVERYONE, SPECTATOR, decision_view, decision_views, project, view


def result(state: GameState) -> dict[str, Any] | None:
    """The finished game's result as plain data (ranks, winners, ...), or None."""
    return plain(state.result) if state.result is not None else None


__all__ = [
    "EVERYONE",
    "SPECTATOR",
    "TABLE",
    "Board",
    "ChooseTiles",
    "Command",
    "ConfigError",
    "DataError",
    "Decision",
    "DecisionKind",
    "EndTurn",
    "Figure",
    "Game",
    "GameConfig",
    "GameState",
    "Pass",
    "Phase",
    "PlaceFigure",
    "PlaceTile",
    "Rejected",
    "SwapFigures",
    "SwapTile",
    "Terrain",
    "TileKind",
    "TileSet",
    "Timeout",
    "Timer",
    "Topic",
    "apply",
    "command_from_plain",
    "decision_view",
    "decision_views",
    "default_board_data",
    "default_tiles_data",
    "is_over",
    "legal",
    "new_game",
    "pending",
    "plain",
    "project",
    "read_board",
    "read_tiles",
    "replay",
    "result",
    "view",
]
