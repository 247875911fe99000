"""The bot SDK (clients/sdk.py) against a real server: real sockets on
127.0.0.1, the real SQLite store, the real clock.

Every bot here goes through the SDK alone; the server is only looked at
from the side (a table's command log and subscribers, the connection
count) to check what it did."""

from __future__ import annotations

import contextlib
import random
import socket
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Any

import pytest
import trio

from oriente.clients import sdk
from oriente.clients.sdk import BOT_TIMERS, Client, Disconnected, Seat, ServerError, Update
from oriente.protocol.codec import decode_any
from oriente.server.app import App
from oriente.server.policies import POLICIES

pytestmark = pytest.mark.trio

# Zero-wait tables whose prompts never time out on a slow machine: every
# command the table applies then comes from a bot, so counts are exact.
PATIENT = {**BOT_TIMERS, "prompt_ms": 60_000}


@pytest.fixture
async def app(tmp_path):
    # The server runs in a nursery of its own, so that stopping it is a
    # graceful shutdown rather than a cancellation from outside.
    async with trio.open_nursery() as nursery:
        # The server's bots act at once: nothing here is about their pace, and at
        # the default second a bot a game takes minutes.
        app = App(str(tmp_path / "store.sqlite"), port=0, bot_delay=0.0)
        await nursery.start(app.run)
        yield app
        app.stop()


def url_of(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}"


async def new_table(url: str, seats: int, **settings: Any) -> str:
    async with Client.connect(url) as client:
        return await client.create_table(seats, **settings)


async def random_bot(url: str, table: str, name: str, rng: random.Random, *, at: int | None = None,
                     early: bool = False, answers: list | None = None, seats: dict | None = None) -> dict:
    """The random bot of docs/bots.md: one seat (`at`, or the lowest free
    one), a random legal answer each turn."""
    async with Client.connect(url) as client:
        seat = await client.join(table, name, at)
        if seats is not None:
            seats[seat.seat] = seat
        async for turn in seat.turns(early=early):
            command = rng.choice(turn.legal)
            reply = await turn.answer(command)
            if answers is not None:
                answers.append((seat.seat, turn, command, reply))
        assert seat.finished
        return seat.result


def record_updates(seat: Seat, into: list[Update]) -> None:
    """Keep every Update the seat's turns() reads (the SDK's own stream)."""
    original = seat.updates

    async def updates() -> AsyncIterator[Update]:
        async for update in original():
            into.append(update)
            yield update

    seat.updates = updates  # type: ignore[method-assign]


def seqs_of(updates: list[Update]) -> list[int]:
    return [e["seq"] for u in updates for e in u.events]


def assert_no_gap(seqs: list[int]) -> None:
    assert seqs, "no events at all"
    assert seqs == list(range(seqs[0], seqs[-1] + 1)), f"a gap or a repeat in {seqs}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LoseReply:
    """Drop the `ok` of this client's next `act` (as if the connection died
    with it on the way) and break the connection right after."""

    def __init__(self, client: Client, nursery: trio.Nursery, *, abrupt: bool = True,
                 away: Callable[[], Awaitable[None]] | None = None) -> None:
        self.client = client
        self.nursery = nursery
        self.abrupt = abrupt
        self.away = away
        self.armed = False
        self.lost: list[dict] = []
        self.original = client._dispatch
        client._dispatch = self._dispatch  # type: ignore[method-assign]

    def _dispatch(self, frame: dict) -> None:
        waiter = self.client._waiters.get(frame.get("re"))
        if self.armed and frame.get("t") == "ok" and waiter is not None and waiter.message["t"] == "act":
            self.armed = False
            self.lost.append(frame)
            self.nursery.start_soon(break_link, self.client, self.abrupt, self.away)
            return
        self.original(frame)


async def break_link(client: Client, abrupt: bool, away: Callable[[], Awaitable[None]] | None = None) -> None:
    """Break the client's connection. With `away`, keep it from coming back
    until away() returns (its reconnects meanwhile find nobody listening)."""
    ws = client._ws
    if ws is None:
        return
    url = client.url
    if away is not None:
        client.url = f"ws://127.0.0.1:{free_port()}"
    if abrupt:  # the socket dies under the websocket: no close frame (1006)
        await trio.aclose_forcefully(ws.stream)
    else:  # a clean websocket close (1000)
        await ws.aclose()
    if away is not None:
        with trio.fail_after(10):
            await away()
        client.url = url


# -- whole games ---------------------------------------------------------------------


@pytest.mark.parametrize("seats", [4, 6])
async def test_random_bots_play_a_full_game_every_command_accepted(app, seats):
    url = url_of(app)
    table = await new_table(url, seats, seed=100 + seats, timers=PATIENT)
    answers: list = []
    results: list[dict] = []

    async def bot(i: int) -> None:
        results.append(await random_bot(url, table, f"rnd{i}", random.Random(i), answers=answers))

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for i in range(seats):
                nursery.start_soon(bot, i)
    assert len(results) == seats
    for result in results:
        assert result["type"] == "GameEnded"
        assert len(result["ranks"]) == seats and min(result["ranks"]) == 1
        assert result == results[0]
    # Every answer was accepted (an ok reply, never a late or refused one)...
    assert answers and all(reply is not None and reply["t"] == "ok" for *_, reply in answers)
    assert not any(reply.get("duplicate") for *_, reply in answers)
    # ... and the table's log is exactly those answers, each applied once,
    # besides the table closing each zero-wait negotiation window (a Timeout
    # without pivot, R10.2b); no prompt ever timed out.
    async with Client.connect(url) as client:
        record = await client.record(table)
    by_bots = [[seat, cmd] for seat, cmd in record["commands"] if seat != -1]
    by_table = [cmd for seat, cmd in record["commands"] if seat == -1]
    assert all(cmd["type"] == "Timeout" and cmd["pivot"] is None for cmd in by_table)
    assert sorted(map(repr, by_bots)) == sorted(repr([seat, cmd]) for seat, _, cmd, _ in answers)


