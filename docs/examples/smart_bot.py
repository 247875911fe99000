"""An Oriente bot that reads its view before it answers.

It announces what pays, claims privilege when its rank allows and it has
an action worth taking, supports the defender against a weak attacker who
is richer than itself, and keeps the best card it is offered. With
--token-file it saves its seat's token; a later run with the same file
resumes that seat, from any process.

    python docs/examples/smart_bot.py --server ws://127.0.0.1:8765 --create 4
    python docs/examples/smart_bot.py --server ws://127.0.0.1:8765 --table TABLE_ID --token-file seat.txt
"""

import argparse
import random
import secrets
from pathlib import Path

import trio

from oriente.clients.sdk import BOT_TIMERS, Client, Turn

# Card id -> value (PROTOCOL.md, "Cards"). An inhabitant's value is its rank.
VALUE = [7] + [6] * 2 + [5] * 4 + [4] * 5 + [3] * 6 + [2] * 7 + [1] * 12 + [0] * 3 + [0] + [2] * 4 + [3] * 4 + [4] * 4
UNKNOWN = 3  # a guess for a face-down inhabitant
EARNING = ("blessing", "income", "succession", "credit")  # abilities that bring score cards (R5)


def strength(view: dict, seat: int) -> int:
    """A seat's inhabitant value, as far as our view shows it."""
    card = view["seats"][seat]["inhabitant"]
    return UNKNOWN if card is None else VALUE[card]


def wealth(view: dict, seat: int) -> int:
    return sum(VALUE[card] for card in view["seats"][seat]["pile"])


def best_action(view: dict, me: int, options: list[dict]) -> dict | None:
    """Among Announce or Claim commands: an ability that brings cards, else
    the best inhabitant we can take; None when nothing pays."""
    for kind in EARNING:
        for command in options:
            if command["action"]["kind"] == kind:
                return command
    # An assassination takes the target's inhabitant (R5.8); a won attack
    # captures it (R6.6): aim at the best inhabitant we can take.
    takes = [c for c in options if c["action"]["kind"] == "assassination"
             or (c["action"]["kind"] == "attack" and strength(view, c["action"]["target"]) < strength(view, me))]
    return max(takes, key=lambda c: strength(view, c["action"]["target"]), default=None)


def choose(turn: Turn) -> dict:
    view, me, legal = turn.view, turn.seat.seat, turn.legal
    pass_ = next((c for c in legal if c["type"] == "Pass"), None)
    if turn.topic == "privilege":
        # `legal` offers Claim only when our rank may beat the announcer's
        # (R4.3c); claim if we have an action worth taking.
        claim = best_action(view, me, [c for c in legal if c["type"] == "Claim"])
        if claim is not None:
            return claim
    elif turn.topic == "announce":
        announce = best_action(view, me, [c for c in legal if c["type"] == "Announce"])
        if announce is not None:
            return announce
    elif turn.topic == "support":
        # Ties go to the defender (R6.5). Supporting spends our disc (R3.1),
        # so only to stop a weak attacker who is richer than we are.
        fight = view["fight"]
        attacker, defender = fight["attacker"], fight["defender"]
        if strength(view, attacker) <= strength(view, defender) and wealth(view, attacker) > wealth(view, me):
            return next(c for c in legal if c.get("side") == "defender")
    elif turn.topic == "revolution":
        join = next((c for c in legal if c["type"] == "Join"), None)
        if join is not None:
            return join
    else:  # trade, transformation, reinforcement: pick a card
        cards = [c for c in legal if c["type"] == "Choose"]
        if cards:
            pick = min if turn.topic == "trade" else max  # give the cheapest, keep the best
            return pick(cards, key=lambda c: VALUE[c["card"]])
    return pass_ or random.choice(legal)


async def play(server: str, table: str | None, seats: int | None, name: str, token_file: str | None) -> None:
    saved = Path(token_file) if token_file else None
    async with Client.connect(server) as client:
        if saved is not None and saved.exists():
            table, token = saved.read_text().split()
            seat = await client.resume(table, token)
        else:
            if table is None:
                table = await client.create_table(seats, timers=BOT_TIMERS)
                print(f"table {table}", flush=True)
            seat = await client.join(table, name)
            if saved is not None:
                saved.write_text(f"{table} {seat.token}\n")
        print(f"seat {seat.seat} at table {table}", flush=True)
        async for turn in seat.turns():
            await turn.answer(choose(turn))
        print(f"game over: seat {seat.seat} ranked {seat.result['ranks'][seat.seat]}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="An Oriente bot that reads its view.")
    parser.add_argument("--server", default="ws://127.0.0.1:8765", help="the server's websocket address")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--table", help="the id of the table to join")
    where.add_argument("--create", type=int, metavar="SEATS", help="create a zero-wait bot table first")
    parser.add_argument("--name", default=f"smart-bot-{secrets.token_hex(2)}",
                        help="the seat's name (one a table does not have yet: names at a table must differ)")
    parser.add_argument("--token-file", help="save the seat's token here; if the file exists, resume that seat")
    args = parser.parse_args()
    if args.table is None and args.create is None and not (args.token_file and Path(args.token_file).exists()):
        parser.error("give --table, --create, or an existing --token-file")
    trio.run(play, args.server, args.table, args.create, args.name, args.token_file)
