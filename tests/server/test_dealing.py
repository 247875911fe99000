"""Who chooses a table's cards (fairplay/dealing.py, PROTOCOL.md 3 and 12).

Before: with a seed copied from any public record, a creator knew
every hidden card of a public table. Now the server's CSPRNG seeds every
table nobody asked to seed; a chosen seed or configured setup makes the
table *seeded*: never listed, and `settings.seeded: true` for everyone who
joins. A table the server creates with a setup of its choosing commits to
it (a SHA-256 digest shown from the first event), and its record reveals
the salt so that anyone can check the game was dealt as committed. The
lobby under MockClock with the memory store; over real sockets:
tests/e2e/test_dealing_e2e.py."""

from __future__ import annotations

import pytest
import trio

from oriente.fairplay import dealing
from oriente.protocol import messages as M
from oriente.server.games.oriente import OrientePort
from oriente.server.games.oro import OroPort
from oriente.server.lobby import Lobby
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import Table

from .actor_harness import drain, events_of
from .test_ended_tables import BOTS, DEAL

PORTS = {"oriente": OrientePort(), "oro": OroPort()}


def test_a_commitment_verifies_its_own_setup_and_nothing_else() -> None:
    config = {"seats": 4, "seed": 7, "deck": [3, 1, 2]}
    c = dealing.committed("oriente", config)
    assert len(c.sha256) == 64 and len(c.salt) == 64
    assert dealing.verify(c.sha256, "oriente", config, c.salt)
    # Key order does not matter: the encoding is canonical.
    assert dealing.verify(c.sha256, "oriente", dict(reversed(list(config.items()))), c.salt)
    assert not dealing.verify(c.sha256, "oriente", {**config, "seed": 8}, c.salt)
    assert not dealing.verify(c.sha256, "oriente", {**config, "deck": [1, 3, 2]}, c.salt)
    assert not dealing.verify(c.sha256, "oro", config, c.salt)
    assert not dealing.verify(c.sha256, "oriente", config, dealing.new_salt())
    assert not dealing.verify(c.sha256, "oriente", config, "not hex é")
    # A fixed vector, so that another implementation can check its encoding.
    assert dealing.canonical("oriente", {"seed": 7, "seats": 4}) == b'{"config":{"seats":4,"seed":7},"game":"oriente"}'
    assert dealing.commit("oriente", {"seed": 7, "seats": 4}, "00") == \
        "701b069b41b8219ab9040debb6b9e9d3c3b16b0b709e3b9e830a4886d82e5646"
    with pytest.raises(ValueError):
        dealing.canonical("oriente", {"x": float("nan")})


def test_the_server_seeds_every_table_nobody_asked_to_seed() -> None:
    seeds = {dealing.fresh_seed() for _ in range(64)}
    assert len(seeds) == 64 and all(0 <= s < 2**63 for s in seeds)


async def _lobby(nursery: trio.Nursery) -> Lobby:
    store = MemoryStore()
    await nursery.start(store.run)
    return Lobby(PORTS, store, nursery)


@pytest.mark.trio
async def test_a_public_table_without_a_seed_is_neither_seeded_nor_predictable(autojump_clock) -> None:
    async with trio.open_nursery() as nursery:
        lobby = await _lobby(nursery)
        tables = []
        for _ in range(2):
            settings, setup = lobby.settings_from(M.CreateTable(seats=4, timers=BOTS))
            tables.append(await lobby.create(settings, setup))
        a, b = tables
        assert a.settings.seed != b.settings.seed
        assert a.info()["settings"]["seeded"] is False and a.info()["settings"]["public"] is True
        # Commit and reveal (T7, tests/server/test_commit_reveal.py): a digest
        # of a salt from the start; the seed is made when the game starts.
        assert len(a.info()["settings"]["commitment"]) == 64
        assert a.info()["settings"]["commitment"] != b.info()["settings"]["commitment"]
        assert {t["table"] for t in lobby.listing()} == {a.id, b.id}
        nursery.cancel_scope.cancel()


