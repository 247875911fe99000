"""The page's check of a finished table's cards (clients/web/src/verify.js,
docs/table.md T7), run by Node on records the server wrote, against what
the Python verifier says of them: the record is held to the commitment the
page saw before its seat brought its nonce, each nonce the server supplied
must be the one its salt fixes, and a record where no seat brought a nonce
of its own is said to be the server's choice. Skips without Node.js,
except in CI, where it fails."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

from oriente.fairplay import dealing
from oriente.fairplay.verify import SERVERS_CHOICE, verify_record
from oriente.server.games import PORTS

from ..test_cli import _served_record
from .nodejs import node_for

WEB = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "web"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

SCRIPT = """
import { readFileSync } from "node:fs";
globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
const { checkRecord } = await import("%(verify)s");
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const [record, join] of cases) out.push(await checkRecord(record, join));
process.stdout.write(JSON.stringify(out));
"""


def _node() -> str:
    return node_for(WEB, ("preact",), "the page's verifier")


def test_the_page_checks_a_record_against_what_it_saw_live(tmp_path: Path) -> None:
    node = _node()
    nonces = ["n" * 20 + str(i) for i in range(3)] + [None]
    honest = _served_record(nonces)
    shown = honest["commitment"]["sha256"]
    mine = {"seat": 1, "nonce": nonces[1], "commitment": shown}
    chosen = copy.deepcopy(honest)
    chosen["commitment"]["nonces"][3] = dealing.server_nonce()  # a supplied nonce the server picked
    nobody = _served_record([None] * 4)
    old = json.loads((FIXTURES / "record_reveal_v1.json").read_text())
    cases: list[tuple[dict[str, Any], dict[str, Any] | None]] = [
        (honest, mine),
        (honest, {**mine, "commitment": "ab" * 32}),  # a record rewritten after the page saw another
        (honest, {**mine, "nonce": "x" * 20}),
        (honest, None),
        (chosen, mine),
        (nobody, None),
        (old, None),
    ]
    script = tmp_path / "verify.mjs"
    script.write_text(SCRIPT % {"verify": (WEB / "src" / "verify.js").as_uri()})
    run = subprocess.run([node, str(script)], input=json.dumps(cases), capture_output=True, text=True, timeout=120,
                         cwd=WEB)
    assert run.returncode == 0, run.stderr
    page = json.loads(run.stdout)
    ok, rewritten, not_mine, unseen, picked, servers, before = page
    assert ok == {**ok, "verifiable": True, "live": True, "commitment": True, "seed": True, "supplied": True,
                  "suppliedSeats": [3], "serversChoice": False, "mine": True}, ok
    assert rewritten["commitment"] is False and rewritten["live"] is True
    assert not_mine["mine"] is False and not_mine["commitment"] is True
    assert unseen["live"] is False and unseen["commitment"] is True and unseen["mine"] is None
    assert picked["supplied"] is False
    assert servers["serversChoice"] is True and servers["supplied"] is True
    assert before["supplied"] is None and before["commitment"] is True and before["seed"] is True
    # The Python verifier says the same of each.
    assert verify_record(honest, PORTS, commitment=shown, seat=1, nonce=nonces[1]).ok is True
    assert verify_record(honest, PORTS, commitment="ab" * 32).ok is False
    assert verify_record(chosen, PORTS).ok is False
    assert SERVERS_CHOICE in verify_record(nobody, PORTS).unproven
