"""What the director keeps in memory for each tournament it directs, and
the small helpers every part of it shares."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from ...refusal import Refusal
from ..outbox import Outbox
from ..table import nonce_token
from ..tournament import Tournament, TournamentError

MAX_TOURNAMENTS = 1_000
THREAD_SEATING = 60  # entrants from which a round is seated in a worker thread
PUBLISH_S = 1.0  # full states go out at most this often per tournament
SHOWN_ROUNDS = 3  # an arena's finished seatings a full state shows (the export has them all)


class DirectorError(Refusal):
    """A tournament request refused (`tournament/...`): not a strike (PROTOCOL.md 21)."""


@dataclass(slots=True)
class Live:
    """What the director keeps in memory for one tournament beside its
    stored state: its secret (seat tokens), who follows it, who waits in
    the arena. Its seed key is `t.seed_key` (stored beside the secret)."""

    t: Tournament
    secret: str
    lock: trio.Lock = field(default_factory=trio.Lock)
    watchers: dict[Outbox, Watcher] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)  # arena: entrants waiting, longest first
    running: set[str] = field(default_factory=set)  # server tables with a task watching them
    changed: trio.Event = field(default_factory=trio.Event)  # wakes the publisher
    stirred: trio.Event = field(default_factory=trio.Event)  # set (and renewed) at each change: wakes waiting tables
    ready: set[str] = field(default_factory=set)  # tables whose seats are reserved: told to their entrants
    held: dict[str, bool] = field(default_factory=dict)  # board tables' withheld state, as last stored
    nursery: trio.Nursery | None = None  # its tasks: cancelled together when the tournament goes elsewhere

    def spawn(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run a task of this tournament's (cancelled with its others)."""
        assert self.nursery is not None
        self.nursery.start_soon(fn, *args)

    def following(self) -> set[str]:
        """The entrants that follow the tournament now."""
        return {w.entrant for w in self.watchers.values() if w.entrant is not None}

    def seat_token(self, table_id: str, seat: int) -> str:
        """The seat token of an entrant's seat, derived from the tournament's
        secret: handed out again after a restart without being stored."""
        nonce = hmac.new(self.secret.encode(), f"{table_id}\0{seat}".encode(), hashlib.sha256).hexdigest()[:40]
        return nonce_token(table_id, nonce)


@dataclass(slots=True)
class Watcher:
    """One follower: an entrant (or a viewer: None); `full` frames carry the
    whole public state, brief ones only what the entrant needs to play."""

    entrant: str | None
    full: bool
    shown: Any = None  # the brief state it was sent last


def attempt(change: Callable[[], Any]) -> Any:
    """A change of the pure tournament; its refusal as the director's."""
    try:
        return change()
    except TournamentError as exc:
        raise DirectorError(exc.code, exc.message) from None


async def first_of(events: list[trio.Event], deadline: float) -> None:
    """Wait until one of `events` is set, or `deadline` (trio time) passes."""
    with trio.move_on_at(deadline):
        async with trio.open_nursery() as nursery:
            async def wake(event: trio.Event) -> None:
                await event.wait()
                nursery.cancel_scope.cancel()

            for event in events:
                nursery.start_soon(wake, event)
