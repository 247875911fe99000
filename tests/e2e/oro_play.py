"""A random Oro player over a real socket, for the end-to-end tests: it
plays from its frames alone (the prompt's `legal`), one command at a time,
and keeps what it must across a reconnect.

A turn of Oro is one decision while the seat plays on (O8.3), so a player
cannot answer "once per decision" as an Oriente bot does: it sends one
command, waits for the reply, and decides again on the newest prompt.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .wsclient import Client


@dataclass
class Seat:
    """One seat's memory across connections: the last seq, every seq seen,
    the command in flight (resent with its id after a reconnect)."""

    seat: int
    rnd: random.Random
    early: float = 0.3  # how often it gives up its card early in the setup round (O8.2)
    seq: int = 0
    seqs: list[int] = field(default_factory=list)
    unacked: dict[str, Any] | None = None
    sent: int = 0
    prompt: dict[str, Any] | None = None

    def choose(self, table: str) -> dict[str, Any] | None:
        """A command for the newest prompt, or None: any legal command as
        the pivot (the end of the turn half of the time where it may end);
        sometimes an early, sealed give-up (O8.2)."""
        p = self.prompt
        if not p or not p.get("legal"):
            return None
        legal = p["legal"]
        if p["pivot"] != self.seat and (
                self.seat not in (p.get("early") or ()) or "sealed" in p or self.rnd.random() >= self.early):
            return None
        ending = [c for c in legal if c["type"] in ("Draw", "EndTurn")]
        cmd = self.rnd.choice(ending if ending and self.rnd.random() < 0.5 else legal)
        self.sent += 1
        return {"t": "act", "id": f"s{self.seat}-{self.sent}", "table": table, "cmd": cmd}

    def take(self, frame: dict[str, Any]) -> bool:
        """Note one frame; True once the table has finished."""
        if frame["t"] in ("ok", "error") and self.unacked is not None and frame.get("re") == self.unacked["id"]:
            if frame["t"] == "error":
                assert frame["code"] == "decision/closed", frame
            self.unacked = None
        if frame["t"] == "events":
            for e in frame["events"]:
                if e["seq"] > self.seq:
                    self.seqs.append(e["seq"])
                    self.seq = e["seq"]
            if not frame.get("history"):
                self.prompt = frame.get("prompt")
            return any(e["type"] == "TableFinished" for e in frame["events"])
        if frame["t"] == "snapshot":
            if self.seqs:  # a resume: its history came first, so nothing may be missing
                assert frame["seq"] == self.seq, "history then snapshot: nothing may be missing"
            self.seq = frame["seq"]  # a join: the table's events so far are not replayed
            self.prompt = frame.get("prompt")
        return False

    async def play(self, c: Client, table: str) -> None:
        """Play until the table finishes (ConnectionClosed if the server goes)."""
        while True:
            if self.unacked is None:
                self.unacked = self.choose(table)
                if self.unacked is not None:
                    await c.send(self.unacked)
            if self.take(await c.recv(timeout=30)):
                return
