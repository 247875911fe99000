"""Commit and reveal (docs/table.md T7, fairplay/dealing.py, fairplay/verify.py):
an ordinary table publishes a commitment to a secret salt before anyone
joins; each seat's join adds a nonce; the seed is made from the salt and
the nonces when the game starts; the record reveals them, and verifying it
recomputes everything and replays every event through the game's port.
An honest record passes; a changed seed, salt, nonce or dealt card fails,
saying why; a record from before commitments is not verifiable. The lobby
under MockClock with the memory store, for Oriente and Oro; `oriente verify`
on a demo's record: tests/test_cli.py."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
import trio

from oriente.fairplay import dealing
from oriente.fairplay.verify import SERVERS_CHOICE, verify_record
from oriente.protocol import messages as M
from oriente.server.games import PORTS
from oriente.server.lobby import Lobby
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore

from .test_ended_tables import BOTS

pytestmark = pytest.mark.trio

NONCES = ["n" * 20 + str(i) for i in range(4)]


async def _finished(nursery: trio.Nursery, game: str, seats: int, *, nonces: list[str | None]) -> dict[str, Any]:
    store = MemoryStore()
    await nursery.start(store.run)
    lobby = Lobby(PORTS, store, nursery)
    settings, setup = lobby.settings_from(M.CreateTable(seats=seats, timers=BOTS, game=game))
    table = await lobby.create(settings, setup)
    opened = table.info()["settings"]["commitment"]
    assert isinstance(opened, str) and len(opened) == 64, "the commitment is public before anyone joins"
    assert "salt" not in str(table.info()), "the salt stays secret"
    for i in range(seats):
        await table.send(Outbox(1000), M.Join(id=i, table=table.id, name=f"p{i}", nonce=nonces[i]))
    with trio.fail_after(3600):
        await table.ended.wait()
    record = table.record()
    assert record["status"] == "finished"
    assert record["commitment"]["sha256"] == opened
    started = next(e for e in record["table_events"] if e["type"] == "TableStarted")
    assert started["nonces"] == record["commitment"]["nonces"], "the nonces are public from the start"
    return record


async def test_an_honest_record_verifies_and_each_seat_finds_its_nonce(autojump_clock: Any) -> None:
    async with trio.open_nursery() as nursery:
        record = await _finished(nursery, "oriente", 4, nonces=[NONCES[0], NONCES[1], None, NONCES[3]])
        c = record["commitment"]
        for seat in (0, 1, 3):
            assert c["nonces"][seat] == dealing.seat_nonce(record["table"], NONCES[seat])
        assert c["supplied"] == [2], "the record says which nonce the server supplied"
        assert c["nonces"][2] == dealing.supplied_nonce(c["salt"], 2), "fixed by the salt, not drawn after the joins"
        assert c["seed"] == dealing.derive_seed(c["salt"], c["nonces"]) == record["config"]["seed"]
        verdict = verify_record(record, PORTS)
        assert verdict.ok is True, verdict
        assert any("seats [2]" in line for line in verdict.checked)
        assert not any(line == SERVERS_CHOICE for line in verdict.unproven)
        mine = verify_record(record, PORTS, commitment=c["sha256"], seat=0, nonce=NONCES[0])
        assert mine.ok is True and "seat 0's nonce is the one your nonce gives" in mine.checked, mine
        assert verify_record(record, PORTS, seat=2).ok is True, "seat 2 brought none: the server's is fixed"
        nursery.cancel_scope.cancel()


def _tamper(record: dict[str, Any], what: str) -> None:
    c = record["commitment"]
    if what == "seed":
        c["seed"] += 1
        record["config"]["seed"] = c["seed"]
    elif what == "config seed":
        record["config"]["seed"] += 1
    elif what == "salt":
        c["salt"] = dealing.new_salt()
    elif what == "nonce":
        c["nonces"][1] = dealing.server_nonce()
    elif what == "dealt card":
        e = next(e for e in record["events"] if any(isinstance(v, int) and k not in ("seat", "season") and
                                                     not isinstance(v, bool) for k, v in e.items()))
        key = next(k for k, v in e.items() if isinstance(v, int) and not isinstance(v, bool)
                   and k not in ("seat", "season"))
        e[key] += 1
    elif what == "options":
        c["options"] = {**c["options"], "max_open_proposals": 9}


@pytest.mark.parametrize("what, says", [
    ("seed", "is not the one the salt and the seats' nonces give"),
    ("config seed", "config is not what the committed settings and the seed give"),
    ("salt", "does not give the commitment published before anyone joined"),
    ("nonce", "is not the one the salt and the seats' nonces give"),
    ("dealt card", "is not what the cards give"),
    ("options", "does not give the commitment published before anyone joined"),
])
async def test_a_changed_seed_salt_nonce_or_dealt_card_fails_saying_why(autojump_clock: Any, what: str,
                                                                        says: str) -> None:
    async with trio.open_nursery() as nursery:
        record = await _finished(nursery, "oriente", 4, nonces=NONCES)
        changed = copy.deepcopy(record)
        _tamper(changed, what)
        verdict = verify_record(changed, PORTS)
        assert verdict.ok is False and any(says in p for p in verdict.problems), verdict
        assert verify_record(record, PORTS).ok is True
        nursery.cancel_scope.cancel()


async def test_oro_is_dealt_and_verified_the_same_way_through_its_port(autojump_clock: Any) -> None:
    async with trio.open_nursery() as nursery:
        record = await _finished(nursery, "oro", 3, nonces=NONCES[:3])
        assert verify_record(record, PORTS).ok is True
        changed = copy.deepcopy(record)
        _tamper(changed, "nonce")
        assert verify_record(changed, PORTS).ok is False
        nursery.cancel_scope.cancel()


async def test_a_record_from_before_commitments_is_replayed_but_not_verifiable(autojump_clock: Any) -> None:
    async with trio.open_nursery() as nursery:
        record = await _finished(nursery, "oriente", 4, nonces=NONCES)
        old = {k: v for k, v in record.items() if k != "commitment"}
        verdict = verify_record(old, PORTS)
        assert verdict.ok is None and "predates commitments" in verdict.problems[0]
        assert any("replays" in c for c in verdict.checked)
        _tamper(record, "dealt card")
        assert verify_record({k: v for k, v in record.items() if k != "commitment"}, PORTS).ok is False, \
            "a changed event fails even without a commitment"
        nursery.cancel_scope.cancel()


async def test_the_seed_is_fixed_by_salt_and_nonces_in_seat_order() -> None:
    a = dealing.derive_seed("00" * 32, ["a", "b"])
    assert a == dealing.derive_seed("00" * 32, ["a", "b"]) and 0 <= a < 2**63
    assert a != dealing.derive_seed("00" * 32, ["b", "a"]) != dealing.derive_seed("01" * 32, ["a", "b"])
    # Fixed vectors, so that another implementation can check its hashing.
    assert dealing.derive_seed("00", ["x"]) == int.from_bytes(
        __import__("hashlib").sha256(b"oriente.seed.v1\x0000\x00x").digest()[:8], "big") >> 1
    assert dealing.seat_nonce("T", "secret") == __import__("hashlib").sha256(
        b"oriente.nonce.v1\x00T\x00secret").hexdigest()


async def test_a_setup_the_server_committed_to_verifies_with_its_replay(autojump_clock: Any) -> None:
    """A tournament's duplicate setup (dealing.SETUP_SCHEME): the commitment
    covers the configured setup itself, and verifying replays the game too."""
    from .test_ended_tables import DEAL

    async with trio.open_nursery() as nursery:
        store = MemoryStore()
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        settings, setup = lobby.settings_from(M.CreateTable(seats=4, seed=7, timers=BOTS, options={"deal": DEAL}))
        table = await lobby.create(settings, setup, commit_setup=True)
        for i in range(4):
            await table.send(Outbox(1000), M.Join(id=i, table=table.id, name=f"p{i}"))
        with trio.fail_after(3600):
            await table.ended.wait()
        record = table.record()
        verdict = verify_record(record, PORTS)
        assert verdict.ok is True and any("committed to before play" in c for c in verdict.checked), verdict
        changed = copy.deepcopy(record)
        changed["config"]["deck"][0], changed["config"]["deck"][1] = (changed["config"]["deck"][1],
                                                                      changed["config"]["deck"][0])
        assert verify_record(changed, PORTS).ok is False
        nursery.cancel_scope.cancel()


async def test_a_table_brought_back_from_its_log_keeps_its_seed(autojump_clock: Any) -> None:
    """After a restart mid-game the table is rebuilt from the store: the
    seed made at the start is in its stored settings, so the replay of its
    log gives back exactly the recorded events (Table.restore checks)."""
    from oriente.server.table import Table

    async with trio.open_nursery() as nursery:
        store = MemoryStore()
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        settings, setup = lobby.settings_from(M.CreateTable(seats=4, timers=BOTS))
        table = await lobby.create(settings, setup)
        for i in range(4):
            await table.send(Outbox(1000), M.Join(id=i, table=table.id, name=f"p{i}", nonce=NONCES[i]))
        await trio.sleep(3)
        assert table.status == "running"
        row = await store.table(table.id)
        assert row is not None
        restored = Table.restore(table.id, row.meta, await store.log(table.id), None, PORTS["oriente"], store,
                                 paused_ms=0)
        assert restored.settings.seed == table.settings.seed == table.settings.commitment["seed"]
        assert restored.settings.commitment == table.settings.commitment
        assert [s.nonce for s in restored.seats if s is not None] == table.settings.commitment["nonces"]
        nursery.cancel_scope.cancel()


# -- the nonces the server supplies (T7.2), and binding a record to what was shown (T7.3) ----------


def _reseed(record: dict[str, Any]) -> None:
    """Make a changed nonce consistent where a record shows it: the seed and
    TableStarted follow (the config and events then do not: not needed)."""
    c = record["commitment"]
    c["seed"] = dealing.derive_seed(c["salt"], c["nonces"])
    started = next(e for e in record["table_events"] if e["type"] == "TableStarted")
    started["nonces"] = list(c["nonces"])


async def test_a_nonce_the_server_supplied_is_fixed_by_the_salt_and_a_changed_one_is_refused(
        autojump_clock: Any) -> None:
    """400 tries of a bot's nonce used to give 40 different deals, each record
    verifying. Now the server's nonce for a seat is fixed by the committed
    salt: a record with any other is refused, saying so."""
    async with trio.open_nursery() as nursery:
        record = await _finished(nursery, "oriente", 4, nonces=[NONCES[0], NONCES[1], None, NONCES[3]])
        chosen = copy.deepcopy(record)
        chosen["commitment"]["nonces"][2] = dealing.server_nonce()
        _reseed(chosen)
        verdict = verify_record(chosen, PORTS)
        assert verdict.ok is False and "seat 2's nonce is not the one the server must supply" in verdict.problems[0]
        # Nor may the record say that a server bot brought a nonce of its own.
        claimed = copy.deepcopy(record)
        claimed["commitment"]["supplied"] = []
        next(e for e in claimed["table_events"] if e["type"] == "SeatTaken" and e["seat"] == 2)["bot"] = "random"
        verdict = verify_record(claimed, PORTS)
        assert verdict.ok is False and "bots at seats [2]" in verdict.problems[0], verdict
        # And a seat that brought none (given without --nonce) must be one the server supplied.
        assert verify_record(record, PORTS, seat=1).ok is False
        nursery.cancel_scope.cancel()


async def test_when_no_seat_brought_a_nonce_the_verifier_says_the_deal_was_the_servers(autojump_clock: Any) -> None:
    async with trio.open_nursery() as nursery:
        record = await _finished(nursery, "oriente", 4, nonces=[None] * 4)
        assert record["commitment"]["supplied"] == [0, 1, 2, 3]
        verdict = verify_record(record, PORTS)
        assert verdict.ok is True and SERVERS_CHOICE in verdict.unproven, verdict
        nursery.cancel_scope.cancel()


async def test_a_record_rewritten_with_a_later_salt_fails_against_the_commitment_shown_live(
        autojump_clock: Any) -> None:
    """The attack: a server shows one commitment before the joins, then deals
    (and records) with a salt it picked after seeing the nonces. The record
    is consistent in itself, so it verifies on its own; against the
    commitment the player kept from before its join, it fails."""
    async with trio.open_nursery() as nursery:
        store = MemoryStore()
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        settings, setup = lobby.settings_from(M.CreateTable(seats=4, timers=BOTS))
        table = await lobby.create(settings, setup)
        shown = table.info()["settings"]["commitment"]
        later = dealing.deal_committed("oriente", 4, table.settings.options)
        table.settings = dataclasses.replace(table.settings, commitment=later)  # the server's later salt
        for i in range(4):
            await table.send(Outbox(1000), M.Join(id=i, table=table.id, name=f"p{i}", nonce=NONCES[i]))
        with trio.fail_after(3600):
            await table.ended.wait()
        record = table.record()
        next(e for e in record["table_events"] if e["type"] == "TableOpened")["settings"]["commitment"] = \
            later["sha256"]  # ... and rewrites the record's first event to match
        assert verify_record(record, PORTS).ok is True, "on its own the rewritten record is consistent"
        verdict = verify_record(record, PORTS, commitment=shown, seat=0, nonce=NONCES[0])
        assert verdict.ok is False and "is not the one shown before the joins" in verdict.problems[0], verdict
        assert verify_record(record, PORTS, commitment=later["sha256"]).ok is True
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("what, says", [
    ("ranks reversed", "is not the end the replay reaches"),
    ("a name", "names are not the ones its SeatTaken events seated"),
    ("a table event removed", "an event was added or removed"),
    ("my nonce", "is not the one your nonce gives"),
    ("TableOpened", "TableOpened shows another commitment"),
])
async def test_a_changed_result_name_or_table_event_fails(autojump_clock: Any, what: str, says: str) -> None:
    async with trio.open_nursery() as nursery:
        record = await _finished(nursery, "oriente", 4, nonces=NONCES)
        changed = copy.deepcopy(record)
        seat, nonce = 0, NONCES[0]
        if what == "ranks reversed":
            ranks = changed["result"]["ranks"]
            changed["result"]["ranks"] = [len(ranks) + 1 - r for r in ranks]
            assert changed["result"] != record["result"]
        elif what == "a name":
            changed["names"][1] = "someone else"
        elif what == "a table event removed":
            changed["table_events"] = [e for e in changed["table_events"]
                                       if not (e["type"] == "SeatTaken" and e["seat"] == 3)]
            changed["names"][3] = None
        elif what == "my nonce":
            nonce = NONCES[1]
        elif what == "TableOpened":
            changed["table_events"][0]["settings"]["commitment"] = "00" * 32
        verdict = verify_record(changed, PORTS, seat=seat, nonce=nonce)
        assert verdict.ok is False and any(says in p for p in verdict.problems), verdict
        assert verify_record(record, PORTS, seat=0, nonce=NONCES[0]).ok is True
        nursery.cancel_scope.cancel()


async def test_a_record_from_before_supplied_nonces_verifies_and_says_what_it_cannot_prove() -> None:
    """tests/fixtures/record_reveal_v1.json: written by the server before the
    record said which nonces it supplied (seat 0 joined with a nonce, seat 1
    without, two server bots)."""
    import json
    from pathlib import Path

    fixtures = Path(__file__).parent.parent / "fixtures"
    record = json.loads((fixtures / "record_reveal_v1.json").read_text())
    keep = json.loads((fixtures / "fair_v1.json").read_text())["reveal"]
    assert "supplied" not in record["commitment"]
    verdict = verify_record(record, PORTS, commitment=record["commitment"]["sha256"], seat=0, nonce=keep["nonce0"])
    assert verdict.ok is True, verdict
    assert any("predates saying so" in line for line in verdict.unproven)
    assert verify_record(record, PORTS, seat=0, nonce="x" * 20).ok is False
