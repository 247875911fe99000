"""How the person started the `oriente` command, for the commands we print
back ("replay it with: ...", "to sit down again: ..."): a hint that runs
`oriente` where it is not on PATH is a hint that fails."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

__all__ = ["command_name"]


def command_name() -> str:
    """'oriente' when that is what PATH finds for this very program, else
    the path it was started by ('.venv/bin/oriente'), else
    'PYTHON -m oriente.cli'."""
    argv0 = sys.argv[0] if sys.argv else ""
    if Path(argv0).name == "oriente":
        found = shutil.which("oriente")
        if found and Path(found).resolve() == Path(argv0).resolve():
            return "oriente"
        return shlex.quote(argv0 if os.sep in argv0 else str(Path(argv0).resolve()))
    return f"{shlex.quote(sys.executable)} -m oriente.cli"
