"""What the table actor reads of a game's open decision, as plain names.

Each game has its own topics, rules and silences; the *kind* of decision
and the *timer* that gives its deadline are the table's vocabulary
(docs/table.md T1), shared by every game so the actor switches on the same
strings whatever it serves.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

# The seat number of commands the table itself applies (a timeout).
TABLE: Final = -1


class DecisionKind(str, Enum):
    PROMPT = "prompt"  # one seat decides
    ROUND = "round"  # several seats, asked in order, one pivot at a time; the others may answer early, sealed
    WINDOW = "window"  # a timed window that waits on the clock alone


class Timer(str, Enum):
    """Which of the table's timer settings gives the deadline (docs/table.md T1)."""

    PROMPT = "prompt"
    WINDOW = "window"
