"""Who deals, over real sockets: a `create_table` that chooses its seed
(copied from any public record, say) gets a table that is not listed and
that tells everyone who joins `settings.seeded: true`; one that leaves the
seed to the server stays public and unseeded (fairplay/dealing.py)."""

from __future__ import annotations

import pytest

from .wsclient import BOT_TIMERS, Client, open_client

pytestmark = pytest.mark.trio


async def test_a_chosen_seed_is_flagged_to_whoever_joins_and_never_listed(server) -> None:
    async with open_client(server.port) as ws:
        c = Client(ws)
        await c.recv()  # welcome
        plain = await c.request({"t": "create_table", "seats": 4, "public": True, "timers": BOT_TIMERS})
        chosen = await c.request({"t": "create_table", "seats": 4, "public": True, "seed": 9, "timers": BOT_TIMERS})
        assert plain["t"] == chosen["t"] == "ok"
        assert plain["info"]["settings"]["seeded"] is False and plain["info"]["settings"]["public"] is True
        assert chosen["info"]["settings"]["seeded"] is True and chosen["info"]["settings"]["public"] is False
        listed = await c.request({"t": "list_tables"})
        assert [t["table"] for t in listed["tables"]] == [plain["table"]]
    async with open_client(server.port) as ws:
        guest = Client(ws)
        await guest.recv()
        joined = await guest.request({"t": "join", "table": chosen["table"], "name": "guest"})
        assert joined["t"] == "ok"
        snapshot = await guest.until(lambda f: f["t"] == "snapshot")
        assert snapshot["table_info"]["settings"]["seeded"] is True
        assert "seed" not in snapshot["table_info"]["settings"], "the seed itself stays secret until the end"
