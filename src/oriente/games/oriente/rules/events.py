"""Events: what happened, recorded once with full detail.

An event here may hold cards some viewers must not see. It never leaves the
engine as is: `views.project(event, viewer)` is the one gate that decides
what each viewer gets. Every event has a projection for every viewer, so a
table's sequence numbers never skip for anyone (docs/architecture.md).

Field conventions: `seat` is who acted; cards are card ids (cards.py);
`None` for a card means "no card" (not "hidden": hiding is the gate's job).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...kit.plain import ADDED
from .commands import Action, Promise, Side, Transfer


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted:
    """R2: setup done. `inhabitants[s]` is seat s's face-down card."""

    seats: int
    stone_holder: int
    treasures: tuple[int, ...]
    inhabitants: tuple[int, ...]
    bonus_card: int
    deck_size: int
    hut_used: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonBegan:
    season: int
    stone_holder: int
    bonus_size: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Passed:
    """A seat passed when asked (R3.2)."""

    seat: int
    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Announced:
    """R4.1 / R4.4: the seat takes the stone and reveals `card`. `over` is
    the seat whose announcement this claim cancelled."""

    seat: int
    card: int
    action: Action
    claim: bool
    over: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivilegeRoundOpened:
    """R10.2a: the seats asked, fixed for the round, and the rank to beat."""

    decision: int
    announcer: int
    rank: int
    asked: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivilegePassed:
    """A pass became final (R10.2a). `voided_claim`: it was an equal-rank
    claim that lacked fewer score cards; told only to the seat itself."""

    seat: int
    decision: int
    voided_claim: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Fulfilled:
    """R4.5: the disc is discarded; `bonus_set_aside` cards wait under the stone."""

    seat: int
    action: Action
    bonus_set_aside: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusAwarded:
    """The bonus pile goes face up onto a score pile (R4.5, R5.2)."""

    seat: int
    cards: tuple[int, ...]
    blessing: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class IncomeDrawn:
    """R5.4 Income: the top card face up onto the Daimyo's score pile."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SuccessionDone:
    """R5.4: Shogun and Daimyo swap; `from_pile` if the Shogun was a score
    card. `done` is False when a deal had removed the Shogun (R4.5a)."""

    seat: int
    target: int
    shogun: int
    daimyo: int
    from_pile: bool
    done: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CreditTaken:
    """R5.6 Credit: every Nofu of the target's score pile."""

    seat: int
    target: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TradeDone:
    """R5.6 Trade: `given` went to the target, `drawn` came back (public)."""

    seat: int
    target: int
    given: int | None
    drawn: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Incited:
    """R5.7 Incite: where a worker went ('hut', 'square' or None)."""

    seat: int
    moved_to: str | None
    supply: int
    hut: int
    square: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Assassinated:
    """R5.8: the target's inhabitant goes to the Ninja's score pile."""

    seat: int
    target: int
    card: int


