"""The rules of Oriente as a pure, deterministic state machine.

No I/O, no clock, no global randomness: `new_game(config)` then
`apply(state, seat, command)` yields the same events for the same inputs.
The table server, bots and tests all drive the game through this surface.
"""

from .commands import (
    TABLE,
    AcceptDeal,
    Action,
    ActionKind,
    Announce,
    Choose,
    Claim,
    Command,
    DeclineDeal,
    Done,
    Join,
    Pass,
    Promise,
    PromiseKind,
    ProposeDeal,
    SettlePromise,
    Side,
    Support,
    Timeout,
    Transfer,
    WithdrawDeal,
)
from .config import GameConfig
from .decisions import Decision, DecisionKind, Timer, Topic
from .engine import apply, is_over, legal, new_game, pending
from .errors import ConfigError, Rejected
from .game import Game, replay
from .serial import command_from_plain, plain
from .state import GameState, Phase
from .views import EVERYONE, SPECTATOR, project, view

__all__ = [
    "EVERYONE",
    "SPECTATOR",
    "TABLE",
    "AcceptDeal",
    "Action",
    "ActionKind",
    "Announce",
    "Choose",
    "Claim",
    "Command",
    "ConfigError",
    "Decision",
    "DecisionKind",
    "DeclineDeal",
    "Done",
    "Game",
    "GameConfig",
    "GameState",
    "Join",
    "Pass",
    "Phase",
    "Promise",
    "PromiseKind",
    "ProposeDeal",
    "Rejected",
    "SettlePromise",
    "Side",
    "Support",
    "Timeout",
    "Timer",
    "Topic",
    "Transfer",
    "WithdrawDeal",
    "apply",
    "command_from_plain",
    "is_over",
    "legal",
    "new_game",
    "pending",
    "plain",
    "project",
    "replay",
    "view",
]
