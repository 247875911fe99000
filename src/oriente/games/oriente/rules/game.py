"""A game with its history: the convenient way to drive the engine.

`Game` keeps the ordered commands next to the state, so a finished game is
a record (config + commands) that `replay` turns back into every event,
exactly (docs/architecture.md: replays are reads of the log).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .commands import Command
from .config import GameConfig
from .engine import answers, apply, deal_options, is_over, legal, new_game, pending
from .serial import command_from_plain, plain
from .state import GameState
from .views import EVERYONE, Viewer, project, view


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

    def pending(self):
        return pending(self.state)

    def legal(self, seat: int) -> list[Command]:
        """Everything `seat` may send now: `answers` then `deal_options`."""
        return legal(self.state, seat)

    def answers(self, seat: int) -> list[Command]:
        """`seat`'s answers to the open decision (each names its `decision`)."""
        return answers(self.state, seat)

    def deal_options(self, seat: int) -> list[Command]:
        """`seat`'s answers to open deals and free promises (R8.6)."""
        return deal_options(self.state, seat)

    def view(self, viewer: Viewer) -> dict:
        return view(self.state, viewer)

    @property
    def over(self) -> bool:
        return is_over(self.state)

    def record(self) -> dict:
        """A serialisable game record: config, commands, and (once over) the
        fully revealed events and result."""
        cfg = self.config
        return {
            "format": "oriente.record.v1",
            "config": {
                "seats": cfg.seats, "seed": cfg.seed,
                "deck": list(cfg.deck) if cfg.deck is not None else None,
                "treasures": list(cfg.treasures) if cfg.treasures is not None else None,
                "stone_holder": cfg.stone_holder, "max_open_proposals": cfg.max_open_proposals,
                "rules_revision": cfg.rules_revision,
            },
            "commands": [[seat, plain(cmd)] for seat, cmd in self.commands],
            "events": [project(e, EVERYONE) for e in self.events],
            "result": plain(self.state.result) if self.state.result is not None else None,
        }


def config_from_plain(data: dict[str, Any]) -> GameConfig:
    deck = data.get("deck")
    treasures = data.get("treasures")
    return GameConfig(
        seats=data["seats"], seed=data.get("seed", 0),
        deck=tuple(deck) if deck is not None else None,
        treasures=tuple(treasures) if treasures is not None else None,
        stone_holder=data.get("stone_holder"),
        max_open_proposals=data.get("max_open_proposals", 3),
        # A record without it was written before there were revisions: R10.2b2
        # did not exist then, and its decision ids are those of revision 1.
        rules_revision=data.get("rules_revision", 1),
    )


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a game from its record by re-applying every command."""
    game = Game(config_from_plain(record["config"]))
    for seat, cmd in record["commands"]:
        game.apply(seat, command_from_plain(cmd))
    return game
