"""Play whole games in one process with a policy at every seat.

This is the part that holds the full game state, standing in for the table
server on a zero-wait table (R10.3): it asks each seat's policy with that
seat's view and open decision only (`views.view`, `views.decision_view`),
applies what the policy returns through `engine.apply`, and closes
negotiation windows with the table's Timeout (R10.2b) when nothing else
closed them, as a table whose window clock runs out at once would. A policy
that returns None when it is waited on is treated as silent (a Timeout for
its pivot, R10.1/R10.2).

**Bargaining.** With `deals` on, before each decision is answered, the seats
get their chance to talk, in passes until a pass sends nothing (at most
PASSES): every seat with an open deal to answer, every seat asked in a
negotiation window and both fighters (sealed answers, R10.2; done,
R10.2b1), and every seat asked later in a support round that has already
spoken, are asked with `choose`; every seat whose policy offers at the
prompt's topic (`Policy.topics`) is asked with `offer` until it has nothing
more. Each seat keeps one memo for the game (policies/__init__.py). So
deals are proposed, answered, countered, kept or broken within the step of
the decision they concern, as they would be in the window's time on a real
table.

Every command a policy returns is checked: an answer to the decision or to a
deal must be one of the prompt's legal commands, and every command must be
accepted by `apply`. A breach raises `PolicyError` (with `strict`), or is
counted in `Played.refused` by its rejection code.

`Played.tally` counts, from the events, each seat's deals proposed, deals
executed as a party, promises kept and broken, and every fight, with those
that bought support decided: a fight whose winner would have lost without
the supporters it had paid for (a kept support promise) and their
reinforcements (R6.3-R6.5).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from oriente.games.oriente.rules import (
    TABLE,
    GameConfig,
    Rejected,
    Timeout,
    apply,
    command_from_plain,
    new_game,
    pending,
)
from oriente.games.oriente.rules import events as E
from oriente.games.oriente.rules.cards import VALUE
from oriente.games.oriente.rules.commands import DECISION_COMMAND_TYPES, Promise
from oriente.games.oriente.rules.decisions import Decision
from oriente.games.oriente.rules.state import GameState
from oriente.games.oriente.rules.views import view

from . import Policy

DECISION_TYPES = DECISION_COMMAND_TYPES
FINAL_TYPES = DECISION_TYPES | {"Done"}  # after these a seat has said its piece for this step
MAX_EXTRA = 8  # commands a seat may send in one turn before its answer
PASSES = 4  # bargaining passes per decision step, at most


class PolicyError(AssertionError):
    """A policy returned a command that was not legal or was rejected."""


@dataclass
class Tally:
    """Deals and fights of one game, per seat, counted from the events."""

    proposed: list[int]
    executed: list[int]  # deals executed that the seat was a party to
    kept: list[int]
    broken: list[int]
    deals_executed: int = 0
    fights: int = 0
    bought_fights: int = 0  # fights whose winner won by the support it paid for
    bought_by: list[int] = field(default_factory=list)  # ... per winning seat
    # Promises a seat was paid for (the deal moved a card to the promiser):
    # (promiser, kind, season settled, status), kept, broken or released.
    paid: list[tuple[int, str, int, str]] = field(default_factory=list)
    season: int = 0
    _deals: dict[int, tuple[int, ...]] = field(default_factory=dict)
    _promises: dict[int, tuple[Promise, ...]] = field(default_factory=dict)
    _promise_of: dict[int, dict] = field(default_factory=dict)
    _transfers: dict[int, tuple] = field(default_factory=dict)
    _bought: list[tuple[int, int, int]] = field(default_factory=list)

    def paid_kept(self, seats: set[int], last_season: int) -> tuple[int, int]:
        """(kept, broken) of the promises these seats were paid for, settled
        before the last season (released ones left out)."""
        done = [status for s, _, season, status in self.paid if s in seats and season < last_season]
        return done.count("kept"), done.count("broken")

    @classmethod
    def empty(cls, n: int) -> Tally:
        return cls(proposed=[0] * n, executed=[0] * n, kept=[0] * n, broken=[0] * n, bought_by=[0] * n)

    def see(self, events: list) -> None:
        for e in events:
            if isinstance(e, E.SeasonBegan):
                self.season = e.season
            elif isinstance(e, E.DealProposed):
                self.proposed[e.proposer] += 1
                self._deals[e.deal] = e.parties
                self._promises[e.deal] = e.promises
                self._transfers[e.deal] = e.transfers
            elif isinstance(e, E.DealExecuted):
                self.deals_executed += 1
                for s in self._deals.get(e.deal, ()):
                    self.executed[s] += 1
                receivers = {t.receiver for t in self._transfers.get(e.deal, ())}
                for pid, promise in zip(e.promise_ids, self._promises.get(e.deal, ()), strict=True):
                    self._promise_of[pid] = {"kind": promise.kind.value, "promiser": promise.promiser,
                                             "attacker": promise.attacker, "defender": promise.defender,
                                             "paid": promise.promiser in receivers}
            elif isinstance(e, E.PromiseSettled):
                paid = self._promise_of.get(e.promise)
                if paid is not None and paid["paid"]:
                    self.paid.append((e.promiser, paid["kind"], self.season, e.status))
                if e.status == "kept":
                    self.kept[e.promiser] += 1
                    entry = self._promise_of.get(e.promise)
                    if entry is not None and entry["kind"] == "support":
                        self._bought.append((entry["attacker"], entry["defender"], e.promiser))
                elif e.status == "broken":
                    self.broken[e.promiser] += 1
            elif isinstance(e, E.FightResolved):
                self._fight(e)

    def _fight(self, e: E.FightResolved) -> None:
        self.fights += 1
        bought = {s for a, d, s in self._bought if (a, d) == (e.attacker, e.defender)}
        self._bought = []
        if e.shogun_defence or not bought:
            return
        side = "attacker" if e.winner == e.attacker else "defender"
        paid = sum(VALUE[c] for s, c, sd in e.supporters if s in bought and sd.value == side)
        paid += sum(VALUE[c] for s, c in e.reinforcements if s in bought
                    and any(x == s and sd.value == side for x, _, sd in e.supporters))
        if side == "attacker":
            decided = e.attack_total - paid <= e.defence_total
        else:
            decided = e.defence_total - paid < e.attack_total
        if decided and paid:
            self.bought_fights += 1
            self.bought_by[e.winner] += 1


@dataclass
class Played:
    """One finished game."""

    state: GameState
    commands: int = 0
    by_seat: list[int] = field(default_factory=list)
    deals_proposed: int = 0
    tally: Tally = field(default_factory=lambda: Tally.empty(0))
    refused: Counter = field(default_factory=Counter)
    decide_ns: list[list[int]] = field(default_factory=list)  # per seat: choose() calls as the pivot
    talk_ns: list[list[int]] = field(default_factory=list)  # per seat: every other policy call
    said: list[tuple[int, str]] = field(default_factory=list)  # chat lines from Policy.say
    windows: int = 0  # negotiation windows opened
    windows_timed_out: int = 0  # ... closed by the clock rather than by done and early answers (R10.2b1)

    @property
    def result(self):
        return self.state.result


def seat_rng(seed: int, seat: int) -> random.Random:
    return random.Random(f"oriente-policy:{seed}:{seat}")


class _Table:
    """The state, the seats' policies, rngs and memos, and the counters."""

    def __init__(self, config: GameConfig, policies: list[Policy], seed: int, strict: bool, timing: bool,
                 talk: bool) -> None:
        self.state, _ = new_game(config)
        n = self.state.n
        self.policies = policies
        self.rngs = [seat_rng(seed, s) for s in range(n)]
        self.memos: list[dict[Any, Any]] = [{} for _ in range(n)]
        self.strict = strict
        self.timing = timing
        self.talk = talk
        self.played = Played(state=self.state, by_seat=[0] * n, tally=Tally.empty(n),
                             decide_ns=[[] for _ in range(n)], talk_ns=[[] for _ in range(n)])

    def call(self, seat: int, fn: Any, v: dict, prompt: dict | None, decide: bool = False) -> dict | None:
        if not self.timing:
            return fn(v, prompt, self.rngs[seat], self.memos[seat])
        start = time.perf_counter_ns()
        cmd = fn(v, prompt, self.rngs[seat], self.memos[seat])
        spent = time.perf_counter_ns() - start
        (self.played.decide_ns if decide else self.played.talk_ns)[seat].append(spent)
        return cmd

    def send(self, seat: int, cmd: Any, legal: list | None, v: dict) -> bool:
        """Apply a policy's command; False if it was refused (not strict)."""
        kind = cmd.get("type") if isinstance(cmd, dict) else None
        bare = {k: v for k, v in cmd.items() if k != "why"} if kind == "DeclineDeal" else cmd  # R8.8: a reason
        if kind != "ProposeDeal" and (legal is None or bare not in legal):
            if self.strict:
                raise PolicyError(f"seat {seat} sent a command that is not legal now: {cmd!r}")
            self.played.refused["not_legal"] += 1
            return False
        try:
            events = apply(self.state, seat, command_from_plain(cmd))
        except Rejected as exc:
            if self.strict:
                raise PolicyError(f"seat {seat}'s command {cmd!r} was rejected: {exc}") from exc
            self.played.refused[exc.code] += 1
            return False
        played = self.played
        played.commands += 1
        played.by_seat[seat] += 1
        if kind == "ProposeDeal":
            played.deals_proposed += 1
        self.see(events)
        if self.talk:
            line = self.policies[seat].say(v, cmd)
            if line:
                played.said.append((seat, line))
        return True

    def timeout(self, d: Decision) -> None:
        if d.pivot is None:
            self.played.windows_timed_out += 1
        self.see(apply(self.state, TABLE, Timeout(decision=d.id, pivot=d.pivot)))

    def see(self, events: list) -> None:
        self.played.tally.see(events)
        self.played.windows += sum(1 for e in events if isinstance(e, E.FightBegan) and e.decision is not None)


