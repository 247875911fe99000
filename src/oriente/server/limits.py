"""What one connection may cost the server (PROTOCOL.md 12): the transport
keeps its outgoing queue and sends within them, the session its rate,
strikes and open tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..protocol import messages as M


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Per-connection limits. The rate is a token bucket: `rate` messages a
    second on average, bursts up to `burst`. `strikes` refused frames within
    `strike_window` seconds close the connection."""

    max_frame: int = M.MAX_FRAME
    rate: float = 200.0
    burst: float = 400.0
    strikes: int = 50
    strike_window: float = 10.0
    outbox: int = 512
    outbox_bytes: int = 4 * 1024 * 1024
    send_timeout: float = 10.0
    # Open tables one connection, and one client address, may have created (docs/table.md T6.2).
    tables_per_connection: int = 5
    tables_per_address: int = 20

    def plain(self) -> dict[str, Any]:
        return {"max_frame": self.max_frame, "rate": self.rate, "burst": self.burst,
                "strikes": self.strikes, "strike_window": self.strike_window}
