"""Events: what happened in an Oro game, recorded once with full detail.

An event may name cards some viewers must not know (a card drawn from the
deck, a face-down discard, what Ku saw). It never leaves the engine as is:
`views.project(event, viewer)` is the one gate. Cards are islands (O1.3);
`None` for a card means "no card", hiding is the gate's job. Connections
and islands are indices into the board (board.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...kit.plain import ADDED


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted:
    """O2.1, O2.5: the deal. `hands[s]` is seat s's four cards (its own
    only); `stones[i]` the god on island i (None without the variant)."""

    seats: int
    gods: bool
    board: str
    first_seat: int
    hands: tuple[tuple[int, ...], ...]
    deck_size: int
    stones: tuple[str | None, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GaveUp:
    """O8.2: a seat's choice of O2.2 became final; the card stays its own
    secret until every choice is final."""

    seat: int
    decision: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DisplayOpened:
    """O2.2, O2.3: the given-up cards face up, then cards from the deck up to four."""

    given: tuple[tuple[int, int], ...]
    filled: tuple[int, ...]
    display: tuple[int, ...]
    deck_size: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnBegan:
    """O3.1: `half` is 1 or 2, or 3 for the final round (O5.4)."""

    seat: int
    half: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Built:
    """O3.2: a bridge on a free connection, for a card of `island` or a
    Kanaloa stone (O7.5)."""

    seat: int
    connection: int
    island: int | None
    kanaloa: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Replaced:
    """O3.3: `owner`'s bridge on `connection` replaced by the seat's."""

    seat: int
    connection: int
    owner: int
    islands: tuple[int, ...]
    kanaloa: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ControlGained:
    """O4.1, O4.2: the seat controls `island`; `removed` lists the
    opponents' bridges taken away as (connection, owner); O7.2/O7.3: the
    god stone taken, and Kane's points."""

    seat: int
    island: int
    removed: tuple[tuple[int, int], ...]
    stone: str | None
    kane: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ControlLost:
    """O4.3: the seat no longer holds more than half of `island`'s places."""

    seat: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BridgeRemoved:
    """O4.5, O4.6: a relative majority at `island` removed `owner`'s bridge."""

    seat: int
    island: int
    connection: int
    owner: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Discarded:
    """O3.4: a card face down under the discard pile ("???" to the others)."""

    seat: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Drew:
    """O3.6 (or O7.8 when `lono`): a card from the display (`from_display`)
    or the deck; `refill` is the deck card that replaced a display card."""

    seat: int
    island: int
    from_display: bool
    refill: int | None
    deck_size: int
    lono: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnEnded:
    """The seat's turn is over. At rules revision 2 a final turn (O5.6)
    says so, and how many cards (and Kanaloa stones) it played, so that the
    story can tell what the turn was; both are left out otherwise, and
    records of revision 1 replay to the same data (O10.2)."""

    seat: int
    final: bool | None = field(default=None, metadata=ADDED)
    played: int | None = field(default=None, metadata=ADDED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Passed:
    """O5.5: the seat defers its final turn."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Scored:
    """O5.2, O5.7: `islands` as (island, seat, points); `points[s]` gained
    now, `scores[s]` the totals after."""

    final: bool
    islands: tuple[tuple[int, int, int], ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Reshuffled:
    """O5.3: the discard pile became the deck; the new display."""

    deck_size: int
    display: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalRoundBegan:
    """O5.4: every seat owes one more turn; the scores decide who may pass."""

    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class KuLooked:
    """O7.6: the seat used Ku on `target` and saw its `hand`."""

    seat: int
    target: int
    hand: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class KuTook:
    seat: int
    target: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PeleTook:
    """O7.7: one card taken blindly from each seat, as (seat, island)."""

    seat: int
    taken: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PeleGave:
    seat: int
    to: int
    island: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LonoUsed:
    """O7.8: announces the extra draw (the card itself is a `Drew` with `lono`)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded:
    """O5.8, O5.9: `reason` is 'scoring' or 'eleven'; ranks are 1-based
    (shared ranks skip: 1, 1, 3); `final_order` the seats in the order they
    made their final turns; every hand is revealed."""

    reason: str
    winner: int
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    final_order: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
