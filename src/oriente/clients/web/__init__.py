"""The browser client: its built files (`dist/`) and the message catalogue
(`clients/i18n/`), both shipped inside the Python package.

The sources are under `src/`; `npm run build` (esbuild) writes `dist/`,
which is committed, so that installing the Python package is all a server
needs (tests/web/test_build.py checks that `dist/` is fresh).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
DIST = HERE / "dist"
CATALOGUE = HERE.parent / "i18n"


def mounts() -> dict[str, Path]:
    """URL prefix -> directory, for the server's web site (`App(web=...)`)."""
    return {"/": DIST, "/i18n/": CATALOGUE}
