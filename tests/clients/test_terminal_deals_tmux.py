"""A deal in seconds in the terminal client, as a person makes one in tmux.

The same fight as the page's test (tests/web/test_deal_in_seconds.py): a
real server (`oriente serve`), a configured deal (R2.8) in which seat 1
(Aiko) attacks the person (seat 0, a Daimyo) in season 1, the `normal`
timers (docs/table.md T1.8: a 45 s window), and scripted bots at seats 1
to 3. The person, in `oriente play`:

- sees the quick deals of the fight under the decision, pre-filled, and
  proposes the first with one command, `/offer 1`;
- sees Benkei decline it with a reason, in words;
- sees Chiyo's offer under the decision with the ways to answer it; asks
  for a counter-offer (`/counter N` puts the offer's terms on the input
  line), clears it, and accepts the offer;
- says /done; the window closes early and Chiyo supports the defender.

The time from the window's opening to the proposal is measured on the
server's clock, from a bot's frames (a window's prompt carries the time
left, `deadline_ms`), and reported; the steps are what is asserted.

And with the server's own bots (`/bots`, the default character): a bot's
offer, made by its policy from its own frames, reaches the person under
the decision; the person accepts it with `/accept N` and the bot keeps the
promise it was paid for.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import trio

from oriente.protocol.presets import preset

from ..web import scripted
from .test_terminal_tmux import (
    TMUX,
    Tmux,
    _oriente,
    server,  # noqa: F401  (the fixture: `oriente serve` on a free port)
)

pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (apt-get install tmux); this test drives `oriente play`")

FIRST = [25, 7, 18, 26, 27]  # the bonus card, then seats 0-3: Daimyo, Akindo, Nofu, Nofu
DEAL = {"deck": FIRST + [c for c in range(41) if c not in FIRST], "treasures": [41, 45, 49, 52], "stone_holder": 1}


def test_a_person_offers_the_prefilled_deal_and_answers_a_bots_offer_in_tmux(server: Any, tmp_path: Path,  # noqa: F811
                                                                            record_property: Any) -> None:
    url = server[0]
    port = int(url.rsplit(":", 1)[1])
    command = " ".join(shlex.quote(a) for a in [*_oriente(), "play", "--server", url, "--name", "Luca"])
    tmux = Tmux(command, tmp_path, size=(120, 45))
    log: list[dict] = []
    seen: dict[str, str] = {}

    async def scenario() -> None:
        table = await scripted.create(port, seats=4, name="deal in seconds", deal=DEAL, timers=preset("normal"))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(lambda: scripted.negotiator(port, table, 1, "Aiko", attack=0))
            nursery.start_soon(lambda: scripted.negotiator(port, table, 2, "Benkei", decline={"code": "worth_less"},
                                                           side="attacker", log=log))
            nursery.start_soon(lambda: scripted.negotiator(port, table, 3, "Chiyo", offer=(0, 41), side="defender"))
            await tmux.wait_for(r"ORIENTE lobby", 20)
            await tmux.type(f"join {table}")
            await tmux.wait_for(r"you are seat 0 \(Luca\)", 20)
            seen["quick"] = await tmux.wait_for(
                r"Quick deal /offer 1: My card for your support of the defender: Treasure 2 <-> seat 2 \(Benkei\)", 30)
            await tmux.type("/offer 1")  # the one step: the deal as listed
            seen["declined"] = await tmux.wait_for(
                r"declined by seat 2 \(Benkei\): what it gives is worth\s+less to them than what it asks", 20)
            offer = await tmux.wait_for(r"OFFER #(\d+) from seat 3 \(Chiyo\)", 20)
            seen["offer"] = offer
            number = re.search(r"OFFER #(\d+) from seat 3", offer).group(1)  # type: ignore[union-attr]
            await tmux.type(f"/counter {number}")
            seen["counter"] = await tmux.wait_for(
                rf"> /counter {number} give Treasure 2 to seat 3 for for my support of the defender; seat 3 supp", 10)
            await tmux.keys("C-u")
            await tmux.type(f"/accept {number}")
            seen["accepted"] = await tmux.wait_for(rf"Deal #{number} is carried out", 20)
            await tmux.type("/done")
            seen["supported"] = await tmux.wait_for(r"(?i)seat 3 \(Chiyo\) supports the defender", 30)
            await tmux.type("/quit")
            await tmux.wait_for(r"\[exited 0\]", 20)
            nursery.cancel_scope.cancel()

    try:
        trio.run(scenario)
    finally:
        tmux.kill()
        # The screens as the person saw them at each step, to look at.
        (tmp_path / "screens.txt").write_text("\n\n".join(f"== {k}\n{v}" for k, v in seen.items()), encoding="utf-8")
    assert all("Traceback" not in s for s in tmux.screens)
    told = [line for line in seen["declined"].splitlines() if "declined by" in line or "is declined" in line]
    assert told and not any("worth_less" in line or "code" in line for line in told), told
    assert "It is support of the defender, seat 0 (you)" in re.sub(r"\s+", " ", seen["offer"])
    # The time from the window's opening to the person's proposal, on the server's clock.
    frames = [f for f in log if f.get("t") == "events" and (f.get("prompt") or {}).get("kind") == "window"]
    proposed = next(f for f in frames if any(e["type"] == "DealProposed" and e["proposer"] == 0 for e in f["events"]))
    window_ms = preset("normal")["window_ms"]
    seconds = (window_ms - proposed["prompt"]["deadline_ms"]) / 1000
    record_property("seconds_to_propose", seconds)
    print(f"\nthe quick deal was proposed in the terminal {seconds:.1f} s after the window opened (server clock)")
    assert 0 <= seconds < window_ms / 1000
    # The window closed once the person said /done (R10.2b1), not by its clock.
    closed = next(f for f in log if f.get("t") == "events"
                  and any(e["type"] == "NegotiationClosed" for e in f["events"]))
    assert not any(e["type"] == "TimedOut" for e in closed["events"])
    assert frames[-1]["prompt"]["deadline_ms"] > 0


# The server's own bots (`/bots`, the default character) in a fight of
# their making: seat 3 holds the destiny stone and attacks the person at
# once; seats 1 and 2, asked to support, offer the person their support for
# its Treasure 2 (the same deal as tests/web/test_deal_in_seconds.py's).
BOTS_FIRST = [19, 30, 10, 3, 5]
BOTS_DEAL = {"deck": BOTS_FIRST + [c for c in range(41) if c not in BOTS_FIRST], "treasures": [41, 45, 49, 52],
             "stone_holder": 3}


def test_a_server_bots_offer_reaches_the_person_in_tmux_who_accepts_it(server: Any, tmp_path: Path) -> None:  # noqa: F811
    url = server[0]
    port = int(url.rsplit(":", 1)[1])
    command = " ".join(shlex.quote(a) for a in [*_oriente(), "play", "--server", url, "--name", "Luca"])
    tmux = Tmux(command, tmp_path, size=(120, 45))
    seen: dict[str, str] = {}

    async def scenario() -> None:
        table = await scripted.create(port, seats=4, name="a bot's offer", deal=BOTS_DEAL, timers=preset("normal"))
        await tmux.wait_for(r"ORIENTE lobby", 20)
        await tmux.type(f"join {table}")
        await tmux.wait_for(r"you are seat 0 \(Luca\)", 20)
        await tmux.type("/bots")  # the server's default character takes the three free seats
        offer = await tmux.wait_for(r"OFFER #(\d+) from seat 1 \(Aiko \(bot\)\)", 30)
        seen["offer"] = offer
        number = re.search(r"OFFER #(\d+) from seat 1", offer).group(1)  # type: ignore[union-attr]
        await tmux.type(f"/accept {number}")
        seen["accepted"] = await tmux.wait_for(rf"Deal #{number} is carried out", 20)
        await tmux.type("/done")
        seen["supported"] = await tmux.wait_for(r"(?i)seat 1 \(Aiko \(bot\)\) supports the defender", 30)
        await tmux.type("/quit")
        await tmux.wait_for(r"\[exited 0\]", 20)

    try:
        trio.run(scenario)
    finally:
        tmux.kill()
        (tmp_path / "screens.txt").write_text("\n\n".join(f"== {k}\n{v}" for k, v in seen.items()), encoding="utf-8")
    assert all("Traceback" not in s for s in tmux.screens)
    assert "It is support of the defender, seat 0 (you)" in re.sub(r"\s+", " ", seen["offer"])
