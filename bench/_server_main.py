"""Run one Oriente server for bench/server.py, in its own process.

    python bench/_server_main.py STORE_PATH

Listens on 127.0.0.1 with a free port, and serves /metrics on another,
prints both ports on stdout (one line: PORT METRICS_PORT) once it accepts
connections, and serves until SIGTERM or SIGINT, then
shuts down gracefully. With ORIENTE_BENCH_PROFILE=FILE set, the trio thread
runs under cProfile and the statistics are written to FILE on exit. With
ORIENTE_BENCH_GCLOG=FILE set, the pauses of the cyclic garbage collector are
tallied per generation and written to FILE (JSON) on exit. With
ORIENTE_BENCH_LOOP_TRACE=FILE set, trio's run loop is traced (`LoopTrace`) and
its tallies written to FILE.PID (JSON) on exit. With ORIENTE_BENCH_LOG=FILE
set, SIGHUP runs a full collection and malloc_trim,
then writes FILE.settled (what bench/server.py reads RSS after).
"""

from __future__ import annotations

import cProfile
import gc
import json
import logging
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

import trio

from oriente.server.app import App, serve_until_signalled
from oriente.server.heap import malloc_trim
from oriente.server.transport import Limits

HERE = os.path.dirname(os.path.abspath(__file__))


def read_ports(line: str | bytes) -> tuple[int, int]:
    """The two ports of the line this server prints once it listens:
    the game's, then its /metrics'. Raises ValueError for any other line."""
    words = line.split()
    if len(words) != 2:
        raise ValueError(f"not a PORT METRICS_PORT line: {line!r}")
    return int(words[0]), int(words[1])


def compile_once() -> None:
    """Write the bytecode of the package and of these scripts, as an
    installed server has it, before a server starts. Without it (a
    PYTHONDONTWRITEBYTECODE environment, a fresh checkout) the server
    compiles every module as it starts, and the memory compiling used and
    freed is reused by the connections and tables measured next: the same
    tree gave 192 KiB per live table without bytecode and 223-228 with it
    (bench/server.py, 29 November 2026). Reading cached bytecode is what
    every later start of a deployed server does, so that is what is
    measured. (Bytecode is written whatever PYTHONDONTWRITEBYTECODE says:
    it only stops the interpreter's imports from writing it.)"""
    global _compiled
    if _compiled:
        return
    import compileall

    import oriente
    for folder in (os.path.dirname(os.path.abspath(oriente.__file__)), HERE):
        compileall.compile_dir(folder, quiet=1)
    _compiled = True


_compiled = False


def start(store: str, log_path: str, timeout: float = 60.0,
          env: dict[str, str] | None = None, wrapper: Sequence[str] = ()) -> tuple[subprocess.Popen[bytes], int, int]:
    """Start this server in its own process on `store`, its stderr to
    `log_path`; returns the process and its two ports once it listens. The
    one way the benchmarks that need only a port start it, so that what it
    prints and what they read cannot drift apart. `wrapper`: a command that
    runs the interpreter (valgrind and its options, for bench/instructions.py)."""
    compile_once()
    log = open(log_path, "wb")  # noqa: SIM115 - kept open for the child's life
    proc = subprocess.Popen([*wrapper, sys.executable, os.path.join(HERE, "_server_main.py"), store],
                            stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, cwd=HERE, env=env)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    line = proc.stdout.readline() if ready else b""
    try:
        port, metrics_port = read_ports(line)
    except ValueError:
        proc.kill()
        proc.wait()
        raise RuntimeError(f"the server did not start; see {log_path}") from None
    return proc, port, metrics_port


class GcLog:
    """Count, total and longest pause of each GC generation; pauses of 10 ms or more."""

    def __init__(self) -> None:
        self.reset()
        self._start = 0.0
        self._start_cpu = 0.0

    def reset(self) -> None:
        self.gens = [{"count": 0, "total_ms": 0.0, "max_ms": 0.0, "max_cpu_ms": 0.0, "over_10ms": 0}
                     for _ in range(3)]

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            self._start_cpu = time.thread_time()
            return
        ms = (time.perf_counter() - self._start) * 1000
        g = self.gens[info["generation"]]
        # On a shared machine the wall-clock pause includes time the process
        # was not scheduled; the thread's CPU time is the collector's own.
        g["max_cpu_ms"] = max(g["max_cpu_ms"], (time.thread_time() - self._start_cpu) * 1000)
        g["count"] += 1
        g["total_ms"] += ms
        g["max_ms"] = max(g["max_ms"], ms)
        if ms >= 10:
            g["over_10ms"] += 1

    def write(self, path: str) -> None:
        with open(path, "w") as f:
            json.dump({"generations": self.gens, "objects": len(gc.get_objects())}, f)


def _summary(xs: list[float], scale: float = 1e3) -> dict[str, float]:
    """Count, total, median, 90th and 99th percentiles and maximum of `xs`,
    times `scale` (seconds to milliseconds by default), rounded."""
    xs = sorted(xs)
    if not xs:
        return {"n": 0}

    def q(p: float) -> float:
        return round(xs[min(len(xs) - 1, int(p * len(xs)))] * scale, 3)
    return {"n": len(xs), "total": round(sum(xs) * scale, 1), "p50": q(0.5), "p90": q(0.9), "p99": q(0.99),
            "max": round(xs[-1] * scale, 3)}


