"""The one gate for Oro's hidden information (O8.5-O8.8).

`view(state, viewer)` is everything a viewer may know now; `project(event,
viewer)` is what a viewer may see of one event; `decision_view` the open
decision as the viewer may see it. Nothing else turns engine data into
something a client gets. Viewers: a seat number, `SPECTATOR` (public
information only) or `EVERYONE` (the finished game's record).

Hidden is the default: a field not listed here never leaves the engine.
A card a viewer may not know is shown as None (never a handle it could
follow); cards are islands, never copies (O8.7).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...kit.plain import plain
from ...kit.projection import withheld
from . import knowledge as K
from .board import GODS
from .commands import GiveUp
from .decisions import DecisionKind
from .engine import may_pass, pending
from .legality import legal
from .state import OroState, Phase
from .turn import draw_limit

__all__ = ["EVERYONE", "SPECTATOR", "decision_view", "decision_views", "plain", "project", "view"]

SPECTATOR = "spectator"
EVERYONE = "all"
Viewer = int | str


def _seat(viewer: Viewer) -> int | None:
    return viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None


# -- events ----------------------------------------------------------------------------

def project(event: Any, viewer: Viewer) -> dict:
    """What `viewer` may see of `event` (typed or plain). Every event has a
    projection for every viewer; public events come back as the same dict
    (treat it as read-only)."""
    full = event if isinstance(event, dict) else plain(event)
    if viewer == EVERYONE or full["type"] in PUBLIC:
        return full
    redact = _REDACT.get(full["type"])
    return withheld(full) if redact is None else redact(full, _seat(viewer))


def _game_started(e: dict, seat: int | None) -> dict:
    return {**e, "hands": [h if s == seat else [None] * len(h) for s, h in enumerate(e["hands"])]}


def _own(e: dict, seat: int | None) -> dict:
    return e if e["seat"] == seat else {**e, "island": None}


def _drew(e: dict, seat: int | None) -> dict:
    return e if e["from_display"] or e["seat"] == seat else {**e, "island": None}


def _pair(key: str) -> Callable[[dict, int | None], dict]:
    """The acting seat and the seat named by `key` see the card."""

    def redact(e: dict, seat: int | None) -> dict:
        return e if seat in (e["seat"], e[key]) else {**e, "island": None}
    return redact


def _ku_looked(e: dict, seat: int | None) -> dict:
    return e if seat in (e["seat"], e["target"]) else {**e, "hand": [None] * len(e["hand"])}


def _pele_took(e: dict, seat: int | None) -> dict:
    if seat == e["seat"]:
        return e
    return {**e, "taken": [[o, c if o == seat else None] for o, c in e["taken"]]}


# The events every viewer sees whole (O8.5). With those of _REDACT, every
# event type the rules emit; any other reaches no viewer but "all" (kit.projection).
PUBLIC = frozenset({
    "BridgeRemoved", "Built", "ControlGained", "ControlLost", "DisplayOpened", "FinalRoundBegan", "GameEnded",
    "LonoUsed", "Passed", "Replaced", "Reshuffled", "Scored", "TurnBegan", "TurnEnded",
})

# The only events with hidden parts, each with what hides them.
_REDACT = {
    "GameStarted": _game_started,
    "GaveUp": _own,
    "Discarded": _own,
    "Drew": _drew,
    "KuLooked": _ku_looked,
    "KuTook": _pair("target"),
    "PeleGave": _pair("to"),
    "PeleTook": _pele_took,
}
# Every event type this projection knows (tests: every type the rules define).
LISTED = PUBLIC | frozenset(_REDACT)


# -- the open decision -----------------------------------------------------------------

def decision_view(state: OroState, viewer: Viewer) -> dict | None:
    """The open decision as `viewer` may see it: who is asked, the pivot,
    what silence means, what it is about, the viewer's own sealed answer,
    and (for a seat) its legal commands."""
    decisions = pending(state)
    if not decisions:
        return None
    d = decisions[0]
    out: dict[str, Any] = {
        "id": d.id, "kind": d.kind.value, "topic": d.topic.value, "rule": d.rule,
        "asked": list(d.asked), "pivot": d.pivot, "early": list(d.early),
        "timer": d.timer.value, "silence": d.silence,
    }
    seat = _seat(viewer)
    if d.kind is DecisionKind.ROUND:
        # O8.2: who is final is public; a choice only to its own seat, as
        # the command that handed it in (the protocol's `sealed`).
        out["final"] = state.asked[: state.pos]
        if seat is not None:
            mine = state.given.get(seat, state.sealed.get(seat))
            if mine is not None:
                out["sealed"] = plain(GiveUp(decision=d.id, island=mine))
        elif viewer == EVERYONE:
            out["sealed"] = {str(s): plain(GiveUp(decision=d.id, island=c))
                             for s, c in {**state.sealed, **state.given}.items()}
    elif state.phase is Phase.REMOVE:
        out["island"] = state.queue[0]
        out["options"] = list(state.remove_options)
    elif state.phase is Phase.KU:
        out["target"] = state.ku_target
    elif state.phase is Phase.PELE:
        out["to"] = state.pele_queue[0]
    else:
        out["limit"] = draw_limit(state)
        out["may_pass"] = may_pass(state, state.active)
    if seat is not None:
        out["legal"] = [plain(c) for c in legal(state, seat)]
    return out


def decision_views(state: OroState, viewers: list[Viewer]) -> dict[Viewer, dict | None]:
    return {v: decision_view(state, v) for v in viewers}


# -- the whole view ----------------------------------------------------------------------

def _hands(state: OroState, viewer: Viewer) -> list[dict]:
    seat = _seat(viewer)
    observer = state.public if seat is None or not 0 <= seat < state.n else seat
    everything = viewer == EVERYONE
    out = []
    for s, hand in enumerate(state.hands):
        entry: dict[str, Any] = {"seat": s, "size": len(hand)}
        if s == seat or everything:
            entry["cards"] = sorted(hand)
            entry["known_to"] = K.known_to(state, s)
        else:
            entry["cards"] = None
            entry["known"] = K.known_cards(state, observer, s)
        out.append(entry)
    return out


def view(state: OroState, viewer: Viewer) -> dict:
    """Everything `viewer` may know now (O8.5)."""
    board = state.board
    n = state.n
    open_counts = [0] * board.islands
    for c in state.played:
        open_counts[c] += 1
    in_turn = state.phase in (Phase.TURN, Phase.FINAL, Phase.REMOVE, Phase.KU, Phase.PELE)
    out: dict[str, Any] = {
        "game": "oro",
        "viewer": viewer,
        "seats": n,
        "gods": state.gods,
        "board": board.plain(),
        "phase": state.phase.value,
        "half": state.half,
        "first_seat": state.first_seat,
        "active": state.active if in_turn else None,
        "turn": {"cards_played": state.cards_played, "discarded": state.discarded, "acted": state.acted}
        if in_turn else None,
        "bridges": list(state.bridges),
        "control": list(state.controller),
        "scores": list(state.scores),
        "display": list(state.display),
        "deck_size": len(state.deck),
        "discard": {"open": open_counts, "hidden": len(state.hidden)},
        "hands": _hands(state, viewer),
        "final": {"owed": [s for s in range(n) if state.owed[s]], "order": list(state.final_order)}
        if state.half == 3 else None,
        "decision": decision_view(state, viewer),
        "result": plain(state.result) if state.result is not None else None,
    }
    if state.gods:
        out["stones"] = list(state.stones)
        out["held"] = [dict(h) for h in state.held]
        out["used"] = {k: state.used.count(k) for k in GODS}
    seat = _seat(viewer)
    if seat is not None and 0 <= seat < n:
        out["my_hidden"] = sorted(c for s, c in state.hidden if s == seat)
    elif viewer == EVERYONE:
        out["deck"] = list(state.deck)
        out["hidden"] = [list(h) for h in state.hidden]
    return out
