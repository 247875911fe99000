"""The word a person gave, said in the decision that keeps or breaks it (R8.6).

The game is dealt from a configured deck (R2.8): Aiko (seat 1) attacks
Benkei (seat 2); the person (seat 0) is asked to support. In the window
Benkei offers the person its treasure for the person's support of the
defender; the person accepts in the decision panel. In the support round
the promised answer is marked as the person's promise and every other
answer warns that it breaks it, with a note saying to whom the word was
given; the person keeps it and the ledger says kept.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.sync_api import expect
from websockets.exceptions import ConnectionClosed

from oriente.protocol.presets import preset

from . import scripted
from .test_deal_in_seconds import DEAL, sit_down

pytestmark = pytest.mark.browser

PERSON, ATTACKER, DEFENDER, OTHER = 0, 1, 2, 3
DEFENDERS_TREASURE = 49  # the configured deal's treasures go to seats 0-3 in order


async def buyer(port: int, table: str) -> None:
    """Benkei, the defender: in the fight's window, offers the person its
    treasure for the person's support of the defender, then says done;
    passes everything else."""
    with contextlib.suppress(ConnectionClosed):
        async with scripted.open_client(port) as ws:
            c = scripted.Client(ws)
            await c.recv()
            assert (await c.request({"t": "join", "table": table, "name": "Benkei", "seat": DEFENDER}))["t"] == "ok"
            asked: set = set()
            while True:
                f = await c.recv(timeout=120)
                if f["t"] != "events":
                    continue
                if any(e["type"] == "TableFinished" for e in f["events"]):
                    return
                prompt = f.get("prompt")
                if not prompt:
                    continue
                legal = prompt.get("legal", [])
                if prompt["kind"] == "window" and ("offer", prompt["id"]) not in asked:
                    asked.add(("offer", prompt["id"]))
                    await c.send({"t": "act", "table": table, "cmd": {
                        "type": "ProposeDeal", "note": "",
                        "transfers": [{"type": "Transfer", "card": DEFENDERS_TREASURE, "giver": DEFENDER,
                                       "receiver": PERSON, "consideration": "for your support of the defender"}],
                        "promises": [{"type": "Promise", "promiser": PERSON, "promisee": DEFENDER,
                                      "text": "I support the defender", "kind": "support", "attacker": ATTACKER,
                                      "defender": DEFENDER, "side": "defender", "cards": [], "by_season": None,
                                      "seat": None}]}})
                done = [cmd for cmd in legal if cmd["type"] == "Done"]
                if done and ("done", prompt["id"]) not in asked:
                    asked.add(("done", prompt["id"]))
                    await c.send({"t": "act", "table": table, "cmd": done[0]})
                key = (prompt["id"], prompt.get("pivot"))
                if prompt.get("pivot") == DEFENDER and key not in asked:
                    asked.add(key)
                    cmd = scripted.passer(prompt, DEFENDER)
                    if cmd is not None:
                        await c.send({"t": "act", "table": table, "cmd": cmd})


def test_the_support_round_marks_the_promised_answer_and_warns_on_the_others(server: Any, page: Any) -> None:
    table = server.call(lambda: scripted.create(server.port, seats=4, name="a promise kept", deal=DEAL,
                                                timers=preset("normal")))
    server.spawn(lambda: scripted.negotiator(server.port, table, ATTACKER, "Aiko", attack=DEFENDER))
    server.spawn(lambda: buyer(server.port, table))
    server.spawn(lambda: scripted.negotiator(server.port, table, OTHER, "Chiyo", side="attacker"))
    sit_down(page, server, table, "Luca")
    decision = page.locator(".decision")
    decision.get_by_role("button", name=re.compile(r"Pass \(do not claim\)")).click()  # the privilege round

    offer = decision.locator("li.offer")
    expect(offer).to_contain_text("from Benkei")
    offer.get_by_role("button", name="Accept", exact=True).click()
    expect(decision.locator("section.mydeals")).to_contain_text(re.compile(r"Deal #\d+ \(Benkei\): carried out"))

    # The support round (or its sealed early answer in the window): the promised side is marked.
    promised = decision.locator("button.choice.promised")
    expect(promised).to_contain_text("Support the defender (Benkei)")
    expect(promised).to_contain_text("your promise")
    expect(promised).not_to_contain_text("breaks your promise")
    for other in (decision.locator("button.choice.pass"), decision.get_by_role("button", name=re.compile("attacker"))):
        expect(other).to_contain_text("breaks your promise")
    expect(decision.locator(".promise-note")).to_contain_text(
        "You promised Benkei to support the defender in this fight")
    promised.click()
    expect(page.locator(".feed")).to_contain_text("supports the defender")
    page.get_by_role("tab", name=re.compile("Deals")).click()
    expect(page.locator(".ledger")).to_contain_text("kept")
    assert page.errors == []
