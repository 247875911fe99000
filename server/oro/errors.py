"""Rejections and refused configurations, shared with Oriente's engine.

The classes are game-agnostic (a stable namespaced code and a sentence), so
Oro raises the very same ones: a table server catches one `Rejected`
whatever game it hosts.
"""

from __future__ import annotations

from ..rules.errors import ConfigError, Rejected

__all__ = ["ConfigError", "Rejected"]
