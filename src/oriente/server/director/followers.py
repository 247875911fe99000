"""Who follows each tournament, and what they are sent: brief frames at
once when an entrant's own table changes, the full public state at most
once every PUBLISH_S (PROTOCOL.md 21, `tournament_watch`)."""

from __future__ import annotations

from typing import Any

import trio

from ...protocol.codec import encode
from ..lobby import Lobby
from ..outbox import Outbox
from . import reports
from .live import PUBLISH_S, Live, Watcher


class Followers:
    """The watchers of the tournaments in `lives` (the director's, by id)."""

    def __init__(self, lobby: Lobby, lives: dict[str, Live]) -> None:
        self.lobby = lobby
        self.lives = lives

    def watch(self, live: Live, outbox: Outbox, entrant: str | None, full: bool) -> None:
        live.watchers[outbox] = Watcher(entrant=entrant, full=full or entrant is None)

    def frame_for(self, live: Live, outbox: Outbox) -> dict[str, Any]:
        """The state a watcher gets now (the first frame after watching)."""
        w = live.watchers[outbox]
        if w.full:
            return reports.public(live, self.lobby, w.entrant)
        w.shown = reports.brief(live, self.lobby, w.entrant)
        return w.shown

    def unwatch(self, outbox: Outbox) -> None:
        """A connection has gone: it follows nothing, and an entrant that no
        connection follows any more waits in no arena."""
        for live in self.lives.values():
            w = live.watchers.pop(outbox, None)
            entrant = w.entrant if w is not None else None
            if entrant and entrant in live.waiting and not live.t.entrants[entrant].policy and \
                    entrant not in live.following():
                live.waiting.remove(entrant)

    def broadcast(self, live: Live) -> None:
        """Tell the brief watchers whose state changed at once; wake the
        publisher for the full ones, and whoever waits on the tournament."""
        for outbox, w in list(live.watchers.items()):
            if w.full:
                continue
            state = reports.brief(live, self.lobby, w.entrant)
            if state != w.shown:
                w.shown = state
                if not outbox.put(encode({"t": "tournament", "tournament": live.t.id, "state": state})):
                    live.watchers.pop(outbox, None)
        live.changed.set()
        live.stirred.set()
        live.stirred = trio.Event()

    async def publisher(self, live: Live) -> None:
        """Send the full state to its watchers after a change, at most once
        every PUBLISH_S: a busy event's standings move with every game."""
        while True:
            await live.changed.wait()
            live.changed = trio.Event()
            full = [(o, w) for o, w in live.watchers.items() if w.full]
            if full:
                base = reports.public(live, self.lobby)
                for outbox, w in full:
                    state = base if w.entrant is None else {
                        **base, "you": {"entrant": w.entrant, **reports.next_table(live, self.lobby, w.entrant)}}
                    if not outbox.put(encode({"t": "tournament", "tournament": live.t.id, "state": state})):
                        live.watchers.pop(outbox, None)
            await trio.sleep(PUBLISH_S)
