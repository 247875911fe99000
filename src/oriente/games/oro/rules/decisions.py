"""Decisions as data (O8): what Oro's engine waits for, from whom, and what
silence means.

The shape is every game's (the table actor arms one deadline per (decision
id, pivot) and reads `kind` and `timer` as plain strings), so `DecisionKind`
and `Timer` come from `...kit`; the topics, rules and silence meanings
are Oro's.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from ...kit.decisions import DecisionKind, Timer

__all__ = ["RULE", "SILENCE", "Decision", "DecisionKind", "Timer", "Topic"]


class Topic(str, Enum):
    """What the decision is about; clients render prompts from it."""

    GIVE_UP = "give_up"  # O2.2, O8.2: the simultaneous setup choice
    TURN = "turn"  # O3: a turn of the first or second half
    FINAL_TURN = "final_turn"  # O5.5: a turn of the final round (passing allowed)
    REMOVE = "remove"  # O4.5: which bridge a relative majority removes
    KU = "ku"  # O7.6: which card Ku takes
    PELE = "pele"  # O7.7: which card Pele gives back


RULE = {
    Topic.GIVE_UP: "O2.2",
    Topic.TURN: "O3.1",
    Topic.FINAL_TURN: "O5.5",
    Topic.REMOVE: "O4.5",
    Topic.KU: "O7.6",
    Topic.PELE: "O7.7",
}

SILENCE = {
    Topic.GIVE_UP: "give up a card picked at random",
    Topic.TURN: "end the turn as it stands: discard at random face down while over the limit, then draw "
                "the deck's top card (the first display card when the deck is empty)",
    Topic.FINAL_TURN: "end the final turn as it stands (no pass)",
    Topic.REMOVE: "remove a bridge picked at random among the options",
    Topic.KU: "take a card picked at random",
    Topic.PELE: "give back a card picked at random",
}


class Decision(NamedTuple):
    """One open decision. `asked` lists the seats in order; `pivot` is the
    seat waited on; `early` the seats that may hand in a sealed answer now
    (O8.2); `timer` names the table setting that gives the pivot's deadline."""

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
