"""Memory benchmark: what one live table with its six connections costs the server.

The server runs in its own process (this script with `--serve`, which is
bench/_server_main.py's server plus a SIGHUP that settles the heap, counts
trio's tasks and, with `--trace`, dumps a tracemalloc snapshot); the bots
live in this process on the lean client (bench/_wsclient.py), with
bench/server.py's bot policy. Unlike bench/server.py's figure, read at a
paced load, these are read on a settled heap (a full collection and
malloc_trim) with nothing in flight, so they do not depend on what else the
machine runs:

1. the server's VmRSS before any connection;
2. after `tables` x 6 idle connections opened (each read its welcome);
3. after every table was created, its six bots joined and played
   `--commands` commands (default 40; the game is then mid-play), the bots
   connected and reading, no command in flight. Tables wait for a decision
   an hour long (the longest a live table's prompt may be), so none moves on.

`rss_per_table_kib` = (3 - 1) / tables, the table with its six connections;
`rss_per_table_own_kib` = (3 - 2) / tables; `rss_per_conn_idle_kib` =
(2 - 1) / connections; `tasks_per_table` = trio tasks at 3 less at 1, per
table; `gc_objects_per_table` the same for the objects the cyclic collector
tracks (and walks at each full collection); `gc_full_ms` how long a full
collection takes at 1, 2 and 3. With `--trace` the server also runs
tracemalloc (which slows it and adds its own memory to RSS) and the script
prints the allocation sites that grew most between 1 and 3, per table.

    python bench/memory.py               # 100 tables, about 10 seconds
    python bench/memory.py --quick       # 20 tables
    python bench/memory.py --trace 20    # the top 20 allocation sites too

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import pickle
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import _server_main
import server as S  # bench/server.py, beside this script
import trio

HERE = os.path.dirname(os.path.abspath(__file__))
# The longest prompt a live table may have: no table moves on by its clock
# while the memory is read.
WAITING_TIMERS = {**S.BOT_TIMERS, "prompt_ms": 3_600_000}


# -- the server side (--serve) -------------------------------------------------------------

def _count_tasks() -> int:
    """Every task of the trio run, from its root down."""
    import trio.lowlevel as lowlevel

    count = 0
    stack = [lowlevel.current_root_task()]
    while stack:
        task = stack.pop()
        if task is None:
            continue
        count += 1
        for nursery in task.child_nurseries:
            stack.extend(nursery.child_tasks)
    return count


def _sqlite_kib() -> tuple[float, float]:
    """What SQLite's own allocator holds (its page caches, statements), and
    of it its page caches, KiB."""
    import ctypes

    try:
        lib = ctypes.CDLL("libsqlite3.so.0")
    except OSError:
        return float("nan"), float("nan")
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    current, highest = ctypes.c_int64(), ctypes.c_int64()
    lib.sqlite3_status64(2, ctypes.byref(current), ctypes.byref(highest), 0)  # SQLITE_STATUS_PAGECACHE_OVERFLOW
    return float(lib.sqlite3_memory_used()) / 1024, current.value / 1024


def _malloc_kib() -> float:
    """What glibc's malloc has handed out and not had back (`mallinfo2`), KiB."""
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in
                    ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                     "fordblks", "keepcost")]
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return float("nan")
    mallinfo2.restype = MallInfo2
    info = mallinfo2()
    return float(info.uordblks + info.hblkhd) / 1024


def _settle(out: str) -> None:
    """SIGHUP: a full collection, free heap back to the system, then
    `out` written (JSON: the task count; the snapshot beside it when tracing)."""
    import _server_main

    tasks = _count_tasks()
    gc.collect()
    # What a full collection walks now (what start-up froze it never walks),
    # and how long the walk takes with nothing to free: the pause a full
    # collection puts on every table.
    gc_objects = len(gc.get_objects())
    t0 = time.perf_counter()
    gc.collect()
    gc_full_ms = (time.perf_counter() - t0) * 1000
    if tracemalloc.is_tracing():
        snapshot = tracemalloc.take_snapshot()
        with open(out + ".snapshot", "wb") as f:
            pickle.dump(snapshot, f)
    _server_main.settle(out + ".tmp")
    with open(out + ".tmp", "w") as f:
        sqlite_kib, sqlite_cache_kib = _sqlite_kib()
        json.dump({"tasks": tasks, "sqlite_kib": sqlite_kib, "sqlite_cache_kib": sqlite_cache_kib,
                   "malloc_kib": _malloc_kib(), "pymalloc_blocks": sys.getallocatedblocks(), "gc_objects": gc_objects,
                   "gc_full_ms": gc_full_ms}, f)
    os.replace(out + ".tmp", out)


