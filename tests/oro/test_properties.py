"""Property-based tests over random Oro games, every seat count, both variants.

At every step: every card in one place and control equal to absolute
majority (O1.7, O4.3: `helpers.check`); every view and every projected
event checked against the independent who-knows-what model built from the
full events alone (O8.5-O8.8), in both directions — no card a viewer may
not know, none hidden from a viewer who may. On sampled steps: every legal
command is accepted, and every other command of a wide universe is refused
without any change of the state. At the end: termination within the bound
of O5.10 and a consistent ranking (O5.8, O5.9). Separately: records replay
exactly through JSON and msgpack, and play is deterministic (O2.6).

Randomness comes from one Hypothesis-drawn seed that seeds both the table
and the random policy, so a failure shrinks to (seats, seed, gods).
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oriente.server.oro import (
    TABLE,
    Build,
    Discard,
    Draw,
    EndTurn,
    Game,
    GiveBack,
    GiveUp,
    OroConfig,
    Pass,
    Rejected,
    Remove,
    Replace,
    Take,
    Timeout,
    UseKu,
    UseLono,
    UsePele,
    apply,
    command_from_plain,
    legal,
    pending,
    plain,
    project,
    replay,
    view,
)
from oriente.server.oro.decisions import DecisionKind
from oriente.server.oro.state import OroState

from .helpers import check
from .knowledge_model import KnowledgeModel, hidden_parts, schema_problems, shown_cards

SEATS = st.integers(min_value=2, max_value=4)
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
LONG = os.environ.get("HYPOTHESIS_PROFILE", "quick") == "long"
# The command universe is probed at the first decision of each topic and on
# a sample of later steps, with a sample of it each time (all of it in the
# long profile); legal commands are tried on copies, a sample of them.
UNIVERSE_RATE = 0.1 if LONG else 0.03
UNIVERSE_SAMPLE = None if LONG else 120
LEGAL_SAMPLE = None if LONG else 6


def universe(state: OroState, n: int) -> list:
    """A wide set of commands around the current decision: every kind, right
    and wrong islands and connections, and stale or unknown decision ids."""
    board = state.board
    d = pending(state)[0].id
    islands = [*range(board.islands), board.islands, -1]
    out: list = []
    for c, (a, b) in enumerate(board.ends):
        wrong = next(i for i in range(board.islands) if i not in (a, b))
        out += [Build(decision=d, connection=c, island=i) for i in (a, b, wrong)]
        out += [Build(decision=d, connection=c, kanaloa=True), Build(decision=d, connection=c, island=a, kanaloa=True)]
        for cards, k in [((a, a), 0), ((a, b), 0), ((b, b), 0), ((a, wrong), 0), ((a,), 0), ((a,), 1), ((b,), 1),
                         ((), 2), ((a, b), 1)]:
            out.append(Replace(decision=d, connection=c, islands=cards, kanaloa=k))
        out.append(Remove(decision=d, connection=c))
    out += [Build(decision=d, connection=board.connections, island=0)]
    for cls in (GiveUp, Discard, Take, GiveBack):
        out += [cls(decision=d, island=i) for i in islands]
    out += [Draw(decision=d, island=i) for i in [None, *islands]]
    out += [UseLono(decision=d, island=i) for i in [None, *islands]]
    out += [UseKu(decision=d, target=t) for t in range(-1, n + 1)]
    out += [EndTurn(decision=d), Pass(decision=d), UsePele(decision=d)]
    out += [EndTurn(decision=d - 1), Pass(decision=d + 5)]
    return out


def fingerprint(state: OroState) -> bytes:
    """Everything that can change (the config and board never do)."""
    return pickle.dumps([getattr(state, k) for k in OroState.__slots__ if k not in ("config", "board")])


def trial_copy(state: OroState) -> OroState:
    """A deep copy that shares the immutable config and board."""
    return copy.deepcopy(state, {id(state.config): state.config, id(state.board): state.board})


class Table:
    """One random game, checked at every step."""

    def __init__(self, seats: int, seed: int, gods: bool, *, probe: bool = True) -> None:
        self.game = Game(OroConfig(seats=seats, seed=seed % 2**32, gods=gods))
        self.rng = random.Random(seed)
        self.n = seats
        self.model = KnowledgeModel()
        self.probe = probe
        self.seen_topics: set[str] = set()
        for e in self.game.events:
            self._event(e)

    def _event(self, event) -> None:
        full = project(event, "all")
        assert not schema_problems(full), schema_problems(full)
        self.model.apply(full)
        for viewer in [*range(self.n), "spectator"]:
            proj = project(event, viewer)
            for (where, may), (_, shown) in zip(hidden_parts(full, viewer), shown_cards(proj), strict=True):
                assert may == shown, f"{full['type']}.{where} for {viewer}: may know {may}, shown {shown}"

    def _views(self) -> None:
        state, model = self.game.state, self.model
        for viewer in [*range(self.n), "spectator"]:
            v = view(state, viewer)
            for s, entry in enumerate(v["hands"]):
                assert entry["size"] == len(model.hand(s))
                if s == viewer:
                    assert entry["cards"] == model.hand(s)
                    assert entry["known_to"] == model.known_to(s)
                else:
                    assert entry["cards"] is None
                    assert entry["known"] == model.known(viewer, s), (viewer, s)
            if isinstance(viewer, int):
                assert v["my_hidden"] == sorted(model.hidden[viewer])
                d = v["decision"]
                if d is not None and d["kind"] == "round" and "sealed" in d:
                    assert d["sealed"]["type"] == "GiveUp" and d["sealed"]["island"] in model.hand(viewer)
            else:
                assert "my_hidden" not in v and (v["decision"] is None or "sealed" not in v["decision"])
        json.dumps(view(state, 0))

    def _probe(self, seat: int) -> None:
        state = self.game.state
        ok = legal(state, seat)
        tried = ok if LEGAL_SAMPLE is None or len(ok) <= LEGAL_SAMPLE else self.rng.sample(ok, LEGAL_SAMPLE)
        for cmd in tried:
            trial = trial_copy(state)
            apply(trial, seat, cmd)
            assert command_from_plain(plain(cmd)) == cmd
        before = fingerprint(state)
        accepted = set(ok)
        others = universe(state, self.n)
        if UNIVERSE_SAMPLE is not None and len(others) > UNIVERSE_SAMPLE:
            others = self.rng.sample(others, UNIVERSE_SAMPLE)
        for cmd in others:
            if cmd in accepted:
                continue
            try:
                apply(state, seat, cmd)
            except Rejected:
                assert fingerprint(state) == before, f"{cmd} was refused but changed the state"
            else:
                raise AssertionError(f"{cmd} is not legal for seat {seat} but was accepted")

    def step(self) -> None:
        state = self.game.state
        d = pending(state)[0]
        topic = d.topic.value
        if self.probe and (topic not in self.seen_topics or self.rng.random() < UNIVERSE_RATE):
            self.seen_topics.add(topic)
            for seat in {d.pivot, *d.early, self.rng.randrange(self.n)}:
                self._probe(seat)
        roll = self.rng.random()
        if roll < 0.08:
            events = self.game.apply(TABLE, Timeout(decision=d.id, pivot=d.pivot))
        elif d.kind is DecisionKind.ROUND and d.early and roll < 0.5:
            seat = self.rng.choice(d.early)  # a sealed early answer (O8.2)
            events = self.game.apply(seat, self.rng.choice(legal(state, seat)))
        else:
            events = self.game.apply(d.pivot, self.rng.choice(legal(state, d.pivot)))
        for e in events:
            self._event(e)
        check(state)
        self._views()

    def play(self) -> Game:
        self._views()
        steps = 0
        while not self.game.over:
            self.step()
            steps += 1
            assert self.game.state.turns <= 2 * 48 + self.n * self.n, "O5.10"
            assert steps < 3000
        result = self.game.state.result
        assert result is not None and min(result.ranks) == 1
        if result.reason == "scoring":
            assert sorted(result.ranks) == list(range(1, self.n + 1))  # O5.8: all different
            order = sorted(range(self.n), key=lambda s: result.ranks[s])
            assert [result.scores[s] for s in order] == sorted(result.scores, reverse=True)
        return self.game


@settings(max_examples=500 if LONG else 20)
@given(seats=SEATS, seed=SEEDS, gods=st.booleans())
def test_random_play_conserves_hides_and_ends(seats, seed, gods):
    Table(seats, seed, gods).play()


@settings(max_examples=200 if LONG else 6)
@given(seats=SEATS, seed=SEEDS, gods=st.booleans())
def test_records_replay_exactly(seats, seed, gods):
    """O2.6: config, seed and the ordered commands give back every event,
    also after the record went through JSON or msgpack."""
    game = Table(seats, seed, gods, probe=False).play()
    record = game.record()
    again = replay(json.loads(json.dumps(record)))
    assert [plain(e) for e in again.events] == [plain(e) for e in game.events]
    assert replay(msgpack.unpackb(msgpack.packb(record))).record() == record


@pytest.mark.slow
def test_many_random_games_with_every_check():
    """The long run of the first property (300 games, every check at every
    step; a few minutes, run with -m slow); the default run has its
    20-example equivalent above."""
    for seed in range(300):
        Table(2 + seed % 3, seed * 2654435761, seed % 2 == 1).play()
