"""Commands: everything a seat (or the table's clock) can ask of the engine.

Commands are small frozen values. Every command that answers a decision
names it (`decision`), so a late click is rejected deterministically
(`decision/closed`) instead of racing. The engine does not know whether a
command came from a person, a bot or the table's timer: a timeout is just
`Timeout`, applied by the table through the same `apply()`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ...kit.decisions import TABLE as TABLE  # the seat id of the table's own commands (timeouts)
from ...kit.plain import ADDED


class ActionKind(str, Enum):
    """The actions of R5/R6/R7, named as in docs/rules.md."""

    ATTACK = "attack"
    BLESSING = "blessing"
    TRANSFORMATION = "transformation"
    INCOME = "income"
    SUCCESSION = "succession"
    CREDIT = "credit"
    TRADE = "trade"
    INCITE = "incite"
    REVOLUTION = "revolution"
    ASSASSINATION = "assassination"


# Actions that name a target seat (R4.2). The others have none.
TARGETED = frozenset(
    {ActionKind.ATTACK, ActionKind.SUCCESSION, ActionKind.CREDIT, ActionKind.TRADE, ActionKind.ASSASSINATION}
)


class Side(str, Enum):
    """A side in a fight (R6.2)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """An announced action and its target seat, if it has one (R4.1, R4.2)."""

    kind: ActionKind
    target: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Announce:
    """Announce an action when asked (R3.2, R4.1)."""

    decision: int
    action: Action


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """Decline: when asked (R3.2), in a privilege round (R4.4), in a support
    round (R6.2) or a revolution round (R7.1)."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """Claim privilege with one's own announcement (R4.3, R4.4)."""

    decision: int
    action: Action


@dataclass(frozen=True, slots=True, kw_only=True)
class Support:
    """Support a side in a fight, discarding one's disc (R6.2)."""

    decision: int
    side: Side


@dataclass(frozen=True, slots=True, kw_only=True)
class Join:
    """Join a revolution with one's Nofu (R7.1)."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Choose:
    """Pick a card: Trade's card to give (R5.6), the inhabitant to keep in a
    Transformation (R5.3), the loser's reinforcement card (R6.7)."""

    decision: int
    card: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Done:
    """A fighter (attacker or defender) says it is done bargaining in the
    negotiation window `decision` (R10.2b1). Public and final for the window;
    it only lets the window close early, it binds nothing (deals stay open)."""

    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeout:
    """The table's clock: the decision's pivot (or a window) ran out of time.
    `pivot` is the seat waited on, None for a negotiation window (R10)."""

    decision: int
    pivot: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Transfer:
    """One score card given by one seat to another, with its stated
    consideration (R8.3: no gifts)."""

    card: int
    giver: int
    receiver: int
    consideration: str


class PromiseKind(str, Enum):
    """Promise forms the server can settle itself (R8.6), plus free text."""

    FREE = "free"
    SUPPORT = "support"  # support `side` in the fight attacker vs defender this season
    PAY = "pay"  # `cards` reach the promisee by the end of season `by_season`
    NO_ATTACK = "no_attack"  # the promiser does not attack `seat` this season


@dataclass(frozen=True, slots=True, kw_only=True)
class Promise:
    """A promise inside a deal. Promises are not binding (R8.1); the ledger
    only records whether they were kept (R8.6)."""

    promiser: int
    promisee: int
    text: str
    kind: PromiseKind = PromiseKind.FREE
    attacker: int | None = None
    defender: int | None = None
    side: Side | None = None
    cards: tuple[int, ...] = ()
    by_season: int | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ProposeDeal:
    """Propose a deal (R8.6). Proposing counts as the proposer's acceptance.
    `counter_to` names an earlier deal this one answers, and `why` says what
    it is for, as a code with parameters (R8.8); both optional."""

    transfers: tuple[Transfer, ...] = ()
    promises: tuple[Promise, ...] = ()
    note: str = ""
    counter_to: int | None = field(default=None, metadata=ADDED)
    why: dict[str, Any] | None = field(default=None, metadata=ADDED)


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptDeal:
    deal: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclineDeal:
    """Decline a deal one is a party to; `why` is the reason, as a code with
    parameters (R8.8), optional."""

    deal: int
    why: dict[str, Any] | None = field(default=None, metadata=ADDED)


@dataclass(frozen=True, slots=True, kw_only=True)
class WithdrawDeal:
    deal: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlePromise:
    """The promisee settles a free-text promise as kept or broken (R8.6)."""

    promise: int
    kept: bool


Command = (
    Announce | Pass | Claim | Support | Join | Choose | Done | Timeout
    | ProposeDeal | AcceptDeal | DeclineDeal | WithdrawDeal | SettlePromise
)

# Commands that answer a decision for an asked seat (they carry `decision`),
# and the commands of deals (R8), which answer none. The one definition: the
# SDK, the terminal client and the reference policies read the type names
# from here, and legal() is split along it (`answers`, `deal_options`).
# `Done` names its window too, but answers for no asked seat: a fighter's word
# that lets the window close early (R10.2b1); `answers` lists it.
DecisionCommand = Announce | Pass | Claim | Support | Join | Choose
DECISION_COMMANDS = (Announce, Pass, Claim, Support, Join, Choose)
DEAL_COMMANDS = (ProposeDeal, AcceptDeal, DeclineDeal, WithdrawDeal, SettlePromise)
DECISION_COMMAND_TYPES = frozenset(cls.__name__ for cls in DECISION_COMMANDS)
DEAL_COMMAND_TYPES = frozenset(cls.__name__ for cls in DEAL_COMMANDS)

