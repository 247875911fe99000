"""A reference bot at a live table, over the protocol: what the demo seats.

`bot_moves` is the pure part: from the seat's newest view and prompt, the
commands the bot sends now, as the policy interface asks
(games/oriente/bots/__init__.py): `choose` until it returns None or a
decision answer — so a deal offered to the bot is answered by the policy
and its decision is still its own — then `offer` until it has nothing more,
at the prompt topics where the policy bargains. `play_bot` is the thin trio
loop around it: it joins through the SDK, reads every frame, decides, sends
each answer once `delay` after the frame that called for it, and says in
the chat the offers that carry no reason (R8.8).
"""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import trio

from oriente.clients.sdk import Client, Seat, ServerError
from oriente.games.oriente.bots import POLICIES, Policy

__all__ = ["bot_moves", "play_bot", "play_seat"]

log = logging.getLogger("oriente.demo")

DEAL_ANSWERS = frozenset({"AcceptDeal", "DeclineDeal", "WithdrawDeal", "SettlePromise"})
MAX_ANSWERS = 8  # deal answers in one frame, before the decision's
MAX_OFFERS = 3  # a table's default limit of open proposals per seat (R8.6)


def _bare(cmd: dict[str, Any]) -> dict[str, Any]:
    """A command as `legal` lists it: a decline's reason (R8.8) left out."""
    return {k: v for k, v in cmd.items() if k != "why"} if cmd.get("type") == "DeclineDeal" else cmd


def _about(cmd: dict[str, Any]) -> tuple[Any, Any]:
    """The deal or promise a deal answer is about."""
    return (cmd.get("deal"), cmd.get("promise"))


def bot_moves(policy: Policy, view: dict[str, Any], prompt: dict[str, Any], rng: random.Random,
              memo: dict[str, Any]) -> list[dict[str, Any]]:
    """The commands the bot sends for this frame, in order: its answers to
    deals, then its answer to the decision (as the pivot, early where the
    policy answers early, or a fighter's Done), then its offers. Nothing
    outside the prompt's `legal` list except offers, which are never listed."""
    legal = list(prompt.get("legal") or ())
    moves: list[dict[str, Any]] = []
    for _ in range(MAX_ANSWERS):
        command = policy.choose(view, {**prompt, "legal": legal}, rng, memo)
        if command is None:
            break
        if command["type"] == "ProposeDeal":  # a counter-offer, before the decline it softens (R8.8)
            moves.append(command)
            continue
        if _bare(command) not in legal:
            break
        moves.append(command)
        if command["type"] not in DEAL_ANSWERS:
            break
        # That deal or promise is answered: the policy moves on, as it will
        # once the server has applied the answer.
        legal = [c for c in legal if c["type"] not in DEAL_ANSWERS or _about(c) != _about(command)]
    if prompt.get("topic") in policy.topics:
        for _ in range(MAX_OFFERS):
            deal = policy.offer(view, prompt, rng, memo)
            if deal is None:
                break
            moves.append(deal)
    return moves


def _key(command: dict[str, Any], prompt: dict[str, Any], me: int) -> str:
    """Which answer a command is: the same key is sent once. A decision is
    answered once per pivot; an early answer may change (it is sealed and
    the policy re-seals when a deal changes its mind), so its key holds it."""
    kind = command["type"]
    if kind in DEAL_ANSWERS:
        return json.dumps([kind, *_about(command)])
    if kind == "ProposeDeal":
        return json.dumps(["offer", command], sort_keys=True)
    if kind == "Done" or prompt.get("pivot") != me:
        return json.dumps([kind, prompt.get("id"), command], sort_keys=True)
    return json.dumps(["answer", prompt.get("id"), prompt.get("pivot")])


def _changes_seal(command: dict[str, Any], prompt: dict[str, Any], me: int) -> bool:
    """An early answer that differs from the one sealed now (R10.2): sent
    even if the same answer was sent before (sealed, then changed, and now
    wanted again)."""
    return (command["type"] not in DEAL_ANSWERS and command["type"] not in ("ProposeDeal", "Done")
            and prompt.get("pivot") != me and command != prompt.get("sealed"))


async def play_bot(url: str, table: str, name: str, policy: str, rng: random.Random, delay: float,
                   seat: int | None = None, token: str | None = None) -> None:
    """One reference bot over the protocol: it acts on every frame that asks
    something of it, with the newest view and prompt it has. `token`: a bot
    API token to sign in with (its seat is then its account's)."""
    async with Client.connect(url, token=token) as client:
        me = await client.join(table, name, seat=seat)
        await play_seat(me, name, policy, rng, delay)


async def play_seat(me: Seat, name: str, policy: str, rng: random.Random, delay: float) -> None:
    """Play one seat already taken (joined, or resumed with its token, as a
    tournament hands it out) until its table ends."""
    bot = POLICIES[policy]
    memo: dict[str, Any] = {}
    sent: set[str] = set()

    def asked() -> bool:
        """Does the newest frame ask something of this seat (cheap: the
        policy is consulted only then)?"""
        prompt = me.prompt
        if not me.view or not prompt or not prompt.get("legal"):
            return False
        return (prompt.get("pivot") == me.seat or me.seat in (prompt.get("early") or ())
                or prompt.get("topic") in bot.topics
                or any(c["type"] in DEAL_ANSWERS or c["type"] == "Done" for c in prompt["legal"]))

    async for _update in me.updates():
        if not asked():
            continue
        arrived = trio.current_time()
        view, prompt = me.view, me.prompt
        if not view or not prompt:
            continue
        # Decide first, then wait out the rest of the delay: whatever the bot
        # answers goes out `delay` after the frame, so its timing tells nothing (R10.2d).
        moves = bot_moves(bot, view, prompt, rng, memo)
        if moves and arrived + delay > trio.current_time():
            await trio.sleep(arrived + delay - trio.current_time())
        for command in moves:
            key = _key(command, prompt, me.seat)
            if key in sent and not _changes_seal(command, prompt, me.seat):
                continue
            sent.add(key)
            try:
                await me.act(command)
            except ServerError as exc:  # a race with the table moving on: the next frame tells
                log.debug("%s: %s refused: %s", name, command["type"], exc)
                continue
            # A proposal with its reason (R8.8) is told by every client in its reader's language: no chat.
            line = bot.say(me.view or {}, command) if command["type"] == "ProposeDeal" else None
            if line and not command.get("why"):
                try:
                    await me.chat(line)
                except ServerError as exc:
                    log.debug("%s: chat refused: %s", name, exc)