def serve(store: str, marker: str) -> int:  # pragma: no cover - runs in the child
    import _server_main

    if os.environ.get("ORIENTE_BENCH_TRACE"):
        tracemalloc.start(int(os.environ["ORIENTE_BENCH_TRACE"]))
    signal.signal(signal.SIGHUP, lambda signum, frame: _settle(marker))
    sys.argv = [sys.argv[0], store]
    return _server_main.main()


# -- the client side -----------------------------------------------------------------------

class Server:
    def __init__(self, tmp: str, trace_frames: int) -> None:
        self.marker = os.path.join(tmp, "settled.json")
        env = dict(os.environ)
        env.pop("ORIENTE_BENCH_TRACE", None)
        if trace_frames:
            env["ORIENTE_BENCH_TRACE"] = str(trace_frames)
        _server_main.compile_once()  # measured as a deployed server starts: from bytecode
        self.log = open(os.path.join(tmp, "server.log"), "wb")  # noqa: SIM115 -- the child writes to it
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve",
                                      os.path.join(tmp, "server.sqlite"), self.marker],
                                     stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL,
                                     env=env, cwd=HERE)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        try:
            self.port = int(line.split()[0])
        except (ValueError, IndexError):
            self.stop()
            raise RuntimeError(f"the server did not start; see {self.log.name}") from None

    def mappings(self) -> dict[str, int]:
        """VmRSS by kind of mapping (KiB): the heap, anonymous maps (pymalloc's
        arenas, malloc's other arenas and large blocks, thread stacks), files."""
        out = {"heap": 0, "anonymous": 0, "files": 0}
        kind = "anonymous"
        with open(f"/proc/{self.proc.pid}/smaps") as f:
            for line in f:
                if line[0] in "0123456789abcdef" and "-" in line.split(" ", 1)[0]:
                    words = line.split()
                    name = words[5] if len(words) > 5 else ""
                    kind = "heap" if name == "[heap]" else "files" if name.startswith("/") else "anonymous"
                elif line.startswith("Rss:"):
                    out[kind] += int(line.split()[1])
        return out

    async def settle(self) -> tuple[int, int, dict[str, Any], Any]:
        """(VmRSS before settling, after it, what the server counted, tracemalloc snapshot or None)."""
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.marker)
        before = S.rss_kib(self.proc.pid)
        self.proc.send_signal(signal.SIGHUP)
        with trio.fail_after(120):
            while not os.path.exists(self.marker):
                await trio.sleep(0.05)
        with open(self.marker) as f:
            tasks = json.load(f)
        snapshot = None
        if os.path.exists(self.marker + ".snapshot"):
            with open(self.marker + ".snapshot", "rb") as f:
                snapshot = pickle.load(f)  # written by the child just now
        return before, S.rss_kib(self.proc.pid), tasks, snapshot

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class CountingBot(S.Bot):
    """bench/server.py's bot, but its table stops after `limit` commands."""

    limit = 0

    async def maybe_act(self, p: Any) -> None:
        group: Any = self.group
        if group.commands >= self.limit:
            group.done.set()
            return
        before = group.tally.commands
        await super().maybe_act(p)
        if group.tally.commands > before:
            group.commands += 1
            if group.commands >= self.limit:
                group.done.set()


async def seat_and_play(group: Any) -> None:
    """Create a table with an hour-long prompt, seat the six bots, play
    until the table's commands reach the limit (or the game ends)."""
    host = group.bots[0]
    reply = await host.request({"t": "create_table", "seats": S.SEATS, "name": f"memory {group.index}",
                                "seed": group.rng.getrandbits(63), "timers": WAITING_TIMERS})
    if reply.t != "ok" or reply.table is None:
        raise RuntimeError(f"create_table refused: {reply.code}")
    group.new_table(reply.table)
    async with trio.open_nursery() as nursery:
        for bot in group.bots:
            nursery.start_soon(bot.join, reply.table)
    with trio.move_on_after(S.GAME_GUARD_S):
        async with trio.open_nursery() as either:
            async def done() -> None:
                await group.done.wait()
                either.cancel_scope.cancel()

            async def over() -> None:
                await group.game_over.wait()
                either.cancel_scope.cancel()
            either.start_soon(done)
            either.start_soon(over)


