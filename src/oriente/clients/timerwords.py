"""The timers of a table in words, the same in every client (docs/table.md T1.8).

The numbers are `protocol/timer_presets.json`; the words are the clients'
catalogue's (`preset.NAME`, `lobby.timers`, `lobby.timers_bots`), which the
page reads too. So the terminal's lobby and help, `oriente demo --help` and
the page say each preset alike: "Quick: 30 s per decision, 45 s to
negotiate, bank 30 s", never one client's shorthand for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from oriente.clients.narrate import ui_text
from oriente.protocol.presets import TIMER_PRESETS, TURN_PRESETS

__all__ = ["preset_of", "preset_text", "timers_text"]


def _words(key: str, lang: str, **args: Any) -> str:
    return ui_text(key, lang, **args)


def timers_text(timers: Mapping[str, Any] | None, lang: str = "en", windows: bool = True,
                tagged: bool = True) -> str:
    """A table's timers as the page says them ('30 s per decision, 45 s to
    negotiate, bank 30 s'; bots' timers as bot speed); '' for none. A game
    without negotiation windows (`windows` False) is promised
    no time to negotiate. Turn-based timers begin 'turn-based: ' unless
    `tagged` is False (where a preset's name says it already)."""
    if not timers:
        return ""
    seconds = round(int(timers.get("prompt_ms", 0)) / 1000)
    bank = round(int(timers.get("bank_ms", 0)) / 1000)
    if timers.get("zero_wait"):
        return _words("lobby.timers_bots", lang, s=seconds)
    if timers.get("turn_based"):  # docs/table.md T8: hours per decision, a bank of days
        hours = round(int(timers.get("prompt_ms", 0)) / 3_600_000, 1)
        days = round(int(timers.get("bank_ms", 0)) / 86_400_000, 1)
        words = (_words("lobby.timers_turns", lang, h=f"{hours:g}", d=f"{days:g}",
                        w=f"{round(int(timers.get('window_ms', 0)) / 3_600_000, 1):g}") if windows
                 else _words("lobby.timers_turns_no_window", lang, h=f"{hours:g}", d=f"{days:g}"))
        return f"{_words('lobby.turn_based', lang)}: {words}" if tagged else words
    if not windows:
        return _words("lobby.timers_no_window", lang, s=seconds, b=bank)
    return _words("lobby.timers", lang, s=seconds, w=round(int(timers.get("window_ms", 0)) / 1000), b=bank)


def preset_of(timers: Mapping[str, Any] | None) -> str | None:
    """The preset whose timers these are exactly, or None."""
    if not timers:
        return None
    return next((name for name, preset in {**TIMER_PRESETS, **TURN_PRESETS}.items() if dict(timers) == preset), None)


def preset_text(name: str, lang: str = "en") -> str:
    """A preset by its name and its timers: 'Quick: 30 s per decision, 45 s
    to negotiate, bank 30 s' (the page's option reads 'Quick — ...')."""
    words = timers_text({**TIMER_PRESETS, **TURN_PRESETS}[name], lang, tagged=False)  # the name says turn-based
    return f"{_words(f'preset.{name}', lang)}: {words}"
