"""A store written by the server before tables named their game still
serves: tests/fixtures/store_v1.sqlite (see make_store_v1.py there) holds a
finished, a running and an open oriente table in schema 1, with oriente's
options stored at the top level of the settings. The server migrates the
file, recovers both unfinished tables as oriente's with their options, and
their games go on over real sockets to the end."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
import trio

from oriente.clients.sdk import Client
from oriente.server.app import App
from oriente.server.rules import replay

pytestmark = pytest.mark.trio

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
KNOWN = json.loads((FIXTURES / "store_v1.json").read_text(encoding="utf-8"))


async def test_a_schema_1_store_recovers_as_oriente_and_its_games_go_on(tmp_path: Path, nursery: trio.Nursery) -> None:
    path = tmp_path / "store.sqlite"
    shutil.copyfile(FIXTURES / "store_v1.sqlite", path)
    app = App(str(path), port=0)
    await nursery.start(app.run)
    try:
        assert app.recovered == 2
        url = f"ws://127.0.0.1:{app.port}"
        running, opened, finished = KNOWN["running"], KNOWN["open"], KNOWN["finished"]
        async with Client.connect(url) as client:
            listing = {t["table"]: t for t in await client.list_tables()}
            assert set(listing) == {running, opened}
            assert all(t["game"] == "oriente" for t in listing.values())
            settings = listing[running]["settings"]
            # Stored before rules revisions: it keeps the first (R10.2b2), so its log replays.
            assert settings["options"] == {"configured_deal": True, "max_open_proposals": 2, "rules_revision": 1}
            assert (settings["configured_deal"], settings["max_open_proposals"]) == (True, 2)
            # Its creator chose seed and deal before tables could be seeded: it
            # keeps playing, listed as it was, with no commitment.
            assert settings["seeded"] is False and settings["commitment"] is None
            # The finished table's record is served as it was written (the copy
            # in record_v1.json was fetched later: more table events).
            old_record = await client.record(finished)
            fetched = json.loads((FIXTURES / "record_v1.json").read_text(encoding="utf-8"))
            assert {k: v for k, v in old_record.items() if k != "table_events"} == {
                k: v for k, v in fetched.items() if k != "table_events"}
            assert "game" not in old_record and replay(old_record).record()["events"] == old_record["events"]

        async def seat(i: int, token: str) -> None:
            rng = random.Random(i)
            async with Client.connect(url) as c:
                me = await c.resume(running, token)
                async for turn in me.turns():
                    await turn.answer(rng.choice(turn.legal))
                assert me.result is not None

        with trio.fail_after(60):
            async with trio.open_nursery() as bots:
                for i, token in KNOWN["tokens"][running].items():
                    bots.start_soon(seat, int(i), token)
        async with Client.connect(url) as client:
            record = await client.record(running)
            assert record["game"] == "oriente"
            assert record["config"]["max_open_proposals"] == 2 and record["config"]["stone_holder"] == 2
            assert "rules_revision" not in record["config"], "a record of the first revision, as before"
            game = replay(record)
            assert game.record()["events"] == record["events"] and game.over
            # The open table takes its other seats and starts.
            joined = [await client.join(opened, f"new{i}", seat=i) for i in (0, 2, 3)]
            with trio.fail_after(10):
                async for update in joined[-1].updates():
                    if any(e["type"] == "TableStarted" for e in update.events):
                        break
            # Its snapshot came before those events (a join's answer may be
            # read before the snapshot that follows it in the same write).
            assert joined[-1].info is not None
    finally:
        await app.aclose()
