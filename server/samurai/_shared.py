"""What Samurai borrows from the Oriente package: the game-agnostic pieces.

The seeded generator, the rejection and configuration errors, the decision
kinds and timer names the table actor switches on, the table's seat id and
the plain-data encoder are not Oriente's rules, only housed in its package
for now. They are imported here, in one place, so that moving them to a
shared pure module later changes this file alone. Nothing is copied: a
Samurai rejection *is* an Oriente `Rejected`, so a port catches one type.
"""

from __future__ import annotations

from ..rules.commands import TABLE
from ..rules.decisions import DecisionKind, Timer
from ..rules.errors import ConfigError, Rejected
from ..rules.rng import MASK64, Pcg32, splitmix64
from ..rules.views import plain

__all__ = ["MASK64", "TABLE", "ConfigError", "DecisionKind", "Pcg32", "Rejected", "Timer", "plain", "splitmix64"]
