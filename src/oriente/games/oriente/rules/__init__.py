"""The rules of Oriente as a pure, deterministic state machine.

No I/O, no clock, no global randomness: `new_game(config)` then
`apply(state, seat, command)` yields the same events for the same inputs,
or raises `Rejected` (a stable code, a sentence citing the rule) and
changes nothing. The table server, bots and tests all drive the game
through this surface: `pending` (what is open), `legal` (what a seat may
send: its `answers` to the open decision, then its `deal_options`),
`view`/`project` (the one gate for hidden information), the card table
`CARDS`, and `configured_deal` to write a configured deal by card name.
"""

from .cards import CARDS, Card, Kind, card_name
from .commands import (
    DEAL_COMMAND_TYPES,
    DEAL_COMMANDS,
    DECISION_COMMAND_TYPES,
    DECISION_COMMANDS,
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
from .decks import build_deck, card_ids, configured_deal
from .engine import answers, apply, deal_options, is_over, legal, new_game, pending
from .errors import ConfigError, Rejected
from .game import Game, replay
from .serial import command_from_plain, plain
from .state import GameState, Phase
from .views import EVERYONE, SPECTATOR, decision_views, project, view, views_of

__all__ = [
    "CARDS",
    "DEAL_COMMANDS",
    "DEAL_COMMAND_TYPES",
    "DECISION_COMMANDS",
    "DECISION_COMMAND_TYPES",
    "EVERYONE",
    "SPECTATOR",
    "TABLE",
    "AcceptDeal",
    "Action",
    "ActionKind",
    "Announce",
    "Card",
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
    "Kind",
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
    "answers",
    "apply",
    "build_deck",
    "card_ids",
    "card_name",
    "command_from_plain",
    "configured_deal",
    "deal_options",
    "decision_views",
    "is_over",
    "legal",
    "new_game",
    "pending",
    "plain",
    "project",
    "replay",
    "view",
    "views_of",
]
