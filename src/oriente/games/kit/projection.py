"""What a viewer gets of an event its game does not list: nothing of it.

A game's projection (`project(event, viewer)` in its rules' views) lists
every event type it knows: those every viewer sees whole, and those with
hidden parts, each with the function that hides them. An event of any
other type is one the projection was not written for (a type added to the
rules and forgotten here), so it reaches no viewer but `"all"` (the record,
after the end): each gets `withheld(event)`, which says that an event
happened and nothing of what it says, and sequence numbers still never
skip. Fail-closed: forgetting a type hides it, instead of showing its
cards to everyone. Pure.
"""

from __future__ import annotations

from typing import Any

# What survives of an unlisted event: its type and its place in the log.
KEPT = ("type", "seq")


def withheld(event: dict[str, Any]) -> dict[str, Any]:
    """An unlisted event as every viewer but "all" gets it."""
    return {key: event[key] for key in KEPT if key in event}


__all__ = ["KEPT", "withheld"]
