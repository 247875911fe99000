"""Rejections and refused configurations: every game's (`..gamekit.errors`).

The classes are game-agnostic (a stable namespaced code and a sentence), so
Oro raises the very same ones as every other game: a table server catches
one `Rejected` whatever game it hosts.
"""

from __future__ import annotations

from ..gamekit.errors import ConfigError, Rejected

__all__ = ["ConfigError", "Rejected"]
