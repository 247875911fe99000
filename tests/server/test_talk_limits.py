"""Talk is bounded, play is not (docs/table.md T5.4).

Measured before: a seated connection alternating ProposeDeal (40 promises
of ~480 characters) and WithdrawDeal with 30 KB command ids grew the server
by 12 MiB/s and the store by 9.6 MiB/s, and chat had no rate. The actor
under MockClock with the memory store; the rules' own limits are
tests/rules/test_rules_r8_7_limits.py, the id's tests/protocol/test_codec.py."""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.server.games.oriente import OrientePort
from oriente.server.table import CHAT_BURST, CHAT_EVERY_S, LOG_SOFT_CAP, Table

from .actor_harness import drain, open_table

pytestmark = pytest.mark.trio

PROPOSAL = {"type": "ProposeDeal", "transfers": [],
            "promises": [{"promiser": 0, "promisee": 1, "kind": "free", "text": "my support, next fight"}]}


def _replies(outbox) -> list[dict]:
    return [f for f in drain(outbox) if f["t"] in ("ok", "error")]


async def _chat(h, seat: int, text: str = "hello") -> dict:
    h.n += 1
    await h.table.send(h.clients[seat], M.Chat(id=h.n, table=h.table.id, text=text))
    await wait_all_tasks_blocked()
    return _replies(h.clients[seat])[-1]


async def test_t5_4_a_seat_chats_five_times_in_a_row_then_once_every_two_seconds(autojump_clock) -> None:
    """T5.4: "A seat chats at most 5 times in a row, then once every 2
    seconds (`chat/rate_limited`)"."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, OrientePort(), seats=4)
        assert [(await _chat(h, 0))["t"] for _ in range(CHAT_BURST)] == ["ok"] * CHAT_BURST
        refused = await _chat(h, 0)
        assert refused["code"] == "chat/rate_limited" and "wait 2.0 s" in refused["message"]
        assert (await _chat(h, 1))["t"] == "ok", "another seat's chat is its own"
        await trio.sleep(CHAT_EVERY_S)
        assert (await _chat(h, 0))["t"] == "ok"
        assert (await _chat(h, 0))["code"] == "chat/rate_limited"
        chats = [e for e in h.table.events if e["type"] == "Chat"]
        assert len(chats) == CHAT_BURST + 2
        await h.close()
        nursery.cancel_scope.cancel()


async def test_t5_4_a_full_log_refuses_chat_and_proposals_and_the_game_plays_on(autojump_clock) -> None:
    """T5.4: "Once a table's log holds 4 MiB ... the table refuses chat and
    its game's talk ... as `table/log_full`, while every other command ...
    plays the game to its end"."""
    assert LOG_SOFT_CAP == 4 * 1024 * 1024
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, OrientePort(), seats=4)
        h.table.journal.cap = h.table.journal.bytes + 2_000  # a small cap, the same code path
        await h.act(0, PROPOSAL)
        assert _replies(h.clients[0])[-1]["t"] == "ok"
        while h.table.journal.bytes < h.table.journal.cap:
            assert (await _chat(h, 1, "x" * 400))["t"] == "ok"
            await trio.sleep(CHAT_EVERY_S)
        size = h.table.journal.bytes
        full = await _chat(h, 1)
        assert full["code"] == "table/log_full" and "game goes on" in full["message"]
        await h.act(0, PROPOSAL)
        assert _replies(h.clients[0])[-1]["code"] == "table/log_full"
        assert h.table.journal.bytes == size, "a refusal writes nothing"
        # The game goes on: the open decision is answered and logged.
        seq, pivot = h.table.seq, h.pivot
        await h.answer(pivot)
        assert h.table.seq > seq and _replies(h.clients[pivot])[-1]["t"] == "ok"
        # An answer to an open deal is not talk: it is still taken.
        deal = next(e["deal"] for e in h.table.events if e["type"] == "DealProposed")
        await h.act(1, {"type": "DeclineDeal", "deal": deal})
        assert any(e["type"] == "DealClosed" for e in h.table.events)
        # Brought back from its log after a restart, the table knows how full it is.
        row = await h.store.table(h.table.id)
        assert row is not None
        again = Table.restore(h.table.id, row.meta, await h.store.log(h.table.id), None, OrientePort(), h.store,
                              paused_ms=0, log_cap=h.table.journal.cap)
        assert again.journal.bytes == h.table.journal.bytes
        await h.close()
        nursery.cancel_scope.cancel()
