"""The timers every client offers for a table where people sit (docs/table.md T1.8).

One copy of the numbers, `timer_presets.json` beside this file: the page
builds it in (esbuild bundles the JSON), the terminal client, `oriente
demo --play` and tournaments of people read it here. The words for them
are the clients' (clients/timerwords.py), the same in every client. Each preset gives a
negotiation window of at least 45 s; a window still closes early once the
people in the fight are done (R10.2b1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_FILE = Path(__file__).resolve().with_name("timer_presets.json")
TIMER_PRESETS: dict[str, dict[str, Any]] = json.loads(_FILE.read_text(encoding="utf-8"))
# Turn-based tables' timers (docs/table.md T8.1), hours per decision and a
# bank in days: `turn_presets.json`, read by the page and the terminal alike.
_TURN_FILE = _FILE.with_name("turn_presets.json")
TURN_PRESETS: dict[str, dict[str, Any]] = json.loads(_TURN_FILE.read_text(encoding="utf-8"))
DEFAULT_TURN_PRESET = "daily"
DEFAULT_PRESET = "normal"
# Older words for a preset, still understood: the terminal client's `people`.
ALIASES = {"people": "normal"}
MIN_WINDOW_MS = 45_000  # T1.8: time to build a deal by hand


def preset(name: str) -> dict[str, Any]:
    """A copy of the preset `name` (or of the one an older word means);
    KeyError names the presets there are."""
    key = ALIASES.get(name, name)
    if key in TURN_PRESETS:
        return dict(TURN_PRESETS[key])
    if key not in TIMER_PRESETS:
        raise KeyError(f"no timer preset {name!r}: {', '.join([*TIMER_PRESETS, *TURN_PRESETS])} "
                       f"(docs/table.md T1.8, T8.1)")
    return dict(TIMER_PRESETS[key])


__all__ = ["ALIASES", "DEFAULT_PRESET", "DEFAULT_TURN_PRESET", "MIN_WINDOW_MS", "TIMER_PRESETS", "TURN_PRESETS",
           "preset"]
