"""Reference bot policies: pure functions over what one seat sees.

A policy answers a seat's open decision from that seat's view alone:

    choose(view, prompt, rng) -> dict | None

where `view` is `views.view(state, seat)`, `prompt` the seat's open decision
(`views.decision_view(state, seat)`, with its `legal` commands when the seat
is asked) and `rng` a `random.Random` the caller owns. It returns one of the
plain commands of `prompt["legal"]`, or None to wait. A policy may also
offer deals: `offer(view, prompt, rng)` returns a plain `ProposeDeal` (open
ended, so never listed in `legal`) or None. Plain commands become typed ones
through `oriente.server.rules.command_from_plain`.

Policies never see the game state, only the view: the table server can use
them to play away seats and bots can use them over the protocol. They
import nothing but the pure rules' card tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from . import heuristic, random_policy

Choose = Callable[[dict, dict | None, random.Random], dict | None]


@dataclass(frozen=True)
class Policy:
    """A named policy; calling it is calling its `choose`."""

    name: str
    choose: Choose
    offer: Choose

    def __call__(self, view: dict, prompt: dict | None, rng: random.Random) -> dict | None:
        return self.choose(view, prompt, rng)


POLICIES: dict[str, Policy] = {
    "random": Policy("random", random_policy.choose, random_policy.offer),
    "heuristic": Policy("heuristic", heuristic.choose, heuristic.offer),
}

__all__ = ["POLICIES", "Policy", "heuristic", "random_policy"]
