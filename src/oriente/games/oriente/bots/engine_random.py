"""The random policy of docs/benchmarks.md, played on the engine's state:
what the engine benchmark (bench/engine.py) measures and what many tests
use to reach random positions.

At every decision pass with probability 1/2 where passing is legal,
otherwise pick uniformly among the other legal game commands; close a
negotiation window at once with the table's timeout. No deals, no chat, no
early (sealed) answers: only the seat the engine waits on acts. (The
reference bot `random`, `random_policy.py` beside this, plays from a
seat's view instead, as a server bot does.) It needs the full state, so it
runs in-process only; a bot talking the protocol would build the same
choice from its view's `legal` list.
"""

from __future__ import annotations

import random

from ..rules import TABLE, Pass, Timeout, legal, pending
from ..rules.commands import DECISION_COMMANDS, Command
from ..rules.state import GameState


def random_move(state: GameState, rng: random.Random) -> tuple[int, Command] | None:
    """The (seat, command) to apply next, or None once the game is over.

    A window (a decision with no pivot) waits on the clock alone, so the
    table's timeout is the only way to move on without deals."""
    decisions = pending(state)
    if not decisions:
        return None
    d = decisions[0]
    seat = d.pivot
    if seat is None:
        return TABLE, Timeout(decision=d.id, pivot=None)
    passes: list[Command] = []
    others: list[Command] = []
    for c in legal(state, seat):
        if isinstance(c, Pass):
            passes.append(c)
        elif isinstance(c, DECISION_COMMANDS):
            others.append(c)
    if passes and (not others or rng.random() < 0.5):
        return seat, passes[0]
    if not others:
        # Waiting on a seat that may send nothing would hang a real table
        # until its clock ran out: a rules bug, so say so loudly.
        raise RuntimeError(f"decision {d.id} waits on seat {seat}, which has no legal answer")
    return seat, others[rng.randrange(len(others))]
