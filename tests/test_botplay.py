"""The demo's bots (cli/botplay.py): what a reference bot sends for one frame.

The bug this guards: a bot with a deal offered to it got the decision's
legal list without the deal commands, so the policy's answer to the deal
was "not legal" and the bot replaced its real decision with a random one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from oriente.cli.botplay import bot_moves
from oriente.server.policies import POLICIES
from oriente.server.rules import GameConfig, Promise, PromiseKind, ProposeDeal, apply, new_game, pending
from oriente.server.rules.views import decision_view, view

DECISIONS = {"Announce", "Pass", "Claim", "Support", "Join", "Choose"}


def _offered(seed: int) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """A fresh game whose first seat asked has a deal offered to it: its
    left neighbour promises not to attack it this season."""
    state, _ = new_game(GameConfig(seats=5, seed=seed))
    pivot = pending(state)[0].pivot
    assert pivot is not None
    other = (pivot + 1) % 5
    promise = Promise(promiser=other, promisee=pivot, text="I leave you alone", kind=PromiseKind.NO_ATTACK, seat=pivot)
    apply(state, other, ProposeDeal(promises=(promise,)))
    return pivot, view(state, pivot), decision_view(state, pivot)


@pytest.mark.parametrize("policy", ["heuristic", "negotiator"])
def test_a_bot_with_an_open_deal_answers_its_decision_with_its_own_choice(policy: str) -> None:
    for seed in range(4):
        _, v, prompt = _offered(seed)
        assert any(c["type"] == "AcceptDeal" for c in prompt["legal"])
        bot = POLICIES[policy]
        # What the policy itself answers once the offer is out of the way.
        rest = {**prompt, "legal": [c for c in prompt["legal"] if c["type"] in DECISIONS]}
        own = bot.choose(v, rest, random.Random(0), {})
        answers = set()
        for rng_seed in range(8):
            moves = bot_moves(bot, v, prompt, random.Random(rng_seed), {})
            decided = [m for m in moves if m["type"] in DECISIONS]
            assert len(decided) == 1, moves
            answers.add(repr(decided[0]))
            dealt = [m for m in moves if m["type"] in ("AcceptDeal", "DeclineDeal")]
            assert [m["deal"] for m in dealt] == [prompt["legal"][-1]["deal"]], moves  # the offer is answered too
        assert answers == {repr(own)}, (seed, answers, own)
