"""An Oriente bot that trades its support for cards.

When a fight is under way and its seat is still to declare, it offers the
fighter it can get the most from its promise of support, for the cheapest
of that fighter's score cards that makes the deal worth it (deals.value),
and keeps the promise when its turn comes. It takes every offer made to it
that is worth it, declines the others with a reason (R8.8), withdraws an
offer the fight has left behind, prints the reasons others give when they
decline and the counter-offers they make, and plays every decision with the
heuristic policy (which keeps support promises).

    python docs/examples/bargaining_bot.py --server ws://127.0.0.1:8765 --create 4
    python docs/examples/bargaining_bot.py --server ws://127.0.0.1:8765 --table TABLE_ID
"""

import argparse
import random
import secrets

import trio

from oriente.clients import deals
from oriente.clients.sdk import BOT_TIMERS, DECISION_COMMANDS, Client, Seat, ServerError
from oriente.server.policies import POLICIES

HEURISTIC = POLICIES["heuristic"]


def still_to_declare(prompt: dict, me: int) -> bool:
    """Asked in this fight's window or support round, and not yet final."""
    return (prompt["topic"] in ("negotiation", "support") and me in prompt["asked"]
            and all(seat != me for seat, _ in prompt.get("published", [])))


def sale(view: dict, prompt: dict, me: int) -> dict | None:
    """Our support for a fighter's card: the best such deal worth at least
    a point to us, or None."""
    fight = view["fight"]
    if not view["seats"][me]["disc"] or deals.promised_side(view, me) or deals.mine(view, me):
        return None
    best, best_value = None, 1.0
    for side in deals.SIDES:
        fighter = fight[side]
        promise = deals.support(me, fighter, fight["attacker"], fight["defender"], side)
        for card in sorted(view["seats"][fighter]["pile"], key=deals.card_value):
            offer = deals.proposal([deals.give(card, fighter, me, "for my support in this fight")], [promise],
                                   "my support for a card")
            worth = deals.value(view, offer, prompt)
            if worth >= best_value:
                best, best_value = offer, worth
                break  # dearer cards only make it less likely to be taken
    return best


async def answer(seat: Seat, command: dict) -> None:
    """Send a deal command; a deal that executed, closed or lapsed meanwhile is no bug."""
    try:
        await seat.act(command)
    except ServerError as error:
        if not error.code.startswith("deal/"):
            raise


async def play(server: str, table: str | None, seats: int | None, name: str) -> None:
    rng = random.Random()
    async with Client.connect(server) as client:
        if table is None:
            table = await client.create_table(seats, timers=BOT_TIMERS)
            print(f"table {table}", flush=True)
        seat = await client.join(table, name)
        me = seat.seat
        print(f"seat {me} at table {table}", flush=True)
        offered, answered, turns = set(), set(), set()
        async for update in seat.updates():
            view, prompt = update.view, update.prompt
            if update.kind == "history" or view is None or not prompt:
                continue
            for event in update.events:  # reasons and counter-offers travel on the deal events (R8.8)
                why = deals.why_of(event)
                if event["type"] == "DealClosed" and why:
                    print(f"deal {event['deal']} declined: {deals.reason_words(why)}", flush=True)
                elif event["type"] == "DealProposed" and deals.counters(event) is not None:
                    print(f"deal {event['deal']} counters deal {deals.counters(event)}", flush=True)
            for deal in deals.offers_to(view, me):  # offers made to us: take those worth it
                if deal["deal"] not in answered:
                    answered.add(deal["deal"])
                    take = deals.value(view, deal, prompt) >= 0
                    print(f"{'accept' if take else 'decline'}: {deals.describe(deal, me)}", flush=True)
                    await answer(seat, {"type": "AcceptDeal", "deal": deal["deal"]} if take
                                 else deals.decline(deal["deal"], "worth_less"))
            fight = view["fight"]
            if fight and still_to_declare(prompt, me):
                key = (view["season"], fight["attacker"], fight["defender"])
                offer = sale(view, prompt, me) if key not in offered else None
                if offer is not None:
                    offered.add(key)
                    print(f"offer: {deals.describe(offer, me)}", flush=True)
                    await answer(seat, offer)
            else:  # we have declared, or the fight is over: an open offer would be a promise we cannot keep
                for deal in deals.mine(view, me):
                    if deal["deal"] not in answered:
                        answered.add(deal["deal"])
                        await answer(seat, {"type": "WithdrawDeal", "deal": deal["deal"]})
            if prompt["pivot"] == me and (prompt["id"], me) not in turns:
                turns.add((prompt["id"], me))
                legal = [c for c in prompt["legal"] if c["type"] in DECISION_COMMANDS]
                command = HEURISTIC.choose(view, {**prompt, "legal": legal}, rng)
                if command is not None:
                    await seat.act(command)
        print(f"game over: seat {me} ranked {seat.result['ranks'][me]}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="An Oriente bot that trades its support for cards.")
    parser.add_argument("--server", default="ws://127.0.0.1:8765", help="the server's websocket address")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the id of the table to join")
    where.add_argument("--create", type=int, metavar="SEATS", help="create a zero-wait bot table first")
    parser.add_argument("--name", default=f"bargaining-bot-{secrets.token_hex(2)}",
                        help="the seat's name (one a table does not have yet: names at a table must differ)")
    args = parser.parse_args()
    trio.run(play, args.server, args.table, args.create, args.name)
