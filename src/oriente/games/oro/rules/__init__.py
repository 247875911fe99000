"""The rules of Oro as a pure, deterministic state machine (docs/rules-oro.md).

No I/O beyond reading the package's own board and tiles files, no clock,
no global randomness: `new_game(config)` then `apply(state, seat,
command)` yields the same events for the same inputs. The surface mirrors
Oriente's engine (games/oriente/rules/), so a table server drives either game the
same way: `pending` says what is open, `legal` what a seat may send,
`view`/`project` are the only exits for hidden information.
"""

from .board import (
    Board,
    BoardError,
    Tiles,
    board_from_data,
    default_board,
    default_tiles,
    tiles_from_data,
)
from .commands import (
    TABLE,
    Build,
    Command,
    Discard,
    Draw,
    EndTurn,
    GiveBack,
    GiveUp,
    Pass,
    Remove,
    Replace,
    Take,
    Timeout,
    UseKu,
    UseLono,
    UsePele,
)
from .config import OroConfig
from .decisions import Decision, DecisionKind, Timer, Topic
from .engine import apply, is_over, new_game, pending, result
from .errors import ConfigError, Rejected
from .game import Game, replay
from .legality import legal
from .serial import command_from_plain, plain
from .state import OroState, Phase
from .views import EVERYONE, SPECTATOR, decision_view, decision_views, project, view

__all__ = [
    "EVERYONE",
    "SPECTATOR",
    "TABLE",
    "Board",
    "BoardError",
    "Build",
    "Command",
    "ConfigError",
    "Decision",
    "DecisionKind",
    "Discard",
    "Draw",
    "EndTurn",
    "Game",
    "GiveBack",
    "GiveUp",
    "OroConfig",
    "OroState",
    "Pass",
    "Phase",
    "Rejected",
    "Remove",
    "Replace",
    "Take",
    "Tiles",
    "Timeout",
    "Timer",
    "Topic",
    "UseKu",
    "UseLono",
    "UsePele",
    "apply",
    "board_from_data",
    "command_from_plain",
    "decision_view",
    "decision_views",
    "default_board",
    "default_tiles",
    "is_over",
    "legal",
    "new_game",
    "pending",
    "plain",
    "project",
    "replay",
    "result",
    "tiles_from_data",
    "view",
]
