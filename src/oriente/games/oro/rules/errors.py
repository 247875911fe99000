"""Rejections and refused configurations: every game's (`...kit.errors`).

The classes are game-agnostic (a stable namespaced code and a sentence), so
Oro raises the very same ones as every other game: a table server catches
one `Rejected` whatever game it hosts.
"""

from __future__ import annotations

from ...kit.errors import ConfigError, Rejected

__all__ = ["ConfigError", "Rejected"]
