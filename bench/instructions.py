"""The server's instructions per frame sent, on a fixed workload, under callgrind.

Wall-clock figures on a shared machine move more between runs than a change
of a few percent; instruction counts do not. This runs the server
(bench/_server_main.py, real SQLite store) under `valgrind --tool=callgrind`,
seats bench/server.py's bots at T tables (default 4) with seeds drawn from
`--seed`, plays one game at each to its end, and divides the instructions
the server executed meanwhile (all its threads; the counters are zeroed once
the bots are connected and dumped once the games ended) by the frames it
sent (its /metrics counter). Instructions leave out the kernel.

    python bench/instructions.py                 # about a minute or two
    python bench/instructions.py --quick         # one table
    python bench/instructions.py --accounts      # every bot signed in (bench/server.py --accounts)

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import _server_main
import server as bench
import trio


async def _games(pid: int, port: int, metrics_port: int, tables: int, seed: int) -> dict[str, float]:
    """Play one game at each table; the server's counters over the games."""
    tally = bench.Tally()
    async with trio.open_nursery() as nursery:
        groups = await bench.open_bots(nursery, "lean", port, tables, random.Random(seed), tally, None)
        subprocess.run(["callgrind_control", "--zero", str(pid)], check=True, capture_output=True)
        m0 = await bench.metrics(metrics_port)

        async def one(g: bench.Group) -> None:
            with trio.CancelScope() as scope:
                async with trio.open_nursery() as inner:
                    inner.start_soon(g.play)
                    await _first_game(g)
                    scope.cancel()

        async with trio.open_nursery() as play:
            for g in groups:
                play.start_soon(one, g)
        m1 = await bench.metrics(metrics_port)
        subprocess.run(["callgrind_control", "--dump", str(pid)], check=True, capture_output=True)
        bench.close_bots(groups)
        nursery.cancel_scope.deadline = trio.current_time() + bench.CLOSE_GRACE_S
    if tally.errors or tally.abandoned:
        print(f"  anomalies: errors {dict(tally.errors)}, abandoned {tally.abandoned}", file=sys.stderr)
    return {k: m1[k] - m0.get(k, 0.0) for k in m1} | {"commands": tally.commands}


async def _first_game(g: bench.Group) -> None:
    while g.table is None or not g.game_over.is_set():
        if g.table is not None:
            await g.game_over.wait()
        else:
            await trio.sleep(0.05)


def _dumped_instructions(out_prefix: str) -> int:
    """Ir of the dump callgrind_control asked for (the file named `.N`, all threads)."""
    total = 0
    for path in glob.glob(out_prefix + "*"):
        if re.search(r"\.\d+(-\d+)?$", path) is None:  # the final dump at exit: not the window
            continue
        with open(path) as f:
            for line in f:
                if line.startswith("summary:") or line.startswith("totals:"):
                    total += int(line.split()[1])
                    break
    return total


def one_run(tmp: str, tag: str, tables: int, seed: int) -> dict[str, float]:
    out = os.path.join(tmp, f"{tag}.callgrind")
    store = os.path.join(tmp, f"{tag}.sqlite")
    if bench.SIGNED_IN:
        bench.seed_accounts(store, tables)
    proc, port, metrics_port = _server_main.start(
        store, os.path.join(tmp, f"{tag}.log"), timeout=600.0,
        wrapper=["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"])
    try:
        got = trio.run(_games, proc.pid, port, metrics_port, tables, seed)
    finally:
        proc.terminate()
        try:
            proc.wait(120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    ir = _dumped_instructions(out)
    frames = got["oriente_frames_out_total"]
    return {"instructions": ir, "frames": frames, "commands": got["commands"],
            "per_frame": ir / frames if frames else float("nan")}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="one table: a smoke run of under a minute")
    p.add_argument("--tables", type=int, default=4, help="tables, one game each")
    p.add_argument("--seed", type=int, default=1, help="seed of the games and the bots")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--accounts", action="store_true",
                   help="every bot signs in with an account of its own before it joins (bench/server.py --accounts)")
    args = p.parse_args()
    bench.SIGNED_IN = args.accounts
    if args.quick:
        args.tables = 1
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind (with callgrind_control) is needed", file=sys.stderr)
        return 2
    runs = []
    with tempfile.TemporaryDirectory(prefix="oriente-ir-") as tmp:
        for n in range(args.rounds):
            r = one_run(tmp, f"r{n}", args.tables, args.seed)
            print(f"round {n + 1}: {r['instructions']:,} instructions, {r['frames']:g} frames, "
                  f"{r['commands']} commands: {r['per_frame']:,.0f} instructions per frame")
            runs.append(r)
    print(json.dumps({"tables": args.tables, "seed": args.seed, "accounts": args.accounts, "rounds": runs,
                      "per_frame": sorted(r["per_frame"] for r in runs)[len(runs) // 2]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
