"""An independent who-knows-what model, rebuilt from full-detail events alone.

The engine keeps its own bookkeeping (the state) and its own gate
(`views.py`); this model shares neither. It follows every tile and every
capture through the events, applying the rules of knowledge of S7.4:

- a seat's chosen tiles (S2.3) and its draws (S3.7) are known to that seat
  only; which tiles are in its supply follows for it alone (the order of a
  supply is known to nobody, so the model keeps sets);
- a placed tile is public: owner, hex, kind (S3.8); a figure swap goes to
  the box in public;
- every capture is announced (S7.4); a seat's captured figures are in views
  of that seat only at 3-4 players, in every view at 2 players;
- after the game everything is public (S5.5).

`apply(event)` also cross-checks the events against each other: a tile is
placed only from its owner's known hand, drawn only from its supply, moved
by a tile swap only where it lay.
"""

from __future__ import annotations

from typing import Any

TILES = 20
FIGURE_ORDER = ("helmet", "buddha", "rice")


class ModelMismatch(AssertionError):
    """The events contradict what earlier events said."""


class KnowledgeModel:
    def __init__(self, seats: int) -> None:
        self.n = seats
        self.hand: list[set[int]] = [set() for _ in range(seats)]
        self.supply: list[set[int]] = [set(range(TILES)) for _ in range(seats)]  # until the choice is final
        self.boxed: list[set[int]] = [set() for _ in range(seats)]
        self.board: dict[int, tuple[int, int]] = {}
        self.captured = [[0, 0, 0] for _ in range(seats)]
        self.set_aside = [0, 0, 0]
        self.final: set[int] = set()
        self.over = False

    def _take_from_hand(self, seat: int, tile: int) -> None:
        if tile not in self.hand[seat]:
            raise ModelMismatch(f"seat {seat} played tile {tile}, not in its hand {sorted(self.hand[seat])}")
        self.hand[seat].discard(tile)

    def apply(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        if kind == "TilesChosen":
            tiles = set(e["tiles"])
            if len(tiles) != 5 or e["seat"] in self.final:
                raise ModelMismatch(f"bad choice {e}")
            self.hand[e["seat"]] = tiles
            self.supply[e["seat"]] = set(range(TILES)) - tiles
            self.final.add(e["seat"])
        elif kind == "TilesDrawn":
            seat = e["seat"]
            for t in e["tiles"]:
                if t not in self.supply[seat]:
                    raise ModelMismatch(f"seat {seat} drew {t}, not in its supply")
                self.supply[seat].discard(t)
                self.hand[seat].add(t)
            if e["supply_left"] != len(self.supply[seat]):
                raise ModelMismatch("supply_left disagrees")
        elif kind == "TilePlaced":
            self._take_from_hand(e["seat"], e["tile"])
            if e["hex"] in self.board:
                raise ModelMismatch(f"hex {e['hex']} was already covered")
            self.board[e["hex"]] = (e["seat"], e["tile"])
        elif kind == "FiguresSwapped":
            self._take_from_hand(e["seat"], e["tile"])
            self.boxed[e["seat"]].add(e["tile"])
        elif kind == "TileSwapped":
            self._take_from_hand(e["seat"], e["tile"])
            if self.board.get(e["hex"]) != (e["seat"], e["moved"]) or e["to"] in self.board:
                raise ModelMismatch(f"tile swap moved a tile that was not there: {e}")
            self.board[e["hex"]] = (e["seat"], e["tile"])
            self.board[e["to"]] = (e["seat"], e["moved"])
        elif kind == "FigureCaptured":
            k = FIGURE_ORDER.index(e["figure"])
            if e["seat"] is None:
                self.set_aside[k] += 1
            else:
                self.captured[e["seat"]][k] += 1
        elif kind == "GameEnded":
            self.over = True
            if [list(c) for c in e["captured"]] != self.captured or list(e["set_aside"]) != self.set_aside:
                raise ModelMismatch("the final tally disagrees with the captures announced")
            if [sorted(h) for h in e["hands"]] != [sorted(h) for h in self.hand]:
                raise ModelMismatch("the revealed hands disagree with the events")

    # -- what a viewer may know ------------------------------------------------------

    def knows_tiles_of(self, seat: int, viewer: Any) -> bool:
        """Whether `viewer` may know `seat`'s hand and supply contents."""
        return self.over or viewer == seat

    def sees_captures_of(self, seat: int, viewer: Any) -> bool:
        """S4.3, S7.4: behind the screen, except at 2 players and after the end."""
        return self.over or self.n == 2 or viewer == seat
