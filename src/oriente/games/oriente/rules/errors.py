"""Rejections: every illegal command gets a stable code and a sentence.

Codes are namespaced (`decision/closed`, `deal/card_not_owned`) and never
change meaning once published: bots switch on them. A rejected command
never changes the game state; the engine validates before it mutates. The
classes are every game's (`...kit.errors`).
"""

from __future__ import annotations

from ...kit.errors import ConfigError, Rejected

__all__ = ["ConfigError", "Rejected"]
