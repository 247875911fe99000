"""Seat names: a name holding a control, bidi, zero-width,
line-break or BOM character is refused with `message/invalid` naming it;
the rest is normalised (NFC, trimmed); a name that then looks like another
seat's at the table is refused. The actor under MockClock, memory store."""

from __future__ import annotations

import unicodedata

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.server.games.oriente import OrientePort
from oriente.server.names import NameRefused, clean_name, looks_alike
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import Table, TableSettings

from .actor_harness import HUMANS, drain

REFUSED = [
    ("ana\x07", "U+0007", "control"),
    ("ana\x00", "U+0000", "control"),
    ("\u202eana", "U+202E", "direction"),
    ("ana\u2066x", "U+2066", "direction"),
    ("a\u200bna", "U+200B", "zero-width"),
    ("a\u2060na", "U+2060", "zero-width"),
    ("an\na", "U+000A", "line"),
    ("an\u2028a", "U+2028", "line"),
    ("an\ta", "U+0009", "control"),
    ("\ufeffana", "U+FEFF", "byte order mark"),
]


@pytest.mark.parametrize("raw, code_point, words", REFUSED, ids=[r[1] for r in REFUSED])
def test_names_with_invisible_or_control_characters_are_refused_saying_which(raw, code_point, words) -> None:
    with pytest.raises(NameRefused) as caught:
        clean_name(raw)
    assert code_point in caught.value.message and words in caught.value.message


def test_names_are_nfc_and_trimmed() -> None:
    assert clean_name("  Jose\u0301  ") == "José"
    assert unicodedata.is_normalized("NFC", clean_name("Jose\u0301"))
    for bad in ("", "   ", "x" * 33):
        with pytest.raises(NameRefused):
            clean_name(bad)


@pytest.mark.parametrize("a, b", [
    ("ana", "ANA"), ("ana", "\u0430na"),  # Cyrillic a
    ("Paul", "Pau1"), ("Bill", "BiII"), ("ana", "ａｎａ"),  # fullwidth
    ("anna", "an na"), ("José", "Jose"), ("BOB", "B0b"),
])
def test_lookalikes(a: str, b: str) -> None:
    assert looks_alike(a, b) and looks_alike(b, a)


@pytest.mark.parametrize("a, b", [("ana", "anna"), ("Bob", "Rob"), ("ali", "al")])
def test_different_names_do_not_look_alike(a: str, b: str) -> None:
    assert not looks_alike(a, b)


async def join(table: Table, name: str) -> dict:
    outbox = Outbox(100)
    await table.send(outbox, M.Join(id="j", table=table.id, name=name))
    await wait_all_tasks_blocked()
    return drain(outbox)[0]


@pytest.mark.trio
async def test_the_table_refuses_bad_names_and_lookalikes_and_stores_the_normal_form(autojump_clock) -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        port = OrientePort()
        setup = port.configure(4, 3, {}, {})
        table = Table("t1", TableSettings(game="oriente", seats=4, seed=3, timers=HUMANS, options=setup.options),
                      port, setup, store)
        await table.create()
        nursery.start_soon(table.run)
        refused = await join(table, "\u202eevil")
        assert (refused["t"], refused["code"]) == ("error", "message/invalid")
        assert "U+202E" in refused["message"]
        ok = await join(table, " Jose\u0301 ")
        assert ok["t"] == "ok"
        assert table.seats[ok["seat"]].name == "José"
        assert table.events[-1] == {"type": "SeatTaken", "seat": 0, "name": "José", "seq": table.seq}
        lookalike = await join(table, "JOSE")
        assert (lookalike["t"], lookalike["code"]) == ("error", "message/invalid")
        assert "seat 0" in lookalike["message"]
        assert (await join(table, "Ana"))["t"] == "ok"
        nursery.cancel_scope.cancel()


def test_table_names_are_held_to_the_same_characters() -> None:
    from oriente.server.games import PORTS
    from oriente.server.lobby import Lobby, LobbyError

    lobby = Lobby(PORTS, None, None)  # type: ignore[arg-type]  # settings_from reads neither
    with pytest.raises(LobbyError) as caught:
        lobby.settings_from(M.CreateTable(seats=4, name="fun\u202egnp.exe"))
    assert caught.value.code == "table/bad_settings" and "U+202E" in caught.value.message
    settings, _ = lobby.settings_from(M.CreateTable(seats=4, name=" Cafe\u0301 "))
    assert settings.name == "Café"