@dataclass(frozen=True, slots=True, kw_only=True)
class InhabitantDrawn:
    """A seat takes the top card of the deck as its inhabitant, face down
    (R5.8, R6.7): only the seat sees it."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TransformationBegan:
    """R5.3 step 1-2: the Maho-Tsukai goes to the bottom of the deck (public),
    and every other seat's inhabitant is taken: `taken[i]` is (seat, card),
    seen by the transforming seat only."""

    seat: int
    maho: int
    taken: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TransformationDone:
    """R5.3 step 2-4: `kept` by the transforming seat; `drawn` unseen from the
    deck; `dealt` (seat, card) face down, each seen by its seat only."""

    seat: int
    kept: int
    drawn: int
    dealt: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FightBegan:
    """R6.1: the defender reveals; `asked` are the support round's seats."""

    decision: int | None
    attacker: int
    defender: int
    defender_card: int
    asked: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class NegotiationDone:
    """R10.2b1: a fighter said it is done bargaining in this window (public)."""

    seat: int
    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NegotiationClosed:
    """R10.2b: the window closed; the support round begins."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SupportDeclared:
    """R6.2: a declaration became final on its turn (side None: passed)."""

    seat: int
    decision: int
    side: Side | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SupportersRevealed:
    """R6.3: every supporter reveals its inhabitant: (seat, card, side)."""

    supporters: tuple[tuple[int, int, Side], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReinforcementTurned:
    """R6.4: a Samurai's side turns the top card of the deck (public)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FightResolved:
    """R6.3-R6.6: supporters revealed, reinforcements turned, the result.

    `supporters` are (seat, card, side); `reinforcements` are (seat, card) in
    the order turned (R6.4); `captured` went onto the winner's score pile."""

    attacker: int
    defender: int
    supporters: tuple[tuple[int, int, Side], ...]
    reinforcements: tuple[tuple[int, int], ...]
    attack_total: int
    defence_total: int
    shogun_defence: bool
    winner: int
    loser: int
    captured: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ReinforcementTaken:
    """R6.7: the loser's new, revealed inhabitant; the rest go to the bottom
    in turned order, Ninjas to the winner's score pile."""

    seat: int
    card: int
    to_bottom: tuple[int, ...]
    to_winner: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RevolutionRoundOpened:
    decision: int
    announcer: int
    asked: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RevolutionAnswered:
    """R7.1: on its turn a seat joins (revealing its Nofu) or passes."""

    seat: int
    decision: int
    joined: bool
    card: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RevolutionResolved:
    """R7.2-R7.6 in one public record: every inhabitant revealed, the
    victims, the loot per victim, the redistribution and the workers."""

    seat: int
    strength: int
    revolters: tuple[int, ...]
    inhabitants: tuple[tuple[int, int], ...]
    victims: tuple[int, ...]
    loot: tuple[tuple[int, tuple[int, ...]], ...]
    dealt: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonEnded:
    """R3.5: discs return; `bonus_card` is added face down (hidden)."""

    season: int
    bonus_card: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GeishaDrawn:
    """R9.2: the Geisha came off the deck; the game ends at once."""

    purpose: str
    seat: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded:
    """R9: the final reveal and the ranking (`ranks[s]`: 1 is first)."""

    reason: str
    ninja_victor: int | None
    inhabitants: tuple[int | None, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    tiebreaks: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DealProposed:
    """A proposal (R8.6); `counter_to` the earlier deal it answers and `why`
    what it is for (R8.8), each only when the proposer gave one."""

    deal: int
    proposer: int
    parties: tuple[int, ...]
    transfers: tuple[Transfer, ...]
    promises: tuple[Promise, ...]
    note: str
    counter_to: int | None = field(default=None, metadata=ADDED)
    why: dict[str, Any] | None = field(default=None, metadata=ADDED)


@dataclass(frozen=True, slots=True, kw_only=True)
class DealAccepted:
    deal: int
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealClosed:
    """A proposal ended without executing: 'declined', 'withdrawn', 'void'
    (a card was no longer where it said, R8.6) or 'lapsed' (season end).
    `why`: a decline's reason as a code with parameters (R8.8), only when
    the seat that declined gave one."""

    deal: int
    seat: int | None
    reason: str
    why: dict[str, Any] | None = field(default=None, metadata=ADDED)


@dataclass(frozen=True, slots=True, kw_only=True)
class DealExecuted:
    """R8.2: every card moved at once; promises entered the ledger with the
    ids in `promise_ids`."""

    deal: int
    transfers: tuple[Transfer, ...]
    promise_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PromiseSettled:
    """R8.6 ledger: 'kept', 'broken' or 'released' (the occasion never came)."""

    promise: int
    promiser: int
    status: str
    by: int | None


Event = (
    GameStarted | SeasonBegan | Passed | Announced | PrivilegeRoundOpened | PrivilegePassed
    | Fulfilled | BonusAwarded | IncomeDrawn | SuccessionDone | CreditTaken | TradeDone
    | Incited | Assassinated | InhabitantDrawn | TransformationBegan | TransformationDone
    | FightBegan | NegotiationDone | NegotiationClosed | SupportDeclared | SupportersRevealed
    | ReinforcementTurned | FightResolved | ReinforcementTaken
    | RevolutionRoundOpened | RevolutionAnswered | RevolutionResolved | SeasonEnded
    | GeishaDrawn | GameEnded | DealProposed | DealAccepted | DealClosed | DealExecuted
    | PromiseSettled
)