def _current(state: GameState) -> Decision | None:
    ds = pending(state)
    return ds[0] if ds else None


def _moved(state: GameState, d: Decision) -> bool:
    """The decision closed or now waits on someone else (a new deadline key)."""
    now = _current(state)
    return now is None or now.key != d.key


def _talkers(t: _Table, d: Decision) -> list[tuple[int, bool]]:
    """(seat, ask it with choose) for every seat that may have something to
    say before the decision is answered, fighters first."""
    state = t.state
    n = state.n
    start = d.pivot if d.pivot is not None else state.stone
    seats = [(start + i) % n for i in range(n)]
    fight = state.fight
    if fight is not None:
        seats = [fight.attacker, fight.defender] + [s for s in seats if s not in (fight.attacker, fight.defender)]
    owing: set[int] = set()
    for deal in state.deals.values():
        owing.update(s for s in deal.parties if s not in deal.accepted)
        owing.add(deal.proposer)
    rnd = state.round
    out = []
    for s in seats:
        if s == d.pivot:
            out.append((s, False))
            continue
        ask = s in owing
        if d.kind.value == "window":
            ask = ask or s in d.asked or (fight is not None and s in (fight.attacker, fight.defender))
        elif rnd is not None and s in d.early and s in rnd.sealed:
            ask = True
        out.append((s, ask))
    return out


