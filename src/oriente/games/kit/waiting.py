"""What every served game's port says about its open decisions the same way.

Oriente, Oro and Samurai all describe their open decisions with the
shared decision shape of `games/kit` (a `key` whose first item is the
decision's id, a `pivot`, a `timer` kind) and all take the table's clock
as a `Timeout` command naming that decision and pivot. These two functions
hold that once, so a port only says where its decisions come from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .port import Waiting


def first_waiting(decisions: Sequence[Any]) -> Waiting | None:
    """The decision the table waits on: the first of the rules' pending
    decisions, or None when nothing is open (the game has ended)."""
    if not decisions:
        return None
    d = decisions[0]
    return Waiting(key=d.key, pivot=d.pivot, timer=d.timer.value)


def timeout_for(waiting: Waiting) -> dict[str, Any]:
    """The `Timeout` command the table's clock sends when `waiting` runs out."""
    return {"type": "Timeout", "decision": waiting.key[0], "pivot": waiting.pivot}
