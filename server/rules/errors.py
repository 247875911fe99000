"""Rejections: every illegal command gets a stable code and a sentence.

Codes are namespaced (`decision/closed`, `deal/card_not_owned`) and never
change meaning once published: bots switch on them. A rejected command
never changes the game state; the engine validates before it mutates.
"""

from __future__ import annotations


class Rejected(Exception):
    """An illegal command, with whose fault it is spelled out in `code`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ConfigError(ValueError):
    """A table configuration the rules refuse (R2.8)."""
