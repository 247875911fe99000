"""`oriente play`: the terminal client for people."""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from oriente.clients.terminal import Account, run_play

from .checks import server_url


def cmd_play(args: argparse.Namespace) -> int:
    """The terminal client for people: a lobby, then the table screen."""
    name = (args.name or os.environ.get("USER") or "player").strip()[:32] or "player"
    try:
        url = server_url(args.server)
    except ValueError as exc:
        print(f"oriente play: {exc}", file=sys.stderr)
        return 2
    account = None
    if args.new_account and not args.account:
        print("oriente play: --new-account needs --account NAME", file=sys.stderr)
        return 2
    if args.account:
        account = _ask_password(args.account.strip(), args.new_account)
        if account is None:
            return 2
    return run_play(url, name, tuple(args.resume) if args.resume else None, token=args.token, account=account)


def _ask_password(name: str, new: bool) -> Account | None:
    """The account to sign in to, its password asked on the terminal
    without echo (twice for a new account); None, said why, when the two
    differ or none was given."""
    try:
        password = getpass.getpass(f"Password for {name}: ")
        if new and getpass.getpass("The same password again: ") != password:
            print("oriente play: the two passwords differ", file=sys.stderr)
            return None
    except (EOFError, KeyboardInterrupt):
        print("\noriente play: no password given", file=sys.stderr)
        return None
    if not password:
        print("oriente play: no password given", file=sys.stderr)
        return None
    return Account(name, password, new)
