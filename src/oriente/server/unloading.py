"""Tables out of memory, and the connections that still follow them.

A table's truth is its log in the store: an actor that leaves memory loses
nothing that `Table.restore` cannot rebuild. What the log does not hold is
who watches the table: the connections subscribed to it, each as a seat or
a spectator, with or without views. `Followers` keeps just that for a table
whose actor was let go (`Lobby.unload`), so that when the table is rebuilt
for a message (`Lobby.find`) the connections that followed it are its
viewers again and hear what follows (the players' chat after the game, a
rematch offered). A finished game thus costs the process a few hundred
bytes, not its actor, for as long as its players look at its end screen.

Followers are kept `keep_s` seconds after their table left memory (the
lobby's linger), then forgotten; a connection that closes is forgotten at
once (`forget`). Nothing here is logged or stored: a seat's presence after
the end is not news (PROTOCOL.md 9), and the process that restarts has no
connections to remember.
"""

from __future__ import annotations

from collections import OrderedDict

import trio

from .outbox import Outbox
from .table import Table
from .table.viewers import Viewer

# How many tables' followers are kept at most, oldest first out.
MAX_PARKED = 100_000


class Followers:
    """The connections that followed each table out of memory: by table id,
    each connection's viewer (a seat or SPECTATOR) and whether it wants views."""

    __slots__ = ("_parked", "keep_s", "max_parked")

    def __init__(self, keep_s: float, *, max_parked: int = MAX_PARKED) -> None:
        self.keep_s = keep_s
        self.max_parked = max_parked
        # table id -> (forgotten after this trio time, outbox -> (viewer, views))
        self._parked: OrderedDict[str, tuple[float, dict[Outbox, tuple[Viewer, bool]]]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._parked)

    def __contains__(self, table_id: str) -> bool:
        self._expire()
        return table_id in self._parked

    def park(self, table: Table) -> None:
        """Take the viewers of `table`, whose actor has stopped: they follow
        it while it is out of memory. A table nobody watches leaves nothing."""
        viewers = table.viewers
        followers = {o: (v, o in viewers.wants_views) for o, v in viewers.subscribers.items() if o.evicted is None}
        viewers.subscribers.clear()
        viewers.wants_views.clear()
        viewers.shown.clear()
        self._parked.pop(table.id, None)
        if followers:
            self._parked[table.id] = (trio.current_time() + self.keep_s, followers)
        self._expire()

    def attach(self, table: Table) -> None:
        """`table` is back in memory: whoever followed it watches it again,
        as before, and its seats count their connections (nothing logged)."""
        self._expire()
        parked = self._parked.pop(table.id, None)
        if parked is None:
            return
        for outbox, (viewer, views) in parked[1].items():
            if outbox.evicted is not None:
                continue
            table.viewers.watch(outbox, viewer, views)
            if isinstance(viewer, int) and 0 <= viewer < len(table.seats):
                table.seats.connect(viewer, +1)

    def forget(self, table_id: str, outbox: Outbox) -> None:
        """A connection follows the table no more (it closed)."""
        parked = self._parked.get(table_id)
        if parked is not None:
            parked[1].pop(outbox, None)
            if not parked[1]:
                del self._parked[table_id]

    def _expire(self) -> None:
        now = trio.current_time()
        while self._parked:
            table_id, (until, _) = next(iter(self._parked.items()))
            if until > now and len(self._parked) <= self.max_parked:
                break
            del self._parked[table_id]