@pytest.mark.trio
@pytest.mark.parametrize("game, request_", [
    ("oriente", {"seed": 12345}),                       # a seed copied from a public record
    ("oriente", {"options": {"deal": DEAL}}),           # a configured deal, the seed left to the server
    ("oro", {"seed": 11}),
    ("oro", {"options": {"setup": {"first_seat": 1}}}),
])
async def test_a_chosen_seed_or_setup_makes_the_table_seeded_private_and_says_so(
        autojump_clock, game: str, request_: dict) -> None:
    """Before the fix such a table was public, listed, and said nothing."""
    async with trio.open_nursery() as nursery:
        lobby = await _lobby(nursery)
        seats = 4 if game == "oriente" else 2
        settings, setup = lobby.settings_from(M.CreateTable(seats=seats, public=True, timers=BOTS, game=game,
                                                            **request_))
        table = await lobby.create(settings, setup)
        assert lobby.listing() == [], "a seeded table is never listed"
        outbox = Outbox(100)
        await table.send(outbox, M.Join(id=1, table=table.id, name="guest"))
        await trio.sleep(0.1)
        frames = drain(outbox)
        snapshot = next(f for f in frames if f["t"] == "snapshot")
        assert frames[0]["t"] == "ok" and snapshot["table_info"]["settings"]["seeded"] is True
        assert snapshot["table_info"]["settings"]["public"] is False
        opened = next(e for e in table.events if e["type"] == "TableOpened")
        assert opened["settings"]["seeded"] is True
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_a_server_created_table_commits_to_its_setup_before_play_and_reveals_it_after(autojump_clock) -> None:
    """A tournament's duplicate setup: the server chooses seed and deal, the
    digest is public from TableOpened on, the record's salt verifies it."""
    async with trio.open_nursery() as nursery:
        lobby = await _lobby(nursery)
        settings, setup = lobby.settings_from(M.CreateTable(seats=4, seed=7, timers=BOTS,
                                                            options={"deal": DEAL}))
        table = await lobby.create(settings, setup, commit_setup=True)
        digest = table.info()["settings"]["commitment"]
        assert isinstance(digest, str) and len(digest) == 64
        assert table.info()["settings"]["seeded"] is False
        assert table.events[0]["type"] == "TableOpened" and table.events[0]["settings"]["commitment"] == digest
        spectator = Outbox(1000)
        await table.send(spectator, M.Spectate(id=1, table=table.id))
        seats = []
        for i in range(4):
            outbox = Outbox(1000)
            await table.send(outbox, M.Join(id=i, table=table.id, name=f"p{i}"))
            seats.append(outbox)
        await trio.sleep(1)
        # While the game runs, nothing anyone is sent holds the salt.
        assert table.status == "running"
        salt = table.settings.commitment["salt"]
        seen = [drain(box) for box in [spectator, *seats]]
        assert salt not in repr(seen)
        await trio.sleep(10)
        assert table.status == "finished"
        record = table.record()
        assert record["commitment"] == {"sha256": digest, "salt": table.settings.commitment["salt"]}
        assert dealing.verify_record(record) is True
        assert dealing.verify_record({**record, "config": {**record["config"], "seed": 8}}) is False
        assert events_of(seen[0] + drain(spectator))[-1]["type"] == "TableFinished"
        # The record saved in the store reveals it too, and so does the table brought back from its log.
        stored = await lobby.record(table.id)
        assert stored is not None and dealing.verify_record(stored) is True
        row = await lobby.store.table(table.id)
        assert row is not None
        again = Table.restore(table.id, row.meta, await lobby.store.log(table.id), None, PORTS["oriente"],
                              lobby.store, paused_ms=0)
        assert again.record()["commitment"] == record["commitment"]
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_a_player_table_has_no_commitment_and_its_record_says_null(autojump_clock) -> None:
    async with trio.open_nursery() as nursery:
        lobby = await _lobby(nursery)
        settings, setup = lobby.settings_from(M.CreateTable(seats=4, seed=7, timers=BOTS, options={"deal": DEAL}))
        table = await lobby.create(settings, setup)
        for i in range(4):
            await table.send(Outbox(1000), M.Join(id=i, table=table.id, name=f"p{i}"))
        await trio.sleep(12)
        assert table.status == "finished"
        assert table.record()["commitment"] is None and dealing.verify_record(table.record()) is None
        nursery.cancel_scope.cancel()
