"""The terminal client: `oriente play`.

A lobby (list, create, join or watch tables) and a table screen (seats,
score piles, workers, deck, the destiny stone, a live feed in plain words,
the open decision with its countdown and numbered choices, chat and deals),
talking to the server through the SDK only.

- `render`: pure functions, view and prompt dicts to lines of text;
- `commands`: what the person types, read into intents and deals;
- `screen`: the terminal (ANSI full-screen drawing, a small line editor);
- `app`: the trio program that ties them together.
"""

from .app import PRESETS, Account, run_play

__all__ = ["PRESETS", "Account", "run_play"]
