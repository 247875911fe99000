"""A finished game, step by step, as one viewer saw it: for replays.

A record holds the game's configuration and every command, so the game can
be played again through its port; this module does that and keeps, after
each command, the events projected for the viewer and the viewer's whole
view. The port's one gate (`project`, `view`) decides what each step shows,
exactly as it did live, so a replay "as seat 2" cannot show more than seat 2
knew, whatever the game.

The table's own events (names, chat, presence) carry their sequence
numbers in the record; the game's events take the numbers in between, in
order. That merges the two lists back into the order everyone saw live.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..games.kit.port import EVERYONE, SPECTATOR, GamePort, Viewer
from ..games.kit.replay import steps as replayed_steps
from .query import whole_number

REPLAY_FORMAT = "oriente.replay.v1"


def viewer_of(text: str, seats: int) -> Viewer | None:
    """The viewer a replay address names (`?as=2`, `spectator`, `all`), or
    None for one that is not at this table."""
    if text in (SPECTATOR, EVERYONE):
        return text
    seat = whole_number(text)
    return seat if seat is not None and seat < seats else None


def replay_steps(port: GamePort, record: Mapping[str, Any], viewer: Viewer) -> dict[str, Any]:
    """{"game", "table", "seats", "names", "viewer", "result", "steps":
    [{"events", "view"}]}: step 0 is the start of the game, then one step
    per recorded command (timeouts and the proxy's included)."""
    steps: list[dict[str, Any]] = []
    game_events: list[tuple[int, dict[str, Any]]] = []  # (step, projected event)
    for played, events in replayed_steps(port, record):
        step = len(steps)
        game_events.extend((step, port.project(e, viewer)) for e in events)
        steps.append({"events": [], "view": port.view(played.state, viewer)})

    table_events = sorted(record.get("table_events") or [], key=lambda e: e["seq"])
    taken = {e["seq"] for e in table_events}
    total = len(game_events) + len(table_events)
    free = iter(s for s in range(1, total + 1) if s not in taken)
    merged: list[tuple[int, int | None, dict[str, Any]]] = []
    for step, e in game_events:
        merged.append((next(free, total + 1), step, e))
    for e in table_events:
        merged.append((e["seq"], None, e))
    merged.sort(key=lambda m: m[0])
    current = 0
    for seq, owner, e in merged:
        if owner is not None:
            current = owner
        steps[current]["events"].append({**e, "seq": seq})
    names = record.get("names") or []
    return {
        "format": REPLAY_FORMAT,
        "game": record.get("game"),
        "table": record.get("table"),
        "seats": len(names),
        "names": names,
        "viewer": viewer,
        "result": record.get("result"),
        "steps": steps,
    }
