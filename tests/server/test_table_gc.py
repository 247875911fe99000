"""An ended table leaves memory by reference counting alone, once the lobby
lets it go: its parts (viewers, the durable writer) reach back to it weakly.
Strong back-references made every ended table a reference cycle (its log,
its game state, its clocks), kept until the next full collection, which the
server runs only now and then (server/collector.py): in a busy process that
was about 88 KiB per game held for minutes."""

from __future__ import annotations

import gc
import weakref

import pytest
import trio

from oriente.server.games.oriente import OrientePort
from oriente.server.lobby import Lobby
from oriente.server.stores import MemoryStore

from .test_ended_tables import LINGER_S, ended_table

pytestmark = pytest.mark.trio


async def test_an_ended_table_let_go_is_freed_without_a_collection(autojump_clock) -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby({"oriente": OrientePort()}, store, nursery, linger_s=LINGER_S)
        table, _seats = await ended_table(lobby)
        gone = weakref.ref(table)
        state = weakref.ref(table.play)
        gc.collect()
        gc.disable()
        try:
            del table
            await trio.sleep(LINGER_S + 1)
            assert lobby.listing() == [], "the lobby let it go"
            assert gone() is None and state() is None, "an ended table is freed by reference counting"
        finally:
            gc.enable()
        nursery.cancel_scope.cancel()