# -- reconnect, resume, resend ---------------------------------------------------


@pytest.mark.parametrize("abrupt", [True, False], ids=["socket-dies", "clean-close"])
async def test_reconnect_resumes_without_gap_and_resends_the_unacknowledged_command(app, abrupt, monkeypatch):
    """Seat 0 loses its connection three times: twice together with the `ok`
    of a command it sent, once just before sending one. The SDK reconnects,
    resumes from its last seq (what it missed, a chat line said while it was
    away among it, comes back as history), re-sends the unacknowledged
    command under the same id (answered `duplicate`, applied once), sends
    the pending one after the resume, and plays on to the end."""
    url = url_of(app)
    table = await new_table(url, 4, seed=77, timers=PATIENT)
    updates: list[Update] = []
    replies: list[dict | None] = []
    lost: list[dict] = []
    sent: list[dict] = []
    spy_on_sent_frames(monkeypatch, sent)
    seats: dict[int, Seat] = {}
    gone = trio.Semaphore(0)  # released each time seat 0 shows as disconnected

    async def watch_presence(task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with Client.connect(url) as spy:
            watch = await spy.spectate(table, views=False)
            task_status.started()  # before seat 0 is even taken: no drop goes unseen
            async for update in watch.updates():
                for e in update.events:
                    if e["type"] == "SeatPresence" and e["seat"] == 0 and not e["connected"]:
                        gone.release()

    async def away() -> None:
        # Once the server has let go of seat 0's connection (the table says
        # so to its spectators), seat 1 says something: an event that seat 0
        # can only get back by resuming.
        await gone.acquire()
        await seats[1].chat("seat 0 is away")

    async def victim(nursery: trio.Nursery) -> None:
        rng = random.Random(0)
        async with Client.connect(url) as client:
            lose = LoseReply(client, nursery, abrupt=abrupt, away=away)
            seat = await client.join(table, "victim", seat=0)
            record_updates(seat, updates)
            n = 0
            async for turn in seat.turns():
                n += 1
                lose.armed = n in (2, 5)
                if n == 8:
                    # The link is down when the command is sent: it waits and
                    # goes out on the next connection, after the resume.
                    await break_link(client, abrupt, away=away)
                replies.append(await turn.answer(rng.choice(turn.legal)))
            lost.extend(lose.lost)
            assert seat.result is not None and seat.result["ranks"]
            prefix = f"{client._nonce}-"  # the ids this client chose
        sent[:] = [m for m in sent if str(m.get("id")).startswith(prefix)]

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            await nursery.start(watch_presence)
            nursery.start_soon(victim, nursery)
            for i in range(1, 4):
                nursery.start_soon(partial(random_bot, url, table, f"rnd{i}", random.Random(i), at=i,
                                           seats=seats))

    assert len(lost) == 2, "the test did not get to drop two replies"
    assert len(replies) >= 8 and all(r is not None and r["t"] == "ok" for r in replies)
    # The two commands whose ok was lost were re-sent as they were, same id,
    # and recognised; every other command went out once.
    acts = Counter(repr(m) for m in sent if m["t"] == "act")
    assert sorted(acts.values()) == [1] * (len(replies) - 2) + [2, 2]
    assert sum(1 for r in replies if r.get("duplicate")) == 2
    # No gap and no repeat in what the SDK yielded, up to TableFinished.
    seqs = seqs_of(updates)
    assert_no_gap(seqs)
    assert updates[-1].events[-1]["type"] == "TableFinished"
    # Three resumes, each from the last seq seen: the history that follows
    # starts right after it and holds what was said while seat 0 was away.
    resumes = [m for m in sent if m["t"] == "resume"]
    assert len(resumes) == 3
    history = [u for u in updates if u.kind == "history"]
    assert {u.events[0]["seq"] for u in history} >= {r["after"] + 1 for r in resumes}
    missed = [e for u in history for e in u.events if e["type"] == "Chat"]
    assert [(e["seat"], e["text"]) for e in missed] == [(1, "seat 0 is away")] * 3
    assert not any(e["type"] == "Chat" for u in updates if u.kind != "history" for e in u.events)
    # Applied once: the table's log has exactly one command per answer.
    tab = await app.lobby.find(table)  # ended: it left memory, rebuilt from its log
    assert tab is not None
    assert sum(1 for seat, _ in tab.journal.commands if seat == 0) == len(replies)
    # No prompt timed out (the table's own commands only close windows).
    assert all(cmd["pivot"] is None for seat, cmd in tab.journal.commands if seat == -1)


async def test_a_join_whose_reply_is_lost_is_retried_and_keeps_its_one_seat(app, monkeypatch):
    """The connection breaks with the join's `ok` on the way: the SDK sends
    the join again on the next connection, with its nonce, and gets the same
    seat and token back (`duplicate`); the table holds one seat for it, and
    the bot plays that seat to the end."""
    url = url_of(app)
    table = await new_table(url, 4, seed=5, timers=PATIENT)
    sent: list[dict] = []
    spy_on_sent_frames(monkeypatch, sent)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery, Client.connect(url) as client:
            original = client._dispatch
            lost: list[dict] = []

            def dispatch(frame: dict) -> None:
                waiter = client._waiters.get(frame.get("re"))
                if not lost and frame.get("t") == "ok" and waiter and waiter.message["t"] == "join":
                    lost.append(frame)
                    nursery.start_soon(break_link, client, True)
                    return
                original(frame)

            client._dispatch = dispatch  # type: ignore[method-assign]
            seat = await client.join(table, "retrier")
            assert lost and (seat.seat, seat.token) == (lost[0]["seat"], lost[0]["token"])
            for i in range(1, 4):
                nursery.start_soon(partial(random_bot, url, table, f"b{i}", random.Random(i)))
            rng = random.Random(0)
            async for turn in seat.turns():
                assert await turn.answer(rng.choice(turn.legal)) is not None
            assert seat.result is not None
    joins = [m for m in sent if m["t"] == "join" and m["name"] == "retrier"]
    assert len(joins) == 2 and joins[0] == joins[1] and len(joins[0]["nonce"]) >= 16
    ended = await app.lobby.find(table)  # it left memory at its end, rebuilt from its log
    assert ended is not None
    names = [s["name"] for s in ended.info()["seats"]]
    assert names.count("retrier") == 1


def spy_on_sent_frames(monkeypatch, into: list[dict], on_send: Callable[[dict], None] | None = None) -> None:
    """Record every message the SDK encodes for the wire."""
    real = sdk._encoder

    class Spy:
        def encode(self, message: dict) -> bytes:
            into.append(message)
            if on_send is not None:
                on_send(message)
            return real.encode(message)

    monkeypatch.setattr(sdk, "_encoder", Spy())


async def test_a_request_made_while_resuming_goes_out_after_the_resume(app, monkeypatch):
    """After a reconnect the SDK resumes its tables one by one. A request
    for a table made meanwhile must wait for that table's resume: sent
    before it, the new connection is not yet the seat's (auth/not_seated)."""
    url = url_of(app)
    first = await new_table(url, 4, timers=PATIENT)
    second = await new_table(url, 4, timers=PATIENT)
    resuming = trio.Event()
    sent: list[dict] = []
    spy_on_sent_frames(monkeypatch, sent,
                       lambda m: resuming.set() if m["t"] == "resume" and m["table"] == first else None)
    async with Client.connect(url) as client:
        await client.join(first, "ana")
        seat = await client.join(second, "ana")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(break_link, client, True)
            with trio.fail_after(10):
                await resuming.wait()
                await seat.chat("back again")
        async for update in seat.updates():
            if any(e["type"] == "Chat" for e in update.events):
                break
    order = [(m["t"], m.get("table")) for m in sent if m["t"] in ("resume", "chat")]
    assert order == [("resume", first), ("resume", second), ("chat", second)]


async def test_a_command_retried_under_the_same_id_is_applied_once(app):
    url = url_of(app)
    table = await new_table(url, 4, seed=3, timers=PATIENT)
    tab = app.lobby.get(table)
    retried: list = []

    async def me() -> None:
        rng = random.Random(0)
        async with Client.connect(url) as client:
            seat = await client.join(table, "me", seat=0)
            async for turn in seat.turns():
                command = rng.choice(turn.legal)
                if not retried:
                    message = {"t": "act", "id": "same-id", "table": table, "cmd": command}
                    retried.append(await client.request(message))
                    retried.append(await client.request(message))
                    retried.append(sum(1 for s, c in tab.journal.commands if s == 0 and c == command))
                else:
                    await turn.answer(command)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(me)
            for i in range(1, 4):
                nursery.start_soon(partial(random_bot, url, table, f"rnd{i}", random.Random(i), at=i))
    first, second, applied = retried
    assert first["t"] == "ok" and not first.get("duplicate")
    assert second["t"] == "ok" and second["duplicate"] is True and second["seq"] >= first["seq"]
    assert applied == 1


async def test_a_retry_that_lands_after_the_end_is_a_late_answer(app):
    """PROTOCOL.md 5: a retry that reaches a finished table gets game/over,
    not duplicate. For the SDK that is a late answer (None), not an error:
    here seat 0 loses a reply, stays away while its silences end the game,
    and its command is re-sent after the end."""
    url = url_of(app)
    timers = {**BOT_TIMERS, "prompt_ms": 100, "away_after": 1}
    table = await new_table(url, 4, seed=5, timers=timers)
    outcome: list = []

    async def victim(nursery: trio.Nursery) -> None:
        rng = random.Random(0)
        async with Client.connect(url, max_retries=30) as client:
            lose = LoseReply(client, nursery)
            seat = await client.join(table, "victim", seat=0)
            real = client.url
            async for turn in seat.turns():
                lose.armed = True
                client.url = f"ws://127.0.0.1:{free_port()}"  # nobody listens: stay away
                async with trio.open_nursery() as inner:
                    inner.start_soon(_let_back_when_finished, app, table, client, real)
                    outcome.append(await turn.answer(rng.choice(turn.legal)))
                break
            async for _ in seat.updates():
                pass
            assert seat.finished and seat.result["ranks"]

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(victim, nursery)
            for i in range(1, 4):
                nursery.start_soon(partial(random_bot, url, table, f"rnd{i}", random.Random(i), at=i))
    assert outcome == [None]


async def _let_back_when_finished(app: App, table: str, client: Client, url: str) -> None:
    await app.lobby.get(table).ended.wait()
    client.url = url


async def test_a_request_while_the_server_is_gone_fails_instead_of_hanging(tmp_path):
    """The server shuts down (a clean 1001 close) and never comes back: once
    the retries are spent, a pending request raises Disconnected."""
    async with trio.open_nursery() as nursery:
        server = App(str(tmp_path / "store.sqlite"), port=0)
        await nursery.start(server.run)
        with trio.fail_after(30):
            async with Client.connect(url_of(server), max_retries=2) as client:
                await client.ping()
                server.stop()
                with pytest.raises(Disconnected):
                    while True:  # a ping may still be answered before the close arrives
                        await client.ping()
                with pytest.raises(Disconnected):
                    await client.ping()


async def test_closed_for_abuse_the_client_gives_up_instead_of_reconnecting(app):
    """After too many refused frames the server says goodbye and closes with
    1008 (PROTOCOL.md 12): a reconnect would only repeat it."""
    strikes = app.limits.strikes
    with trio.fail_after(30):
        async with Client.connect(url_of(app)) as client:
            for _ in range(strikes):
                with pytest.raises(ServerError) as refused:
                    await client.request({"t": "no_such_message"})
                assert refused.value.code == "message/unknown_type"
            with pytest.raises(Disconnected):
                await client.ping()
            # A client that reconnected would answer this ping after its first
            # retry; one that gave up refuses it at once.
            with trio.fail_after(5), pytest.raises(Disconnected):
                await client.ping()
    assert app.metrics.connections_total == 1


# -- spectators --------------------------------------------------------------------


async def test_spectator_sees_every_update_to_the_end_and_only_public_information(app):
    url = url_of(app)
    table = await new_table(url, 5, seed=9, timers=PATIENT)
    seen: list[Update] = []
    async with Client.connect(url) as client:
        watch = await client.spectate(table)
        async with trio.open_nursery() as nursery:
            for i in range(5):
                nursery.start_soon(partial(random_bot, url, table, f"rnd{i}", random.Random(i), at=i))
            with trio.fail_after(60):
                async for update in watch.updates():
                    seen.append(update)
        assert watch.finished and watch.result["ranks"]
    events = [e for u in seen for e in u.events]
    assert events[-1]["type"] == "TableFinished"
    assert_no_gap([e["seq"] for e in events])
    assert seen[0].kind == "snapshot" and events[0]["seq"] == watch.info["seq"] + 1
    started = next(e for e in events if e["type"] == "GameStarted")
    assert started["inhabitants"] == [None] * 5 and started["bonus_card"] is None
    for e in events:
        if e["type"] == "InhabitantDrawn":
            assert e["card"] is None
        elif e["type"] == "TransformationBegan":
            assert all(card is None for _, card in e["taken"])
        elif e["type"] == "TransformationDone":
            assert e["kept"] is None and all(card is None for _, card in e["dealt"])
        elif e["type"] == "SeasonEnded":
            assert e["bonus_card"] is None
    views = [u.view for u in seen if u.view is not None]
    assert views and all(v["viewer"] == "spectator" for v in views)
    for v in views:
        for slot in v["seats"]:
            assert slot["inhabitant"] is None or slot["known_to"] == "all", slot
        assert "seen" not in v and "deck" not in v
    # A seat's own copy does show its card: the spectator's nulls are projections.
    async with Client.connect(url) as client:
        record = await client.record(table)
    assert all(card is not None for card in next(
        e for e in record["events"] if e["type"] == "GameStarted")["inhabitants"])


async def test_watching_or_resuming_a_finished_table_ends_with_its_result(app):
    """No TableFinished comes to a late subscriber that asks for no history:
    the snapshot says the table is finished, and the stream ends there."""
    url = url_of(app)
    table = await new_table(url, 4, seed=31, timers=PATIENT)
    seats: dict[int, Seat] = {}
    async with trio.open_nursery() as nursery:
        for i in range(4):
            nursery.start_soon(partial(random_bot, url, table, f"rnd{i}", random.Random(i), at=i, seats=seats))
    with trio.fail_after(10):
        async with Client.connect(url) as client:
            watch = await client.spectate(table)
            assert [u.kind async for u in watch.updates()] == ["snapshot"]
            assert watch.finished and watch.result["type"] == "GameEnded"
        async with Client.connect(url) as client:
            seat = await client.resume(table, seats[2].token)
            assert [turn async for turn in seat.turns()] == []
            assert seat.finished and seat.result == watch.result
        async with Client.connect(url) as client:
            seat = await client.resume(table, seats[2].token, after=0)
            updates = [u async for u in seat.updates()]
            assert_no_gap(seqs_of(updates))
            assert seqs_of(updates)[0] == 1 and updates[-1].kind == "snapshot"
            assert seat.result == watch.result


# -- early (sealed) answers --------------------------------------------------------


async def test_early_sealed_answers_in_negotiation_windows(app):
    """A table with real negotiation windows (not zero-wait): bots answer
    early whenever they are listed in `early` (R10.2), windows close as soon
    as every asked seat has answered, and nothing is refused."""
    url = url_of(app)
    timers = {"prompt_ms": 2000, "window_ms": 300, "bank_ms": 0, "bank_refill_ms": 0,
              "zero_wait": False, "away_after": 3}
    answers: list = []
    results: list[dict] = []
    for seed in (21, 22):
        table = await new_table(url, 6, seed=seed, timers=timers)

        async def bot(i: int, table: str = table, seed: int = seed) -> None:
            results.append(await random_bot(url, table, f"early{i}", random.Random(seed * 10 + i),
                                            early=True, answers=answers))

        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                for i in range(6):
                    nursery.start_soon(bot, i)
    assert all(r["ranks"] for r in results)
    early = [(turn, reply) for _, turn, _, reply in answers if turn.early]
    assert early, "no seat was ever asked early"
    windows = [turn for turn, _ in early if turn.prompt["kind"] == "window"]
    assert windows, "no early answer in a negotiation window"
    assert all(turn.prompt["pivot"] is None and turn.topic == "negotiation" for turn in windows)
    # Answers are either applied or late (a benign race); nothing else.
    assert all(reply is None or reply["t"] == "ok" for *_, reply in answers)
    assert any(reply is not None for _, reply in early)


async def test_an_away_seat_that_takes_its_turns_again_is_brought_back(app):
    """A bot that let its first prompt time out is marked away (away_after
    1); once it consumes its turns again, the SDK sends `back` before its
    next answer: the seat is back (SeatBack) without a refused command, the
    table waits for it again (no timeout of its after the SeatBack), and the
    bot plays the game to the end. (A turn it was yielded before the back
    reached the table may already have timed out: a late answer, normal.)"""
    url = url_of(app)
    timers = {**BOT_TIMERS, "prompt_ms": 1000, "away_after": 1}
    table = await new_table(url, 4, seed=3, timers=timers)
    async with Client.connect(url) as client:
        sleeper = await client.join(table, "sleeper", 0)
        answers: list = []
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                for i in (1, 2, 3):
                    nursery.start_soon(partial(random_bot, url, table, f"b{i}", random.Random(i), at=i))
                async for update in sleeper.updates():  # asleep until the table marks the seat away
                    if any(e["type"] == "SeatAway" and e["seat"] == 0 for e in update.events):
                        break
                assert sleeper.away
                rng = random.Random(0)
                async for turn in sleeper.turns():
                    answers.append(await turn.answer(rng.choice(turn.legal)))
        assert sleeper.finished and not sleeper.away
    log = [decode_any(r.body) for r in await app.lobby.store.log(table)]
    back = next(i for i, body in enumerate(log) if body.get("type") == "SeatBack")
    assert [body["seat"] for body in log if body.get("type") == "SeatBack"] == [0]
    assert not any(body.get("type") == "SeatAway" for body in log[back:])
    assert not any(body.get("seat") == -1 and body["cmd"]["pivot"] == 0 for body in log[back:]), \
        "a prompt of seat 0 timed out after it was back"
    applied = [a for a in answers if a is not None]
    assert len(applied) >= 3 and len(answers) - len(applied) <= 2


# -- chat and deals --------------------------------------------------------------


async def test_chat_and_a_deal_through_the_sdk(app):
    url = url_of(app)
    table = await new_table(url, 4, seed=13, timers=PATIENT)
    async with Client.connect(url) as c0, Client.connect(url) as c1, \
            Client.connect(url) as c2, Client.connect(url) as c3:
        seats = [await c.join(table, f"p{i}", seat=i) for i, c in enumerate((c0, c1, c2, c3))]

        async def first(seat: Seat, pred: Callable[[dict], bool]) -> dict:
            with trio.fail_after(10):
                async for update in seat.updates():
                    for e in update.events:
                        if pred(e):
                            return e
            raise AssertionError("the stream ended")

        await first(seats[0], lambda e: e["type"] == "GameStarted")
        await seats[0].chat("  hello, table  ")
        for s in seats:
            chat = await first(s, lambda e: e["type"] == "Chat")
            assert (chat["seat"], chat["name"], chat["text"]) == (0, "p0", "hello, table")
        # Seat 0 offers its treasure (in its score pile from the start, R2)
        # for seat 1's promise; seat 1 accepts; the deal executes.
        treasure = seats[0].view["seats"][0]["pile"][0]
        assert seats[0].deal == {"propose": True, "open": 0, "max_open": 3, "season_left": 40}
        reply = await seats[0].propose_deal(
            transfers=[{"card": treasure, "giver": 0, "receiver": 1, "consideration": "for your promise"}],
            promises=[{"promiser": 1, "promisee": 0, "text": "I will not attack you",
                       "kind": "no_attack", "seat": 0}],
            note="peace?")
        assert reply is not None and reply["t"] == "ok"
        proposed = await first(seats[1], lambda e: e["type"] == "DealProposed")
        assert proposed["proposer"] == 0 and sorted(proposed["parties"]) == [0, 1]
        await first(seats[0], lambda e: e["type"] == "DealProposed")
        assert seats[0].deal["open"] == 1, "the proposer's prompt counts its open proposal"
        assert await seats[1].accept_deal(proposed["deal"]) is not None
        for s in seats:
            done = await first(s, lambda e: e["type"] == "DealExecuted")
            assert done["deal"] == proposed["deal"] and len(done["promise_ids"]) == 1
        assert treasure in seats[1].view["seats"][1]["pile"]
        assert treasure not in seats[1].view["seats"][0]["pile"]
        ledger = seats[0].view["ledger"]
        assert [(p["promiser"], p["kind"], p["status"]) for p in ledger] == [(1, "no_attack", "open")]
        # A deal that is not there: a real refusal, raised as ServerError.
        with pytest.raises(ServerError) as refused:
            await seats[2].accept_deal(proposed["deal"])
        assert refused.value.code == "deal/unknown"


# -- connecting ----------------------------------------------------------------------


async def test_connect_to_a_closed_port_raises_disconnected():
    with trio.fail_after(15):
        with pytest.raises(Disconnected) as caught:
            async with Client.connect(f"ws://127.0.0.1:{free_port()}"):
                pytest.fail("connected to nothing")
    assert type(caught.value) is Disconnected


async def test_an_error_inside_the_block_comes_out_as_itself(app):
    """Client.connect runs a nursery; a refusal the caller lets through still
    comes out as a ServerError, not wrapped in an ExceptionGroup."""
    with pytest.raises(ServerError) as caught:
        async with Client.connect(url_of(app)) as client:
            await client.join("no-such-table", "ghost")
    assert caught.value.code == "table/unknown"


# -- many games ------------------------------------------------------------------------


async def _lane(url: str, lane: int, games: int, seats: int, choose: Callable, views: bool,
                stats: Counter) -> None:
    """`seats` clients, each kept for the whole lane, play `games` tables
    one after the other."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client.connect(url)) for _ in range(seats)]
        for g in range(games):
            table = await clients[0].create_table(seats, timers=BOT_TIMERS, seed=lane * 1000 + g)
            results: list[dict] = []
            async with trio.open_nursery() as nursery:
                for i, client in enumerate(clients):
                    rng = random.Random(lane * 100_000 + g * 100 + i)
                    nursery.start_soon(_policy_seat, client, table, i, rng, choose, views, stats, results)
            assert len(results) == seats and all(r == results[0] for r in results)
            stats["games"] += 1


async def _policy_seat(client: Client, table: str, i: int, rng: random.Random, choose: Callable, views: bool,
                       stats: Counter, results: list) -> None:
    seat = await client.join(table, f"bot{i}", views=views)
    async for turn in seat.turns():
        command = choose(turn, rng)
        if command is None:
            continue
        reply = await turn.answer(command)
        stats["answers"] += 1
        if reply is None:
            stats["benign"] += 1
    assert seat.result is not None and seat.result["ranks"]
    results.append(seat.result)
    await client.unsubscribe(table)


async def _many_games(app: App, choose: Callable, *, views: bool, sizes: tuple[int, ...], games: int = 100,
                      lanes: int = 10) -> Counter:
    """`games` games in `lanes` concurrent lanes, lane i at sizes[i % len(sizes)] seats."""
    stats: Counter = Counter()
    per_lane = -(-games // lanes)
    started = time.monotonic()
    async with trio.open_nursery() as nursery:
        for lane in range(lanes):
            seats = sizes[lane % len(sizes)]
            nursery.start_soon(_lane, url_of(app), lane, per_lane, seats, choose, views, stats)
    stats["seconds"] = round(time.monotonic() - started)
    return stats


def _random_choice(turn, rng: random.Random) -> dict:
    return rng.choice(turn.legal)


def _heuristic_choice(turn, rng: random.Random) -> dict | None:
    return POLICIES["heuristic"].choose(turn.view, turn.prompt, rng)


# A hundred games take 15-20 s: -m slow. Ten games run by default.
GAMES = [pytest.param(100, marks=pytest.mark.slow), 10]


@pytest.mark.parametrize("games", GAMES)
async def test_random_bots_finish_many_games(app, games):
    """Zero-wait games of the random bot, ten tables at a time (five for ten
    games), at 4 to 7 seats. Any refusal but a late answer would raise
    ServerError."""
    stats = await _many_games(app, _random_choice, views=False, sizes=(4, 5, 6, 4, 7), games=games,
                              lanes=min(10, games // 2))
    assert stats["games"] >= games, stats
    assert stats["answers"] > 50 * stats["games"], stats


@pytest.mark.parametrize("games", GAMES)
async def test_heuristic_bots_finish_many_games(app, games):
    """The same with the heuristic policy choosing from each seat's view."""
    stats = await _many_games(app, _heuristic_choice, views=True, sizes=(4, 4, 5, 4, 4, 6), games=games,
                              lanes=min(10, games // 2))
    assert stats["games"] >= games, stats
    assert stats["answers"] > 50 * stats["games"], stats


# -- Oro: a turn of several commands (PROTOCOL.md 18) -----------------------------------


@pytest.mark.parametrize("gods", [False, True], ids=["base", "gods"])
async def test_oro_reference_bots_play_a_game_through_the_sdk(app, gods):
    """Oro's reference bots (server/policies/oro.py), each from its own
    seat's view and prompt: turns() yields a turn again after every play
    that leaves it open (O8.3), every answer is accepted, and the table's
    log is exactly those answers."""
    from oriente.server.policies.oro import POLICIES as ORO_POLICIES

    url = url_of(app)
    table = await new_table(url, 3, game="oro", seed=31, timers=PATIENT, options={"gods": gods})
    answers: list = []
    results: list[dict] = []

    async def bot(policy: str, name: str) -> None:
        rng = random.Random(policy)
        async with Client.connect(url) as client:
            seat = await client.join(table, name)
            async for turn in seat.turns():
                assert seat.game == "oro" and turn.legal
                command = ORO_POLICIES[policy].choose(turn.view, turn.prompt, rng)
                assert command in turn.legal
                answers.append((seat.seat, command, await turn.answer(command)))
            results.append(seat.result)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for policy, name in (("heuristic", "heuristic"), ("random", "random"), ("random", "second random")):
                nursery.start_soon(bot, policy, name)
    assert len(results) == 3 and all(r == results[0] and r["type"] == "GameEnded" for r in results)
    assert all(reply is not None and reply["t"] == "ok" for *_, reply in answers)
    async with Client.connect(url) as client:
        record = await client.record(table)
    assert record["game"] == "oro"
    assert [[seat, cmd] for seat, cmd in record["commands"]] == [[seat, cmd] for seat, cmd, _ in answers]
    turns = [cmd["decision"] for _, cmd, _ in answers]
    assert len(turns) > len(set(turns)), "some turn took several commands"


# -- Samurai: a choice not listed, sealed early answers (PROTOCOL.md 20) -------------------


async def test_samurai_reference_bots_play_a_game_through_the_sdk(app):
    """Samurai's reference bots (server/policies/samurai.py), each from its own
    seat's view and prompt: turns() yields the tile choice, which `legal`
    does not list (`choose` describes it, S7.2); every answer is accepted
    and the log is exactly those answers."""
    from oriente.server.policies.samurai import POLICIES as SAMURAI_POLICIES

    url = url_of(app)
    table = await new_table(url, 3, game="samurai", seed=17, timers=PATIENT)
    answers: list = []
    early: list[bool] = []
    results: list[dict] = []

    async def bot(policy: str, name: str) -> None:
        rng = random.Random(policy)
        async with Client.connect(url) as client:
            seat = await client.join(table, name)
            async for turn in seat.turns():
                assert seat.game == "samurai"
                command = SAMURAI_POLICIES[policy].choose(turn.view, turn.prompt, rng)
                if turn.choose is not None:
                    assert command["type"] == turn.choose["command"] and not turn.legal
                    early.append(turn.early)
                else:
                    assert command in turn.legal
                answers.append((seat.seat, command, await turn.answer(command)))
            results.append(seat.result)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for policy, name in (("heuristic", "heuristic"), ("random", "random"), ("random", "second random")):
                nursery.start_soon(bot, policy, name)
    assert len(results) == 3 and all(r == results[0] and r["type"] == "GameEnded" for r in results)
    bad = [(seat, cmd, reply) for seat, cmd, reply in answers if reply is None or reply["t"] != "ok"]
    assert not bad, bad[:3]
    assert early == [False] * 3
    async with Client.connect(url) as client:
        record = await client.record(table)
    assert record["game"] == "samurai"
    assert [[seat, cmd] for seat, cmd in record["commands"]] == [[seat, cmd] for seat, cmd, _ in answers]


async def test_sessions_sign_out_everywhere_and_a_sign_in_told_to_wait(tmp_path):
    """The SDK's account calls (PROTOCOL.md 19): a person's sessions, listed
    and ended everywhere but here; the other client learns it at its next
    request and forgets its token; a guessed name's refusal carries
    retry_after; bots' tokens are listed and outlive the sessions."""
    from argon2 import PasswordHasher

    async with trio.open_nursery() as nursery:
        app = App(str(tmp_path / "store.sqlite"), port=0, hasher=PasswordHasher(time_cost=1, memory_cost=1024))
        await nursery.start(app.run)
        url = url_of(app)
        async with Client.connect(url) as here, Client.connect(url) as there:
            await here.sign_up("ana", "correct horse")
            made = await here.bot_token("ana-bot", "laptop")
            await there.sign_in("ana", "correct horse")
            listed = await here.sessions()
            assert [s["current"] for s in listed] == [False, True]
            assert {s["address"] for s in listed} == {"127.0.0.1"}
            assert await here.sign_out_everywhere(keep_current=True) == 1
            with pytest.raises(ServerError) as ended:
                await there.tokens()
            assert ended.value.code == "auth/session_ended" and there.auth_token is None
            assert [t["bot"] for t in await here.tokens()] == ["ana-bot"]
            for i in range(6):
                with pytest.raises(ServerError, match="auth/bad_credentials"):
                    await there.sign_in("ana", f"guess {i}")
            with pytest.raises(ServerError) as waiting:
                await there.sign_in("ana", "guess 7")
            assert waiting.value.code == "auth/backing_off" and 0 < waiting.value.retry_after <= 1.0
            assert await here.sign_out_everywhere() == 1 and here.auth_token is None
        async with Client.connect(url, token=made["token"]) as bot:
            assert bot.account is not None and bot.account["bot"] is True
        app.stop()


# -- fair dealing through the SDK (docs/table.md T7) ---------------------------------------------


async def _play_out(seat: Seat, rng: random.Random) -> None:
    async for turn in seat.turns():
        await turn.answer(rng.choice(turn.legal))


async def test_a_seat_verifies_its_record_against_what_it_saw_before_joining(app: App) -> None:
    """The SDK keeps the commitment a table showed before the join (here
    learnt by a look at a table it was only told the id of), and checks the
    record's against it, and the seat's own nonce in the seed."""
    url = url_of(app)
    table = await new_table(url, 4, timers=PATIENT)
    async with Client.connect(url) as a, Client.connect(url) as b:
        ana = await a.join(table, "ana")
        ben = await b.join(table, "ben")
        assert ana.commitment is not None and ana.commitment == ben.commitment
        live = app.lobby.get(table) if app.lobby is not None else None
        assert live is not None and live.settings.commitment is not None
        assert ana.commitment == live.settings.commitment["sha256"]
        await a.add_bots(table, ana.token or "", "random")
        async with trio.open_nursery() as n:
            n.start_soon(_play_out, ana, random.Random(1))
            n.start_soon(_play_out, ben, random.Random(2))
        verdict = await ana.verify()
        assert verdict["ok"] is True, verdict
        assert "the record's commitment is the one shown before the joins" in verdict["checked"]
        assert any(line.startswith(f"seat {ana.seat}'s nonce is the one") for line in verdict["checked"])
        record = await a.record(table)
        assert record["commitment"]["supplied"] == [2, 3]
        assert sdk.verify_record(record, commitment="00" * 32)["ok"] is False


async def test_a_rematch_through_the_sdk_brings_its_nonce_to_the_announced_table(app: App) -> None:
    url = url_of(app)
    table = await new_table(url, 4, timers=PATIENT)
    async with Client.connect(url) as a:
        ana = await a.join(table, "ana")
        await a.add_bots(table, ana.token or "", "random")
        await _play_out(ana, random.Random(3))
        again = await a.rematch(table, ana.token or "")
        assert again.table != table and again.commitment == a.commitments[again.table]
        assert again.seat == ana.seat
        await _play_out(again, random.Random(4))
        verdict = await again.verify()
        assert verdict["ok"] is True, verdict
        assert any(line.startswith(f"seat {again.seat}'s nonce is the one") for line in verdict["checked"])


async def test_a_tournament_seat_brings_the_entrants_own_nonce(app: App) -> None:
    url = url_of(app)
    async with Client.connect(url) as org, Client.connect(url) as me:
        tid, token = await org.create_tournament(name="Cup", rounds=1, table_sizes=[4], timers=PATIENT,
                                                 show_up_s=60.0)
        _, entry = await me.register(tid, "me", kind="bot")
        for i in range(3):
            await org.register(tid, f"b{i}", policy="random", organiser_token=token)
        await org.direct(tid, token, "start_round")
        async for seat in me.tournament_seats(tid, entry):
            assert seat.seed_nonce is not None and seat.commitment is not None
            await _play_out(seat, random.Random(5))
            record = await me.record(seat.table)
            assert record["commitment"]["nonces"][seat.seat] == seat.seed_nonce
            assert seat.seat not in record["commitment"]["supplied"]
            assert (await seat.verify())["ok"] is True
            break


async def test_my_tables_gives_the_kept_tables_that_exist(app):
    """PROTOCOL.md 3, my_tables: the SDK asks with the ids it kept and gets
    each existing table's information, `you` null for a signed-out client."""
    url = url_of(app)
    table = await new_table(url, 4, timers=PATIENT)
    with trio.fail_after(10):
        async with Client.connect(url) as client:
            mine = await client.my_tables([table, "gone-table"])
    assert [(x["table"], x["status"], x["you"]) for x in mine] == [(table, "open", None)]


async def test_a_seat_is_taken_again_on_another_device_without_its_token(app):
    """PROTOCOL.md 3, resume without a token: the account's seat taken on one
    client (a laptop) is taken again on another signed in to the same
    account (a phone) with `resume_seat`, which acts for it, and keeps it
    across a dropped connection (the reconnect signs in again and resumes
    without the token); signed out, or at a table without the account's
    seat, it is refused."""
    url = url_of(app)
    table = await new_table(url, 4, seed=5, timers=PATIENT)
    other = await new_table(url, 4, timers=PATIENT)
    with trio.fail_after(60):
        async with Client.connect(url) as laptop, Client.connect(url) as phone, Client.connect(url) as stranger:
            await laptop.sign_up("ana", "correct horse")
            held = await laptop.join(table, "ana", 2)
            assert held.token
            with pytest.raises(ServerError) as signed_out:
                await stranger.resume_seat(table)
            assert signed_out.value.code == "auth/bad_token"
            await phone.sign_in("ana", "correct horse")
            with pytest.raises(ServerError) as not_seated:
                await phone.resume_seat(other)
            assert not_seated.value.code == "auth/bad_token"
            seat = await phone.resume_seat(table)
            assert seat.seat == 2 and seat.token == ""
            assert await laptop.add_bots(table, held.token) == [0, 1, 3]  # full: the game starts
            turns = 0
            async for turn in seat.turns():
                turns += 1
                if turns == 2:
                    await break_link(phone, abrupt=True)
                await turn.answer(turn.legal[0])
            assert seat.finished and seat.result is not None and turns > 2
