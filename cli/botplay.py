"""A reference bot at a live table, over the protocol: what the demo seats.

`bot_moves` is the pure part: given the seat's newest view and prompt, the
commands the bot sends now. `play_bot` is the thin trio loop around it
that joins through the SDK, waits its `delay` and sends.
"""

from __future__ import annotations

import random
from typing import Any

import trio

from oriente.clients.sdk import DECISION_COMMANDS, Client
from oriente.server.policies import POLICIES, Policy

__all__ = ["bot_moves", "play_bot"]


def bot_moves(policy: Policy, view: dict[str, Any], prompt: dict[str, Any], rng: random.Random,
              memo: dict[str, Any]) -> list[dict[str, Any]]:
    """The commands the bot sends for one decision it is waited on, in order."""
    legal = [c for c in prompt.get("legal") or () if c["type"] in DECISION_COMMANDS]
    command = policy.choose(view, prompt, rng)
    if command is None or command not in legal:
        command = rng.choice(legal)
    return [command]


async def play_bot(url: str, table: str, name: str, policy: str, rng: random.Random, delay: float,
                   seat: int | None = None) -> None:
    """One reference bot over the protocol, answering when it is asked."""
    bot = POLICIES[policy]
    memo: dict[str, Any] = {}
    async with Client.connect(url) as client:
        me = await client.join(table, name, seat=seat)
        async for turn in me.turns():
            for command in bot_moves(bot, turn.view or {}, turn.prompt, rng, memo):
                if delay:
                    await trio.sleep(delay)
                await turn.answer(command)
