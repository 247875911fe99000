"""docs/table.md T1.8: every client offers people the same timers, each
with a negotiation window of at least 45 s.

The numbers live once, in src/oriente/protocol/timer_presets.json: the
terminal client, `oriente demo --play` and tournaments of people read them
in Python, and the page builds the same file in (its lobby imports it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oriente.cli.main import build_parser
from oriente.cli.tournament import PEOPLE_TIMERS
from oriente.clients.terminal import PRESETS as TERMINAL
from oriente.clients.terminal.commands import parse_lobby_input
from oriente.clients.terminal.render import render_lobby
from oriente.clients.timerwords import preset_text
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
        # sent whole, every field; a live table leaves `turn_based` out, as its information does (T8.1)
        assert set(timers) | {"turn_based"} == set(Timers.__struct_fields__), name


def test_the_terminal_and_the_server_tables_use_the_same_presets() -> None:
    for name, timers in TIMER_PRESETS.items():
        assert TERMINAL[name] == timers
    assert TERMINAL["people"] == TIMER_PRESETS["normal"] == preset("people")  # the older word
    assert ALIASES == {"people": "normal"}
    assert TIMER_PRESETS["normal"] == PEOPLE_TIMERS
    assert parse_lobby_input("create 6").arg[1] == "normal"
    lobby = "\n".join(render_lobby([], url="ws://x", name="n", width=100, height=40))
    assert "Quick: 30 s per decision, 45 s to negotiate, bank 30 s" in lobby


def test_every_client_says_each_preset_in_the_same_words(capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal's lobby said "quick 30/45", its help "30 s per decision,
    45 s to bargain", `demo --help` the same, the page "30 s per decision,
    45 s to negotiate, bank 30 s": one preset, three wordings. Now all say
    the page's catalogue's words (clients/timerwords.py)."""
    said = [preset_text(name) for name in TIMER_PRESETS]
    assert said[2] == "Quick: 30 s per decision, 45 s to negotiate, bank 30 s"
    lobby = "\n".join(render_lobby([], url="ws://x", name="n", width=80, height=24))
    assert all(line in lobby for line in said), lobby
    # Drawn 200 wide, nothing is cut: so at 80 columns every line of the lobby's commands is whole.
    wide = render_lobby([], url="ws://x", name="n", width=200, height=24)
    assert all(len(line) <= 80 for line in wide if not line.startswith("---")), wide
    with pytest.raises(SystemExit):
        build_parser().parse_args(["demo", "--help"])
    demo_help = " ".join(capsys.readouterr().out.split())
    assert all(line in demo_help for line in said), demo_help
    docs = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")
    assert all(line in docs for line in said)
    # The page: the same catalogue keys, filled with the same numbers.
    source = LOBBY_JS.read_text(encoding="utf-8")
    assert 't("lobby.timers", { s: Math.round(timers.prompt_ms / 1000), w: Math.round(timers.window_ms / 1000), ' \
           'b: Math.round(timers.bank_ms / 1000) })' in source
    assert "${t(`preset.${k}`)} — ${timerText(PRESETS[k], form.game)}" in source
    # A table's list entry names its preset; the words are under the list.
    quick = {"table": "T1", "status": "open", "seats": [None] * 4, "settings": {"timers": TIMER_PRESETS["quick"]}}
    row = render_lobby([quick], url="ws://x", name="n", width=80, height=24)[3]
    assert row.split()[:5] == ["1", "T1", "open", "0/4", "quick"]


def test_the_page_builds_in_the_same_file() -> None:
    """The page's lobby offers exactly the presets of the shared file: it
    imports it rather than keeping numbers of its own."""
    source = LOBBY_JS.read_text(encoding="utf-8")
    assert re.search(r'^import TIMER_PRESETS from "\.\./\.\./\.\./protocol/timer_presets\.json";$', source, re.M)
    assert re.search(r'^import TURN_PRESETS from "\.\./\.\./\.\./protocol/turn_presets\.json";$', source, re.M)
    assert re.search(r"^export const PRESETS = \{ \.\.\.TIMER_PRESETS, \.\.\.TURN_PRESETS \};$", source, re.M)
    assert "window_ms:" not in source  # no second copy of the numbers
