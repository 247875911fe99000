"""`oriente serve`, but killed (SIGKILL, by itself) at one chosen store write:

    python tests/e2e/crashing_server.py STORE WHEN

WHEN is `start` (the write of a table's status `running`: the join that
filled an auto-start table is stored and answered, its start is not) or
`seat:N` (the append of the SeatTaken of seat N: the join's seat is in the
table's stored meta, its event is not). It prints the line `oriente serve`
prints, so tests find its port the same way. The kill is real and at an
exact point, which a kill from outside cannot be."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import trio

from oriente.protocol.codec import decode_any
from oriente.server import app as app_module
from oriente.server.app import App, serve_until_signalled
from oriente.server.stores import SQLiteStore


class CrashingStore(SQLiteStore):
    def __init__(self, path: str, when: str) -> None:
        super().__init__(path)
        self.when = when

    @staticmethod
    def _die() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    async def update_table(self, table_id: str, **kw: Any) -> None:
        if self.when == "start" and kw.get("status") == "running":
            # The join's answer is queued; let it go out first, as it does
            # when this write takes a moment (a slow disk), then die.
            await trio.sleep(0.5)
            self._die()
        await super().update_table(table_id, **kw)

    async def append(self, table_id: str, records: Any, **kw: Any) -> None:
        if self.when.startswith("seat:"):
            seat = int(self.when.split(":")[1])
            for record in records:
                event = decode_any(record.body) if record.kind == "event" else {}
                if event.get("type") == "SeatTaken" and event.get("seat") == seat:
                    self._die()
        await super().append(table_id, records, **kw)


def main() -> None:
    path, when = sys.argv[1], sys.argv[2]
    app_module.open_store = lambda spec, **kw: CrashingStore(spec, when)
    app = App(path, port=0)

    def ready(app: App) -> None:
        print(f"serving ws://127.0.0.1:{app.port} store={path} recovered={app.recovered}", flush=True)

    trio.run(serve_until_signalled, app, ready)


if __name__ == "__main__":
    main()
