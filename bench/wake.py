"""What one wake of a sleeping turn-based table costs (docs/table.md T8.5), load aside.

A wake reads the table's row, its log and its clock, takes it out of the
index of sleeping tables, rebuilds the game by replaying the log through the
rules (checked against the recorded events), rebuilds its seats and arms its
timers. This opens a SQLite store that `bench/sleep.py --keep` left (its
tables asleep), and in one process with nothing else running wakes each
sleeping table through the lobby's own `find`, as a message for it does,
then puts it to sleep again: the CPU time per wake (this process, every
thread: the store's too), the store's round trips per wake (reads and
commits: each a hop to its thread and, under load, a wait behind the
others), and with `--profile` where it went (cProfile, cumulative). The
store is copied first; the copy's wake-ups are moved a century on so that
nothing falls due meanwhile.

    python bench/sleep.py --tables 300 --keep     # prints the store's folder
    python bench/wake.py --store FOLDER/store.sqlite [--profile]

For instruction counts, run it under `valgrind --tool=callgrind` (slow:
use `--limit`). The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import shutil
import sqlite3
import sys
import tempfile
import time
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import trio

from oriente.games import PORTS
from oriente.server.lobby import Lobby
from oriente.server.stores import open_store

CENTURY_S = 100 * 365 * 86_400.0


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="oriente-wake-")
    path = os.path.join(tmp, "store.sqlite")
    try:
        src, dst = sqlite3.connect(args.store), sqlite3.connect(path)
        try:
            src.backup(dst)
            with dst:
                dst.execute("UPDATE sleeping SET wake_at = wake_at + ?", (CENTURY_S,))
            ids = [r[0] for r in dst.execute("SELECT table_id FROM sleeping ORDER BY table_id")]
            records = dst.execute("SELECT count(*) FROM log WHERE table_id IN (SELECT table_id FROM sleeping)"
                                  ).fetchone()[0]
        finally:
            src.close()
            dst.close()
        ids = ids[:args.limit] if args.limit else ids
        store = open_store(path)
        figures: dict[str, Any] = {"tables": len(ids), "log_records_per_table": round(records / max(1, len(ids)), 1)}
        async with trio.open_nursery() as outer:
            await outer.start(store.run)
            async with trio.open_nursery() as tables:
                lobby = Lobby(PORTS, store, tables)
                lobby.sleeps = True
                profile = cProfile.Profile() if args.profile else None
                cpu = wall = 0.0
                woke = 0
                hops = [0]
                to_thread = trio.to_thread.run_sync

                async def counted(*a: Any, **k: Any) -> Any:
                    hops[0] += 1
                    return await to_thread(*a, **k)

                for table_id in ids:
                    c0, w0 = time.process_time(), time.perf_counter()
                    if profile is not None:
                        profile.enable()
                    trio.to_thread.run_sync = counted  # type: ignore[assignment]
                    try:
                        table = await lobby.find(table_id)
                    finally:
                        trio.to_thread.run_sync = to_thread
                    if profile is not None:
                        profile.disable()
                    cpu += time.process_time() - c0
                    wall += time.perf_counter() - w0
                    if table is None:
                        continue
                    woke += 1
                    await lobby.sleep(table, 0.0)
                figures["woken"] = woke
                figures["wake_cpu_ms"] = round(cpu / max(1, woke) * 1000, 3)
                figures["wake_wall_ms"] = round(wall / max(1, woke) * 1000, 3)
                # Reads and commits, each a hop to the store's thread (on
                # SQLite, one connection: each waits behind every other).
                figures["store_hops_per_wake"] = round(hops[0] / max(1, woke), 2)
                tables.cancel_scope.cancel()
            outer.cancel_scope.cancel()
        if profile is not None:
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.profile_lines)
            print(out.getvalue())
        return figures
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="a SQLite store of sleeping tables (bench/sleep.py --keep)")
    parser.add_argument("--limit", type=int, default=0, help="wake at most this many tables")
    parser.add_argument("--profile", action="store_true", help="print where the wakes' time went (cProfile)")
    parser.add_argument("--profile-lines", type=int, default=45)
    args = parser.parse_args()
    if not os.path.exists(args.store):
        sys.exit(f"no such store: {args.store}")
    figures = trio.run(run, args)
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
