"""The server's negotiating bots as a person meets them.

Each game is a six-seat table on a real server (in this process, its real
SQLite store in a temporary directory, real websockets on 127.0.0.1): a
scripted *person* — a plain protocol client at a person's seat (the SDK,
`oriente.clients.sdk`), not a server bot — creates the table with the
timers of a table for people, takes a seat and fills the five others with
the server's bots of one character (`add_bots`). The person plays from its
own frames only:

- **decisions** like the heuristic (`POLICIES["heuristic"]`, as the pivot;
  in a negotiation window where it is asked it hands in the heuristic's
  declaration early, and seals again when a deal it took changes it); it
  keeps its support promises, as the heuristic does;
- **its offers**: in every fight it is in, once the window opens, one offer
  to the seat whose support decides the fight (of the asked seats neither
  declared nor promised to a side by the public ledger, the one whose sure
  support is worth most to it), picked at random: *fair* (a card of its
  pile worth about what that support is worth to it in the fight, for the
  support), *generous* (a card worth about two points more) or *absurd*
  (every card of the bot's pile and its support, for nothing);
- **offers made to it**: accepted when worth at least nothing to it (the
  SDK's valuation, its own promises priced at what keeping them costs),
  declined otherwise; a counter-offer is an offer like the others;
- **done**: as a fighter it says done once its offer is answered and it
  has answered every offer made to it; so windows close as soon as
  everyone in the fight is done (R10.2b1), and none waits its clock unless
  someone forgets (`windows_closed_by_clock` counts them).

The figures, from the public events the person saw (the last line is JSON;
per character under `by_character`, and the default character's at the
top level):

- `offers_to_person_per_game`: the bots' proposals to the person;
- `fair_accept_rate`, `generous_accept_rate`, `absurd_accept_rate`: the
  person's offers of each kind that executed, over those made;
- `paid_promises_kept_rate`: the bots' promises they were paid for (a deal
  that moved a card to the promiser), settled kept ÷ settled kept or broken,
  settled before the last season of the game; released promises left out
  (`paid_support_kept_rate`: the support promises alone);
- `counter_offers_per_game`: the bots' counter-offers to the person's deals
  (`DealProposed.counter_to`, R8.8);
- `declines_with_reason_rate`: the bots' declines of the person's deals
  that carry a reason (`DealClosed.why`, R8.8);
- `person_gain_per_deal`: the person's mean final score minus its mean
  final score in a same-seed control game, in which it proposes nothing and
  declines every offer, divided by the deals it made per game (reported,
  not a target; the control is a sample of the games).

    python bench/people.py                 # 300 games per character + 100 controls, about 20 minutes on 2 cores
    python bench/people.py --quick         # 12 per character + 4 controls
    python bench/people.py --games 60 --control 20 --characters honest shrewd
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import trio

from oriente.clients import deals
from oriente.clients.sdk import Client, ServerError
from oriente.games.oriente.bots import POLICIES
from oriente.games.oriente.bots.characters import CHARACTERS, DEFAULT, HONEST
from oriente.games.oriente.bots.valuation import deal_value, reading, support_gain
from oriente.games.oriente.rules.cards import NINJAS, VALUE
from oriente.server.app import App
from oriente.server.transport import Limits

SEATS = 6
KINDS = ("fair", "generous", "absurd")
# A table for people: 45 s windows, 30 s decisions (they close as soon as everyone is done).
PEOPLE_TIMERS = {"prompt_ms": 30_000, "window_ms": 45_000, "bank_ms": 60_000, "bank_refill_ms": 0,
                 "zero_wait": False, "away_after": 3}
HEURISTIC = POLICIES["heuristic"]
DECISION_TYPES = {"Announce", "Pass", "Claim", "Support", "Join", "Choose"}
GAME_TIMEOUT_S = 900.0


@dataclass
class Game:
    """What one game showed the person."""

    character: str
    index: int
    control: bool
    score: int = 0
    won: float = 0.0
    offers_to_person: int = 0
    counters: int = 0
    made: Counter = field(default_factory=Counter)  # the person's offers by kind
    taken: Counter = field(default_factory=Counter)  # ... that executed
    declined: int = 0  # the person's deals declined by a bot
    declined_with_reason: int = 0
    reasons: Counter = field(default_factory=Counter)
    person_deals: int = 0  # deals executed that the person was a party to
    paid: list[tuple[int, str, str]] = field(default_factory=list)  # (season, status, kind) of bots' paid promises
    last_season: int = 0
    windows: int = 0
    windows_by_clock: int = 0
    seconds: float = 0.0
    failed: str | None = None


class Person:
    """The scripted person at one seat: see the module doc."""

    def __init__(self, me: int, rng: random.Random, control: bool) -> None:
        self.me, self.rng, self.control = me, rng, control
        self.answered: set[int] = set()
        self.offered: set[tuple[int, int, int]] = set()
        self.kinds: list[str] = []  # kinds of the offers sent, until their DealProposed comes
        self.mine: dict[int, str] = {}  # the person's deals -> kind
        self.deal_parts: dict[int, tuple[list[dict], list[dict]]] = {}
        self.paid: dict[int, str] = {}  # promise id -> kind, for bots' paid promises
        self.turns: set[tuple[int, int]] = set()
        self.said_done: set[int] = set()
        self.window_done: dict[int, set[int]] = {}
        self.season = 0

    # -- what happened ----------------------------------------------------------------

    def see(self, g: Game, events: list[dict[str, Any]]) -> None:
        me = self.me
        for e in events:
            kind = e.get("type")
            if kind == "SeasonBegan":
                self.season = e["season"]
            elif kind == "FightBegan" and e.get("decision") is not None:
                g.windows += 1
                self.window_done[e["decision"]] = set()
            elif kind == "NegotiationDone":
                self.window_done.setdefault(e["decision"], set()).add(e["seat"])
            elif kind == "NegotiationClosed":
                if len(self.window_done.get(e["decision"], ())) < 2:
                    g.windows_by_clock += 1
            elif kind == "DealProposed":
                self.deal_parts[e["deal"]] = (e["transfers"], e["promises"])
                if e["proposer"] == me:
                    self.mine[e["deal"]] = self.kinds.pop(0) if self.kinds else "other"
                elif me in e["parties"]:
                    g.offers_to_person += 1
                    if e.get("counter_to") in self.mine:
                        g.counters += 1
            elif kind == "DealClosed":
                if e["deal"] in self.mine and e["reason"] == "declined" and e.get("seat") != me:
                    g.declined += 1
                    why = e.get("why")
                    if why:
                        g.declined_with_reason += 1
                        g.reasons[f"{self.mine[e['deal']]}:{why.get('code')}"] += 1
            elif kind == "DealExecuted":
                transfers, promises = self.deal_parts.get(e["deal"], ([], []))
                if e["deal"] in self.mine:
                    g.taken[self.mine[e["deal"]]] += 1
                if any(me in (t["giver"], t["receiver"]) for t in transfers) or any(
                        me in (p["promiser"], p["promisee"]) for p in promises):
                    g.person_deals += 1
                for pid, p in zip(e["promise_ids"], promises, strict=False):
                    if p["promiser"] != me and any(t["receiver"] == p["promiser"] for t in transfers):
                        self.paid[pid] = p["kind"]
            elif kind == "PromiseSettled" and e["promise"] in self.paid:
                g.paid.append((self.season, e["status"], self.paid[e["promise"]]))
            elif kind == "GameEnded":
                g.score = e["scores"][me]
                ranks = e["ranks"]
                g.won = 1.0 / ranks.count(1) if ranks[me] == 1 else 0.0
                g.last_season = self.season

    # -- what to send -------------------------------------------------------------------

    def next_command(self, view: dict[str, Any], prompt: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        """The person's next command and what it is ('answer', 'offer:KIND',
        'done', 'seal', 'decide'), or None to wait for news."""
        me = self.me
        legal = prompt.get("legal") or []
        for deal in deals.offers_to(view, me):
            if deal["deal"] in self.answered:
                continue
            self.answered.add(deal["deal"])
            take = not self.control and deal_value(reading(view, prompt, HONEST), deal) >= 0.0
            return {"type": "AcceptDeal" if take else "DeclineDeal", "deal": deal["deal"]}, "answer"
        fight = view.get("fight")
        fighter = fight is not None and me in (fight["attacker"], fight["defender"])
        window = prompt.get("kind") == "window"
        if window and fight is not None and fighter and not self.control:
            key = (view["season"], fight["attacker"], fight["defender"])
            capability = prompt.get("deal") or {}
            if key not in self.offered and capability.get("propose"):
                self.offered.add(key)
                kind = self.rng.choice(KINDS)
                offer = self._offer(view, prompt, kind)
                if offer is not None:
                    self.kinds.append(kind)
                    return offer, f"offer:{kind}"
        if window and fighter and prompt["id"] not in self.said_done:
            waiting = deals.mine(view, me) or [d for d in deals.offers_to(view, me) if d["deal"] not in self.answered]
            if not waiting and any(c.get("type") == "Done" for c in legal):
                self.said_done.add(prompt["id"])
                return {"type": "Done", "decision": prompt["id"]}, "done"
        decision = [c for c in legal if c.get("type") in DECISION_TYPES and c.get("decision") == prompt["id"]]
        if window and me in (prompt.get("early") or ()) and decision:
            as_pivot = {**prompt, "topic": "support", "kind": "round", "pivot": me,
                        "legal": [{**c} for c in decision]}
            cmd = HEURISTIC.choose(view, as_pivot, self.rng)
            if cmd is not None and cmd.get("type") in DECISION_TYPES and cmd != prompt.get("sealed"):
                return cmd, "seal"
            return None
        if prompt.get("pivot") == me and (prompt["id"], me) not in self.turns and decision:
            self.turns.add((prompt["id"], me))
            cmd = HEURISTIC.choose(view, {**prompt, "legal": decision}, self.rng)
            if cmd is None or cmd not in decision:
                cmd = next((c for c in decision if c["type"] == "Pass"), decision[0])
            return cmd, "decide"
        return None

    def _offer(self, view: dict[str, Any], prompt: dict[str, Any], kind: str) -> dict[str, Any] | None:
        """One offer of `kind` for the support that decides the person's fight."""
        me, fight = self.me, view["fight"]
        att, dfn = fight["attacker"], fight["defender"]
        side = "attacker" if me == att else "defender"
        published = {s for s, _ in prompt.get("published") or ()}
        promised = {e["promiser"] for e in deals.open_promises(view, kind="support")
                    if (e.get("attacker"), e.get("defender")) == (att, dfn)}  # the public ledger says who is taken
        asked = [s for s in prompt.get("asked") or () if s not in published | promised and s != me]
        if not asked:
            return None
        r = reading(view, prompt, HONEST)
        probs = r.probs(att, dfn)
        worth = {s: support_gain(r.b, att, dfn, s, side, probs, r.w) for s in asked}
        seat = max(asked, key=lambda s: (worth[s], -s))
        promise = deals.support(seat, me, att, dfn, side)
        if kind == "absurd":
            theirs = view["seats"][seat]["pile"]
            return deals.proposal([deals.give(c, seat, me, "for nothing") for c in theirs], [promise],
                                  "everything for nothing")
        pile = [c for c in view["seats"][me]["pile"] if c not in NINJAS]
        if not pile:
            return None
        target = max(1.0, worth[seat]) + (2.0 if kind == "generous" else 0.0)
        card = min(pile, key=lambda c: (abs(VALUE[c] - target), VALUE[c], c))
        return deals.proposal([deals.give(card, me, seat, "for your support in this fight")], [promise],
                              f"a {kind} card for your support")


