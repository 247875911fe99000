"""Oriente at the terminal: its table is the one `render.py` draws whole
(the seats with their inhabitants, the board, the fight, the deals) and
`commands.py` reads (answers, deals, promises, /auto), the table screen
this client began with; `app.py` plays it with Oriente's story
(games/oriente/story.py). So this module names no `GameScreen`.
"""

from __future__ import annotations

from . import GameScreen

SCREEN: GameScreen | None = None
