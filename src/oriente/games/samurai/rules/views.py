"""The one gate for hidden information (S7.4).

`view(state, viewer)` is everything a viewer may know now; `project(event,
viewer)` is what a viewer may see of one event. Nothing else turns engine
data into something a client gets. Both return plain data.

Viewers: a seat number, `SPECTATOR` (public information only), or `EVERYONE`
(the post-game record: everything). Hidden is the default: a state field
not listed here never leaves the engine. A tile a viewer may not know is
shown as None, never as an index it could follow.

Hidden: a seat's hand and supply (its own only; the supply's order from
everyone), a sealed tile choice (its seat only), and — with 3 or 4 players
— a seat's captured figures, behind its screen (its seat only). After the
game everything is public (S5.5).
"""

from __future__ import annotations

from typing import Any

from ...kit.projection import withheld
from ._shared import plain
from .engine import legal, pending
from .pieces import FIGURES
from .state import GameState, Phase

SPECTATOR = "spectator"
EVERYONE = "all"
Viewer = int | str


def _is_seat(viewer: Viewer) -> bool:
    return isinstance(viewer, int) and not isinstance(viewer, bool)


def project(event: Any, viewer: Viewer) -> dict:
    """What `viewer` may see of `event` (a typed event or its plain form).
    Public events come back as the same dict: treat the result as read-only."""
    full = event if isinstance(event, dict) else plain(event)
    if viewer == EVERYONE or full["type"] in PUBLIC:
        return full
    if full["type"] in _OWN_TILES:
        return full if full["seat"] == viewer else {**full, "tiles": [None] * len(full["tiles"])}
    return withheld(full)


# The events every viewer sees whole. With _OWN_TILES, every event type the
# rules emit; any other reaches no viewer but "all" (kit.projection).
PUBLIC = frozenset({
    "CapitalFilled", "FigureCaptured", "FigurePlaced", "FiguresSwapped", "GameEnded", "GameStarted",
    "SelectionBegan", "SelectionDone", "TilePlaced", "TileSwapped", "TurnBegan", "TurnEnded", "TurnPassed",
})
# Events whose `tiles` only their seat may see (S7.4).
_OWN_TILES = frozenset({"TilesChosen", "TilesDrawn"})
# Every event type this projection knows (tests: every type the rules define).
LISTED = PUBLIC | _OWN_TILES


def screen_open(state: GameState, seat: int, viewer: Viewer) -> bool:
    """Whether `viewer` sees the figures `seat` captured (S4.3, S7.4)."""
    return state.n == 2 or viewer in (seat, EVERYONE) or state.phase is Phase.OVER


def _figures(counts: list[int]) -> dict[str, int]:
    return {f.value: counts[i] for i, f in enumerate(FIGURES)}


def _board(state: GameState) -> dict[str, Any]:
    """The map in play; its hexes are shared by every view (read-only)."""
    return {"name": state.layout.name, "hexes": list(state.layout.table)}


def view(state: GameState, viewer: Viewer) -> dict[str, Any]:
    """Everything `viewer` may know now (S7.4)."""
    sees_all = viewer == EVERYONE or state.phase is Phase.OVER
    sel = state.selection
    tiles = state.tileset.tiles
    players = []
    for s in range(state.n):
        own = viewer in (s, EVERYONE)
        hand = state.hand[s]
        players.append({
            "seat": s,
            "hand": list(hand) if own or sees_all else [None] * len(hand),
            "hand_size": len(hand),
            "supply": sorted(state.supply[s]) if own or sees_all else None,
            "supply_size": len(state.supply[s]),
            "boxed": list(state.boxed[s]),
            "captured": _figures(state.captured[s]) if screen_open(state, s, viewer) else None,
            "chosen": sel is None or s in sel.asked[:sel.pos],
        })
    return {
        "game": "samurai",
        "viewer": viewer,
        "seats": state.n,
        "first": state.first,
        "phase": state.phase.value,
        "turn": state.turn,
        "board": _board(state),
        "tile_set": {"name": state.tileset.name,
                     "tiles": [{"index": t.index, "kind": t.kind.value, "strength": t.strength, "fast": t.fast}
                               for t in tiles]},
        "figures": [{"hex": h, "figures": [f.value for f in state.figures_at.get(h, ())]}
                    for h in state.layout.settlements],
        "figure_supply": {f.value: state.figure_supply[f] for f in FIGURES},
        "tiles": [{"hex": h, "seat": s, "tile": t, "kind": tiles[t].kind.value, "strength": tiles[t].strength}
                  for h, (s, t) in sorted(state.tiles_at.items())],
        "set_aside": _figures(state.set_aside),
        "players": players,
        "current": None if state.phase is not Phase.TURNS else {
            "seat": state.prompt_seat, "placed": state.placed, "plain_used": state.plain_used},
        "passes": state.passes,
        "decision": decision_view(state, viewer),
        "result": plain(state.result) if state.result is not None else None,
    }


def decision_views(state: GameState, viewers: list[Viewer]) -> dict[Viewer, dict | None]:
    """decision_view for several viewers, sharing the common part."""
    base = _decision_base(state)
    return {v: None if base is None else _decision_for(state, base, v) for v in viewers}


def decision_view(state: GameState, viewer: Viewer) -> dict | None:
    """The open decision as `viewer` may see it: who is asked, the pivot,
    what silence means, its own sealed choice, and its legal commands. The
    tile choice, a combination not listed in `legal`, is described by
    `choose` (S7.2)."""
    base = _decision_base(state)
    return None if base is None else _decision_for(state, base, viewer)


def _decision_base(state: GameState) -> dict | None:
    decisions = pending(state)
    if not decisions:
        return None
    d = decisions[0]
    out: dict[str, Any] = {
        "id": d.id, "kind": d.kind.value, "topic": d.topic.value, "rule": d.rule,
        "asked": list(d.asked), "pivot": d.pivot, "early": list(d.early),
        "timer": d.timer.value, "silence": d.silence,
    }
    sel = state.selection
    if sel is not None:
        out["final"] = sel.asked[:sel.pos]
        out["choose"] = {"command": "ChooseTiles", "count": 5, "tiles": list(range(len(state.tileset.tiles)))}
    if state.phase is Phase.TURNS:
        out["placed"] = state.placed
        out["plain_used"] = state.plain_used
    return out


def _decision_for(state: GameState, base: dict, viewer: Viewer) -> dict:
    out = dict(base)
    sel = state.selection
    if sel is not None:
        # A sealed choice is shown to its own seat only, not even that it exists (S7.2).
        if _is_seat(viewer) and viewer in sel.sealed:
            out["sealed"] = list(sel.sealed[viewer])
        elif viewer == EVERYONE:
            out["sealed"] = {str(s): list(t) for s, t in sel.sealed.items()}
    if _is_seat(viewer):
        out["legal"] = [plain(c) for c in legal(state, viewer)]  # type: ignore[arg-type]
    return out
