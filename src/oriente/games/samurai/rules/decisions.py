"""Decisions as data (S7): what the engine waits for, from whom, and what
silence means.

The engine says *what* is open; the table actor says *when* it closes. A
deadline belongs to the pair (decision id, pivot): the selection round keeps
its id while its pivot moves on (S7.2); a turn keeps its id and its one
deadline however many tiles it places (S7.1).
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from ._shared import DecisionKind, Timer


class Topic(str, Enum):
    """What the decision is about; clients render prompts from it."""

    SELECT = "select"  # S2.3, S7.2: choose 5 tiles
    FIGURE = "figure"  # S2.5: place a figure
    TURN = "turn"  # S3: place tiles


SILENCE = {
    Topic.SELECT: "5 tiles drawn at random",
    Topic.FIGURE: "a legal placement drawn at random",
    Topic.TURN: ("the turn ends if a tile was placed; otherwise the table places one tile drawn at random"
                 " among the legal placements and ends the turn; a seat that can place nothing passes"),
}

RULE = {Topic.SELECT: "S7.2", Topic.FIGURE: "S2.5", Topic.TURN: "S3.1"}


class Decision(NamedTuple):
    """One open decision, in the shape the table actor reads for every game.

    `asked` lists the seats in the rule's order; `pivot` is the seat waited
    on; `early` the seats that may hand in a sealed answer now (S7.2).
    """

    id: int
    kind: DecisionKind
    topic: Topic
    asked: tuple[int, ...]
    pivot: int | None
    early: tuple[int, ...]
    timer: Timer

    @property
    def rule(self) -> str:
        return RULE[self.topic]

    @property
    def silence(self) -> str:
        return SILENCE[self.topic]

    @property
    def key(self) -> tuple[int, int | None]:
        """What a deadline is armed for: a new key needs a new deadline."""
        return (self.id, self.pivot)


__all__ = ["RULE", "SILENCE", "Decision", "DecisionKind", "Timer", "Topic"]
