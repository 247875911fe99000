"""Every icon the page draws in the log and on the board's change marks is
a symbol the common text fonts have (DejaVu, Liberation, as Debian's
Chromium and most desktops carry), never an emoji that a machine without
an emoji font shows as an empty box: seen in a screenshot of the log,
where "done bargaining" and "supports neither side" began with a box.

Which fonts draw a character is asked of fontconfig (`fc-list
:charset=HEX`), which every machine running Chromium has."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "web" / "src"
ICON_TABLES = (WEB / "games" / "oriente" / "log.js", WEB / "games" / "oriente" / "changes.js")
TEXT_FONTS = ("DejaVu", "Liberation")


def icons() -> set[str]:
    """The non-ASCII characters of the icon tables (`export const ICONS = {...}`)."""
    found: set[str] = set()
    for path in ICON_TABLES:
        table = re.search(r"export const ICONS = \{(.*?)\};", path.read_text(encoding="utf-8"), re.S)
        assert table, f"{path.name} has no ICONS table"
        found |= {c for c in table.group(1) if ord(c) > 0x7F and c not in "−"}  # the minus sign is text
    return found


def test_every_icon_is_drawn_by_a_common_text_font() -> None:
    if shutil.which("fc-list") is None:
        if os.environ.get("CI"):
            pytest.fail("fontconfig's fc-list is missing (Chromium brings it)")
        pytest.skip("fontconfig's fc-list is not installed: cannot ask which fonts draw a character")
    drawn_by = {c: subprocess.run(["fc-list", f":charset={ord(c):x}", "family"], capture_output=True, text=True,
                                  check=True).stdout for c in sorted(icons())}
    assert len(drawn_by) > 20, "the icon tables were not read"
    missing = [f"{c} U+{ord(c):04X}" for c, fonts in drawn_by.items() if not any(f in fonts for f in TEXT_FONTS)]
    assert not missing, f"no common text font draws {missing}: pick a symbol DejaVu Sans has"
