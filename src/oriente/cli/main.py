"""The `oriente` command (`python -m oriente.cli`).

Subcommands, each a thin shell over the parts a person would otherwise
wire together by hand. This module holds the arguments of them all; each
command runs from a module of its own (`demo.py`, `serving.py`,
`records.py`, `play.py`, `tournament.py`), imported by name only when
that command runs, so that `oriente play` does not load the server nor
`oriente serve` the terminal client:

    oriente demo [--game GAME] [--seats N] [--bots BOT] [--seed S] [--quiet] [--record PATH] [--play | --watch]
    oriente serve [--host H] [--port P] [--store PATH|postgresql://...] [--public-origin ORIGIN]
                  [--allow-origin ORIGIN] [--trusted-proxy ADDRESS|NETWORK|none] [--metrics-port P]
                  [--tables-per-connection N] [--tables-per-address N] [--max-tables N] [--abandon-after S]
                  [--sleep-horizon S] [--max-turn-tables N]
                  [--cluster REDIS_URL [--public-url URL] [--lease S] [--drain]]
    oriente drain PORT
    oriente dev-services [--dir FOLDER]
    oriente backup PORT [--timeout S]
    oriente play [--server URL] [--name NAME] [--resume TABLE TOKEN]
    oriente replay PATH [--as SEAT|spectator|all]
    oriente tournament create|register|play|start-round|direct|standings|export ...  (tournament_args.py, tournament.py)
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import sys
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from oriente.clients.timerwords import preset_text
from oriente.games import registered
from oriente.games.kit.port import EVERYONE, SPECTATOR, Viewer
from oriente.protocol.messages import DEFAULT_GAME
from oriente.protocol.presets import ALIASES as PRESET_ALIASES
from oriente.protocol.presets import DEFAULT_PRESET, TIMER_PRESETS
from oriente.server.addresses import parse_trusted_proxy
from oriente.server.mailer import parse_smtp_url
from oriente.server.origins import OriginError, origin_text, parse_origin

from . import checks
from .tournament_args import add_parser as tournament_parser


def parse_viewer(text: str) -> Viewer:
    """'spectator', 'all' or a seat number."""
    lowered = text.strip().lower()
    if lowered in (SPECTATOR, "spectators"):
        return SPECTATOR
    if lowered in (EVERYONE, "everyone"):
        return EVERYONE
    try:
        seat = int(lowered)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a seat number, 'spectator' or 'all', not {text!r}") from None
    if seat < 0:
        raise argparse.ArgumentTypeError("seat numbers start at 0")
    return seat


def _smtp(value: str) -> str:
    """An --smtp URL, checked when it is given (server/mailer.py)."""
    try:
        parse_smtp_url(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _origin(text: str) -> str:
    """An --allow-origin or --public-origin value, checked when it is given."""
    try:
        return origin_text(parse_origin(text))
    except OriginError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _trusted_proxy(text: str) -> str:
    """A --trusted-proxy value, checked when it is given."""
    try:
        parse_trusted_proxy(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _server_port(text: str) -> int:
    """`oriente drain`'s and `oriente backup`'s server: its port (8765) or
    address (ws://127.0.0.1:8765)."""
    given = text.strip()
    if "://" in given or ":" in given:
        try:
            port = urlsplit(given if "://" in given else f"ws://{given}").port
        except ValueError:
            port = None
        if port is None:
            raise argparse.ArgumentTypeError(f"{text!r} names no port: give the server's port, e.g. 8765")
        given = str(port)
    value = checks.port(given)
    if value == 0:
        raise argparse.ArgumentTypeError("give the port the server serves, not 0")
    return value




def _version() -> str:
    try:
        return importlib.metadata.version("oriente")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="oriente", description="Oriente, the negotiation card game.")
    p.add_argument("--version", action="version", version=f"oriente {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    demo = sub.add_parser("demo", help="a server with a table of bots, told live in plain words")
    demo.add_argument("--game", choices=tuple(registered()), default=None,
                      help=f"the game the bots play (default: {DEFAULT_GAME}, what a table that names none plays)")
    demo.add_argument("--seats", type=checks.at_least(1, "a table's seat count"), default=None,
                      help="the table's seats, within the game's range (default: the game's own)")
    demo.add_argument("--seed", type=checks.seed, default=None, help="table seed (default: random)")
    demo.add_argument("--quiet", action="store_true", help="print only the final scores")
    demo.add_argument("--record", metavar="PATH", default=None,
                      help="where to write the game record (default records/demo-TABLE.json)")
    demo.add_argument("--store", default=None, type=checks.store, metavar="PATH",
                      help="a SQLite store file to keep the demo's table in (default: its own, gone when it ends)")
    demo.add_argument("--bots", default=None, metavar="BOT",
                      help="one of the game's reference bots, or an older name it still takes (default: the "
                           "game's first; a name it lacks is refused with the list of its bots; `oriente play` "
                           "and the page say what each is)")
    demo.add_argument("--delay", type=checks.seconds, default=None,
                      help="seconds a bot waits before answering (default 0.05; 1.2 with --watch)")
    demo.add_argument("--play", action="store_true", help="take seat 0 yourself in the terminal client")
    demo.add_argument("--name", default=None, help="your name with --play")
    demo.add_argument("--timers", choices=(*TIMER_PRESETS, *PRESET_ALIASES), default=DEFAULT_PRESET,
                      help="with --play: the timers for people (docs/table.md T1.8): "
                           + "; ".join(preset_text(p) for p in TIMER_PRESETS)
                           + f" (default {DEFAULT_PRESET}; people means normal)")
    demo.add_argument("--watch", action="store_true",
                      help="pace the bots to a human speed and show the game in a browser until Ctrl-C")
    demo.add_argument("--port", type=checks.port, default=0, help="with --watch: the port to serve on (default: any)")
    demo.set_defaults(func="oriente.cli.demo:cmd_demo")

    srv = sub.add_parser("serve", help="run the table server (websockets, msgpack, protocol oriente.v1)")
    srv.add_argument("--host", default="127.0.0.1", type=checks.host, help="interface to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=checks.port, default=8765, help="TCP port (default 8765; 0 picks a free one)")
    srv.add_argument("--store", default="oriente.sqlite", metavar="PATH|URL", type=checks.store,
                     help="a SQLite file (default ./oriente.sqlite) or a PostgreSQL database, "
                          "postgresql://USER@HOST/DB[?schema=SITE] (needs the postgres extra)")
    srv.add_argument("--quiet", action="store_true", help="log warnings only")
    srv.add_argument("--public-origin", action="append", default=[], metavar="ORIGIN", type=_origin,
                     help="the origin people open this site at, e.g. https://play.example.org behind a proxy "
                          "(default: the addresses the server listens on); pages from it may open websockets; "
                          "repeatable")
    srv.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN", type=_origin,
                     help="a page of another site that may open websockets too (e.g. https://www.example.org); "
                          "repeatable")
    srv.add_argument("--bot-delay", type=checks.seconds, default=1.0, metavar="S",
                     help="seconds the server's bots wait before acting (default 1.0)")
    srv.add_argument("--trusted-proxy", action="append", default=None, metavar="ADDRESS|NETWORK|none",
                     type=_trusted_proxy,
                     help="a reverse proxy in front of this server (an address or a network); requests from it "
                          "count under the client address its X-Forwarded-For names. Default: loopback (a proxy "
                          "on this machine); 'none' trusts no proxy; repeatable")
    srv.add_argument("--metrics-port", type=checks.port, default=None, metavar="P",
                     help="serve Prometheus /metrics on this port of --metrics-host (default: not served; "
                          "0 picks a free port)")
    srv.add_argument("--metrics-host", default="127.0.0.1", type=checks.host, metavar="H",
                     help="the interface of --metrics-port (default 127.0.0.1)")
    srv.add_argument("--tables-per-connection", type=checks.at_least(1, "a count"), default=5, metavar="N",
                     help="open tables one connection may have created (default 5)")
    srv.add_argument("--tables-per-address", type=checks.at_least(1, "a count"), default=20, metavar="N",
                     help="open tables one client address may have created (default 20)")
    srv.add_argument("--max-tables", type=checks.at_least(1, "a count"), default=10_000, metavar="N",
                     help="tables the server holds at once (default 10000)")
    srv.add_argument("--abandon-after", type=checks.positive_seconds, default=600.0, metavar="S",
                     help="seconds an open table may go without a connected player before it is "
                          "abandoned (default 600)")
    srv.add_argument("--sleep-horizon", type=checks.positive_seconds, default=600.0, metavar="S",
                     help="a turn-based table nobody follows sleeps (leaves memory) while nothing falls due "
                          "within S seconds (default 600; docs/table.md T8.5)")
    srv.add_argument("--max-turn-tables", type=checks.at_least(1, "a count"), default=100_000, metavar="N",
                     help="turn-based tables the site holds unfinished, asleep or awake (default 100000)")
    srv.add_argument("--session-days", type=checks.positive_seconds, default=30.0, metavar="DAYS",
                     help="a person's session signs in for DAYS after it was last used (default 30; "
                          "bots' API tokens last until revoked)")
    srv.add_argument("--session-max-days", type=checks.positive_seconds, default=365.0, metavar="DAYS",
                     help="and never longer than DAYS after the password sign-in that began it (default 365)")
    srv.add_argument("--smtp", default=None, metavar="URL", type=_smtp,
                     help="mail people whom a turn-based table awaits, through this SMTP server: "
                          "smtp://HOST[:PORT], smtp+starttls://USER:PASSWORD@HOST, smtps://...; ?from=ADDRESS "
                          "sets the sender (default: no mail; docs/accounts.md)")
    srv.add_argument("--mail-every", type=checks.positive_seconds, default=60.0, metavar="MINUTES",
                     help="with --smtp: at most one mail per person in MINUTES, naming every table that awaits "
                          "them (default 60)")
    srv.add_argument("--mail-after", type=checks.seconds, default=5.0, metavar="MINUTES",
                     help="with --smtp: mail about a table once it has awaited the person this long "
                          "(default 5)")
    srv.add_argument("--cluster", default=None, metavar="REDIS_URL",
                     type=checks.url(("redis", "rediss", "unix"), "redis://127.0.0.1:6379/0"),
                     help="be one of many processes of a site: the bus (redis://127.0.0.1:6379/0); "
                          "needs a postgresql:// --store (docs/scaling.md)")
    srv.add_argument("--public-url", default=None, metavar="URL",
                     type=checks.url(("ws", "wss"), "ws://10.0.0.5:8765"),
                     help="with --cluster: where clients reach this process (default ws://HOST:PORT)")
    srv.add_argument("--lease", type=checks.positive_seconds, default=10.0, metavar="S",
                     help="with --cluster: seconds a silent process keeps its tables (default 10)")
    srv.add_argument("--drain", action="store_true",
                     help="with --cluster: on SIGTERM, hand every table to the other processes first")
    srv.set_defaults(func="oriente.cli.serving:cmd_serve")

    drn = sub.add_parser("drain", help="hand a server process's tables to the site's others, then stop it")
    drn.add_argument("port", type=_server_port, metavar="PORT",
                     help="the port of an `oriente serve --cluster` on this machine (or its address, "
                          "ws://127.0.0.1:PORT); asked through the server's admin socket")
    drn.set_defaults(func="oriente.cli.serving:cmd_drain")

    dev = sub.add_parser("dev-services", help="a throwaway PostgreSQL and Redis on free local ports, for trying "
                                              "a site of many processes (until Ctrl-C)")
    dev.add_argument("--dir", default=None, metavar="FOLDER",
                     help="keep their files in FOLDER, new or empty (default: a temporary folder, removed at the end)")
    dev.set_defaults(func="oriente.cli.serving:cmd_dev_services")

    bak = sub.add_parser("backup", help="have a running server copy its SQLite store to STORE.backup")
    bak.add_argument("port", type=_server_port, metavar="PORT",
                     help="the port of the `oriente serve` on this machine (or its address, ws://127.0.0.1:PORT); "
                          "asked through the server's admin socket")
    bak.add_argument("old_store", nargs="?", default=None, help=argparse.SUPPRESS)  # the old PID STORE form
    bak.add_argument("--timeout", type=checks.positive_seconds, default=600.0, metavar="S",
                     help="seconds to wait for the copy (default 600)")
    bak.set_defaults(func="oriente.cli.serving:cmd_backup")

    rep = sub.add_parser("replay", help="replay a game record and tell it from one viewpoint")
    rep.add_argument("path", metavar="PATH", help="a game record (JSON)")
    rep.add_argument("--as", dest="viewer", type=parse_viewer, default=SPECTATOR, metavar="SEAT|spectator|all",
                     help="whose view to tell it from (default: spectator)")
    rep.set_defaults(func="oriente.cli.records:cmd_replay")

    ver = sub.add_parser("verify", help="check that a finished game was dealt as the server committed to before play")
    ver.add_argument("path", metavar="RECORD", help="a game record (JSON), e.g. from oriente demo")
    ver.add_argument("--commitment", metavar="HEX", default=None,
                     help="the commitment the table showed before you took your seat (its settings.commitment, "
                          "or the one its rematch was announced with): the record must carry it")
    ver.add_argument("--seat", type=checks.at_least(0, "a seat"), default=None, metavar="N",
                     help="your seat: with --nonce, the record's nonce for it must be yours; without, you brought "
                          "none, and the record must say the server supplied it")
    ver.add_argument("--nonce", default=None, metavar="SECRET",
                     help="the secret nonce your join, rematch or resume sent for --seat")
    ver.set_defaults(func="oriente.cli.records:cmd_verify")

    play = sub.add_parser("play", help="play at a table server in the terminal (lobby, then the table)")
    play.add_argument("--server", default=os.environ.get("ORIENTE_SERVER", "ws://127.0.0.1:8765"), metavar="URL",
                      help="the server's address (default: $ORIENTE_SERVER, else ws://127.0.0.1:8765; http:// and "
                           "HOST:PORT work too)")
    play.add_argument("--name", default=None, help="the name you sit down with (default: your login name)")
    play.add_argument("--resume", nargs=2, metavar=("TABLE", "TOKEN"), default=None,
                      help="sit down again at a table you left, with the token printed when you left")
    play.add_argument("--token", default=os.environ.get("ORIENTE_TOKEN"), metavar="TOKEN",
                      help="sign in with an account's session or bot API token first (default: $ORIENTE_TOKEN)")
    play.add_argument("--account", default=None, metavar="NAME",
                      help="sign in to the account NAME first; the password is asked without echo (turn-based "
                           "tables seat accounts only, and signed in anywhere you take your seats again)")
    play.add_argument("--new-account", action="store_true",
                      help="with --account: make the account first (the password is asked twice)")
    play.set_defaults(func="oriente.cli.play:cmd_play")

    tournament_parser(sub, checks.server_url)
    return p


def _take_resume(argv: list[str]) -> list[str] | None:
    """Take `play --resume TABLE TOKEN`'s two words out of `argv` as they are.

    Ids and tokens are drawn so that none begins with '-' (server/ids.py),
    but ones drawn before could, and argparse takes such a word for an
    option; the words after --resume are an id and a token whatever they
    look like."""
    if "play" not in argv or "--resume" not in argv[argv.index("play"):]:
        return None
    at = argv.index("--resume", argv.index("play"))
    if len(argv) < at + 3:
        return None  # too few words: argparse says so
    pair = argv[at + 1:at + 3]
    del argv[at:at + 3]
    return pair


def command(where: str) -> Callable[[argparse.Namespace], int]:
    """The function a subcommand runs, `"package.module:function"`, from
    the module that holds it (imported now, and only this one)."""
    module, _, name = where.partition(":")
    run: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(module), name)
    return run


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `oriente` console script."""
    words = list(sys.argv[1:] if argv is None else argv)
    resume = _take_resume(words)
    args = build_parser().parse_args(words)
    if resume is not None:
        args.resume = resume
    try:
        return command(args.func)(args)
    except BrokenPipeError:
        # `oriente demo | head`: the reader left; end quietly (the recipe of
        # Python's signal docs, so the final flush does not raise again).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
