"""The story of an Oro or Samurai table as one viewer follows it.

Oriente's `story.Story` remembers fights and promises across events; the
other games' narrators say everything an event means on their own, so
their story is the narrator over each event, table events included. It
knows the table's own board (and Samurai's tile set) once a view has shown
it, and names nothing the viewer's events did not show (the narrators
never name a hidden card or tile).

`narrator_for` lets a client name places its own way (the terminal client
names Samurai's hexes by their map coordinates).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from oriente.games.oro.narrate import OroNarrator
from oriente.games.samurai.narrate import SamuraiNarrator

from .narrate import TABLE_EVENTS, Label, Narrator, Viewer

__all__ = ["GAMES", "GameStory", "default_narrator"]

GAMES = ("oro", "samurai")

# Events held back while no view has shown the board (a client that asks for no views).
WAIT_AT_MOST = 512

NarratorFactory = Callable[[str, Label, dict[str, Any] | None], Narrator]


def default_narrator(game: str, label: Label, view: dict[str, Any] | None) -> Narrator:
    """The game's narrator on the view's board (the default board without a view)."""
    board = (view or {}).get("board")
    if game == "oro":
        return OroNarrator.for_board("en", board, label) if board else OroNarrator("en", label)
    if game == "samurai":
        return SamuraiNarrator("en", label, board, (view or {}).get("tile_set"))
    raise ValueError(f"no story for the game {game!r}")


class GameStory:
    """Follows one viewer's events of an Oro or Samurai table; `tell` turns
    each batch into lines. Same interface as `story.Story` (`tell`,
    `replaces_last`), so a client holds either."""

    def __init__(self, game: str, viewer: Viewer, label: Label, narrator_for: NarratorFactory = default_narrator
                 ) -> None:
        self.game = game
        self.viewer = viewer
        self.label = label
        self.narrator_for = narrator_for
        self.narrator = narrator_for(game, label, None)
        self.replaces_last = False  # lines are never merged with the one before
        self._board: Any = None
        self._waiting: list[dict[str, Any]] = []  # events told once a view shows the table's board

    def tell(self, events: Iterable[dict[str, Any]], view: dict[str, Any] | None = None, *,
             merge: bool = False) -> list[str]:
        """Lines for these events. Until a view has shown the table's board
        (a history can arrive before the first snapshot), events wait, up to
        WAIT_AT_MOST, so that places are named on the table's own board
        (a map at this seat count is a part of the whole)."""
        if view is not None and view.get("board") and view["board"] != self._board:
            self._board = view["board"]
            self.narrator = self.narrator_for(self.game, self.label, view)
        events = [*self._waiting, *events]
        self._waiting = []
        if self._board is None and len(events) < WAIT_AT_MOST:
            self._waiting = events
            return []
        lines = [self.narrator.table_event(e) if e.get("type") in TABLE_EVENTS
                 else self.narrator.narrate(e, self.viewer) for e in events]
        return [line for line in lines if line]
