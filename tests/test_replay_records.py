"""One replay for every record (games/kit/replay.py): records in every
format written over time replay through their game's port to the events
and result they hold, and verify (fairplay/verify.py, `oriente verify`): the
table's records (of Oriente before records named their game, of Oriente,
Oro and Samurai since) and the rules packages' own (`oro.record.v1`,
`samurai.record.v1`, Oriente's `Game.record()`), all stored as written
(tests/fixtures/make_records_v1.py and the scripts it names)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
from trio.testing import MockClock

from oriente import games
from oriente.fairplay.verify import verify_record
from oriente.games.kit.port import RulesRejection
from oriente.games.kit.replay import ReplayError, record_game, replay, steps
from oriente.protocol.codec import decode_any, encode
from oriente.protocol.messages import DEFAULT_GAME
from oriente.server.stores import MemoryStore
from oriente.server.table import Table, TableError
from tests.server.actor_harness import open_table
from tests.toy_game import ToyPort

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# file -> (its game, whether it carries a commitment that verifies)
RECORDS = {
    "record_v1.json": ("oriente", False),
    "record_reveal_v1.json": ("oriente", True),
    "record_oriente_rules_v1.json": ("oriente", False),
    "record_oro_rules_v1.json": ("oro", False),
    "record_oro_table_v1.json": ("oro", True),
    "record_samurai_rules_v1.json": ("samurai", False),
    "record_samurai_table_v1.json": ("samurai", True),
}


def _record(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return record


@pytest.mark.parametrize("name", RECORDS)
def test_every_older_record_replays_to_what_it_holds(name: str) -> None:
    record = _record(name)
    game = record_game(record, games.registered(), DEFAULT_GAME)
    assert game == RECORDS[name][0]
    port = games.load(game)
    played = replay(port, record)
    assert decode_any(encode(played.events)) == record["events"]
    assert decode_any(encode(played.result)) == record["result"] is not None
    assert sum(1 for _ in steps(port, record)) == len(record["commands"]) + 1


@pytest.mark.parametrize("name", RECORDS)
def test_every_older_record_verifies(name: str) -> None:
    record = _record(name)
    verdict = verify_record(record, games.all_ports())
    assert verdict.ok is (True if RECORDS[name][1] else None), verdict.plain()
    assert any(line.startswith(f"every one of the {len(record['events'])} game events replays")
               for line in verdict.checked), verdict.plain()


@pytest.mark.parametrize("name", ["record_oro_rules_v1.json", "record_samurai_table_v1.json"])
def test_the_command_line_verifies_them_too(name: str) -> None:
    run = subprocess.run([sys.executable, "-m", "oriente.cli", "verify", str(FIXTURES / name)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == (0 if RECORDS[name][1] else 2), run.stdout + run.stderr
    assert "FAILED" not in run.stdout
    assert f"ok: every one of the {len(_record(name)['events'])} game events replays" in run.stdout


@pytest.mark.parametrize("name", RECORDS)
def test_the_command_line_retells_them(name: str) -> None:
    """`oriente replay`: the same replay, told as everyone saw it, checked
    against the events and result the record holds."""
    run = subprocess.run([sys.executable, "-m", "oriente.cli", "replay", str(FIXTURES / name), "--as", "all"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    assert len(run.stdout.splitlines()) > 20


def test_a_changed_record_does_not_verify() -> None:
    record = _record("record_oro_rules_v1.json")
    seat, cmd = record["commands"][5]
    record["commands"][5] = [(seat + 1) % 3, cmd]
    verdict = verify_record(record, games.all_ports())
    assert verdict.ok is False and "do not replay" in verdict.problems[-1]
    with pytest.raises(RulesRejection):
        replay(games.load("oro"), record)


def test_a_record_that_is_not_one_says_why() -> None:
    port = games.load("samurai")
    with pytest.raises(ReplayError, match="no config"):
        replay(port, {"commands": []})
    with pytest.raises(ReplayError, match="no list of commands"):
        replay(port, {"config": _record("record_samurai_rules_v1.json")["config"]})
    with pytest.raises(ReplayError, match="command 0"):
        replay(port, {"config": {}, "commands": [["x", {}]]})


def test_the_game_of_a_record() -> None:
    names = games.registered()
    assert record_game({"format": "oriente.record.v1", "game": "samurai"}, names, DEFAULT_GAME) == "samurai"
    assert record_game({"format": "oriente.record.v1"}, names, DEFAULT_GAME) == "oriente"
    assert record_game({"format": "oro.record.v1"}, names, DEFAULT_GAME) == "oro"
    assert record_game({"format": "chess.record.v1"}, names, DEFAULT_GAME) == "oriente"


@pytest.mark.trio
async def test_recovery_replays_a_log_alike_and_refuses_a_forged_timeout(autojump_clock: MockClock) -> None:
    """A table's recovery plays its log through the same Replay, with every
    timeout the table sent checked against the decision it closed."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        h = await open_table(nursery, ToyPort(), seats=3, store=store)
        await trio.sleep(40)  # the first pivot's silence: the table's own timeout
        await h.answer(h.pivot)
        await h.close()
        await store.aclose()
    log = store.logs["t1"]
    assert Table.restore("t1", store.rows["t1"].meta, log, None, h.port, store, paused_ms=0).status == "running"
    at = next(i for i, r in enumerate(log) if r.kind == "cmd" and decode_any(r.body)["seat"] == -1)
    body = decode_any(log[at].body)
    forged = {**body, "cmd": {**body["cmd"], "pivot": 2}}
    changed = [*log[:at], dataclasses.replace(log[at], body=encode(forged)), *log[at + 1:]]
    with pytest.raises(TableError, match="timeout does not match the open decision"):
        Table.restore("t1", store.rows["t1"].meta, changed, None, h.port, store, paused_ms=0)
