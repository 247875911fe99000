"""Play whole games in one process with a policy at every seat.

This is the part that holds the full game state, standing in for the table
server: it asks each seat's policy with that seat's view and open decision
only (`views.view`, `views.decision_view`), applies what the policy returns
through `engine.apply`, and closes negotiation windows with the table's
Timeout (R10.2b), as a table whose clock runs out at once would. A policy
that returns None when it is waited on is treated as silent (a Timeout for
its pivot, R10.1/R10.2).

Every command a policy returns is checked: an answer to the decision or to a
deal must be one of the prompt's legal commands, and every command must be
accepted by `apply`. A breach raises `PolicyError`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from oriente.server.rules import TABLE, GameConfig, Rejected, Timeout, apply, command_from_plain, new_game, pending
from oriente.server.rules.state import GameState
from oriente.server.rules.views import view

from . import Policy

DECISION_TYPES = frozenset({"Announce", "Pass", "Claim", "Support", "Join", "Choose"})
MAX_EXTRA = 8  # deal commands a seat may send before its answer, per decision


class PolicyError(AssertionError):
    """A policy returned a command that was not legal or was rejected."""


@dataclass
class Played:
    """One finished game."""

    state: GameState
    commands: int = 0
    by_seat: list[int] = field(default_factory=list)
    deals_proposed: int = 0

    @property
    def result(self):
        return self.state.result


def seat_rng(seed: int, seat: int) -> random.Random:
    return random.Random(f"oriente-policy:{seed}:{seat}")


def _send(state: GameState, seat: int, cmd: dict, legal: list | None, played: Played) -> None:
    kind = cmd.get("type") if isinstance(cmd, dict) else None
    if kind != "ProposeDeal" and (legal is None or cmd not in legal):
        raise PolicyError(f"seat {seat} sent a command that is not legal now: {cmd!r}")
    try:
        apply(state, seat, command_from_plain(cmd))
    except Rejected as exc:
        raise PolicyError(f"seat {seat}'s command {cmd!r} was rejected: {exc}") from exc
    played.commands += 1
    played.by_seat[seat] += 1
    if kind == "ProposeDeal":
        played.deals_proposed += 1


def _window(state: GameState, policies: list[Policy], rngs: list[random.Random], did: int, played: Played,
            deals: bool) -> None:
    """A negotiation window: the fighters may offer deals, the asked seats
    may answer them (or hand in sealed answers early); then the clock ends it."""
    d = pending(state)[0]
    fight = state.fight
    if deals and fight is not None:
        for seat in (fight.attacker, fight.defender):
            v = view(state, seat)
            cmd = policies[seat].offer(v, v["decision"], rngs[seat])
            if cmd is not None:
                _send(state, seat, cmd, None, played)
    for seat in d.asked:
        for _ in range(MAX_EXTRA):
            now = pending(state)
            if not now or now[0].id != did:
                return
            v = view(state, seat)
            prompt = v["decision"]
            cmd = policies[seat](v, prompt, rngs[seat])
            if cmd is None:
                break
            _send(state, seat, cmd, prompt.get("legal"), played)
            if cmd["type"] in DECISION_TYPES:
                break
    now = pending(state)
    if now and now[0].id == did and now[0].pivot is None:
        apply(state, TABLE, Timeout(decision=did, pivot=None))


def play(config: GameConfig, policies: list[Policy], seed: int = 0, *, deals: bool = True) -> Played:
    """Play one game to its end; `policies[s]` plays seat s."""
    state, _ = new_game(config)
    n = state.n
    rngs = [seat_rng(seed, s) for s in range(n)]
    played = Played(state=state, by_seat=[0] * n)
    while True:
        decisions = pending(state)
        if not decisions:
            return played
        d = decisions[0]
        if d.pivot is None:
            _window(state, policies, rngs, d.id, played, deals)
            continue
        seat = d.pivot
        for _ in range(MAX_EXTRA):
            v = view(state, seat)
            prompt = v["decision"]
            cmd = policies[seat](v, prompt, rngs[seat])
            if cmd is None:
                apply(state, TABLE, Timeout(decision=d.id, pivot=seat))
                break
            _send(state, seat, cmd, prompt.get("legal"), played)
            if cmd["type"] in DECISION_TYPES:
                break
            now = pending(state)
            if not now or now[0].id != d.id or now[0].pivot != seat:
                break
        else:
            apply(state, TABLE, Timeout(decision=d.id, pivot=seat))
