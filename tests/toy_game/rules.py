"""High card, a toy game whose only purpose is to prove the game seam: a
second game the table actor serves without knowing it.

Rules (ids H1..H5, cited by tests/server/test_toy_game.py):

- H1 Two or three seats; option `rounds` (1 to 9, default 3).
- H2 Each round every seat is dealt one card from a deck of 1..12 shuffled
  by the table seed; only its owner sees it until the reveal.
- H3 Every seat then bids, raise or fold, all at once: the decision asks
  the seats in order; the pivot is the lowest seat that has not bid yet,
  and any seat may bid ahead of its turn, sealed (shown to nobody, not even
  that it exists). When the pivot's turn comes and goes, everybody learns
  that it has bid, not what.
- H4 Silence folds.
- H5 When all have bid, the cards and bids are revealed; the highest card
  among the raisers scores one point per raiser. After the last round the
  highest score ranks first (ties share).

Pure: no I/O, no clock; randomness from a splitmix64 generator whose state
lives in the game state, so the same seed deals the same cards everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from oriente.games.kit.projection import withheld
from oriente.refusal import Refusal

DECK = tuple(range(1, 13))
MASK = (1 << 64) - 1


class Refused(Refusal):
    """A command the toy game's rules refuse (a Refusal, as every game's)."""


def _splitmix(x: int) -> tuple[int, int]:
    """One step of splitmix64: the next state and its output."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


@dataclass
class State:
    seats: int
    rounds: int
    rng: int
    round: int = 0
    cards: list[int] = field(default_factory=list)
    bids: dict[int, bool] = field(default_factory=dict)  # sealed until the reveal
    turns_done: int = 0  # seats whose turn has passed (their bid is known to exist)
    scores: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @property
    def over(self) -> bool:
        return self.result is not None

    def draw(self) -> list[int]:
        """A fresh shuffle of the deck (Fisher-Yates on the state's generator), one card per seat."""
        deck = list(DECK)
        for i in range(len(deck) - 1, 0, -1):
            self.rng, out = _splitmix(self.rng)
            j = out % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck[: self.seats]

    @property
    def pivot(self) -> int | None:
        return None if self.over else self.turns_done


def new_game(seats: int, seed: int, rounds: int) -> tuple[State, list[dict[str, Any]]]:
    state = State(seats=seats, rounds=rounds, rng=seed & MASK, scores=[0] * seats)
    return state, [{"type": "HighCardStarted", "seats": seats, "rounds": rounds}, *_next_round(state)]


def _next_round(state: State) -> list[dict[str, Any]]:
    state.round += 1
    state.cards = state.draw()
    state.bids = {}
    state.turns_done = 0
    return [{"type": "RoundDealt", "round": state.round, "cards": list(state.cards)}]


def _bid(state: State, seat: int, raise_: bool) -> list[dict[str, Any]]:
    state.bids[seat] = raise_
    events: list[dict[str, Any]] = []
    while state.turns_done < state.seats and state.turns_done in state.bids:  # H3: turns that came and went
        events.append({"type": "Bid", "round": state.round, "seat": state.turns_done})
        state.turns_done += 1
    if state.turns_done < state.seats:
        return events
    raisers = [s for s in range(state.seats) if state.bids[s]]
    winner = max(raisers, key=lambda s: state.cards[s]) if raisers else None
    if winner is not None:
        state.scores[winner] += len(raisers)
    events.append({"type": "Revealed", "round": state.round, "cards": list(state.cards),
                   "bids": [state.bids[s] for s in range(state.seats)], "winner": winner,
                   "scores": list(state.scores)})
    if state.round < state.rounds:
        return events + _next_round(state)
    ranks = [1 + sum(1 for other in state.scores if other > mine) for mine in state.scores]
    state.result = {"type": "HighCardOver", "scores": list(state.scores), "ranks": ranks}
    events.append(dict(state.result))
    return events


def apply(state: State, seat: int, command: Any) -> list[dict[str, Any]]:
    """`seat` is a seat, or -1 for the table's timeout (H4). Raises Refused,
    leaving the state untouched."""
    if not isinstance(command, dict) or command.get("type") not in ("Bid", "Timeout"):
        raise Refused("command/unknown", "high card knows Bid and Timeout")
    if state.over:
        raise Refused("game/over", "the game has ended")
    decision = command.get("decision")
    if decision != state.round:
        code = "decision/closed" if isinstance(decision, int) and 0 < decision < state.round else "decision/unknown"
        raise Refused(code, f"the open decision is {state.round}")
    if command["type"] == "Timeout":
        if seat != -1 or command.get("pivot") != state.pivot:
            raise Refused("timeout/not_table", "only the table's clock sends timeouts, for the pivot")
        return _bid(state, state.turns_done, False)
    if not 0 <= seat < state.seats:
        raise Refused("seat/unknown", f"seats are 0..{state.seats - 1}")
    if seat in state.bids:
        raise Refused("decision/answered", "you have bid this round")
    if not isinstance(command.get("raise"), bool):
        raise Refused("command/invalid", "a Bid says raise: true or false")
    return _bid(state, seat, command["raise"])


def prompt(state: State, viewer: int | str) -> dict[str, Any] | None:
    if state.over:
        return None
    out: dict[str, Any] = {"id": state.round, "kind": "round", "topic": "bid", "rule": "H3",
                           "asked": list(range(state.seats)), "pivot": state.pivot,
                           "early": [s for s in range(state.seats) if s not in state.bids],
                           "timer": "prompt", "silence": "fold"}
    if isinstance(viewer, int):
        if viewer in state.bids:
            out["sealed"] = {"type": "Bid", "decision": state.round, "raise": state.bids[viewer]}
            out["legal"] = []
        else:
            out["legal"] = [{"type": "Bid", "decision": state.round, "raise": r} for r in (True, False)]
    return out


def view(state: State, viewer: int | str) -> dict[str, Any]:
    return {"viewer": viewer, "round": state.round, "rounds": state.rounds, "scores": list(state.scores),
            "cards": [c if viewer in (s, "all") or state.over else None for s, c in enumerate(state.cards)],
            "turns_done": state.turns_done, "decision": prompt(state, viewer)}


PUBLIC = frozenset({"HighCardStarted", "Bid", "Revealed", "HighCardOver"})


def project(event: dict[str, Any], viewer: int | str) -> dict[str, Any]:
    """H2: a dealt card is its owner's alone. An event of a type not listed
    here reaches no viewer but "all" (fail-closed, games/kit/projection.py)."""
    if viewer == "all" or event["type"] in PUBLIC:
        return event
    if event["type"] == "RoundDealt":
        return {**event, "cards": [c if s == viewer else None for s, c in enumerate(event["cards"])]}
    return withheld(event)


LISTED = PUBLIC | {"RoundDealt"}