async def play_game(url: str, character: str, index: int, seed: int, control: bool) -> Game:
    """One game: the person at a seat chosen from the seed, five bots of `character`."""
    g = Game(character=character, index=index, control=control)
    started = time.perf_counter()
    rng = random.Random(f"person:{seed}:{index}")
    person_seat = rng.randrange(SEATS)
    person = Person(person_seat, random.Random(f"person-play:{seed}:{index}"), control)
    try:
        async with Client.connect(url) as client:
            table = await client.create_table(SEATS, name=f"people {character} {index}", seed=seed + index,
                                              timers=PEOPLE_TIMERS)
            seat = await client.join(table, "person", seat=person_seat)
            await client.add_bots(table, seat.token or "", policy=character)
            with trio.fail_after(GAME_TIMEOUT_S):
                async for update in seat.updates():
                    if update.kind == "history":
                        continue
                    person.see(g, update.events)
                    view, prompt = update.view, update.prompt
                    while view is not None and prompt:
                        step = person.next_command(view, prompt)
                        if step is None:
                            break
                        cmd, what = step
                        try:
                            await seat.act(cmd)
                        except ServerError as error:
                            if not error.code.startswith("deal/"):
                                raise
                            if what.startswith("offer:"):
                                person.kinds.pop()  # refused: it will have no DealProposed
                            break
                        if what.startswith("offer:"):
                            g.made[what.split(":", 1)[1]] += 1
                        break  # the next frame brings the state after it
    except Exception as error:  # one failed game is reported, the rest go on
        g.failed = f"{type(error).__name__}: {error}"
    g.seconds = time.perf_counter() - started
    return g


