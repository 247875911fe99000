"""The story of a table as one viewer follows it, for any game.

A game may bring a story of its own in its home (`games/NAME/story.py`, a
`Story(viewer, label=...)`: one that remembers what came before, as
Oriente's tells a fight's totals card by card). Otherwise the story is the
game's narrator over each event, table events included (`GameStory`): a
narrator that says everything an event means on its own, or the generic
one over the game's words. `story_for` picks.

A narrator made from a part of the table's view (its board: the game's
`narrate.basis`) waits for a view to show it and names nothing the
viewer's events did not show. `narrator_for` lets a client name places
its own way (the terminal client names a map's hexes by their
coordinates).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from oriente.games import part

from .narrate import TABLE_EVENTS, Label, Narrator, Viewer, narrator_for

__all__ = ["GameStory", "TableStory", "default_narrator", "story_for"]

# Events held back while no view has shown what the narrator is made from (a client that asks for no views).
WAIT_AT_MOST = 512

NarratorFactory = Callable[[str, Label, dict[str, Any] | None], Narrator]


class TableStory(Protocol):
    """What a client holds to tell a table: lines for each batch of events."""

    replaces_last: bool

    def tell(self, events: Iterable[dict[str, Any]], view: dict[str, Any] | None = None, *,
             merge: bool = False) -> list[str]: ...


def default_narrator(game: str, label: Label, view: dict[str, Any] | None) -> Narrator:
    """The game's narrator for the view (its board; the default one without a view)."""
    return narrator_for(game, "en", label, view)


def story_for(game: str, viewer: Viewer, label: Label) -> TableStory:
    """The story of a table of `game` for `viewer`: the game's own, else `GameStory`."""
    own = getattr(part(game, "story"), "Story", None)
    if own is not None:
        story: TableStory = own(viewer, label=label)
        return story
    return GameStory(game, viewer, label)


class GameStory:
    """Follows one viewer's events of a table; `tell` turns each batch into
    lines. The interface of every story (`TableStory`), so a client holds
    any."""

    def __init__(self, game: str, viewer: Viewer, label: Label, narrator_for: NarratorFactory = default_narrator
                 ) -> None:
        self.game = game
        self.viewer = viewer
        self.label = label
        self.narrator_for = narrator_for
        self.narrator = narrator_for(game, label, None)
        # What of a view the game's narrator is made from (None: nothing, it tells events as they come).
        self.basis: Callable[[dict[str, Any]], Any] | None = getattr(part(game, "narrate"), "basis", None)
        self.replaces_last = False  # lines are never merged with the one before
        self._basis: Any = None
        self._waiting: list[dict[str, Any]] = []  # events told once a view shows the narrator's basis

    def tell(self, events: Iterable[dict[str, Any]], view: dict[str, Any] | None = None, *,
             merge: bool = False) -> list[str]:
        """Lines for these events. Until a view has shown what the narrator
        is made from (a history can arrive before the first snapshot),
        events wait, up to WAIT_AT_MOST, so that places are named on the
        table's own board (a map at this seat count is a part of the whole)."""
        if self.basis is not None and view is not None:
            basis = self.basis(view)
            if basis and basis != self._basis:
                self._basis = basis
                self.narrator = self.narrator_for(self.game, self.label, view)
        events = [*self._waiting, *events]
        self._waiting = []
        if self.basis is not None and self._basis is None and len(events) < WAIT_AT_MOST:
            self._waiting = events
            return []
        lines = [self.narrator.table_event(e) if e.get("type") in TABLE_EVENTS
                 else self.narrator.narrate(e, self.viewer) for e in events]
        return [line for line in lines if line]
