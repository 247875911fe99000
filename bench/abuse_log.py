"""The log attack, measured: a companion of bench/abuse.py.

    python bench/abuse_log.py [--seconds 8]

The server runs in its own process (bench/_server_main.py) on a fresh
SQLite store; the attacker and three quiet seats connect over loopback.

`log_attack`: a seated connection alternates
`ProposeDeal` and `WithdrawDeal` as fast as the server answers, and the
server's memory (RSS) and its store (the SQLite file and its WAL) are
measured over the run, in MiB/s. Three variants, in the same run:

- `issue`: the attack as it was measured before the limits (40 promises of
  480 characters, 30 KB command ids; then 12 MiB/s of memory and 9.6 MiB/s
  of store). Its ids are now refused as `message/invalid`, which are
  strikes: the connection is closed after 50.
- `revision2`: the same proposals, with ids of 64 characters, at a table of
  rules revision 2 (no R8.7): only the table's 4 MiB soft cap on its log
  stops it (`table/log_full`).
- `limited`: the strongest the limits allow at a new table: proposals
  holding 2,000 characters of text, 64-character ids; R8.7 refuses the
  41st proposal of the season, and chat at its rate limit adds the rest.

The last line is one JSON object; `log_attack_rss_mib_s` and
`log_attack_store_mib_s` are the `limited` variant's figures (what an
attacker can still do), the others are named after their variant.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import _server_main
import msgpack
from websockets.sync.client import connect

HERE = os.path.dirname(os.path.abspath(__file__))
MIB = 1024 * 1024
SLOW = {"prompt_ms": 3_600_000, "window_ms": 600_000, "bank_ms": 0, "bank_refill_ms": 0,
        "zero_wait": False, "away_after": 100}


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def _store_size(path: str) -> int:
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


class Conn:
    """A blocking protocol client: `request` waits for the reply to its id."""

    def __init__(self, url: str) -> None:
        self.ws = connect(url, subprotocols=["oriente.v1"], max_size=2**24, compression=None)  # type: ignore[list-item]
        self.n = 0
        self.recv()  # welcome

    def recv(self) -> dict[str, Any]:
        return msgpack.unpackb(self.ws.recv(), raw=False)

    def request(self, message: dict[str, Any], cid: Any = None) -> dict[str, Any]:
        self.n += 1
        cid = cid if cid is not None else self.n
        self.ws.send(msgpack.packb({**message, "id": cid}, use_bin_type=True))
        while True:
            frame = self.recv()
            if frame.get("t") in ("ok", "error") and frame.get("re") in (cid, None):
                return frame
            if frame.get("t") == "goodbye":
                return frame

    def drain_forever(self) -> None:
        def run() -> None:
            try:
                while True:
                    self.ws.recv()
            except Exception:
                return
        threading.Thread(target=run, daemon=True).start()


def _table(url: str, options: dict[str, Any]) -> tuple[Conn, str, list[Conn]]:
    """A running four-seat table that waits an hour for each decision; the
    attacker holds seat 0, three quiet seats read everything."""
    admin = Conn(url)
    table = admin.request({"t": "create_table", "seats": 4, "timers": SLOW, "options": options})["table"]
    quiet = []
    for i in (1, 2, 3):
        c = Conn(url)
        assert c.request({"t": "join", "table": table, "name": f"quiet{i}", "seat": i})["t"] == "ok"
        c.drain_forever()
        quiet.append(c)
    attacker = Conn(url)
    assert attacker.request({"t": "join", "table": table, "name": "attacker", "seat": 0})["t"] == "ok"
    return attacker, table, quiet


def _proposal(table: str, parts: int, chars: int) -> dict[str, Any]:
    promises = [{"promiser": 0, "promisee": 1 + i % 3, "kind": "free", "text": "p" * chars} for i in range(parts)]
    return {"t": "act", "table": table, "cmd": {"type": "ProposeDeal", "transfers": [], "promises": promises}}


def log_attack(url: str, pid: int, store: str, variant: str, seconds: float) -> dict[str, Any]:
    """Alternate ProposeDeal and WithdrawDeal for `seconds`; MiB/s of server
    memory and of store, and what the server answered."""
    options = {"rules_revision": 2} if variant == "revision2" else {}
    attacker, table, _quiet = _table(url, options)
    if variant == "issue":
        proposal, id_len = _proposal(table, 40, 480), 30_000
    elif variant == "revision2":
        proposal, id_len = _proposal(table, 40, 480), 64
    else:
        proposal, id_len = _proposal(table, 4, 500), 64  # 2,000 characters: R8.7's most
    answers: dict[str, int] = {}
    rss0, store0, t0 = _rss(pid), _store_size(store), time.monotonic()
    k = deals = 0
    chat_next = 0.0
    while time.monotonic() - t0 < seconds:
        k += 1
        reply = attacker.request(proposal, cid=str(k).rjust(id_len, "0"))
        code = str(reply.get("code", reply.get("t")))
        answers[code] = answers.get(code, 0) + 1
        if reply.get("t") == "goodbye":
            break
        if reply.get("t") == "ok":
            deals += 1  # deals are numbered 1, 2, ... at a table where only we propose
            back = attacker.request({"t": "act", "table": table, "cmd": {"type": "WithdrawDeal", "deal": deals}})
            key = "withdraw:" + back.get("code", back["t"])
            answers[key] = answers.get(key, 0) + 1
        elif variant == "limited" and time.monotonic() >= chat_next:
            chat = attacker.request({"t": "chat", "table": table, "text": "c" * 500})
            answers["chat:" + chat.get("code", chat["t"])] = answers.get("chat:" + chat.get("code", chat["t"]), 0) + 1
            chat_next = time.monotonic() + (0.0 if chat["t"] == "ok" else 0.5)
    elapsed = time.monotonic() - t0
    time.sleep(0.5)  # the last batch reaches the file
    rss1, store1 = _rss(pid), _store_size(store)
    return {"variant": variant, "seconds": round(elapsed, 2),
            "rss_mib_s": round((rss1 - rss0) / MIB / elapsed, 3),
            "store_mib_s": round((store1 - store0) / MIB / elapsed, 3),
            "store_mib": round((store1 - store0) / MIB, 2), "answers": answers}


def main(argv: list[str] | None = None) -> int:
    if os.environ.get("ORIENTE_BENCH_TRACE"):
        import faulthandler
        faulthandler.dump_traceback_later(float(os.environ["ORIENTE_BENCH_TRACE"]), exit=True)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=8.0)
    args = ap.parse_args(argv)
    results = []
    for variant in ("issue", "revision2", "limited"):
        with tempfile.TemporaryDirectory() as tmp:
            store = os.path.join(tmp, "store.sqlite")
            server, port, _ = _server_main.start(store, os.path.join(tmp, "server.log"))
            try:
                r = log_attack(f"ws://127.0.0.1:{port}", server.pid, store, variant, args.seconds)
            finally:
                server.terminate()
                server.wait(30)
        results.append(r)
        print(f"{variant:>10}: memory {r['rss_mib_s']:7.3f} MiB/s, store {r['store_mib_s']:7.3f} MiB/s "
              f"({r['store_mib']} MiB in {r['seconds']} s); answers {r['answers']}")
    by = {r["variant"]: r for r in results}
    print("before the limits (as first measured): memory 12 MiB/s, store 9.6 MiB/s")
    print(json.dumps({
        "log_attack_rss_mib_s": by["limited"]["rss_mib_s"], "log_attack_store_mib_s": by["limited"]["store_mib_s"],
        "log_attack_store_mib": by["limited"]["store_mib"],
        "issue_attack_rss_mib_s": by["issue"]["rss_mib_s"], "issue_attack_store_mib_s": by["issue"]["store_mib_s"],
        "revision2_attack_rss_mib_s": by["revision2"]["rss_mib_s"],
        "revision2_attack_store_mib_s": by["revision2"]["store_mib_s"],
        "revision2_attack_store_mib": by["revision2"]["store_mib"], "seconds": args.seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
