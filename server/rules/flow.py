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


def current_decision_id(state: GameState) -> int | None:
    if state.prompt is not None:
        return state.prompt
    if state.round is not None:
        return state.round.decision
    return None
