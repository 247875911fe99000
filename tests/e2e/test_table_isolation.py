"""One table's bug ends that table alone, over real sockets: a server plays
oriente and three broken copies of it (failing in the rules' apply, in the
actor's fan-out, and in the clock's timeout). Bots play two good tables and
one table of each broken game at the same time; the broken tables end with
TableFailed and a record, every good table plays to its end, and the server
takes new tables afterwards."""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio

from oriente.clients.sdk import BOT_TIMERS, Client, ServerError
from oriente.server.app import App
from oriente.server.games.oriente import OrientePort
from oriente.server.rules import replay
from oriente.server.stores import SQLiteStore
from tests.server.broken_port import BrokenPort

pytestmark = pytest.mark.trio

PATIENT = {**BOT_TIMERS, "prompt_ms": 60_000}
# One seat of the clock's broken table never answers: its silence needs the clock.
QUICK = {**BOT_TIMERS, "prompt_ms": 150}


async def bot(url: str, table: str, seat: int, outcome: dict[str, Any]) -> None:
    rng = random.Random(seat)
    async with Client.connect(url) as client:
        me = await client.join(table, f"bot{seat}", seat=seat)
        async for turn in me.turns():
            await turn.answer(rng.choice(turn.legal))
        outcome[(table, seat)] = (me.result, me.failed)


async def test_table_isolation_failing_tables_end_alone_while_the_others_play_to_the_end(tmp_path, caplog):
    games = {"oriente": OrientePort(), "broken-apply": BrokenPort("broken-apply", "apply", 5),
             "broken-fanout": BrokenPort("broken-fanout", "prompts", 40),
             "broken-clock": BrokenPort("broken-clock", "timeout_command", 0)}
    app = App(str(tmp_path / "store.sqlite"), port=0, games=games)
    outcome: dict[Any, Any] = {}
    async with trio.open_nursery() as server:
        await server.start(app.run)
        url = f"ws://127.0.0.1:{app.port}"
        async with Client.connect(url) as host:
            good = [await host.create_table(4, seed=s, timers=PATIENT) for s in (1, 2)]
            broken = {name: await host.create_table(4, seed=3, game=name,
                                                    timers=QUICK if name == "broken-clock" else PATIENT)
                      for name in ("broken-apply", "broken-fanout", "broken-clock")}
            watch = await host.spectate(broken["broken-fanout"], views=False)
            with trio.fail_after(60):
                async with trio.open_nursery() as bots:
                    for table in [*good, *broken.values()]:
                        for seat in range(4):
                            if table == broken["broken-clock"] and seat == 3:
                                await host.join(table, "silent", seat=3, views=False)
                                continue
                            bots.start_soon(bot, url, table, seat, outcome)
                    async for _update in watch.updates():
                        pass
            assert watch.failed and watch.result is None
            for table in good:
                results = [outcome[(table, s)] for s in range(4)]
                assert all(result is not None and failed is None for result, failed in results)
                record = await host.record(table)
                assert record["status"] == "finished" and replay(record).record()["events"] == record["events"]
            for name, table in broken.items():
                seats = range(3) if name == "broken-clock" else range(4)
                assert all(outcome[(table, s)] == (None, watch.failed) for s in seats), name
                record = await host.record(table)
                assert (record["game"], record["status"], record["result"]) == (name, "failed", None)
                assert "TableFailed" in [e["type"] for e in record["table_events"]]
                with pytest.raises(ServerError) as refused:
                    await host.request({"t": "act", "table": table, "cmd": {"type": "Pass", "decision": 1}})
                assert refused.value.code in ("table/failed", "auth/not_seated")
            # The server goes on: a new table is created and listed.
            fresh = await host.create_table(4, timers=PATIENT)
            assert fresh in [t["table"] for t in await host.list_tables()]
        await app.aclose()
    failures = [r for r in caplog.records if r.exc_info and "failed" in r.getMessage()]
    assert len(failures) == 3
    store = SQLiteStore(str(tmp_path / "store.sqlite"))
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        statuses = {row.id: row.status for row in await store.tables()}
        await store.aclose()
    assert [statuses[t] for t in good] == ["finished", "finished"]
    assert {statuses[t] for t in broken.values()} == {"failed"}
