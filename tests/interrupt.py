"""Ctrl-C for a program a test starts: its SIGINT as a terminal gives it.

A shell without job control starts a background command with SIGINT
ignored, and a child inherits that; Python then installs no
KeyboardInterrupt handler, so the SIGINT a test sends to stand in for
Ctrl-C would do nothing. Pass `preexec_fn=default_sigint` to Popen."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """Run in the child before it starts: SIGINT back to its default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
