"""The server's own bots and replays, for every game behind the seam (Oriente
and the toy game of tests/toy_game), under trio's MockClock with the memory
store: bots fill seats through the actor and play to the end from their
seats' frames; their seats are the server's and come back after a restart;
a replay as a seat shows exactly what that seat was sent live."""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.protocol.codec import decode_any
from oriente.server.bots import BotError, BotRunner
from oriente.server.clock import TimerSettings
from oriente.server.outbox import Outbox
from oriente.server.replays import replay_steps, viewer_of
from oriente.server.stores import MemoryStore
from oriente.server.table import Stop, Table, TableSettings

from .actor_harness import HUMANS, drain, events_of
from .test_toy_game import GAMES, Game

pytestmark = pytest.mark.trio


@pytest.fixture(params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> Game:
    return GAMES[request.param]


async def _table_with_one_person(nursery: trio.Nursery, game: Game, store: MemoryStore,
                                 timers: TimerSettings = HUMANS) -> tuple[Table, Outbox, str]:
    setup = game.port.configure(game.seats, 11, game.options, {})
    settings = TableSettings(game=game.port.name, seats=game.seats, seed=11, timers=timers, options=setup.options)
    table = Table("t1", settings, game.port, setup, store, wall=lambda: 1_000_000.0 + trio.current_time())
    await table.create()
    nursery.start_soon(table.run)
    person = Outbox(10_000)
    await table.send(person, M.Join(id="me", table="t1", name="ana", seat=0))
    await wait_all_tasks_blocked()
    token = next(f["token"] for f in drain(person) if f["t"] == "ok")
    return table, person, token


def _commands(store: MemoryStore) -> list[dict[str, Any]]:
    return [decode_any(r.body) for r in store.logs["t1"] if r.kind == "cmd"]


async def test_bots_fill_the_free_seats_and_play_to_the_end(game: Game, autojump_clock: Any) -> None:
    """The person at seat 0 never answers (silence applies); the bots of the
    game's default policy take every other seat, the table starts when full,
    and every bot seat sends its own commands through the actor."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table, _, token = await _table_with_one_person(nursery, game, store)
        runner = BotRunner(nursery, delay=0.5)
        with pytest.raises(BotError) as refused:
            await runner.add(table, "not-a-token", None, None)
        assert refused.value.code == "auth/bad_token"
        with pytest.raises(BotError) as refused:
            await runner.add(table, token, "oracle", None)
        assert refused.value.code == "bots/unknown"
        seats = await runner.add(table, token, None, None)
        assert seats == list(range(1, game.seats))
        bots = [s.bot if s else None for s in table.statistics().seats]
        assert bots == [None, *[game.port.policies[0]] * (game.seats - 1)]
        with trio.fail_after(36_000):
            await table.ended.wait()
        assert table.status == "finished"
        assert {c["seat"] for c in _commands(store)} >= set(seats) and len(_commands(store)) > 2 * game.seats
        seat_taken = [e for e in table.events if e["type"] == "SeatTaken"]
        assert [e.get("bot") for e in seat_taken] == [None, *[game.port.policies[0]] * (game.seats - 1)]
        await table.send(None, Stop())
        await store.aclose()
        nursery.cancel_scope.cancel()


async def test_bot_seats_come_back_after_a_restart(game: Game, autojump_clock: Any) -> None:
    """A bot's seat is the server's: the table stores its policy, and after a
    restart the runner plays it again. The bots' prompts here are an hour
    long, so only a bot that came back ends the game."""
    slow = TimerSettings(prompt_ms=3_600_000, window_ms=0, bank_ms=0, bank_refill_ms=0,
                         zero_wait=True, away_after=1_000)
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        setup = game.port.configure(game.seats, 11, game.options, {})
        settings = TableSettings(game=game.port.name, seats=game.seats, seed=11, timers=slow, options=setup.options)
        table = Table("t1", settings, game.port, setup, store, wall=lambda: 1_000_000.0 + trio.current_time())
        await table.create()
        nursery.start_soon(table.run)
        async with trio.open_nursery() as first_life:
            runner = BotRunner(first_life, delay=1.0)
            await runner.seat(table, dict.fromkeys(range(game.seats), game.port.policies[-1]))
            while len(_commands(store)) < 3:
                await trio.sleep(0.25)
            await table.send(None, Stop())  # the server goes down mid-game, bots and all
            first_life.cancel_scope.cancel()
        assert table.status == "running"
        before = len(_commands(store))
        restored = Table.restore("t1", store.rows["t1"].meta, store.logs["t1"], store.clocks["t1"][1],
                                 game.port, store, paused_ms=0)
        assert [s.bot for s in restored.statistics().seats if s] == [game.port.policies[-1]] * game.seats
        nursery.start_soon(restored.run)
        assert BotRunner(nursery, delay=0).recover([restored]) == game.seats
        with trio.fail_after(3_000):  # less than one prompt's time: no bot's decision timed out
            await restored.ended.wait()
        assert restored.status == "finished"
        assert {c["seat"] for c in _commands(store)[before:]} >= set(range(game.seats))
        presence = [e for e in restored.events if e["type"] == "SeatPresence"]
        assert {e["seat"] for e in presence if e["connected"]} == set(range(game.seats))
        await restored.send(None, Stop())
        await store.aclose()
        nursery.cancel_scope.cancel()


async def test_a_replay_as_a_seat_is_what_that_seat_was_sent_live(game: Game, autojump_clock: Any) -> None:
    """The replay goes through the port's one gate: as seat s, its game
    events are exactly the projections seat s received while playing, and
    the last view is the seat's live view at the end."""
    rng = random.Random(8)
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table, person, _ = await _table_with_one_person(nursery, game, store, TimerSettings.bots())
        others = []
        for seat in range(1, game.seats):
            outbox = Outbox(10_000)
            await table.send(outbox, M.Join(id=f"j{seat}", table="t1", name=f"p{seat}", seat=seat))
            others.append(outbox)
        await wait_all_tasks_blocked()
        clients = [person, *others]
        sent: list[list[dict[str, Any]]] = [[] for _ in clients]
        for _ in range(5_000):
            for seat, outbox in enumerate(clients):
                sent[seat] += events_of(drain(outbox))
            if table.status == "finished":
                break
            pivot = game.port.waiting(table.play.state).pivot
            prompt = game.port.prompts(table.play.state, [pivot])[pivot]
            answers = [c for c in prompt["legal"] if c.get("decision") == prompt["id"]]
            await table.send(clients[pivot], M.Act(id=len(_commands(store)), table="t1", cmd=rng.choice(answers)))
            await wait_all_tasks_blocked()
        record = table.record()
        final = {seat: game.port.view(table.play.state, seat) for seat in range(game.seats)}
        await table.send(None, Stop())
        await store.aclose()
    assert record["result"] is not None and len(record["commands"]) > 2 * game.seats
    for seat in range(game.seats):
        replay = replay_steps(game.port, record, viewer_of(str(seat), game.seats))
        replayed = [e for step in replay["steps"] for e in step["events"] if e["type"] not in ("TableFinished",)]
        live = [e for e in sent[seat] if e["type"] != "TableFinished"]
        assert [e for e in replayed if e["seq"] > live[0]["seq"] - 1][: len(live)] == live
        assert replay["steps"][-1]["view"] == final[seat]
        assert len(replay["steps"]) == len(record["commands"]) + 1
    assert viewer_of(str(game.seats), game.seats) is None and viewer_of("all", game.seats) == "all"


async def test_the_old_name_of_a_bot_seats_and_recovers_as_the_bot_it_names(autojump_clock: Any) -> None:
    """Oriente's `negotiator` is the old name of its default character:
    `add_bots` with it seats that character, and a seat stored under it (a
    table of an older server) plays on as that character after a restart."""
    game = GAMES["oriente"]
    alias, current = next(iter(game.port.policy_aliases.items()))  # type: ignore[attr-defined]
    assert current == game.port.policies[0]
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table, _, token = await _table_with_one_person(nursery, game, store)
        assert await BotRunner(nursery, delay=0.5).add(table, token, alias, 1) == [1]
        assert [s.bot if s else None for s in table.statistics().seats][:2] == [None, current]
        await table.send(None, Stop())
        slow = TimerSettings(prompt_ms=3_600_000, window_ms=0, bank_ms=0, bank_refill_ms=0,
                             zero_wait=True, away_after=1_000)
        setup = game.port.configure(game.seats, 12, game.options, {})
        settings = TableSettings(game=game.port.name, seats=game.seats, seed=12, timers=slow, options=setup.options)
        old = Table("t2", settings, game.port, setup, store, wall=lambda: 1_000_000.0 + trio.current_time())
        await old.create()
        nursery.start_soon(old.run)
        async with trio.open_nursery() as first_life:
            await BotRunner(first_life, delay=1.0).seat(old, dict.fromkeys(range(game.seats), alias))
            while not [r for r in store.logs["t2"] if r.kind == "cmd"]:
                await trio.sleep(0.25)
            await old.send(None, Stop())
            first_life.cancel_scope.cancel()
        restored = Table.restore("t2", store.rows["t2"].meta, store.logs["t2"], store.clocks["t2"][1],
                                 game.port, store, paused_ms=0)
        assert [s.bot for s in restored.statistics().seats if s] == [alias] * game.seats
        nursery.start_soon(restored.run)
        assert BotRunner(nursery, delay=0).recover([restored]) == game.seats
        with trio.fail_after(3_000):
            await restored.ended.wait()
        assert restored.status == "finished"
        await restored.send(None, Stop())
        await store.aclose()
        nursery.cancel_scope.cancel()
