"""Whole games in one process, every seat played by one of its game's
reference bots, through the port alone: the one self-play loop, for the
tests and benchmarks that need finished games of any game.

It stands in for a zero-wait table whose seats are all the server's bots
(server/bots.py): after every step each seat's bot is asked with that
seat's own view and prompt (what its frame would carry) and its own
generator and memo, and answers at most once per answer key
(`BotMove.key`, unless `again`); the answers found on one state are
applied in turn, the seat the decision waits on last, so that the others'
early answers and offers come first, as they race it on a table. An answer
the rules refuse once an earlier one changed the state came too late and
is counted (`refused`), as the table would answer it `decision/closed`;
the first answer of a state is decided on that very state, so its refusal
is the bot's error (`SelfPlayError` when `strict`). When no bot answers,
the table's clock closes the open decision (`timeout_command`).

The game is the port's replay (`replay.Replay`); `record()` is a record
in the game's own format, which `replay.replay` plays again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .port import EVERYONE, TABLE_SEAT, BotMove, GamePort, GameSetup, RulesRejection
from .replay import RULES_RECORD, Replay

# Commands one game may take before the loop gives up (no game comes near).
MAX_COMMANDS = 100_000


class SelfPlayError(RuntimeError):
    """A bot answered what the rules refuse, or the game would not end."""


@dataclass
class SelfPlayed:
    """A finished game: its setup, its replay (state and every event), the
    commands in the order applied, and the late answers refused by code."""

    port: GamePort
    setup: GameSetup
    played: Replay
    commands: list[tuple[int, Any]] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)

    @property
    def result(self) -> dict[str, Any] | None:
        return self.played.result

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.played.events

    def record(self) -> dict[str, Any]:
        """The game as a record (`<game>.record.v1`, the fully revealed
        events): what `replay.replay` plays again."""
        return {"format": self.port.name + RULES_RECORD, "game": self.port.name, "config": self.setup.record,
                "commands": [[seat, command] for seat, command in self.commands],
                "events": [self.port.project(e, EVERYONE) for e in self.played.events], "result": self.result}


def seat_rng(seed: int, seat: int) -> random.Random:
    """A seat's bot's own generator for a game of `seed`."""
    return random.Random(f"selfplay:{seed}:{seat}")


def play(port: GamePort, seats: int, seed: int, policies: str | Sequence[str], *,
         options: Mapping[str, Any] | None = None, strict: bool = True,
         max_commands: int = MAX_COMMANDS) -> SelfPlayed:
    """Play one game of `port`'s to its end: `seats` seats, dealt by `seed`,
    with `options` (on top of the port's options for new tables); each seat
    played by the reference bot `policies[seat]` (one name: every seat)."""
    names = [policies] * seats if isinstance(policies, str) else list(policies)
    if len(names) != seats or any(name not in port.policies for name in names):
        raise ValueError(f"one bot of {', '.join(port.policies) or 'none'} per seat, not {names!r}")
    setup = port.configure(seats, seed, {**port.new_table_options, **(options or {})}, {})
    game = SelfPlayed(port, setup, Replay.start(port, setup.config))
    rngs = [seat_rng(seed, s) for s in range(seats)]
    memos: list[dict[str, Any]] = [{} for _ in range(seats)]
    sent: list[set[tuple[Any, ...]]] = [set() for _ in range(seats)]
    while game.result is None:
        if len(game.commands) >= max_commands:
            raise SelfPlayError(f"{port.name}: no end after {max_commands} commands")
        waiting = port.waiting(game.played.state)
        first = waiting.pivot if waiting is not None and waiting.pivot is not None else -1
        order = [s for s in range(seats) if s != first] + ([first] if first >= 0 else [])
        prompts = port.prompts(game.played.state, list(order))
        moves: list[tuple[int, BotMove]] = []
        for seat in order:
            move = port.bot_move(names[seat], seat, port.view(game.played.state, seat), prompts[seat], rngs[seat],
                                 memos[seat])
            if move is not None and (move.key not in sent[seat] or move.again):
                sent[seat].add(move.key)
                moves.append((seat, move))
        applied = 0
        for seat, move in moves:
            try:
                game.played.apply(seat, move.command)
            except RulesRejection as exc:
                if strict and applied == 0:
                    raise SelfPlayError(f"{port.name}: the {names[seat]} bot at seat {seat} sent "
                                        f"{move.command!r}, which the rules refuse: {exc}") from exc
                game.refused[exc.code] += 1
                continue
            game.commands.append((seat, move.command))
            applied += 1
        if applied:
            continue
        if waiting is None:
            raise SelfPlayError(f"{port.name}: the game has not ended, yet nothing waits")
        timeout = port.timeout_command(waiting)
        game.played.apply(TABLE_SEAT, timeout)
        game.commands.append((TABLE_SEAT, timeout))
    return game


__all__ = ["MAX_COMMANDS", "SelfPlayError", "SelfPlayed", "play", "seat_rng"]