def top_sites(before: Any, after: Any, top: int, tables: int) -> list[dict[str, Any]]:
    """The allocation sites (file:line) that grew most from `before` to `after`."""
    keep = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen *>")]
    stats = after.filter_traces(keep).compare_to(before.filter_traces(keep), "lineno")
    out = []
    for s in stats[:top]:
        frame = s.traceback[0]
        name = frame.filename
        for marker in ("site-packages/", "/src/", "/lib/python"):
            if marker in name:
                name = name.split(marker, 1)[1]
                break
        out.append({"site": f"{name}:{frame.lineno}", "kib_per_table": s.size_diff / 1024 / tables,
                    "blocks_per_table": s.count_diff / tables})
    return out


def by_file(before: Any, after: Any, tables: int) -> list[tuple[str, float]]:
    stats = after.compare_to(before, "filename")
    return [(s.traceback[0].filename, s.size_diff / 1024 / tables) for s in stats[:25]]


async def run(args: argparse.Namespace, tmp: str) -> dict[str, Any]:
    server = Server(tmp, args.trace_frames if args.trace else 0)
    try:
        tally = S.Tally()
        rng = random.Random(args.seed)
        _, rss0, tasks0, snap0 = await server.settle()
        maps0 = server.mappings()
        CountingBot.limit = args.commands
        async with trio.open_nursery() as nursery:
            groups = [S.Group(i, random.Random(rng.getrandbits(64)), tally, None) for i in range(args.tables)]
            limiter = trio.CapacityLimiter(32)

            async def open_one(bot: S.Bot) -> None:
                async with limiter:
                    await nursery.start(bot.run)

            async with trio.open_nursery() as opening:
                for g in groups:
                    g.commands = 0  # type: ignore[attr-defined]
                    g.done = trio.Event()  # type: ignore[attr-defined]
                    g.bots = [CountingBot(g, i, "lean", server.port) for i in range(S.SEATS)]
                    for bot in g.bots:
                        opening.start_soon(open_one, bot)
            _, rss1, tasks1, snap1 = await server.settle()
            maps1 = server.mappings()
            async with trio.open_nursery() as playing:
                for g in groups:
                    playing.start_soon(seat_and_play, g)
            await trio.sleep(0.5)  # the last frames out, the last answers read
            live2, rss2, tasks2, snap2 = await server.settle()
            maps2 = server.mappings()
            S.close_bots(groups)
            nursery.cancel_scope.deadline = trio.current_time() + S.CLOSE_GRACE_S
    finally:
        server.stop()
    n = args.tables
    conns = n * S.SEATS
    result: dict[str, Any] = {
        "tables": n,
        "commands_per_table": args.commands,
        "games_ended": tally.games,
        "rss_kib": [rss0, rss1, rss2],
        "rss_per_table_kib": (rss2 - rss0) / n,
        "rss_per_table_own_kib": (rss2 - rss1) / n,
        "rss_per_conn_idle_kib": (rss1 - rss0) / conns,
        "rss_per_table_unsettled_kib": (live2 - rss0) / n,
        "tasks_per_table": (tasks2["tasks"] - tasks0["tasks"]) / n,
        "tasks_per_conn_idle": (tasks1["tasks"] - tasks0["tasks"]) / conns,
        "sqlite_kib_per_table": (tasks2["sqlite_kib"] - tasks0["sqlite_kib"]) / n,
        "sqlite_cache_kib_per_table": (tasks2["sqlite_cache_kib"] - tasks0["sqlite_cache_kib"]) / n,
        "malloc_kib_per_table": (tasks2["malloc_kib"] - tasks0["malloc_kib"]) / n,
        "malloc_kib_per_conn_idle": (tasks1["malloc_kib"] - tasks0["malloc_kib"]) / conns,
        "pymalloc_blocks_per_table": (tasks2["pymalloc_blocks"] - tasks0["pymalloc_blocks"]) / n,
        "gc_objects_per_table": (tasks2["gc_objects"] - tasks0["gc_objects"]) / n,
        "gc_objects_per_conn_idle": (tasks1["gc_objects"] - tasks0["gc_objects"]) / conns,
        "gc_full_ms": [round(t["gc_full_ms"], 2) for t in (tasks0, tasks1, tasks2)],
        "traced": bool(args.trace),
        "rss_per_table_by_mapping_kib": {k: (maps2[k] - maps0[k]) / n for k in maps0},
        "rss_per_table_own_by_mapping_kib": {k: (maps2[k] - maps1[k]) / n for k in maps0},
    }
    if args.trace and snap0 is not None and snap1 is not None and snap2 is not None:
        result["top_sites"] = top_sites(snap0, snap2, args.trace, n)
        result["top_sites_conn_idle"] = top_sites(snap0, snap1, args.trace, conns)
        result["top_sites_own"] = top_sites(snap1, snap2, args.trace, n)
        result["by_file"] = by_file(snap0, snap2, n)
        result["traced_kib_per_table_own"] = sum(s.size_diff for s in snap2.compare_to(snap1, "filename")) / 1024 / n
        result["traced_kib_per_table"] = sum(s.size_diff for s in snap2.compare_to(snap0, "filename")) / 1024 / n
        result["traced_kib_per_conn_idle"] = (sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
                                              / 1024 / conns)
    return result


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:
        return serve(argv[1], argv[2])
    p = argparse.ArgumentParser(description="Memory per live table with its six connections, on a settled heap.")
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--quick", action="store_true", help="20 tables")
    p.add_argument("--commands", type=int, default=40, help="commands each table plays before the reading")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--trace", type=int, default=0, metavar="TOP",
                   help="run the server under tracemalloc and print the TOP allocation sites")
    p.add_argument("--trace-frames", type=int, default=1, help="frames kept per traced allocation")
    p.add_argument("--accounts", action="store_true",
                   help="every bot signs in with an account of its own before it joins (bench/server.py --accounts)")
    args = p.parse_args(argv)
    if args.quick:
        args.tables = 20
    S.SIGNED_IN = args.accounts
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="oriente-memory-") as tmp:
        if args.accounts:
            S.seed_accounts(os.path.join(tmp, "server.sqlite"), args.tables)
        r = trio.run(run, args, tmp)
    print(f"{r['tables']} tables x {S.SEATS} connections, {r['commands_per_table']} commands each "
          f"({r['games_ended']} games ended), {time.perf_counter() - t0:.0f} s; "
          f"{'traced' if r['traced'] else 'untraced'} server")
    print(f"  VmRSS settled: {r['rss_kib'][0]} KiB before, {r['rss_kib'][1]} KiB with the idle connections, "
          f"{r['rss_kib'][2]} KiB with the tables")
    print(f"  per table with its six connections {r['rss_per_table_kib']:.1f} KiB "
          f"(before settling {r['rss_per_table_unsettled_kib']:.1f}), "
          f"without them {r['rss_per_table_own_kib']:.1f} KiB; "
          f"per idle connection {r['rss_per_conn_idle_kib']:.1f} KiB")
    print(f"  trio tasks: {r['tasks_per_conn_idle']:.2f} per idle connection, {r['tasks_per_table']:.2f} per table "
          "with its connections")
    print(f"  malloc in use: {r['malloc_kib_per_table']:.1f} KiB per table, {r['malloc_kib_per_conn_idle']:.1f} per "
          f"idle connection; SQLite's allocator {r['sqlite_kib_per_table']:.1f} KiB per table "
          f"({r['sqlite_cache_kib_per_table']:.1f} of it page cache); "
          f"{r['pymalloc_blocks_per_table']:.0f} Python blocks per table")
    print(f"  objects the collector tracks: {r['gc_objects_per_table']:.0f} per table with its connections, "
          f"{r['gc_objects_per_conn_idle']:.0f} per idle connection; a full collection "
          + " / ".join(f"{ms:.1f}" for ms in r["gc_full_ms"]) + " ms (before, idle connections, tables)")
    print("  VmRSS per table by mapping (KiB; with connections / without): "
          + ", ".join(f"{k} {v:.1f} / {r['rss_per_table_own_by_mapping_kib'][k]:.1f}"
                      for k, v in r["rss_per_table_by_mapping_kib"].items()))
    if "top_sites" in r:
        print(f"  traced: {r['traced_kib_per_table']:.1f} KiB per table with its connections, "
              f"{r['traced_kib_per_table_own']:.1f} without them, {r['traced_kib_per_conn_idle']:.1f} KiB "
              "per idle connection; by file (KiB per table):")
        for name, kib in r["by_file"]:
            print(f"    {kib:8.2f}  {name}")
        for key, what in (("top_sites", "per table with its connections"),
                          ("top_sites_conn_idle", "per idle connection"),
                          ("top_sites_own", "per table without its connections")):
            print(f"  allocation sites, KiB and blocks {what}:")
            for s in r[key]:
                print(f"    {s['kib_per_table']:8.2f} {s['blocks_per_table']:8.1f}  {s['site']}")
    print(json.dumps({"bench": "memory", "python": platform.python_version(), "accounts": args.accounts,
                      **{k: (round(v, 2) if isinstance(v, float) else v) for k, v in r.items()
                         if k not in ("by_file", "top_sites_conn_idle", "top_sites_own")}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
