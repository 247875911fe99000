"""A finished game, step by step, as one viewer saw it: for replays.

A record holds the configuration and every command, so the game can be
played again; this module does that and keeps, after each command, the
events projected for the viewer and the viewer's whole view. The one gate
(`views.project`, `views.view`) decides what each step shows, exactly as
it did live, so a replay "as seat 2" cannot show more than seat 2 knew.

The table's own events (names, chat, presence) carry their sequence
numbers in the record; game events take the numbers in between, in order.
That merges the two lists back into the order everyone saw live.
"""

from __future__ import annotations

from typing import Any

from .game import Game, config_from_plain
from .serial import command_from_plain
from .views import Viewer, project, view


def _without_legal(v: dict[str, Any]) -> dict[str, Any]:
    decision = v.get("decision")
    if isinstance(decision, dict) and "legal" in decision:
        v = {**v, "decision": {k: x for k, x in decision.items() if k != "legal"}}
    return v


def replay_steps(record: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """{"seats", "names", "viewer", "result", "steps": [{"events", "view"}]}:
    step 0 is the deal, then one step per recorded command."""
    game = Game(config_from_plain(record["config"]))
    steps: list[dict[str, Any]] = []
    game_events: list[tuple[int, dict[str, Any]]] = []  # (step, projected event)

    def take(step: int, start: int) -> None:
        for e in game.events[start:]:
            game_events.append((step, project(e, viewer)))
        steps.append({"events": [], "view": _without_legal(view(game.state, viewer))})

    take(0, 0)
    for seat, cmd in record["commands"]:
        start = len(game.events)
        game.apply(seat, command_from_plain(cmd))
        take(len(steps), start)

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
    return {
        "format": "oriente.replay.v1",
        "table": record.get("table"),
        "seats": record["config"]["seats"],
        "names": record.get("names") or [],
        "viewer": viewer,
        "result": record.get("result"),
        "steps": steps,
    }
