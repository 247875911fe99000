"""An Oriente bot that plays with the project's heuristic policy.

    python docs/examples/heuristic_bot.py --server ws://127.0.0.1:8765 --create 4
    python docs/examples/heuristic_bot.py --server ws://127.0.0.1:8765 --table TABLE_ID
"""

import argparse
import random
import secrets

import trio

from oriente.clients.sdk import BOT_TIMERS, Client
from oriente.server.policies import POLICIES


async def play(server: str, table: str | None, seats: int | None, name: str) -> None:
    policy, rng = POLICIES["heuristic"], random.Random()
    async with Client.connect(server) as client:
        if table is None:
            table = await client.create_table(seats, timers=BOT_TIMERS)
            print(f"table {table}", flush=True)
        seat = await client.join(table, name)
        print(f"seat {seat.seat} at table {table}", flush=True)
        async for turn in seat.turns():
            # Only the decision's answers (turn.legal): deal offers stay open.
            command = policy.choose(turn.view, {**turn.prompt, "legal": turn.legal}, rng)
            if command is not None:
                await turn.answer(command)
        print(f"game over: seat {seat.seat} ranked {seat.result['ranks'][seat.seat]}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="An Oriente bot with the heuristic policy.")
    parser.add_argument("--server", default="ws://127.0.0.1:8765", help="the server's websocket address")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the id of the table to join")
    where.add_argument("--create", type=int, metavar="SEATS", help="create a zero-wait bot table first")
    parser.add_argument("--name", default=f"heuristic-bot-{secrets.token_hex(2)}",
                        help="the seat's name (one a table does not have yet: names at a table must differ)")
    args = parser.parse_args()
    trio.run(play, args.server, args.table, args.create, args.name)
