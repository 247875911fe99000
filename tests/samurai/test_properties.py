"""Property-based tests over random play: many games, every seat count.

At every step of every game: conservation (every tile of every seat in
exactly one place, every figure on the board, in the supply, captured or set
aside), agreement of the state with the independent model built from the
events, and information hiding — every view and every projected event is
checked against that model (S7.4). On sampled steps: every legal command is
accepted and every other command of a wide universe is refused without any
change to the state. At the end: termination within the bound of S7.6 and a
result consistent with S6. Separately: records replay exactly and survive
msgpack, and play is deterministic (S7.7).

Randomness comes from one Hypothesis-drawn seed: it seeds the table and the
driver's `random.Random`, so a failure shrinks to (seats, seed).
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from oriente.server.samurai import (
    EVERYONE,
    SPECTATOR,
    TABLE,
    ChooseTiles,
    EndTurn,
    Figure,
    Game,
    GameConfig,
    Pass,
    PlaceFigure,
    PlaceTile,
    Rejected,
    SwapFigures,
    SwapTile,
    Timeout,
    Topic,
    apply,
    decision_view,
    legal,
    pending,
    plain,
    project,
    replay,
    view,
)
from oriente.server.samurai.scoring import score
from oriente.server.samurai.state import GameState

from .knowledge_model import KnowledgeModel

LONG = os.environ.get("HYPOTHESIS_PROFILE", "quick") == "long"
UNIVERSE_RATE = 0.2 if LONG else 0.04
SEATS = st.integers(min_value=2, max_value=4)
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)

VIEW_KEYS = {"game", "viewer", "seats", "first", "phase", "turn", "board", "tile_set", "figures", "figure_supply",
             "tiles", "set_aside", "players", "current", "passes", "decision", "result"}
PLAYER_KEYS = {"seat", "hand", "hand_size", "supply", "supply_size", "boxed", "captured", "chosen"}


def bound(n: int) -> int:
    """S7.6: the selection (n answers, each at most changed a few times), the
    figures, and turns that each use up a tile or are one of at most n-1
    passes in a row, each turn at most 20 placements and an end."""
    return 4 * n + 3 * 13 + (20 * n * n + n) * 22


def fingerprint(s: GameState) -> tuple:
    """Everything a command could change, cheaply comparable."""
    sel = s.selection
    return (
        s.phase, s.decision, s.next_decision, s.prompt_seat, s.turn, s.placed, s.plain_used, s.passes,
        tuple(map(tuple, s.hand)), tuple(map(tuple, s.supply)), tuple(map(tuple, s.boxed)),
        tuple(sorted(s.tiles_at.items())), tuple(sorted((h, tuple(f)) for h, f in s.figures_at.items())),
        tuple(sorted(s.figure_supply.items())), tuple(map(tuple, s.captured)), tuple(s.set_aside),
        tuple((k, r.state, r.inc) for k, r in sorted(s.rng.items())),
        None if sel is None else (sel.pos, tuple(sorted(sel.sealed.items()))),
    )


def clone(s: GameState) -> GameState:
    """A deep copy that shares the immutable board and tile set."""
    memo = {id(s.config): s.config, id(s.layout): s.layout, id(s.tileset): s.tileset}
    return copy.deepcopy(s, memo)


# -- the driver ------------------------------------------------------------------------

def choose_command(game: Game, rng: random.Random) -> tuple[int, Any]:
    """A random legal step: sometimes the table's timeout, early and changed
    answers in the tile choice, EndTurn with probability 1/2 where legal."""
    d = game.pending()[0]
    if rng.random() < 0.08:
        return TABLE, Timeout(decision=d.id, pivot=d.pivot)
    if d.topic is Topic.SELECT:
        seat = rng.choice([d.pivot, *d.early])
        return seat, ChooseTiles(decision=d.id, tiles=tuple(rng.sample(range(20), 5)))
    options = game.legal(d.pivot)
    ends = [c for c in options if isinstance(c, EndTurn)]
    if ends and rng.random() < 0.5:
        return d.pivot, ends[0]
    return d.pivot, rng.choice(options)


def play(seats: int, seed: int, on_step=None) -> Game:
    game = Game(GameConfig(seats=seats, seed=seed))
    rng = random.Random(seed)
    steps = 0
    while not game.over:
        seat, cmd = choose_command(game, rng)
        before = len(game.events)
        game.apply(seat, cmd)
        steps += 1
        assert steps <= bound(seats), "S7.6: the game did not end within its bound"
        if on_step is not None:
            on_step(game, seat, cmd, game.events[before:], rng)
    return game


# -- the checks ----------------------------------------------------------------------

def check_conservation(s: GameState) -> None:
    """Every tile in one place; every figure accounted for; hands of 5 at most."""
    per_kind = s.layout.figures_per_kind
    for seat in range(s.n):
        on_board = [t for (o, t) in s.tiles_at.values() if o == seat]
        places = s.hand[seat] + s.supply[seat] + s.boxed[seat] + on_board
        assert sorted(places) == list(range(20)), f"seat {seat}'s tiles are not each in one place"
        assert len(s.hand[seat]) <= 5
    for k, fig in enumerate(Figure):
        on_board = sum(f.count(fig) for f in s.figures_at.values())
        captured = sum(c[k] for c in s.captured)
        assert on_board + s.figure_supply[fig] + captured + s.set_aside[k] == per_kind
    for h, there in s.figures_at.items():
        assert len(there) <= s.layout.capacity(h) and len(set(there)) == len(there)  # S2.5
    assert all(h in s.layout.land or h in s.layout.sea for h in s.tiles_at)  # S3.3, S3.4


def check_agreement(s: GameState, model: KnowledgeModel) -> None:
    """The state says what the events said."""
    for seat in range(s.n):
        assert set(s.hand[seat]) == model.hand[seat]
        assert set(s.supply[seat]) == model.supply[seat]
        assert set(s.boxed[seat]) == model.boxed[seat]
    assert s.tiles_at == model.board
    assert s.captured == model.captured and s.set_aside == model.set_aside


def check_view(s: GameState, model: KnowledgeModel, viewer: Any, sealed: dict[int, tuple[int, ...]]) -> None:
    v = view(s, viewer)
    assert set(v) == VIEW_KEYS, "a new view field must be classified here (hidden by default)"
    assert {(t["hex"], t["seat"], t["tile"]) for t in v["tiles"]} == {(h, o, t) for h, (o, t) in model.board.items()}
    for p in v["players"]:
        assert set(p) == PLAYER_KEYS
        seat = p["seat"]
        assert p["hand_size"] == len(model.hand[seat]) and p["supply_size"] == len(model.supply[seat])
        if model.knows_tiles_of(seat, viewer) or viewer == EVERYONE:
            assert set(p["hand"]) == model.hand[seat] and set(p["supply"]) == model.supply[seat]
            assert p["supply"] == sorted(p["supply"]), "a supply's order is known to nobody (S7.4)"
        else:
            assert p["hand"] == [None] * p["hand_size"] and p["supply"] is None
        shown = p["captured"]
        if model.sees_captures_of(seat, viewer) or viewer == EVERYONE:
            assert shown == dict(zip(("helmet", "buddha", "rice"), model.captured[seat], strict=True))
        else:
            assert shown is None, f"seat {seat}'s captures leaked to {viewer!r} (S7.4)"
        assert p["chosen"] == (seat in model.final or s.selection is None)
    d = decision_view(s, viewer)
    if d is not None and viewer != EVERYONE:
        if "sealed" in d:
            assert viewer in sealed and d["sealed"] == sorted(sealed[viewer]), "a sealed choice leaked (S7.2)"
        else:
            assert viewer not in sealed or s.selection is None


def check_projections(events: list, model: KnowledgeModel, viewers: list[Any]) -> None:
    for e in events:
        full = plain(e)
        model.apply(full)
        for viewer in viewers:
            shown = project(e, viewer)
            assert shown.keys() == full.keys()
            if full["type"] in ("TilesChosen", "TilesDrawn"):
                if viewer == full["seat"] or viewer == EVERYONE:
                    assert shown == full
                else:
                    assert shown["tiles"] == [None] * len(full["tiles"]) and {**shown, "tiles": 0} == {
                        **full, "tiles": 0}
            else:
                assert shown == full, f"{full['type']} is public (S7.4)"


def _universe(s: GameState, rng: random.Random, seat: int, did: int) -> list[Any]:
    """Commands of every kind from `seat`, most of them wrong in some way."""
    lay = s.layout
    hexes = [*rng.sample(sorted(lay.hexes), min(12, len(lay.hexes))), -1, 10 ** 6]
    out: list[Any] = [EndTurn(decision=did), Pass(decision=did), ChooseTiles(decision=did, tiles=(0, 1, 2, 3, 4))]
    out += [PlaceTile(decision=did, tile=t, hex=h) for t in range(-1, 21) for h in hexes]
    out += [PlaceFigure(decision=did, hex=h, figure=f) for h in hexes[:6] for f in Figure]
    out += [PlaceFigure(decision=did, hex=h, figure=f) for h in lay.settlements for f in Figure]
    out += [SwapTile(decision=did, tile=t, hex=h, to=to) for t in (19, 0) for h in hexes[:4] for to in hexes[:4]]
    own = [h for h, (o, _) in s.tiles_at.items() if o == seat]
    out += [SwapTile(decision=did, tile=19, hex=h, to=to) for h in own[:3] for to in hexes[:6]]
    figs = [(h, f) for h in sorted(s.figures_at) for f in s.figures_at[h]]
    for _ in range(20 if figs else 0):
        (ha, fa), (hb, fb) = rng.choice(figs), rng.choice(figs)
        out.append(SwapFigures(decision=did, tile=rng.choice((18, 0)), hex_a=ha, figure_a=fa, hex_b=hb, figure_b=fb))
    return out


def check_universe(s: GameState, rng: random.Random) -> None:
    """Legal commands are accepted; every other command of a wide universe is
    refused with the state untouched."""
    d = pending(s)[0]
    before = fingerprint(s)
    for seat in [*range(s.n), TABLE, s.n]:
        allowed = set(legal(s, seat)) if 0 <= seat < s.n else set()
        for c in rng.sample(sorted(allowed, key=repr), min(15, len(allowed))):
            apply(clone(s), seat, c)  # accepted
        universe = _universe(s, rng, seat, d.id)
        universe += [c for c in rng.sample(sorted(allowed, key=repr), min(5, len(allowed)))
                     for c in (type(c)(**{**c.__dict__, "decision": d.id + 1}) if hasattr(c, "__dict__") else c,)]
        universe += [EndTurn(decision=d.id - 1), Timeout(decision=d.id, pivot=d.pivot),
                     Timeout(decision=d.id, pivot=(d.pivot or 0) + 1)]
        for cmd in universe:
            if cmd in allowed or (isinstance(cmd, ChooseTiles) and d.topic is Topic.SELECT):
                continue
            if isinstance(cmd, Timeout) and seat == TABLE and cmd.pivot == d.pivot:
                continue
            try:
                apply(s, seat, cmd)
            except Rejected as err:
                assert "/" in err.code
            else:
                raise AssertionError(f"{cmd} from seat {seat} was accepted but is not legal")
    # One comparison for the whole universe: a refused command that changed
    # anything leaves a trace a later refusal cannot undo.
    assert fingerprint(s) == before, "a refused command changed the state"
    if d.topic is Topic.SELECT:
        for seat in range(s.n):
            final = seat in d.asked[:d.asked.index(d.pivot)] if d.pivot is not None else True
            for tiles in ((0, 1, 2, 3, 4), (0, 1, 2, 3), (0, 0, 1, 2, 3), (1, 2, 3, 4, 20), (True, 1, 2, 3, 4)):
                ok = (not final and len(set(tiles)) == 5 and all(0 <= t < 20 for t in tiles)
                      and not any(isinstance(t, bool) for t in tiles))
                try:
                    apply(clone(s), seat, ChooseTiles(decision=d.id, tiles=tiles))
                except Rejected:
                    assert not ok, (seat, tiles)
                else:
                    assert ok, (seat, tiles)


def check_result(s: GameState) -> None:
    r = s.result
    assert r is not None
    expected = score(s.captured)
    assert r.ranks == expected.ranks and r.winners == expected.winners
    assert min(r.ranks) == 1
    ranks = sorted(r.ranks)
    for i, rank in enumerate(ranks):  # competition ranking: shared ranks skip
        assert rank == ranks[i - 1] if i and ranks[i - 1] == rank else rank == i + 1
    on_board = [sum(f.count(fig) for f in s.figures_at.values()) for fig in Figure]
    assert {"last_figure": 0 in on_board, "set_aside": sum(s.set_aside) >= 4 and 0 not in on_board,
            "no_moves": s.passes >= s.n}[r.reason]


# -- the properties ----------------------------------------------------------------

@settings(max_examples=300 if LONG else 10)
@given(seats=SEATS, seed=SEEDS)
def test_random_play_hides_conserves_and_ends(seats, seed):
    model = KnowledgeModel(seats)
    viewers: list[Any] = [*range(seats), SPECTATOR, EVERYONE]
    sealed: dict[int, tuple[int, ...]] = {}
    seen_topics: set[Topic] = set()
    game = Game(GameConfig(seats=seats, seed=seed))
    check_projections(game.events, model, viewers)

    def on_step(game: Game, seat: int, cmd: Any, events: list, rng: random.Random) -> None:
        s = game.state
        if isinstance(cmd, ChooseTiles):
            sealed[seat] = cmd.tiles
        for e in events:
            if type(e).__name__ == "TilesChosen":
                sealed.pop(e.seat, None)
        check_projections(events, model, viewers)
        check_conservation(s)
        check_agreement(s, model)
        for viewer in viewers:
            check_view(s, model, viewer, {k: tuple(sorted(v)) for k, v in sealed.items()})
        if not game.over:
            topic = pending(s)[0].topic
            if topic not in seen_topics or rng.random() < UNIVERSE_RATE:
                seen_topics.add(topic)
                check_universe(s, rng)

    rng = random.Random(seed)
    steps = 0
    while not game.over:
        seat, cmd = choose_command(game, rng)
        before = len(game.events)
        game.apply(seat, cmd)
        steps += 1
        assert steps <= bound(seats)
        on_step(game, seat, cmd, game.events[before:], rng)
    assert model.over
    check_result(game.state)


@settings(max_examples=200 if LONG else 6)
@given(seats=SEATS, seed=SEEDS)
def test_record_replays_exactly(seats, seed):
    """A record (config + commands) gives back every event; it survives
    msgpack (the wire and store format)."""
    game = play(seats, seed)
    record = msgpack.unpackb(msgpack.packb(game.record()), strict_map_key=False)
    again = replay(record)
    assert [plain(e) for e in again.events] == [plain(e) for e in game.events] == record["events"]
    assert record["result"] == plain(game.state.result)


@settings(max_examples=100 if LONG else 4)
@given(seats=SEATS, seed=SEEDS)
def test_play_is_deterministic(seats, seed):
    """S7.7: "the same seed and commands give the same events." """
    assert [plain(e) for e in play(seats, seed).events] == [plain(e) for e in play(seats, seed).events]
