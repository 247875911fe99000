"""Rejections and refused configurations, for every game's rules.

Codes are namespaced (`decision/closed`, `build/occupied`) and never change
meaning once published: bots switch on them. A rejected command never
changes the game state; an engine validates before it mutates. Every game
raises these very classes, so a table server catches one `Rejected`
whatever game it hosts.
"""

from __future__ import annotations


class Rejected(Exception):
    """An illegal command, with whose fault it is spelled out in `code`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ConfigError(ValueError):
    """A table configuration the rules refuse; the message says why."""
