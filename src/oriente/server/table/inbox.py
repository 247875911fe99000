"""The table's inbox vocabulary beside the protocol's own messages: what
the server's parts (the transport, the lobby, the bots, the tournament
director) send a table actor. No client sends these: the transport only
passes on the protocol's messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import trio

from ...protocol import messages as M
from ...refusal import Refusal
from ..outbox import Outbox


class Refused(Refusal):
    """A table message refused before anything changed: its sender gets the
    code and the message as an error, and the table goes on."""


@dataclass(frozen=True, slots=True)
class Disconnected:
    outbox: Outbox


# Messages from the server's own parts, never from a client: the transport
# only passes on the protocol's messages.

@dataclass(frozen=True, slots=True)
class AccountResume:
    """A `resume` without a token from a connection signed in to an
    account: the seat that account holds at the table (PROTOCOL.md 3,
    resume), taken again from any device the account signs in on."""

    resume: M.Resume
    account: str

    @property
    def id(self) -> Any:
        """The resume's id, which a refusal answers."""
        return self.resume.id

    @property
    def after(self) -> int | None:
        return self.resume.after

    @property
    def views(self) -> bool:
        return self.resume.views

    @property
    def nonce(self) -> str | None:
        return self.resume.nonce


@dataclass(frozen=True, slots=True)
class AccountJoin:
    """A join from a connection signed in to an account: the transport
    passes the account's card (accounts.card) with the client's join."""

    join: M.Join
    account: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PreCommitJoin:
    """A join whose nonce reached the server before the table's commitment
    existed (the request that created a rematch without one committed in
    advance): the nonce makes the join safe to retry, but is not the
    seat's share of the seed, since the server could have drawn the salt
    knowing it. The server supplies that seat's nonce (docs/table.md T7.4)."""

    join: M.Join | AccountJoin


@dataclass(frozen=True, slots=True)
class SeatBot:
    """Seat one of the server's bots (`server/bots.py`): a join whose seat
    the server owns, stored with the table so that a restarted server runs
    the bot again. `seat` None takes the first free seat."""

    id: str
    name: str
    policy: str
    seat: int | None = None
    views: bool = True


@dataclass(frozen=True, slots=True)
class ResumeBot:
    """After a restart, the server's bot at `seat` takes its frames again
    (no token: only the server can hold a bot's seat)."""

    id: str
    seat: int
    views: bool = True
    after: int | None = None


@dataclass(frozen=True, slots=True)
class Reserve:
    """Hold `seat` for a named player who will come with the token whose
    hash is `token_hash` (the tournament director seats its entrants so):
    a seat taken like a join's, with nobody connected yet."""

    seat: int
    name: str
    token_hash: str
    account: dict[str, Any] | None = None  # the entrant's account card, when its entry is an account's


@dataclass(frozen=True, slots=True)
class Begin:
    """Start a full table that does not start by itself, on behalf of the
    server (the tournament director); the `proxied` seats are played by
    the seat proxy from the start (T3: their players did not come)."""

    proxied: list[int]


@dataclass(frozen=True, slots=True)
class OfferRematch:
    """Tell this ended table's viewers that `table` is its rematch, asked
    for by `seat` (RematchOffered)."""

    table: str
    seat: int


@dataclass(frozen=True, slots=True)
class Abandon:
    """From the lobby, which needs room (docs/table.md T6.3): abandon this
    table now if it is still open and unattended; `done` is set either way."""

    done: trio.Event


@dataclass(frozen=True, slots=True)
class Dismiss:
    """From the tournament director, which seated this table's round again:
    if the table is still open, it ends here and the store calls it
    abandoned; its viewers are not told (its seats were never played)."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop the actor. With `hand_over` (another process of the site takes
    the table on), its viewers are told the table `moved` (to `url`) first."""

    hand_over: bool = False
    url: str | None = None


@dataclass(frozen=True, slots=True)
class CatchUp:
    """The first message of a restored table to itself (`Table.restore`):
    log the seats its store held but its log did not yet show, and start it
    if it is full and starts by itself (the server stopped in between)."""


async def next_message(inbox: trio.MemoryReceiveChannel[Any], deadline: float) -> tuple[Outbox | None, Any]:
    """The actor's next message from its inbox, or (None, None) once
    `deadline` passes first. A message already queued is taken without
    arming a cancel scope (which cost as much as a small step), but only
    while the deadline is still ahead: a deadline that has passed applies
    before any message that waited behind it, as it always did."""
    if trio.current_time() < deadline:
        try:
            item: tuple[Outbox | None, Any] = inbox.receive_nowait()
        except trio.WouldBlock:
            pass
        else:
            await trio.lowlevel.cancel_shielded_checkpoint()  # as `receive` does: others run between messages
            return item
    with trio.move_on_at(deadline):
        received: tuple[Outbox | None, Any] = await inbox.receive()
        return received
    return None, None
