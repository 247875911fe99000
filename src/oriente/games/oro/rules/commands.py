"""Commands: everything a seat (or the table's clock) can ask of Oro's engine.

Small frozen values, keyword-only. Every command answers the open decision
it names (`decision`), so a late click is rejected deterministically
(`decision/closed`). Cards are named by island, never by copy: the three
cards of an island are identical (O1.3), and a copy's identity would tell
a viewer more than the table does (O8.7). A timeout is an ordinary
`Timeout` the table applies as seat `TABLE`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...kit.decisions import TABLE as TABLE  # the seat id of the table's own commands (timeouts)


@dataclass(frozen=True, slots=True, kw_only=True)
class GiveUp:
    """O2.2: the card of `island` a seat gives up to the display (sealed)."""

    decision: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Build:
    """O3.2: play a card of `island` (or a Kanaloa stone, O7.5) and put a
    bridge on the free `connection`."""

    decision: int
    connection: int
    island: int | None = None
    kanaloa: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Replace:
    """O3.3: play two matching cards — `islands` plus `kanaloa` stones
    (O7.5), two in all — and replace the opponent's bridge on `connection`.
    `islands` is kept sorted, so equal plays are equal commands."""

    decision: int
    connection: int
    islands: tuple[int, ...] = ()
    kanaloa: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.islands, (tuple, list)) and all(isinstance(i, int) for i in self.islands):
            object.__setattr__(self, "islands", tuple(sorted(self.islands)))


@dataclass(frozen=True, slots=True, kw_only=True)
class Discard:
    """O3.4: a card of `island` goes face down under the discard pile."""

    decision: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw:
    """O3.6: draw the display's card of `island`, or the deck's top card when
    `island` is None; ends the turn."""

    decision: int
    island: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn:
    """O3.7, O5.6: end a turn in which there is nothing to draw."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """O5.5: defer one's final turn while a seat with more points still owes its own."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Remove:
    """O4.5: the opponent's bridge (on `connection`) a relative majority removes."""

    decision: int
    connection: int


@dataclass(frozen=True, slots=True, kw_only=True)
class UseKu:
    """O7.6: look at `target`'s hand and take one card from it."""

    decision: int
    target: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Take:
    """O7.6: the card of `island` Ku takes from the target's hand."""

    decision: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class UsePele:
    """O7.7: take a card at random from every opponent, then give one back to each."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GiveBack:
    """O7.7: the card of `island` Pele gives back to the seat now served."""

    decision: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class UseLono:
    """O7.8: draw an extra card (display's `island`, or the deck's top when None)."""

    decision: int
    island: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeout:
    """The table's clock: the decision's pivot ran out of time (O8.4)."""

    decision: int
    pivot: int | None


Command = (
    GiveUp | Build | Replace | Discard | Draw | EndTurn | Pass | Remove | UseKu | Take | UsePele | GiveBack
    | UseLono | Timeout
)

# Commands a seat sends (everything but the table's Timeout).
SEAT_COMMANDS = (GiveUp, Build, Replace, Discard, Draw, EndTurn, Pass, Remove, UseKu, Take, UsePele,
                 GiveBack, UseLono)