def _bargain(t: _Table, d: Decision) -> None:
    """Passes of talk before the decision is answered (see the module doc)."""
    state = t.state
    for _ in range(PASSES):
        sent = False
        for seat, ask in _talkers(t, d):
            policy = t.policies[seat]
            offers = d.topic.value in policy.topics
            if not ask and not offers:
                continue
            for _ in range(MAX_EXTRA if ask else 0):
                v = view(state, seat)
                prompt = v["decision"]
                cmd = t.call(seat, policy.choose, v, prompt)
                if cmd is None or not t.send(seat, cmd, prompt.get("legal") if prompt else None, v):
                    break
                sent = True
                if _moved(state, d):
                    return
                if cmd["type"] in FINAL_TYPES:
                    break
            for _ in range(MAX_EXTRA if offers else 0):
                v = view(state, seat)
                prompt = v["decision"]
                cmd = t.call(seat, policy.offer, v, prompt)  # a ProposeDeal, or the sealed answer it needs first
                if cmd is None or not t.send(seat, cmd, prompt.get("legal") if prompt else None, v):
                    break
                sent = True
                if _moved(state, d):
                    return
        if not sent:
            return


def play(config: GameConfig, policies: list[Policy], seed: int = 0, *, deals: bool = True, strict: bool = True,
         timing: bool = False, talk: bool = False) -> Played:
    """Play one game to its end; `policies[s]` plays seat s. `timing` records
    how long each policy call took; `talk` collects what the policies say."""
    t = _Table(config, policies, seed, strict, timing, talk)
    state = t.state
    while True:
        d = _current(state)
        if d is None:
            return t.played
        if deals:
            _bargain(t, d)
            if _moved(state, d):
                continue
        if d.pivot is None:
            t.timeout(d)  # the window's clock runs out at once (zero-wait, R10.3)
            continue
        seat = d.pivot
        policy = t.policies[seat]
        for _ in range(MAX_EXTRA):
            v = view(state, seat)
            prompt = v["decision"]
            cmd = t.call(seat, policy.choose, v, prompt, decide=True)
            if cmd is None:
                t.timeout(d)
                break
            if not t.send(seat, cmd, prompt.get("legal"), v):
                t.timeout(d)
                break
            if cmd["type"] in DECISION_TYPES or _moved(state, d):
                break
        else:
            t.timeout(d)