class LoopTrace(trio.abc.Instrument):
    """Where a command's time goes between trio's passes, for work on the
    tail (docs/benchmarks.md). A command crosses several passes of the run
    loop (its frame read, its session, its table's step, the commit, the
    step again), and waits in each for every task runnable before it.
    Tallied, in milliseconds: each pass (from the end of one I/O wait to
    the start of the next) and the tasks it stepped; each woken task's wait
    until it ran, in all and per second of the run (the measured window is
    the last `--seconds` before the end); each task step by the task's
    coroutine; and the passes over LONG_PASS_S with their CPU time (less
    than their length: the thread waited for the GIL or the processor) and
    the tasks that took them. Costs a few microseconds a step: read it for
    shares and tails, not for absolute figures."""

    LONG_PASS_S = 0.004

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.passes: list[float] = []
        self.pass_steps: list[float] = []
        self.waits: list[tuple[float, float]] = []  # (when it ran, how long it waited)
        self.steps: dict[str, list[float]] = {}
        self.long_passes: list[tuple[float, float, int, list[tuple[str, float]]]] = []
        self._pass_began = self._pass_cpu = self._step_began = 0.0
        self._in_pass: dict[str, float] = {}
        self._steps = 0
        self._scheduled: dict[int, float] = {}

    def after_io_wait(self, timeout: float) -> None:
        self._pass_began = time.perf_counter()
        self._pass_cpu = time.thread_time()
        self._in_pass = {}
        self._steps = 0

    def before_io_wait(self, timeout: float) -> None:
        if not self._pass_began:
            return
        took = time.perf_counter() - self._pass_began
        self.passes.append(took)
        self.pass_steps.append(float(self._steps))
        if took > self.LONG_PASS_S:
            top = sorted(self._in_pass.items(), key=lambda kv: -kv[1])[:4]
            self.long_passes.append((round(took * 1e3, 2), round((time.thread_time() - self._pass_cpu) * 1e3, 2),
                                     self._steps, [(k, round(v * 1e3, 2)) for k, v in top]))

    def task_scheduled(self, task: trio.lowlevel.Task) -> None:
        self._scheduled.setdefault(id(task), time.perf_counter())

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        now = time.perf_counter()
        at = self._scheduled.pop(id(task), None)
        if at is not None:
            self.waits.append((now, now - at))
        self._step_began = now
        self._steps += 1

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        took = time.perf_counter() - self._step_began
        name = getattr(task.coro, "__qualname__", task.name)
        self.steps.setdefault(name, []).append(took)
        self._in_pass[name] = self._in_pass.get(name, 0.0) + took

    def write(self, path: str) -> None:
        per_second: dict[int, list[float]] = {}
        t0 = self.waits[0][0] if self.waits else 0.0
        for at, waited in self.waits:
            per_second.setdefault(int(at - t0), []).append(waited)
        steps = sorted(self.steps.items(), key=lambda kv: -sum(kv[1]))[:25]
        with open(path, "w") as f:
            json.dump({"passes_ms": _summary(self.passes), "tasks_per_pass": _summary(self.pass_steps, 1.0),
                       "waits_ms": _summary([w for _, w in self.waits]),
                       "waits_ms_per_second": {sec: _summary(ws) for sec, ws in sorted(per_second.items())},
                       "steps_ms": {name: _summary(xs) for name, xs in steps},
                       "long_passes": self.long_passes}, f, indent=1)


def settle(marker: str) -> None:
    """SIGHUP (bench/server.py, to measure what the process keeps): a full
    collection of everything, what the server froze included (a deep one,
    server/collector.py), free heap handed back to the system (glibc), then
    `marker` written. Runs between two bytecodes of the trio thread."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    trim = malloc_trim()
    if trim is not None:
        trim()
    with open(marker, "w") as f:
        f.write("settled\n")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # Every bench table is created from this one machine, up to a hundred at once.
    app = App(sys.argv[1], host="127.0.0.1", port=0, limits=Limits(tables_per_address=100_000), metrics_port=0)

    log_path = os.environ.get("ORIENTE_BENCH_LOG")
    if log_path:
        signal.signal(signal.SIGHUP, lambda signum, frame: settle(log_path + ".settled"))
    gc_log_to = os.environ.get("ORIENTE_BENCH_GCLOG")
    gc_log = GcLog() if gc_log_to else None
    trace_to = os.environ.get("ORIENTE_BENCH_LOOP_TRACE")
    trace = LoopTrace() if trace_to else None

    def ready(app: App) -> None:
        # The pauses counted are those of a listening server: the start-up
        # collection that precedes the freeze pauses no table.
        if gc_log is not None:
            gc_log.reset()
        if trace is not None:
            trace.reset()
        print(app.port, app.metrics_port, flush=True)

    if gc_log is not None:
        gc.callbacks.append(gc_log)
    profile_to = os.environ.get("ORIENTE_BENCH_PROFILE")
    profiler = cProfile.Profile() if profile_to else None
    if profiler is not None:
        profiler.enable()
    try:
        trio.run(serve_until_signalled, app, ready, instruments=[trace] if trace is not None else [])
    finally:
        if profiler is not None and profile_to:
            profiler.disable()
            profiler.dump_stats(profile_to)
        if gc_log is not None and gc_log_to:
            gc.callbacks.remove(gc_log)
            gc_log.write(gc_log_to)
        if trace is not None and trace_to:
            trace.write(f"{trace_to}.{os.getpid()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
