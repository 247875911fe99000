"""Scripted protocol bots for the browser tests: each follows a plan, so a
game against them goes the same way every time."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any

import trio
from websockets.exceptions import ConnectionClosed

from ..e2e.wsclient import Client, open_client

Plan = Callable[[dict, int], dict | None]


def passer(prompt: dict, seat: int) -> dict | None:
    """Pass where passing is allowed; otherwise the first legal answer."""
    options = [c for c in prompt.get("legal", []) if c.get("decision") == prompt["id"]]
    passes = [c for c in options if c["type"] == "Pass"]
    return (passes or options or [None])[0]


def attacker_of(target: int) -> Plan:
    """Announce an attack on `target` whenever asked to announce; else pass."""
    def plan(prompt: dict, seat: int) -> dict | None:
        if prompt["topic"] == "announce":
            for c in prompt.get("legal", []):
                if c["type"] == "Announce" and c["action"]["kind"] == "attack" and c["action"]["target"] == target:
                    return c
        return passer(prompt, seat)
    return plan


def randomly(rng: random.Random) -> Plan:
    def plan(prompt: dict, seat: int) -> dict | None:
        options = [c for c in prompt.get("legal", []) if c.get("decision") == prompt["id"]]
        return rng.choice(options) if options else None
    return plan


async def play(port: int, table: str, seat: int, name: str, plan: Plan, *, accept_deals: bool = False,
               log: list | None = None) -> None:
    """Join `seat` and answer every decision that waits on it by `plan`,
    accepting every deal it is a party to if asked, until the game ends or
    the server goes away (the end of a test: the bot must not take the
    server's loop down with it, nor leave the server waiting for its close)."""
    with contextlib.suppress(ConnectionClosed):
        await _play(port, table, seat, name, plan, accept_deals=accept_deals, log=log)


async def _play(port: int, table: str, seat: int, name: str, plan: Plan, *, accept_deals: bool,
                log: list | None) -> None:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        reply = await c.request({"t": "join", "table": table, "name": name, "seat": seat})
        assert reply["t"] == "ok", reply
        answered: set = set()
        accepted: set = set()
        while True:
            f = await c.recv(timeout=120)
            if log is not None:
                log.append(f)
            if f["t"] != "events":
                continue
            if any(e["type"] == "TableFinished" for e in f["events"]):
                return
            prompt = f.get("prompt")
            if not prompt:
                continue
            if accept_deals:
                for cmd in prompt.get("legal", []):
                    if cmd["type"] == "AcceptDeal" and cmd["deal"] not in accepted:
                        accepted.add(cmd["deal"])
                        await c.send({"t": "act", "table": table, "cmd": cmd})
            key = (prompt["id"], prompt.get("pivot"))
            if prompt.get("pivot") == seat and key not in answered:
                answered.add(key)
                cmd = plan(prompt, seat)
                if cmd is not None:
                    await c.send({"t": "act", "table": table, "cmd": cmd})


async def create(port: int, **settings: Any) -> str:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        reply = await c.request({"t": "create_table", **settings})
        assert reply["t"] == "ok", reply
        return reply["table"]


async def record(port: int, table: str) -> dict:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        with trio.fail_after(30):
            while True:
                reply = await c.request({"t": "record", "table": table})
                if reply["t"] == "ok":
                    return reply["record"]
                await trio.sleep(0.1)


async def negotiator(port: int, table: str, seat: int, name: str, *, attack: int | None = None,
                     decline: dict | None = None, offer: tuple[int, int] | None = None, side: str | None = None,
                     log: list | None = None) -> None:
    """A scripted bot that bargains: attacks `attack` when asked to
    announce; in a fight's window declines every deal made to it with the
    reason `decline` (R8.8), offers the defender its support for the card
    `offer` = (defender, card), says done as a fighter, and declares `side`
    early once its own offer is settled; passes everything else. `log`
    keeps every frame it got."""
    with contextlib.suppress(ConnectionClosed):
        async with open_client(port) as ws:
            c = Client(ws)
            await c.recv()
            reply = await c.request({"t": "join", "table": table, "name": name, "seat": seat})
            assert reply["t"] == "ok", reply
            answered: set = set()
            mine: int | None = None  # the deal this bot proposed
            settled = not offer
            fight = (-1, -1)  # (attacker, defender) of the fight under way
            while True:
                f = await c.recv(timeout=120)
                if log is not None:
                    log.append(f)
                if f["t"] != "events":
                    continue
                for e in f["events"]:
                    if e["type"] == "TableFinished":
                        return
                    if e["type"] == "DealProposed" and e["proposer"] == seat:
                        mine = e["deal"]
                    if e["type"] in ("DealExecuted", "DealClosed") and e["deal"] == mine:
                        settled = True
                    if e["type"] == "FightBegan":
                        fight = (e["attacker"], e["defender"])
                prompt = f.get("prompt")
                if not prompt:
                    continue
                legal = prompt.get("legal", [])
                send = []
                for cmd in legal:
                    if cmd["type"] == "DeclineDeal" and ("decline", cmd["deal"]) not in answered and decline:
                        answered.add(("decline", cmd["deal"]))
                        send.append({**cmd, "why": decline})
                window = prompt["kind"] == "window"
                if window and offer and ("offer", prompt["id"]) not in answered:
                    answered.add(("offer", prompt["id"]))
                    defender, card = offer
                    attacker = fight[0]
                    send.append({"type": "ProposeDeal", "note": "",
                                 "transfers": [{"type": "Transfer", "card": card, "giver": defender,
                                                "receiver": seat, "consideration": "for my support of the defender"}],
                                 "promises": [{"type": "Promise", "promiser": seat, "promisee": defender,
                                               "text": "I will support the defender", "kind": "support",
                                               "attacker": attacker, "defender": defender, "side": "defender",
                                               "cards": [], "by_season": None, "seat": None}],
                                 "why": {"code": "sell_support", "attacker": attacker, "defender": defender,
                                         "side": "defender"}})
                done = [cmd for cmd in legal if cmd["type"] == "Done"]
                if window and done and ("done", prompt["id"]) not in answered:
                    answered.add(("done", prompt["id"]))
                    send.append(done[0])
                if window and side and settled and seat in prompt.get("early", []) \
                        and ("side", prompt["id"]) not in answered:
                    answered.add(("side", prompt["id"]))
                    send.append({"type": "Support", "decision": prompt["id"], "side": side})
                key = (prompt["id"], prompt.get("pivot"))
                if prompt.get("pivot") == seat and key not in answered:
                    answered.add(key)
                    plan = attacker_of(attack) if attack is not None else passer
                    cmd = plan(prompt, seat)
                    if cmd is not None:
                        send.append(cmd)
                for cmd in send:
                    await c.send({"t": "act", "table": table, "cmd": cmd})
