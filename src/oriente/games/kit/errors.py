"""Rejections and refused configurations, for every game's rules.

Codes are namespaced (`decision/closed`, `build/occupied`) and never change
meaning once published: bots switch on them. A rejected command never
changes the game state; an engine validates before it mutates. Every game
raises these very classes, so a table server catches one `Rejected`
whatever game it hosts; it is a `Refusal`, the one shape of every refusal.
"""

from __future__ import annotations

from ...refusal import Refusal


class Rejected(Refusal):
    """An illegal command, with whose fault it is spelled out in `code`."""


class ConfigError(ValueError):
    """A table configuration the rules refuse; the message says why."""
