"""The game state: where every one of the 53 cards is, and what is open.

The state is a plain mutable object owned by the engine. It never leaves the
rules package as is: clients get `views.view(state, viewer)`. Mutability is
for speed (bot tournaments run millions of commands); the engine keeps the
promise that a rejected command changes nothing by validating every command
completely before it touches the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from .cards import CARD_COUNT
from .commands import Action, Command, Promise, Side, Transfer
from .config import GameConfig
from .decisions import Topic
from .rng import Pcg32

if TYPE_CHECKING:  # events import the state's types; the state only names GameEnded
    from .events import GameEnded


class Phase(str, Enum):
    """What the game waits for. Transitions, as a table (engine.py draws them):

    ASKING --announce--> PRIVILEGE --claim--> PRIVILEGE (new chain link)
    PRIVILEGE --nobody claims--> fulfil: ATTACK -> NEGOTIATION -> SUPPORT
        -> (REINFORCEMENT) -> ASKING; TRADE -> (TRADE) -> ASKING;
        TRANSFORMATION -> TRANSFORMATION -> ASKING; REVOLUTION -> REVOLUTION
        -> ASKING; others -> ASKING
    ASKING --everyone passed / no disc left--> season end -> ASKING | OVER
    any --Geisha drawn--> OVER
    """

    ASKING = "asking"
    PRIVILEGE = "privilege"
    NEGOTIATION = "negotiation"
    SUPPORT = "support"
    REVOLUTION = "revolution"
    TRADE = "trade"
    TRANSFORMATION = "transformation"
    REINFORCEMENT = "reinforcement"
    OVER = "over"


@dataclass(slots=True)
class Round:
    """A round (R10.2): seats asked in order, one pivot at a time, early
    answers sealed until their seat becomes the pivot."""

    decision: int
    topic: Topic
    asked: list[int]
    # A support round's negotiation window, when it has an id of its own
    # (R10.2b2): the decision while the window is open, and afterwards an id
    # a late declaration may still name.
    window: int | None = None
    pos: int = 0
    sealed: dict[int, Command] = field(default_factory=dict)
    # answers made final so far, in order: (seat, answer) where the answer
    # is a topic-specific value (a Side, True for a join, None for a pass)
    published: list[tuple[int, object]] = field(default_factory=list)
    # a negotiation window's fighters that said done, in order (R10.2b1)
    done: list[int] = field(default_factory=list)

    @property
    def pivot(self) -> int | None:
        return self.asked[self.pos] if self.pos < len(self.asked) else None


@dataclass(slots=True)
class Fight:
    """An attack being resolved (R6)."""

    attacker: int
    defender: int
    supporters: list[tuple[int, Side]] = field(default_factory=list)
    reinforcements: list[tuple[int, int]] = field(default_factory=list)
    winner: int = -1
    loser: int = -1


@dataclass(slots=True)
class Deal:
    """An open proposal (R8.6)."""

    id: int
    proposer: int
    parties: tuple[int, ...]
    transfers: tuple[Transfer, ...]
    promises: tuple[Promise, ...]
    accepted: set[int]
    counter_to: int | None = None  # the earlier deal it answers (R8.8)
    why: dict | None = None  # what it is for, a code with parameters (R8.8)


@dataclass(slots=True)
class LedgerEntry:
    """One promise in the public ledger (R8.6)."""

    id: int
    deal: int
    promise: Promise
    season: int
    status: str = "open"


class GameState:
    """Everything the rules know. Only the engine writes it."""

    __slots__ = (
        "config", "n", "hut_used", "rng", "season", "phase", "over_reason",
        # cards (R1.5): every card is in exactly one of these places
        "deck", "known_bottom", "bonus", "set_aside", "inhabitant", "revealed",
        "pile", "out_of_game", "geisha_out", "in_play",
        # who knows each card at its current place (bitmask of seats)
        "knows",
        # pieces
        "disc", "stone", "supply", "hut", "square",
        # the season's asking (R3)
        "passes", "bonus_awarded",
        # the current chain and action (R4)
        "announcer", "action", "chain_mask", "fulfiller",
        "round", "fight", "prompt", "prompt_topic", "prompt_seat", "transform",
        # ids
        "next_decision", "next_deal", "next_promise",
        # deals (R8)
        "deals", "ledger", "kept", "broken", "proposed",
        # end (R9)
        "result", "seen",
    )

    def __init__(self, config: GameConfig, rng: dict[str, Pcg32]) -> None:
        n = config.seats
        self.config = config
        self.n = n
        self.hut_used = n >= 8  # R5.7
        self.rng = rng
        self.season = 0
        self.phase = Phase.ASKING
        self.over_reason: str | None = None
        self.deck: list[int] = []  # deck[-1] is the top card
        self.known_bottom = 0  # deck[:known_bottom] are public, in order (R10.4)
        self.bonus: list[int] = []
        self.set_aside: list[int] = []
        self.inhabitant: list[int | None] = [None] * n
        self.revealed: list[bool] = [False] * n
        self.pile: list[list[int]] = [[] for _ in range(n)]
        self.out_of_game: list[int] = []
        self.geisha_out: int | None = None
        # Transient places (R1.5): reinforcements, the Transformation pool, loot.
        self.in_play: list[int] = []
        self.knows: list[int] = [0] * CARD_COUNT
        self.disc: list[bool] = [True] * n
        self.stone = 0
        self.supply = 6
        self.hut = 0
        self.square = 0
        self.passes = 0
        self.bonus_awarded = False
        self.announcer: int | None = None
        self.action: Action | None = None
        self.chain_mask = 0
        self.fulfiller: int | None = None
        self.round: Round | None = None
        self.fight: Fight | None = None
        self.prompt: int | None = None  # decision id of a one-seat prompt
        self.prompt_topic: Topic | None = None
        self.prompt_seat: int | None = None
        self.transform: dict | None = None
        self.next_decision = 1
        self.next_deal = 1
        self.next_promise = 1
        self.deals: dict[int, Deal] = {}
        self.ledger: dict[int, LedgerEntry] = {}
        self.kept: list[int] = [0] * n
        self.broken: list[int] = [0] * n
        self.result: GameEnded | None = None
        # What each seat saw in Transformations it made (R5.3, R10.4).
        self.seen: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n)]
        # Proposals each seat made this season (R8.7).
        self.proposed: list[int] = [0] * n

    @property
    def all_mask(self) -> int:
        return (1 << self.n) - 1

    def card_places(self) -> list[tuple[str, int]]:
        """Every card with a name of its place (R1.5); used by invariant checks."""
        places: list[tuple[str, int]] = []
        places += [("deck", c) for c in self.deck]
        places += [("bonus", c) for c in self.bonus]
        places += [("set_aside", c) for c in self.set_aside]
        places += [(f"inhabitant:{s}", c) for s, c in enumerate(self.inhabitant) if c is not None]
        for s, p in enumerate(self.pile):
            places += [(f"pile:{s}", c) for c in p]
        places += [("out", c) for c in self.out_of_game]
        if self.geisha_out is not None:
            places.append(("geisha_out", self.geisha_out))
        places += [("in_play", c) for c in self.in_play]
        return places
