"""What the server says it plays, for the lobby: its games (`welcome.games`)
and what each is (`welcome.game_info`: seats, options, windows; PROTOCOL.md
4). The terminal keeps no list of its own, so a game it has never heard of
is offered like any other. Pure: from the welcome frame to words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from oriente.protocol.messages import DEFAULT_GAME

__all__ = ["games_text", "seat_range", "served_games"]


def served_games(welcome: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The games `create_table` accepts (a server that does not say plays the default game alone)."""
    games = (welcome or {}).get("games")
    return tuple(str(g) for g in games) if isinstance(games, list) and games else (DEFAULT_GAME,)


def seat_range(welcome: Mapping[str, Any] | None, game: str | None) -> tuple[int, int, int] | None:
    """The fewest, most and first offered seats of `game` (None: the game a
    table that names none plays), as the server describes it; None when it
    does not (an older server: it still refuses a wrong count, saying why)."""
    info = ((welcome or {}).get("game_info") or {}).get(game or DEFAULT_GAME)
    seats = info.get("seats") if isinstance(info, Mapping) else None
    if not isinstance(seats, Mapping):
        return None
    try:
        low, high = int(seats["min"]), int(seats["max"])
        return low, high, int(seats.get("default", low))
    except (KeyError, TypeError, ValueError):
        return None


def games_text(welcome: Mapping[str, Any] | None) -> str:
    """'chess 2-2 seats, dice 2-5, ...': each game with its seats, for the lobby's help."""
    parts = []
    for i, game in enumerate(served_games(welcome)):
        told = seat_range(welcome, game)
        seats = "" if told is None else f" {told[0]}-{told[1]}" + (" seats" if i == 0 else "")
        parts.append(game + seats)
    return ", ".join(parts)
