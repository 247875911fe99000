"""The random reference policy: a uniform pick among the legal decision
commands (Announce, Pass, Claim, Support, Join, Choose) of the decision the
seat is waited on, never dealing or chatting. In a negotiation window it
has nothing to bargain: a fighter says done at once (R10.2b1) and an asked
seat seals its uniform pick at once (R10.2), so that a window of random
bots closes early instead of waiting out its time.

Unlike the engine benchmark's policy (bench/engine.py, which passes
with probability 1/2 wherever passing is legal), passing here is just one
option among the others.
"""

from __future__ import annotations

import random

from oriente.games.oriente.rules.commands import DECISION_COMMAND_TYPES

DECISION_TYPES = DECISION_COMMAND_TYPES


def choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """A uniform pick among the legal decision commands, or None when the
    seat is not the one waited on."""
    if not prompt:
        return None
    if prompt.get("kind") == "window":
        done = next((c for c in prompt.get("legal") or () if c.get("type") == "Done"), None)
        if done is not None or view.get("viewer") not in (prompt.get("early") or ()) or "sealed" in prompt:
            return done
    elif prompt.get("pivot") != view.get("viewer"):
        return None
    options = [c for c in prompt.get("legal") or () if c.get("type") in DECISION_TYPES]
    if not options:
        return None
    return options[rng.randrange(len(options))]


def offer(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """The random policy proposes no deals."""
    return None
