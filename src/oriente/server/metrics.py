"""Counters for /metrics, in the Prometheus text format."""

from __future__ import annotations

import resource
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Metrics:
    connections_open: int = 0
    connections_total: int = 0
    frames_in: int = 0
    frames_out: int = 0
    evictions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    # More lines from other parts (a cluster process's bus), each a callable.
    sources: list[Callable[[], list[str]]] = field(default_factory=list)

    def error(self, code: str) -> None:
        self.errors[code] += 1

    def render(self, lobby: Any) -> str:
        statuses: Counter[str] = Counter(t.status for t in lobby.tables.values())
        rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        lines = [
            "# TYPE oriente_connections_open gauge",
            f"oriente_connections_open {self.connections_open}",
            "# TYPE oriente_connections_total counter",
            f"oriente_connections_total {self.connections_total}",
            "# TYPE oriente_frames_in_total counter",
            f"oriente_frames_in_total {self.frames_in}",
            "# TYPE oriente_frames_out_total counter",
            f"oriente_frames_out_total {self.frames_out}",
            "# TYPE oriente_evictions_total counter",
            f"oriente_evictions_total {self.evictions}",
            "# TYPE oriente_tables gauge",
        ]
        for status in ("open", "running", "finished", "failed"):
            lines.append(f'oriente_tables{{status="{status}"}} {statuses.get(status, 0)}')
        # Ended tables leave memory at once: the gauge above counts few of them, this counts them all.
        lines += ["# TYPE oriente_tables_finished_total counter",
                  f"oriente_tables_finished_total {getattr(lobby, 'finished_total', 0)}"]
        lines.append("# TYPE oriente_errors_total counter")
        for code, count in sorted(self.errors.items()):
            lines.append(f'oriente_errors_total{{code="{code}"}} {count}')
        lines += ["# TYPE oriente_max_rss_kib gauge", f"oriente_max_rss_kib {rss_kib}"]
        for source in self.sources:
            lines += source()
        return "\n".join(lines) + "\n"
