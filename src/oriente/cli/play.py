"""`oriente play`: the terminal client for people."""

from __future__ import annotations

import argparse
import os
import sys

from oriente.clients.terminal import run_play

from .checks import server_url


def cmd_play(args: argparse.Namespace) -> int:
    """The terminal client for people: a lobby, then the table screen."""
    name = (args.name or os.environ.get("USER") or "player").strip()[:32] or "player"
    try:
        url = server_url(args.server)
    except ValueError as exc:
        print(f"oriente play: {exc}", file=sys.stderr)
        return 2
    return run_play(url, name, tuple(args.resume) if args.resume else None, token=args.token)
