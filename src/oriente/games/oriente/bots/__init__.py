"""Reference bot policies: pure functions over what one seat sees.

A policy answers a seat's open decision from that seat's view alone:

    choose(view, prompt, rng, memo=None) -> dict | None

where `view` is `views.view(state, seat)`, `prompt` the seat's open decision
(`views.decision_view(state, seat)`, with its `legal` commands when the seat
is asked) and `rng` a `random.Random` the caller owns. It returns one of the
plain commands of `prompt["legal"]`, or None to wait: an answer to the
decision, an answer to a deal (AcceptDeal, DeclineDeal, WithdrawDeal,
SettlePromise; a DeclineDeal may carry its reason, `why`, R8.8), an early
sealed answer, or a fighter's `Done` (R10.2b1); or a counter-offer (a
`ProposeDeal` with `counter_to`) to a deal it is about to decline. A
policy may also offer deals: `offer(view, prompt, rng, memo=None)` returns a
plain `ProposeDeal` (open ended, so never listed in `legal`) or None; or,
before a deal that promises the seat's support in the fight under way, the
sealed answer of `legal` that the promise needs (the partner may take the
deal at once, and the window close with it), the deal then coming at the
next call. Plain
commands become typed ones through `oriente.games.oriente.rules.command_from_plain`.

`memo` is a dict the caller keeps for the seat for the whole game, as it
keeps the rng: a policy that bargains notes there what it must remember
between calls (the offers it made, the counter-offers it owes), so that a
declined offer is not made again. Policies that need no memory ignore it.
A caller that lets a policy bargain calls `choose` until it returns None or
a decision answer, and `offer` until it returns None, each time the seat
gets news (`Policy.topics` says at which prompt topics `offer` may propose
at all, so a caller can skip the others).

`Policy.proxy` is the `choose` to use for a seat whose player is away (the
table's seat proxy, R10.3): it answers only as the pivot and makes no deals
in the player's name. `Policy.say(view, command)` gives the plain words a
bot may put in the chat for a command it sends (None: nothing to say).

Policies never see the game state, only the view: the table server can use
them to play away seats and bots can use them over the protocol. They
import nothing but the pure rules' card tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from . import characters, heuristic, negotiator, random_policy
from .characters import CHARACTERS, Character

Choose = Callable[..., dict | None]
Say = Callable[[dict, dict], str | None]


def _silent(view: dict, command: dict) -> str | None:
    return None


@dataclass(frozen=True)
class Policy:
    """A named policy; calling it is calling its `choose`."""

    name: str
    choose: Choose
    offer: Choose
    proxy: Choose | None = None  # the seat-proxy mode of `choose`; None: `choose` itself
    say: Say = _silent
    topics: frozenset[str] = field(default_factory=frozenset)  # prompt topics at which `offer` may propose
    character: Character | None = None  # a negotiating bot's rule for its own word (characters.py)

    def __call__(self, view: dict, prompt: dict | None, rng: random.Random,
                 memo: dict | None = None) -> dict | None:
        return self.choose(view, prompt, rng, memo)


def _negotiating(character: Character) -> Policy:
    """The negotiator playing one character (characters.py)."""
    return Policy(character.name, partial(negotiator.choose, character=character),
                  partial(negotiator.offer, character=character), proxy=negotiator.proxy_choose,
                  say=negotiator.say, topics=frozenset({"announce", "negotiation", "support"}), character=character)


POLICIES: dict[str, Policy] = {
    "random": Policy("random", random_policy.choose, random_policy.offer),
    "heuristic": Policy("heuristic", heuristic.choose, heuristic.offer, topics=frozenset({"negotiation"})),
    **{name: _negotiating(c) for name, c in CHARACTERS.items()},
}
# Old names that still work: `negotiator` plays the default character.
ALIASES: dict[str, str] = dict(characters.ALIASES)
for _old, _new in ALIASES.items():
    POLICIES[_old] = POLICIES[_new]


def resolve(name: str) -> str:
    """A policy's current name (an old name maps to the character it plays)."""
    return ALIASES.get(name, name)


__all__ = ["ALIASES", "CHARACTERS", "POLICIES", "Policy", "characters", "heuristic", "negotiator",
           "random_policy", "resolve"]
