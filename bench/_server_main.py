"""Run one Oriente server for bench/server.py, in its own process.

    python bench/_server_main.py STORE_PATH

Listens on 127.0.0.1 with a free port, and serves /metrics on another,
prints both ports on stdout (one line: PORT METRICS_PORT) once it accepts
connections, and serves until SIGTERM or SIGINT, then
shuts down gracefully. With ORIENTE_BENCH_PROFILE=FILE set, the trio thread
runs under cProfile and the statistics are written to FILE on exit. With
ORIENTE_BENCH_GCLOG=FILE set, the pauses of the cyclic garbage collector are
tallied per generation and written to FILE (JSON) on exit.
"""

from __future__ import annotations

import cProfile
import gc
import json
import logging
import os
import sys
import time

import trio

from oriente.server.app import App, serve_until_signalled
from oriente.server.transport import Limits


class GcLog:
    """Count, total and longest pause of each GC generation; pauses of 10 ms or more."""

    def __init__(self) -> None:
        self.gens = [{"count": 0, "total_ms": 0.0, "max_ms": 0.0, "over_10ms": 0} for _ in range(3)]
        self._start = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        ms = (time.perf_counter() - self._start) * 1000
        g = self.gens[info["generation"]]
        g["count"] += 1
        g["total_ms"] += ms
        g["max_ms"] = max(g["max_ms"], ms)
        if ms >= 10:
            g["over_10ms"] += 1

    def write(self, path: str) -> None:
        with open(path, "w") as f:
            json.dump({"generations": self.gens, "objects": len(gc.get_objects())}, f)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # Every bench table is created from this one machine, up to a hundred at once.
    app = App(sys.argv[1], host="127.0.0.1", port=0, limits=Limits(tables_per_address=100_000), metrics_port=0)

    def ready(app: App) -> None:
        print(app.port, app.metrics_port, flush=True)

    gc_log_to = os.environ.get("ORIENTE_BENCH_GCLOG")
    gc_log = GcLog() if gc_log_to else None
    if gc_log is not None:
        gc.callbacks.append(gc_log)
    profile_to = os.environ.get("ORIENTE_BENCH_PROFILE")
    profiler = cProfile.Profile() if profile_to else None
    if profiler is not None:
        profiler.enable()
    try:
        trio.run(serve_until_signalled, app, ready)
    finally:
        if profiler is not None and profile_to:
            profiler.disable()
            profiler.dump_stats(profile_to)
        if gc_log is not None and gc_log_to:
            gc.callbacks.remove(gc_log)
            gc_log.write(gc_log_to)
    return 0


if __name__ == "__main__":
    sys.exit(main())
