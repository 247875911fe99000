"""What Samurai takes from the project's shared pure module (`...kit`).

The seeded generator, the rejection and configuration errors, the decision
kinds and timer names the table actor switches on, the table's seat id and
the plain-data encoder are no game's rules. They are imported here, in one
place. Nothing is copied: a Samurai rejection *is* every game's `Rejected`,
so a port catches one type.
"""

from __future__ import annotations

from ...kit import MASK64, TABLE, ConfigError, DecisionKind, Pcg32, Rejected, Timer, plain, splitmix64

__all__ = ["MASK64", "TABLE", "ConfigError", "DecisionKind", "Pcg32", "Rejected", "Timer", "plain", "splitmix64"]