async def _serve_and_play(jobs: list[tuple[str, int, int, bool]], tables: int, bot_delay: float) -> list[Game]:
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else None
    out: list[Game] = []
    with tempfile.TemporaryDirectory(dir=folder) as where:
        app = App(os.path.join(where, "people.sqlite"), port=0, bot_delay=bot_delay,
                  limits=Limits(tables_per_connection=50, tables_per_address=10_000))
        async with trio.open_nursery() as nursery:
            await nursery.start(app.run)
            url = f"ws://127.0.0.1:{app.port}"
            limiter = trio.CapacityLimiter(tables)

            async def one(job: tuple[str, int, int, bool]) -> None:
                async with limiter:
                    out.append(await play_game(url, *job))

            async with trio.open_nursery() as games:
                for job in jobs:
                    games.start_soon(one, job)
            app.stop()
    return out


def _work(args: tuple[list[tuple[str, int, int, bool]], int, float]) -> list[Game]:
    jobs, tables, bot_delay = args
    return trio.run(_serve_and_play, jobs, tables, bot_delay)


def _rate(x: float, n: float) -> float | None:
    return round(x / n, 4) if n else None


def summarise(games: list[Game]) -> dict[str, Any]:
    played = [g for g in games if not g.control and g.failed is None]
    controls = {g.index: g for g in games if g.control and g.failed is None}
    n = len(played)
    made: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    paid = {"kept": 0, "broken": 0}
    paid_support = {"kept": 0, "broken": 0}
    for g in played:
        made.update(g.made)
        taken.update(g.taken)
        reasons.update(g.reasons)
        for season, status, kind in g.paid:
            if season < g.last_season and status in paid:
                paid[status] += 1
                if kind == "support":
                    paid_support[status] += 1
    declined = sum(g.declined for g in played)
    pairs = [(g, controls[g.index]) for g in played if g.index in controls]
    gain = sum(g.score - c.score for g, c in pairs) / len(pairs) if pairs else None
    person_deals = sum(g.person_deals for g, _ in pairs) / len(pairs) if pairs else None
    return {
        "games": n,
        "failed_games": sum(1 for g in games if g.failed is not None),
        "offers_to_person_per_game": _rate(sum(g.offers_to_person for g in played), n),
        "fair_accept_rate": _rate(taken["fair"], made["fair"]),
        "generous_accept_rate": _rate(taken["generous"], made["generous"]),
        "absurd_accept_rate": _rate(taken["absurd"], made["absurd"]),
        "person_offers": dict(made),
        "paid_promises_kept_rate": _rate(paid["kept"], paid["kept"] + paid["broken"]),
        "paid_promises_settled": paid["kept"] + paid["broken"],
        "paid_support_kept_rate": _rate(paid_support["kept"], paid_support["kept"] + paid_support["broken"]),
        "counter_offers_per_game": _rate(sum(g.counters for g in played), n),
        "declines_with_reason_rate": _rate(sum(g.declined_with_reason for g in played), declined),
        "decline_reasons": dict(reasons),
        "person_deals_per_game": _rate(sum(g.person_deals for g in played), n),
        "person_gain_per_game": round(gain, 3) if gain is not None else None,
        "person_gain_per_deal": round(gain / person_deals, 3) if gain is not None and person_deals else None,
        "control_games": len(pairs),
        "person_win_rate": _rate(sum(g.won for g in played), n),
        "person_mean_score": _rate(sum(g.score for g in played), n),
        "windows_per_game": _rate(sum(g.windows for g in played), n),
        "windows_closed_by_clock": sum(g.windows_by_clock for g in played),
        "mean_game_seconds": _rate(sum(g.seconds for g in played), n),
    }


