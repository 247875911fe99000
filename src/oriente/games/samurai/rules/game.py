"""A game with its history: the convenient way to drive the engine.

`Game` keeps the ordered commands next to the state, so a finished game is
a record (config + commands) that `replay` turns back into every event,
exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .commands import Command
from .config import GameConfig
from .decisions import Decision
from .engine import apply, is_over, legal, new_game, pending
from .serial import command_from_plain, plain
from .state import GameState
from .views import EVERYONE, Viewer, project, view

RECORD_FORMAT = "samurai.record.v1"


@dataclass
class Game:
    config: GameConfig
    state: GameState = field(init=False)
    events: list = field(init=False)
    commands: list[tuple[int, Command]] = field(init=False, default_factory=list)

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
        """A serialisable game record: config, commands, and the fully
        revealed events and result."""
        return {
            "format": RECORD_FORMAT,
            "game": "samurai",
            "config": self.config.to_plain(),
            "commands": [[seat, plain(cmd)] for seat, cmd in self.commands],
            "events": [project(e, EVERYONE) for e in self.events],
            "result": plain(self.state.result) if self.state.result is not None else None,
        }


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a game from its record by re-applying every command."""
    game = Game(GameConfig.from_plain(record["config"]))
    for seat, cmd in record["commands"]:
        game.apply(seat, command_from_plain(cmd))
    return game
