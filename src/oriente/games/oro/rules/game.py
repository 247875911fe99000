"""A game with its history: the convenient way to drive Oro's engine.

`Game` keeps the ordered commands next to the state, so a finished game is
a record (config + commands) that `replay` turns back into every event,
exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .commands import Command
from .config import OroConfig
from .decisions import Decision
from .engine import apply, is_over, new_game, pending
from .legality import legal
from .serial import command_from_plain, plain
from .state import OroState
from .views import EVERYONE, Viewer, project, view

RECORD_FORMAT = "oro.record.v1"


@dataclass
class Game:
    config: OroConfig
    state: OroState = field(init=False)
    events: list = field(init=False)
    commands: list[tuple[int, Command]] = field(init=False)

    def __post_init__(self) -> None:
        self.state, self.events = new_game(self.config)
        self.commands = []

    def apply(self, seat: int, cmd: Command) -> list:
        """Apply and remember; raises Rejected like engine.apply."""
        ev = apply(self.state, seat, cmd)
        self.commands.append((seat, cmd))
        self.events.extend(ev)
        return ev

    def pending(self) -> list[Decision]:
        return pending(self.state)

    def legal(self, seat: int) -> list[Command]:
        return legal(self.state, seat)

    def view(self, viewer: Viewer) -> dict:
        return view(self.state, viewer)

    @property
    def over(self) -> bool:
        return is_over(self.state)

    def record(self) -> dict[str, Any]:
        """A serialisable record: config, commands, and the fully revealed
        events and result. The board and tiles files are included when the
        table brought its own (None: the defaults)."""
        cfg = self.config
        return {
            "format": RECORD_FORMAT,
            "config": config_to_plain(cfg),
            "commands": [[seat, plain(cmd)] for seat, cmd in self.commands],
            "events": [project(e, EVERYONE) for e in self.events],
            "result": plain(self.state.result) if self.state.result is not None else None,
        }


def config_to_plain(cfg: OroConfig) -> dict[str, Any]:
    """The config as a record keeps it; revision 1 as it always was, without
    the key (O10.2)."""
    revised = {"rules_revision": cfg.rules_revision} if cfg.rules_revision > 1 else {}
    return {
        "seats": cfg.seats, "seed": cfg.seed, "gods": cfg.gods, "board": cfg.board, "tiles": cfg.tiles,
        "deck": list(cfg.deck) if cfg.deck is not None else None,
        "stones": list(cfg.stones) if cfg.stones is not None else None,
        "first_seat": cfg.first_seat, **revised,
    }


def config_from_plain(data: dict[str, Any]) -> OroConfig:
    """A record's config; one without a revision was written before there
    were revisions and replays as revision 1 (O10.2)."""
    deck, stones = data.get("deck"), data.get("stones")
    return OroConfig(
        seats=data["seats"], seed=data.get("seed", 0), gods=data.get("gods", False),
        board=data.get("board"), tiles=data.get("tiles"),
        deck=tuple(deck) if deck is not None else None,
        stones=tuple(stones) if stones is not None else None,
        first_seat=data.get("first_seat"), rules_revision=data.get("rules_revision", 1),
    )


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a game from its record by re-applying every command."""
    game = Game(config_from_plain(record["config"]))
    for seat, cmd in record["commands"]:
        game.apply(seat, command_from_plain(cmd))
    return game
