"""Each table records the rules version it started with,
and a server refuses to recover a table of rules it does not replay, so a
deploy that changes the rules leaves such tables to the processes that
still run them (server/cluster drains them there)."""

from __future__ import annotations

import pytest
import trio

from oriente.protocol.codec import decode_any, encode
from oriente.server.game_port import replayable, rules_version
from oriente.server.games import PORTS
from oriente.server.rules.config import RULES_REVISION
from oriente.server.stores import MemoryStore
from oriente.server.table import Table, TableError, TableSettings

pytestmark = pytest.mark.trio


async def test_a_table_records_its_rules_and_other_rules_are_refused_at_recovery() -> None:
    port = PORTS["oriente"]
    setup = port.configure(4, 7, {**port.new_table_options}, {})
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table = Table("t", TableSettings(game="oriente", seats=4, name="", public=True, seed=7,
                                         options=setup.options), port, setup, store)
        await table.create()
        meta = decode_any(table.meta())
        assert meta["rules"] == rules_version(port, setup) == f"oriente/{RULES_REVISION}"
        assert meta["rules"] in replayable(port)
        records = await store.log("t")
        restored = Table.restore("t", table.meta(), records, None, port, store, paused_ms=0)
        assert restored.rules == f"oriente/{RULES_REVISION}"
        # The same table, as if started by a later deploy's rules.
        later = encode({**meta, "rules": "oriente/99"})
        with pytest.raises(TableError, match="oriente/99"):
            Table.restore("t", later, records, None, port, store, paused_ms=0)
        # A table stored before versions were recorded still recovers.
        older = encode({k: v for k, v in meta.items() if k != "rules"})
        assert Table.restore("t", older, records, None, port, store, paused_ms=0).status == "open"
        await store.aclose()
        nursery.cancel_scope.cancel()
