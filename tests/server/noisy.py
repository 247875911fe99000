"""Noisy variants of a policy: with probability `p` a decision is the random
policy's instead of the base policy's. Between the random policy and its
base in strength by construction, they give the ratings check a known order
of more than three strengths (tests/server/test_ratings.py). A test's tool:
no server seats them."""

from __future__ import annotations

import random

from oriente.games.oriente.bots import POLICIES, Policy


def noisy(base: Policy, p: float) -> Policy:
    """`base`, but each decision is random with probability `p` (deal
    offers stay the base's: noise in play, not in talk)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError("p is a probability")
    rand = POLICIES["random"]

    def choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
        if prompt is not None and prompt.get("pivot") == view.get("viewer") and rng.random() < p:
            return rand.choose(view, prompt, rng, memo)
        return base.choose(view, prompt, rng, memo)

    return Policy(f"noisy-{base.name}-{p:g}", choose, base.offer, proxy=base.proxy, say=base.say,
                  topics=base.topics)
