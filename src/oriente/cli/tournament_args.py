"""The arguments of `oriente tournament ...` (its commands are in
`tournament.py`, loaded only when one runs: they speak the protocol
through the SDK)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from . import checks

# A director's actions as the command line says them (start-round, as the
# command of that name); the protocol's are the same with `_` (start_round).
ACTIONS = ("start-round", "pause", "resume", "reseat", "adjudicate", "disqualify", "withdraw", "finish",
           "collusion")

EXPORTS = ("csv", "json", "records")  # what `export --what` downloads (tournament.EXPORTS: the files)


def _action(word: str) -> str:
    """A director's action, said with `-` or `_`."""
    action = word.strip().replace("_", "-")
    if action not in ACTIONS:
        raise argparse.ArgumentTypeError(f"no action {word!r}: the actions are {', '.join(ACTIONS)}")
    return action


def _ints(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers like 5,6") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give numbers of 1 or more, like 5,6")
    return values


def add_parser(sub: Any, server_url: Any) -> None:
    """`oriente tournament` and its commands."""
    top = sub.add_parser("tournament", help="run a tournament, or enter one (create, register, play, "
                                            "start-round, direct, standings, export)")
    cmds = top.add_subparsers(dest="action_name", metavar="COMMAND")
    cmds.required = True

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = cmds.add_parser(name, help=help_text)
        p.add_argument("--server", type=server_url, default=os.environ.get("ORIENTE_SERVER", "ws://127.0.0.1:8765"),
                       metavar="URL", help="the server's address (default: $ORIENTE_SERVER, else ws://127.0.0.1:8765)")
        return p

    c = command("create", "create a tournament; prints its id and the organiser token")
    c.add_argument("--name", required=True)
    c.add_argument("--game", default="oriente")
    c.add_argument("--format", choices=("swiss", "duplicate", "arena"), default="swiss")
    c.add_argument("--rounds", type=checks.at_least(1, "a tournament's rounds"), default=3)
    c.add_argument("--sizes", type=_ints, default=[4, 5, 6], metavar="N,N", help="table sizes allowed (default 4,5,6)")
    c.add_argument("--bots", choices=("allowed", "only", "none"), default="allowed")
    c.add_argument("--no-show", choices=("proxy", "forfeit"), default="proxy")
    c.add_argument("--show-up", type=checks.seconds, default=120.0, metavar="S",
                   help="seconds a table waits for its players before it starts (default 120)")
    c.add_argument("--scoring", choices=("linear", "win"), default="linear")
    c.add_argument("--timers", choices=("bots", "people"), default="people")
    c.add_argument("--apart", action="append", default=[], metavar="A,B", help="keep two entrants apart; repeatable")
    c.add_argument("--seed", type=checks.seed, default=None)
    c.set_defaults(func="oriente.cli.tournament:cmd_create")

    r = command("register", "enter a tournament (or, with --bot and the organiser token, a server bot)")
    r.add_argument("tournament")
    r.add_argument("--name", required=True)
    r.add_argument("--kind", choices=("player", "bot"), default="bot")
    r.add_argument("--bot", default=None, metavar="POLICY",
                   help="a server bot: shrewd, honest, ruthless (negotiators), heuristic, random")
    r.add_argument("--token", default=None, help="the organiser token (with --bot)")
    r.set_defaults(func="oriente.cli.tournament:cmd_register")

    pl = command("play", "a reference bot plays every table this entry is seated at, through the SDK")
    pl.add_argument("tournament")
    pl.add_argument("--token", required=True, help="the entry token from register")
    pl.add_argument("--bot", choices=("shrewd", "honest", "ruthless", "negotiator", "heuristic", "random"),
                    default="heuristic", help="the reference bot (negotiator: the old name of shrewd)")
    pl.add_argument("--seed", type=checks.seed, default=None)
    pl.add_argument("--delay", type=checks.seconds, default=0.0)
    pl.set_defaults(func="oriente.cli.tournament:cmd_play")

    s = command("start-round", "seat and start the next round")
    s.add_argument("tournament")
    s.add_argument("--token", required=True, help="the organiser token")
    s.set_defaults(func="oriente.cli.tournament:cmd_direct", action="start-round")

    d = command("direct", "a director's action: start-round, pause, resume, reseat, adjudicate, disqualify, "
                          "withdraw, finish, collusion (a table of who helped whom)")
    d.add_argument("tournament")
    d.add_argument("action", type=_action, metavar="ACTION", help=", ".join(ACTIONS))
    d.add_argument("--token", required=True, help="the organiser token")
    d.add_argument("--round", type=checks.at_least(1, "a round number"), default=None)
    d.add_argument("--table", type=checks.at_least(1, "a table's number"), default=None,
                   help="adjudicate: the table's number in its round, as start-round prints it (1 first)")
    d.add_argument("--ranks", type=_ints, default=None, metavar="1,2,3", help="adjudicate: each seat's rank")
    d.add_argument("--entrant", default=None, help="an entrant's id (e1, e2, ...)")
    d.set_defaults(func="oriente.cli.tournament:cmd_direct")

    st = command("standings", "print the standings")
    st.add_argument("tournament")
    st.set_defaults(func="oriente.cli.tournament:cmd_standings")

    ex = command("export", "download the standings (csv), the whole event (json) or every game's record")
    ex.add_argument("tournament")
    ex.add_argument("--what", choices=EXPORTS, default="csv")
    ex.add_argument("--out", default=None, metavar="PATH", help="write to a file (default: standard output)")
    ex.set_defaults(func="oriente.cli.tournament:cmd_export")
