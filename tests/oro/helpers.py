"""Positions for Oro's rule and scenario tests, and short ways to act in them.

`position(...)` sets up a game in the middle of a turn from names: whose
turn, the hands, the bridges, the deck, the display, scores and stones.
Control is derived from the bridges (O4.3: a seat controls exactly the
islands where it holds more than half of the places), the cards left over
lie face up on the discard pile, so every card is in one place (O1.7).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from oriente.games.oro.rules import (
    TABLE,
    Build,
    Discard,
    Draw,
    EndTurn,
    GiveBack,
    GiveUp,
    OroConfig,
    Pass,
    Remove,
    Replace,
    Take,
    Timeout,
    UseKu,
    UseLono,
    UsePele,
    apply,
    new_game,
    pending,
)
from oriente.games.oro.rules.board import GODS
from oriente.games.oro.rules.config import RULES_REVISION
from oriente.games.oro.rules.majority import _set, absolute
from oriente.games.oro.rules.state import OroState, Phase

# The rulebook's players in its examples.
BETTY, MATEO, ADAM, KAYLA = 0, 1, 2, 3


def isl(state: OroState, name: str) -> int:
    return state.board.index(name)


def conn(state: OroState, a: str, b: str) -> int:
    return state.board.connection(a, b)


def names(state: OroState, islands: Iterable[int]) -> list[str]:
    return sorted(state.board.names[i] for i in islands)


def position(n: int = 4, *, active: int = 0, hands: dict[int, list[str]] | None = None,
             bridges: dict[tuple[str, str], int] | None = None, deck: list[str] | None = None,
             display: list[str] | None = None, half: int = 1, gods: bool = False,
             held: dict[int, dict[str, int]] | None = None, stones: dict[str, str] | None = None,
             scores: list[int] | None = None, seed: int = 0, revision: int = RULES_REVISION) -> OroState:
    """A game at the start of `active`'s turn (a final turn when half is 3).
    `deck` is top first; without it, every card not placed elsewhere is in
    the deck (in island order) and the discard pile is empty. `revision`:
    the rules revision it plays (O10.1), the current one unless told."""
    state, _ = new_game(OroConfig(seats=n, seed=seed, gods=gods, first_seat=active, rules_revision=revision))
    while state.phase is Phase.GIVE_UP:
        d = pending(state)[0]
        apply(state, TABLE, Timeout(decision=d.id, pivot=d.pivot))
    board = state.board
    state.hands = [[isl(state, x) for x in (hands or {}).get(s, [])] for s in range(n)]
    state.display = [isl(state, x) for x in (display or [])]
    used = Counter(c for h in state.hands for c in h) + Counter(state.display)
    top_first = [isl(state, x) for x in (deck or [])]
    used += Counter(top_first)
    rest = [i for i in range(board.islands) for _ in range(3 - used[i])]
    assert all(used[i] <= 3 for i in range(board.islands)), "more than three cards of an island"
    if deck is None:
        state.deck = rest[::-1]
        state.played = []
    else:
        state.deck = top_first[::-1]
        state.played = rest
    state.hidden = []
    for o in range(n + 1):
        for s in range(n):
            state.known[o][s] = [0] * board.islands
    for c in range(board.connections):
        _set(state, c, None)
    for (a, b), owner in (bridges or {}).items():
        _set(state, conn(state, a, b), owner)
    state.controller = [None] * board.islands
    state.controlled = [0] * n
    for i in range(board.islands):
        for s in range(n):
            if absolute(state, s, i):
                state.controller[i] = s
                state.controlled[s] += 1
    state.scores = list(scores or [0] * n)
    if gods:
        if stones is not None:
            state.stones = [stones.get(name) for name in board.names]
        state.held = [{k: (held or {}).get(s, {}).get(k, 0) for k in GODS} for s in range(n)]
    state.half = half
    state.active = active
    state.cards_played = 0
    state.discarded = False
    state.acted = False
    if half == 3:
        state.owed = [True] * n
        state.phase = Phase.FINAL
        from oriente.games.oro.rules.decisions import Topic
        state.topic = Topic.FINAL_TURN
    check(state)
    return state


def check(state: OroState) -> None:
    """Invariants every position and every step keeps: O1.7 (48 cards, each
    in one place), O4.3 (control is absolute majority), counts agree with
    the bridges, knowledge never exceeds the hand."""
    board = state.board
    counts = state.card_counts()
    for i in range(board.islands):
        assert sum(place[i] for place in counts.values()) == 3, (board.names[i], counts)
    count = [[0] * state.n for _ in range(board.islands)]
    for c, owner in enumerate(state.bridges):
        if owner is not None:
            for i in board.ends[c]:
                count[i][owner] += 1
    assert count == state.count
    for i in range(board.islands):
        holders = [s for s in range(state.n) if absolute(state, s, i)]
        assert holders == ([state.controller[i]] if state.controller[i] is not None else []), board.names[i]
    assert state.controlled == [state.controller.count(s) for s in range(state.n)]
    for o in range(state.n + 1):
        for s in range(state.n):
            have = Counter(state.hands[s])
            for i, k in enumerate(state.known[o][s]):
                assert k <= have[i], (o, s, board.names[i])
                if o < state.n and o != s:
                    assert k >= state.known[state.n][s][i], "a seat knows less than the public"


_COMMANDS: dict[str, Any] = {
    "build": Build, "replace": Replace, "discard": Discard, "draw": Draw, "end": EndTurn, "pass": Pass,
    "remove": Remove, "ku": UseKu, "take": Take, "pele": UsePele, "give_back": GiveBack, "lono": UseLono,
    "give_up": GiveUp,
}


def act(state: OroState, seat: int, what: str, **fields: Any) -> list:
    """Apply `what` (build, replace, draw, ...) for `seat` in the open
    decision; island and connection fields may be given by name."""
    for key in ("island",):
        if isinstance(fields.get(key), str):
            fields[key] = isl(state, fields[key])
    if isinstance(fields.get("islands"), (list, tuple)):
        fields["islands"] = tuple(isl(state, x) if isinstance(x, str) else x for x in fields["islands"])
    if isinstance(fields.get("connection"), tuple):
        fields["connection"] = conn(state, *fields["connection"])
    cmd = _COMMANDS[what](decision=pending(state)[0].id, **fields)
    ev = apply(state, seat, cmd)
    check(state)
    return ev


def timeout(state: OroState) -> list:
    d = pending(state)[0]
    ev = apply(state, TABLE, Timeout(decision=d.id, pivot=d.pivot))
    check(state)
    return ev


def types(events: list) -> list[str]:
    return [type(e).__name__ for e in events]


def owner(state: OroState, a: str, b: str) -> int | None:
    return state.bridges[conn(state, a, b)]


def controller(state: OroState, name: str) -> int | None:
    return state.controller[isl(state, name)]
