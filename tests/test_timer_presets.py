"""docs/table.md T1.8: every client offers people the same timers, each
with a negotiation window of at least 45 s.

The numbers live once, in src/oriente/protocol/timer_presets.json: the
terminal client, `oriente demo --play` and tournaments of people read them
in Python, and the page builds the same file in (its lobby imports it)."""

from __future__ import annotations

import re
from pathlib import Path

from oriente.cli.tournament import PEOPLE_TIMERS
from oriente.clients.terminal import PRESETS as TERMINAL
from oriente.clients.terminal.commands import parse_lobby_input
from oriente.clients.terminal.render import render_lobby
from oriente.protocol.messages import Timers
from oriente.protocol.presets import ALIASES, MIN_WINDOW_MS, TIMER_PRESETS, preset
from oriente.server.clock import TimerSettings

ROOT = Path(__file__).resolve().parents[1]
LOBBY_JS = ROOT / "src" / "oriente" / "clients" / "web" / "src" / "lobby.js"


def test_every_preset_gives_people_at_least_45_s_to_bargain_and_is_a_valid_table_setting() -> None:
    assert list(TIMER_PRESETS) == ["relaxed", "normal", "quick"]
    for name, timers in TIMER_PRESETS.items():
        assert timers["window_ms"] >= MIN_WINDOW_MS, name
        assert timers["zero_wait"] is False, name  # a zero-wait window closes at once (T1.7)
        TimerSettings(**timers).validate()
        assert set(timers) == set(Timers.__struct_fields__), name  # sent whole, every field


def test_the_terminal_and_the_server_tables_use_the_same_presets() -> None:
    for name, timers in TIMER_PRESETS.items():
        assert TERMINAL[name] == timers
    assert TERMINAL["people"] == TIMER_PRESETS["normal"] == preset("people")  # the older word
    assert ALIASES == {"people": "normal"}
    assert TIMER_PRESETS["normal"] == PEOPLE_TIMERS
    assert parse_lobby_input("create 6").arg[1] == "normal"
    lobby = "\n".join(render_lobby([], url="ws://x", name="n", width=100, height=40))
    assert "relaxed 90/60, normal 60/45, quick 30/45" in lobby


def test_the_page_builds_in_the_same_file() -> None:
    """The page's lobby offers exactly the presets of the shared file: it
    imports it rather than keeping numbers of its own."""
    source = LOBBY_JS.read_text(encoding="utf-8")
    assert re.search(r'^import TIMER_PRESETS from "\.\./\.\./\.\./protocol/timer_presets\.json";$', source, re.M)
    assert re.search(r"^export const PRESETS = TIMER_PRESETS;$", source, re.M)
    assert "window_ms:" not in source  # no second copy of the numbers
