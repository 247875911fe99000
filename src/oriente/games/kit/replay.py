"""One way to play a game again: from its beginning, every command through
its port, for whoever needs it (the table's recovery, a record's
verification, the replays the server serves, `oriente replay`).

A record is `{"config", "commands": [[seat, command], ...], ...}` in any of
the formats written over time, which all play the same way:

- the table's (`oriente.record.v1` with `game`: the protocol's record,
  server/table/journal.py), and the same written before records named
  their game (no `game`: the protocol's default game);
- a rules package's own (`Game.record()`, `NAME.record.v1`: the game is
  the one named by the format).

`record_game` says whose port replays a record; `replay` plays it to its
end; `steps` plays it one step at a time (the start, then each command),
for those who show each step. A table's recovery, which reads commands
from its log rather than from a record, starts a `Replay` from its own
setup and applies them the same way. Nothing here reads a clock or does
I/O: the same record gives the same events, byte for byte.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .port import TABLE_SEAT, GamePort, PlainEvent

# A rules package's own record format: "<game>.record.v1".
RULES_RECORD = ".record.v1"


class ReplayError(ValueError):
    """A record (or a log) that does not play: what is wrong with it, in a sentence."""


def record_game(record: Mapping[str, Any], games: Collection[str], default: str) -> str:
    """The game whose rules replay `record`: the one it names; else the one
    whose own record format it is (`<game>.record.v1`); else `default`
    (a record written before records named their game)."""
    named = record.get("game")
    if isinstance(named, str):
        return named
    fmt = record.get("format")
    if isinstance(fmt, str) and fmt.endswith(RULES_RECORD) and fmt[: -len(RULES_RECORD)] in games:
        return fmt[: -len(RULES_RECORD)]
    return default


def commands_of(record: Mapping[str, Any]) -> list[tuple[int, Any]]:
    """The record's commands as (seat, command), or ReplayError."""
    found = record.get("commands")
    if not isinstance(found, list):
        raise ReplayError("the record has no list of commands")
    out = []
    for i, pair in enumerate(found):
        if not isinstance(pair, list | tuple) or len(pair) != 2 or not isinstance(pair[0], int) \
                or isinstance(pair[0], bool):
            raise ReplayError(f"command {i} of the record is not a [seat, command] pair")
        out.append((pair[0], pair[1]))
    return out


@dataclass
class Replay:
    """A game being played again through its port: its state after the
    steps applied so far, and every event they gave (as the rules give them,
    before any projection)."""

    port: GamePort
    state: Any
    events: list[PlainEvent] = field(default_factory=list)

    @classmethod
    def start(cls, port: GamePort, config: Any) -> Replay:
        """From a table's setup (`GameSetup.config`), as the table started it."""
        state, events = port.start(config)
        return cls(port, state, list(events))

    @classmethod
    def restart(cls, port: GamePort, record: Mapping[str, Any]) -> Replay:
        """From a record's `config`, as its table started it."""
        config = record.get("config")
        if not isinstance(config, Mapping):
            raise ReplayError("the record has no config")
        state, events = port.restart(config)
        return cls(port, state, list(events))

    def apply(self, seat: int, command: Any, *, timeouts_checked: bool = False) -> list[PlainEvent]:
        """Apply one command as the table did and return its events (the
        port's RulesRejection if the rules refuse it). `timeouts_checked`:
        a timeout from the table must be the one the open decision had
        (ReplayError if not): what a table's own log must hold."""
        if timeouts_checked and seat == TABLE_SEAT:
            waiting = self.port.waiting(self.state)
            if waiting is None or self.port.timeout_command(waiting) != command:
                raise ReplayError("a timeout does not match the open decision")
        events = list(self.port.apply(self.state, seat, command))
        self.events.extend(events)
        return events

    @property
    def result(self) -> dict[str, Any] | None:
        """The game's result once it has ended, else None."""
        return self.port.result(self.state)


def steps(port: GamePort, record: Mapping[str, Any]) -> Iterator[tuple[Replay, list[PlainEvent]]]:
    """Play `record` one step at a time: (the replay so far, that step's
    events) for the start, then for each recorded command."""
    commands = commands_of(record)
    played = Replay.restart(port, record)
    yield played, list(played.events)
    for seat, command in commands:
        yield played, played.apply(seat, command)


def replay(port: GamePort, record: Mapping[str, Any]) -> Replay:
    """Play `record` to its last command; the port's RulesRejection or
    ReplayError (and a port's own errors: KeyError, TypeError, ValueError)
    if it does not play."""
    *_, (played, _) = steps(port, record)
    return played


__all__ = ["RULES_RECORD", "Replay", "ReplayError", "commands_of", "record_game", "replay", "steps"]
