"""Oro's game state: where every card, bridge, marker and stone is, who
knows which cards of which hand, and what is open.

A plain mutable object owned by the engine, never handed out as is
(clients get `views.view`). The engine validates a command completely
before it touches the state, so a rejected command changes nothing.
"""

from __future__ import annotations

from enum import Enum

from .board import GODS, Board
from .config import OroConfig
from .decisions import Topic
from .events import GameEnded
from .rng import Pcg32


class Phase(str, Enum):
    """What the game waits for. As a table:

    GIVE_UP --every choice final--> TURN
    TURN --build/replace--> REMOVE (a relative majority with a choice) --> TURN
    TURN --Ku--> KU --> TURN;  TURN --Pele--> PELE (per opponent) --> TURN
    TURN --draw--> TURN (next seat) | first scoring, TURN | FINAL
    FINAL --pass/end--> FINAL (next owed seat) | final scoring, OVER
    any --11th island--> OVER
    """

    GIVE_UP = "give_up"
    TURN = "turn"
    FINAL = "final"
    REMOVE = "remove"
    KU = "ku"
    PELE = "pele"
    OVER = "over"


class OroState:
    """Everything the rules know. Only the engine writes it.

    Cards (O1.7) lie in `deck` (top last), `display`, `hands`, `played`
    (face up on the discard pile) and `hidden` (face down, with their
    seat). `known[o][s][i]` counts the cards of island i observer o is
    certain seat s holds (O8.6; observers are the seats, then the public).
    The board: `bridges[c]` is the owner of connection c's bridge,
    `count[i][s]` seat s's bridges at island i, `controller[i]` who holds
    island i's marker. God stones (O7): `stones[i]` still on island i,
    `held[s]` by kind, `used` out of play.
    """

    __slots__ = (
        "acted",
        "active",
        "asked",
        "board",
        "bridges",
        "cards_played",
        "config",
        "controlled",
        "controller",
        "count",
        "decision",
        "deck",
        "discarded",
        "display",
        "final_order",
        "first_seat",
        "given",
        "gods",
        "half",
        "hands",
        "held",
        "hidden",
        "known",
        "ku_target",
        "n",
        "next_decision",
        "owed",
        "pele_queue",
        "phase",
        "played",
        "pos",
        "queue",
        "remove_options",
        "result",
        "rng",
        "scores",
        "sealed",
        "stones",
        "topic",
        "turns",
        "used",
    )

    def __init__(self, config: OroConfig, rng: dict[str, Pcg32]) -> None:
        board: Board = config.the_board
        n = config.seats
        self.config = config
        self.board = board
        self.n = n
        self.gods = config.gods
        self.rng = rng
        self.phase = Phase.GIVE_UP
        self.half = 1  # 1, 2, or 3 for the final round
        self.deck: list[int] = []  # deck[-1] is the top card
        self.display: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.played: list[int] = []  # face up on the discard pile, in order
        self.hidden: list[tuple[int, int]] = []  # face down: (seat, island)
        self.known: list[list[list[int]]] = [
            [[0] * board.islands for _ in range(n)] for _ in range(n + 1)
        ]
        self.bridges: list[int | None] = [None] * board.connections
        self.count: list[list[int]] = [[0] * n for _ in range(board.islands)]
        self.controller: list[int | None] = [None] * board.islands
        self.controlled: list[int] = [0] * n
        self.scores: list[int] = [0] * n
        self.stones: list[str | None] = [None] * board.islands
        self.held: list[dict[str, int]] = [{k: 0 for k in GODS} for _ in range(n)]
        self.used: list[str] = []
        self.first_seat = 0
        self.active = 0
        self.cards_played = 0  # cards played this turn (O3.4)
        self.discarded = False  # a face-down discard this turn (O3.4)
        self.acted = False  # anything done this turn (O5.5: pass first or never)
        self.queue: list[int] = []  # islands still to check for a relative majority (O4.9)
        self.ku_target: int | None = None
        self.pele_queue: list[int] = []
        self.decision = 0
        self.topic: Topic | None = None
        self.next_decision = 1
        self.remove_options: list[int] = []
        self.asked: list[int] = []
        self.pos = 0
        self.sealed: dict[int, int] = {}
        self.given: dict[int, int] = {}
        self.owed: list[bool] = [False] * n
        self.final_order: list[int] = []
        self.turns = 0
        self.result: GameEnded | None = None

    @property
    def public(self) -> int:
        """The observer index of public knowledge (spectators)."""
        return self.n

    @property
    def final(self) -> bool:
        return self.half == 3

    def card_counts(self) -> dict[str, list[int]]:
        """Cards per island in every place (O1.7); used by invariant checks."""
        k = self.board.islands
        places: dict[str, list[int]] = {"deck": [0] * k, "display": [0] * k, "played": [0] * k,
                                        "hidden": [0] * k}
        for c in self.deck:
            places["deck"][c] += 1
        for c in self.display:
            places["display"][c] += 1
        for c in self.played:
            places["played"][c] += 1
        for _, c in self.hidden:
            places["hidden"][c] += 1
        for s, hand in enumerate(self.hands):
            row = places[f"hand:{s}"] = [0] * k
            for c in hand:
                row[c] += 1
        return places
