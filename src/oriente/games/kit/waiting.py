"""What every port built on the shared decision shape of `games/kit` says
about its open decisions the same way: decisions with a `key` whose first
item is the decision's id, a `pivot` and a `timer` kind, and the table's
clock as a `Timeout` command naming that decision and pivot. These two
functions hold that once (the base port's pass-through uses them), so a
port only says where its decisions come from.
"""

from __future__ import annotations

# Defined beside `Waiting`, for the base port's pass-through; named here too.
from .port import first_waiting, timeout_for

__all__ = ["first_waiting", "timeout_for"]
