"""Opening prompts and rounds: the only places decision ids are minted.

A decision id is never reused, so an answer naming an old id is recognised
as late (`decision/closed`) rather than applied to whatever is open now.
"""

from __future__ import annotations

from .decisions import Topic
from .state import GameState, Phase, Round


def open_prompt(state: GameState, phase: Phase, topic: Topic, seat: int) -> int:
    """A one-seat decision (R10.1)."""
    did = state.next_decision
    state.next_decision += 1
    state.phase = phase
    state.prompt = did
    state.prompt_topic = topic
    state.prompt_seat = seat
    state.round = None
    return did


def open_round(state: GameState, phase: Phase, topic: Topic, asked: list[int]) -> Round:
    """A round (R10.2). The caller runs it once any early answers may apply."""
    did = state.next_decision
    state.next_decision += 1
    state.phase = phase
    state.prompt = None
    state.prompt_topic = None
    state.prompt_seat = None
    state.round = Round(decision=did, topic=topic, asked=asked)
    return state.round


def open_window_round(state: GameState, asked: list[int]) -> Round:
    """A support round behind its negotiation window (R6.2, R10.2b). From
    rules revision 2 the window is a decision of its own, minted first
    (R10.2b2); before, the two shared the round's id."""
    window = None
    if state.config.rules_revision >= 2:
        window = state.next_decision
        state.next_decision += 1
    rnd = open_round(state, Phase.NEGOTIATION, Topic.SUPPORT, asked)
    rnd.window = window
    return rnd


def current_decision_id(state: GameState) -> int | None:
    if state.prompt is not None:
        return state.prompt
    rnd = state.round
    if rnd is not None:
        if rnd.window is not None and state.phase is Phase.NEGOTIATION:
            return rnd.window  # R10.2b2
        return rnd.decision
    return None
