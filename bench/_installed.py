"""Imported by every benchmark before anything outside the standard library:
run by a Python that lacks the project (`python bench/engine.py` outside
the virtual environment the README makes), a benchmark says so in one line
and how to run it, instead of a traceback about a missing module."""

from __future__ import annotations

import importlib.util
import os
import sys

NEEDED = ("oriente", "trio", "msgspec", "websockets")

_missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
if _missing:
    _script = os.path.relpath(sys.argv[0]) if sys.argv and sys.argv[0] else "bench/SCRIPT.py"
    sys.exit(f"{_script}: this Python ({sys.executable}) does not have the project installed (no "
             f"{', '.join(_missing)}). Run it with the project's environment, as the README does: "
             f".venv/bin/python {_script} (made by: python3 -m venv .venv && .venv/bin/pip install -e '.[test,dev]')")
