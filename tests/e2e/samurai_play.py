"""A random Samurai player over a real socket, for the end-to-end tests: it
plays from its frames alone (the prompt's `legal`, and `choose` for the
tile choice), one command at a time, keeping what it must across a
reconnect (Oro's player, tests/e2e/oro_play.py, with Samurai's choice).

A turn of Samurai is one decision however many tiles it places (S7.1): the
player sends one command, waits for the reply, and decides again on the
newest prompt.
"""

from __future__ import annotations

from typing import Any

from .oro_play import Seat as OroSeat


class Seat(OroSeat):
    """`early`: how often it hands in its tile choice before it is the pivot
    (S7.2); `sealed` choices may be changed, and sometimes are."""

    def choose(self, table: str) -> dict[str, Any] | None:
        p = self.prompt
        if not p:
            return None
        if p["topic"] == "select":
            if self.seat in p["final"] or self.seat not in p["asked"]:
                return None
            if p["pivot"] != self.seat and ("sealed" in p or self.rnd.random() >= self.early):
                return None
            if p["pivot"] == self.seat and "sealed" in p:
                return None  # final at once when the seat became the pivot
            tiles = sorted(self.rnd.sample(p["choose"]["tiles"], p["choose"]["count"]))
            cmd: dict[str, Any] = {"type": "ChooseTiles", "decision": p["id"], "tiles": tiles}
        else:
            legal = p.get("legal")
            if not legal or p["pivot"] != self.seat:
                return None
            ending = [c for c in legal if c["type"] == "EndTurn"]
            cmd = self.rnd.choice(ending if ending and self.rnd.random() < 0.5 else legal)
        self.sent += 1
        return {"t": "act", "id": f"s{self.seat}-{self.sent}", "table": table, "cmd": cmd}