TARGETS = (
    ("offers_to_person_per_game", lambda v, c: v is not None and v >= 1.5, ">= 1.5"),
    ("fair_accept_rate", lambda v, c: v is not None and v >= 0.5, ">= 0.5"),
    ("absurd_accept_rate", lambda v, c: v == 0, "== 0"),
    ("paid_promises_kept_rate",
     lambda v, c: c == "ruthless" or (v is not None and v >= (1.0 if c == "honest" else 0.9)),
     "honest 1.0, shrewd >= 0.9 (ruthless: none, it says so)"),
    ("counter_offers_per_game", lambda v, c: v is not None and v >= 0.5, ">= 0.5"),
    ("declines_with_reason_rate", lambda v, c: v == 1.0, "== 1.0"),
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="The server's negotiating bots, measured from a person's chair.")
    p.add_argument("--games", type=int, default=300, help="games per character (default 300)")
    p.add_argument("--control", type=int, default=100, help="same-seed control games per character (default 100)")
    p.add_argument("--quick", action="store_true", help="12 games per character and 4 controls")
    p.add_argument("--characters", nargs="+", default=list(CHARACTERS), choices=list(CHARACTERS))
    p.add_argument("--seed", type=int, default=1, help="first table seed; game i uses seed + i")
    p.add_argument("--jobs", type=int, default=2, help="worker processes, each with its own server (default 2)")
    p.add_argument("--tables", type=int, default=6, help="tables at once in each worker (default 6)")
    p.add_argument("--bot-delay", type=float, default=0.0, help="the server bots' delay in seconds (default 0)")
    args = p.parse_args(argv)
    games, control = (12, 4) if args.quick else (args.games, min(args.control, args.games))
    jobs = [(c, i, args.seed, False) for c in args.characters for i in range(games)]
    jobs += [(c, i, args.seed, True) for c in args.characters for i in range(control)]
    random.Random(0).shuffle(jobs)  # spread the characters over the workers
    shares = [jobs[w::args.jobs] for w in range(args.jobs)]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = [g for part in pool.map(_work, [(s, args.tables, args.bot_delay) for s in shares]) for g in part]
    else:
        results = _work((jobs, args.tables, args.bot_delay))
    seconds = time.perf_counter() - start
    by_character = {c: summarise([g for g in results if g.character == c]) for c in args.characters}
    print(f"people benchmark: Python {platform.python_version()}, {games} six-seat games per character "
          f"(+{control} same-seed controls), {args.jobs} process(es), {args.tables} tables at once each, "
          f"bot delay {args.bot_delay:g} s, {seconds:.0f} s")
    missed = []
    for c, f in by_character.items():
        print(f"{c}: offers to the person {f['offers_to_person_per_game']}/game, accepted fair "
              f"{f['fair_accept_rate']} generous {f['generous_accept_rate']} absurd {f['absurd_accept_rate']}; "
              f"paid promises kept {f['paid_promises_kept_rate']} (support {f['paid_support_kept_rate']}, "
              f"{f['paid_promises_settled']} settled); counters {f['counter_offers_per_game']}/game; declines "
              f"with a reason {f['declines_with_reason_rate']} {f['decline_reasons']}; person's gain "
              f"{f['person_gain_per_deal']}/deal ({f['person_deals_per_game']} deals/game), win rate "
              f"{f['person_win_rate']}; windows closed by the clock {f['windows_closed_by_clock']} of "
              f"{f['windows_per_game']}/game; failed games {f['failed_games']}")
        missed += [f"{c}.{name} {rule}" for name, ok, rule in TARGETS if not ok(f[name], c)]
    print("targets: " + ("all met" if not missed else "MISSED " + "; ".join(missed)))
    top = {k: v for k, v in by_character.get(DEFAULT.name, {}).items()}
    print(json.dumps({"bench": "people", "default": DEFAULT.name, **top, "by_character": by_character,
                      "games_per_character": games, "control_per_character": control, "seconds": round(seconds, 1),
                      "jobs": args.jobs, "tables": args.tables, "bot_delay": args.bot_delay, "seed": args.seed,
                      "python": platform.python_version()}, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
