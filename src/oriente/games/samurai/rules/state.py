"""The game state: where every figure and every tile is, and what is open.

A plain mutable object owned by the engine, never handed out: clients get
`views.view(state, viewer)`. Mutable for speed; the engine keeps the
promise that a rejected command changes nothing by validating completely
before it touches the state.

Every tile is in exactly one place: a seat's hand, its supply (an ordered
list, drawn from the end), the board (`tiles_at`), or the box (a played
figure swap). Every figure is on the board (`figures_at`), in the figure
supply (setup only), captured by a seat, or set aside.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ._shared import Pcg32
from .board import Layout
from .config import GameConfig
from .datafiles import TileSet
from .events import GameEnded
from .pieces import Figure


class Phase(str, Enum):
    """What the game waits for. Transitions, as a table:

    SELECT --every choice final--> FIGURES (S2.3 -> S2.4, S2.5)
    FIGURES --figure supply empty--> TURNS (S2.6)
    TURNS --a kind gone / 4th set aside / everyone passed--> OVER (S5)
    """

    SELECT = "select"
    FIGURES = "figures"
    TURNS = "turns"
    OVER = "over"


@dataclass(slots=True)
class Selection:
    """The tile-choice round (S7.2): seats asked in order, early choices
    sealed until their seat becomes the pivot."""

    decision: int
    asked: list[int]
    pos: int = 0
    sealed: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def pivot(self) -> int | None:
        return self.asked[self.pos] if self.pos < len(self.asked) else None


@dataclass(slots=True)
class GameState:
    config: GameConfig
    rng: dict[str, Pcg32]
    layout: Layout
    tileset: TileSet
    n: int
    first: int
    phase: Phase = Phase.SELECT
    next_decision: int = 1
    decision: int | None = None
    selection: Selection | None = None
    # the seat asked by the open prompt (figure placement or turn)
    prompt_seat: int | None = None
    figures_at: dict[int, list[Figure]] = field(default_factory=dict)
    figure_supply: dict[Figure, int] = field(default_factory=dict)
    hand: list[list[int]] = field(default_factory=list)
    supply: list[list[int]] = field(default_factory=list)
    boxed: list[list[int]] = field(default_factory=list)
    # hex -> (seat, tile index)
    tiles_at: dict[int, tuple[int, int]] = field(default_factory=dict)
    turn: int = 0
    placed: int = 0  # tiles placed in the current turn
    plain_used: bool = False  # S3.2
    passes: int = 0  # passes in a row (S5.4)
    captured: list[list[int]] = field(default_factory=list)  # per seat, per figure kind
    set_aside: list[int] = field(default_factory=lambda: [0, 0, 0])
    result: GameEnded | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER
