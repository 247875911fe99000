"""The `oriente` command (`python -m oriente.cli`).

Subcommands, each a thin shell over the parts a person would otherwise
wire together by hand:

    oriente demo [--game GAME] [--seats N] [--bots BOT] [--seed S] [--quiet] [--record PATH] [--play | --watch]
    oriente serve [--host H] [--port P] [--store PATH|postgresql://...] [--public-origin ORIGIN]
                  [--allow-origin ORIGIN] [--trusted-proxy ADDRESS|NETWORK|none] [--metrics-port P]
                  [--tables-per-connection N] [--tables-per-address N] [--max-tables N] [--abandon-after S]
                  [--cluster REDIS_URL [--public-url URL] [--lease S] [--drain]]
    oriente drain PORT
    oriente dev-services [--dir FOLDER]
    oriente backup PORT [--timeout S]
    oriente play [--server URL] [--name NAME] [--resume TABLE TOKEN]
    oriente replay PATH [--as SEAT|spectator|all]
    oriente tournament create|register|play|start-round|direct|standings|export ...  (cli/tournament.py)
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import socket
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from oriente.clients.game_story import story_for
from oriente.clients.narrate import describe_result
from oriente.clients.timerwords import preset_text
from oriente.games import UnknownGame, load, registered
from oriente.games.kit.port import EVERYONE, SPECTATOR, GamePort, Viewer
from oriente.games.kit.replay import RULES_RECORD, record_game, steps
from oriente.protocol.messages import DEFAULT_GAME
from oriente.protocol.presets import ALIASES as PRESET_ALIASES
from oriente.protocol.presets import DEFAULT_PRESET, TIMER_PRESETS
from oriente.refusal import Refusal

from . import checks

RECORD_FORMAT = "oriente.record.v1"


def _is_record(record: Any) -> bool:
    """A game record in a format this program reads: the table's, or a
    registered game's rules package's own (`<game>.record.v1`)."""
    if not isinstance(record, dict):
        return False
    fmt = record.get("format")
    return fmt == RECORD_FORMAT or fmt == record_game(record, registered(), DEFAULT_GAME) + RULES_RECORD


def _plain(value: Any) -> Any:
    """As a JSON record holds it (lists, not tuples)."""
    return json.loads(json.dumps(value))


def _retell(port: GamePort, record: dict[str, Any], viewer: Viewer,
            out: Callable[[str], None]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Re-apply the record's commands one by one through the game's port and
    tell each step's events as `viewer` saw them, with its view after the
    step (the game's story: games/NAME/story.py, or its narrator on the
    table's own board); return the result and every event as a record
    holds them."""
    names = record.get("names") or []

    def label(s: Any) -> str:
        if isinstance(s, int) and s == viewer:
            return f"seat {s} (you)"
        return f"seat {s} ({names[s]})" if isinstance(s, int) and 0 <= s < len(names) and names[s] else f"seat {s}"

    story = story_for(port.name, viewer if viewer != EVERYONE else None, label)
    played = None
    for played, events in steps(port, record):
        for line in story.tell([port.project(e, viewer) for e in events], port.view(played.state, viewer)):
            out(line)
    assert played is not None
    return _plain(played.result), _plain([port.project(e, EVERYONE) for e in played.events])


def cmd_demo(args: argparse.Namespace) -> int:
    """A server on the embedded store, a table of bots over websockets, the
    game told live as a spectator sees it; then the scores and the record.
    What the game offers (its seats, its bots, its options) is what it
    says of itself (its port's `describe`, as `welcome.game_info` says it)."""
    from .demo import demo

    port = load(args.game or DEFAULT_GAME)  # no --game: the table names none, and plays the default (oriente.v1)
    info = port.describe()
    if args.seats is None:
        args.seats = info.default_seats
    if args.seats not in info.seats:
        print(f"oriente demo: a table of {port.name} has {info.seats.start} to {info.seats.stop - 1} seats, "
              f"not {args.seats}", file=sys.stderr)
        return 2
    if not port.policies:
        print(f"oriente demo: {port.name} has no reference bots to play it", file=sys.stderr)
        return 2
    aliases = port.policy_aliases
    if args.bots is None:
        args.bots = port.policies[0]
    elif args.bots not in port.policies and args.bots not in aliases:
        print(f"oriente demo: {port.name} has no bot called {args.bots!r}; its bots are "
              f"{', '.join(port.policies)}", file=sys.stderr)
        return 2
    # The options a person is offered first where that is not the game's default (a variant that shows more).
    options = {o.name: o.suggested for o in info.options if o.suggested is not None}
    name = (args.name or os.environ.get("USER") or "player").strip()[:32] or "player"
    if args.watch and args.play:
        print("oriente demo: --watch and --play do not go together", file=sys.stderr)
        return 2
    unwritable = args.record and _cannot_write(Path(args.record))
    if unwritable:  # said before the game, not after it
        print(f"oriente demo: --record {args.record}: {unwritable}", file=sys.stderr)
        return 2
    return demo(seats=args.seats, seed=args.seed, store=args.store, record_path=args.record,
                policy=aliases.get(args.bots, args.bots), delay=args.delay, quiet=args.quiet, play=args.play,
                name=name, timers=args.timers, watch=args.watch, port=args.port, game=args.game, options=options)


def _cannot_write(path: Path) -> str | None:
    """Why a file cannot be written at `path` (its folder is made if need
    be), or None."""
    if path.is_dir():
        return "is a folder; give a file's path"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot make its folder: {exc.strerror or exc}"
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return "cannot be written here"
    return None


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


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a finished game's record: the commitment published before play
    (against the one you saw live, with --commitment), the nonces the server
    supplied, your own seat's nonce (--seat, --nonce), the seed from the salt
    and the seats' nonces, the config that seed deals, every event and the
    result replayed through the game's port, and the table events as far as
    the record proves them. Says what it cannot prove. Exit 0 when all hold,
    1 when one does not (saying which), 2 when the record cannot be verified
    (an old record, a seed a player chose, not a record)."""
    from oriente.clients.sdk import verify_record

    try:
        record = json.loads(Path(args.path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"oriente verify: cannot read {args.path}: {exc}", file=sys.stderr)
        return 2
    if not _is_record(record):
        print(f"oriente verify: {args.path} is not a game record ({RECORD_FORMAT}, or a game's own)", file=sys.stderr)
        return 2
    verdict = verify_record(record, commitment=args.commitment, seat=args.seat, nonce=args.nonce)
    for line in verdict["checked"]:
        print(f"ok: {line}")
    for line in verdict["problems"]:
        print(f"{'FAILED' if verdict['ok'] is False else 'note'}: {line}")
    for line in verdict["unproven"]:
        print(f"not proven: {line}")
    if verdict["ok"] is True:
        print(f"verified: {args.path} was dealt as committed before play")
        return 0
    if verdict["ok"] is None:
        print(f"not verifiable: {args.path}")
        return 2
    print(f"verification FAILED: {args.path}")
    return 1


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-apply a record's commands and tell every event as `--as` sees it.
    The record's stored events and result are checked against the replay,
    so a record that no longer replays (a rules change) is caught here."""
    try:
        record = json.loads(Path(args.path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"oriente replay: cannot read {args.path}: {exc}", file=sys.stderr)
        return 2
    if not _is_record(record):
        print(f"oriente replay: {args.path} is not a game record ({RECORD_FORMAT}, or a game's own)", file=sys.stderr)
        return 2
    game_name = record_game(record, registered(), DEFAULT_GAME)  # oriente.v1: a record naming none is the default's
    try:
        port = load(game_name)
    except UnknownGame:
        print(f"oriente replay: {args.path} records a game of {game_name}; this program plays "
              f"{', '.join(registered())}", file=sys.stderr)
        return 2
    if record.get("status") == "failed":
        print(f"oriente replay: {args.path} records a table that an error ended; it is retold up to there",
              file=sys.stderr)
    viewer = args.viewer
    seats = record.get("config", {}).get("seats")
    if isinstance(viewer, int) and isinstance(seats, int) and viewer >= seats:
        print(f"oriente replay: this game has seats 0..{seats - 1}", file=sys.stderr)
        return 2
    try:
        result, replayed = _retell(port, record, viewer, print)
    except (KeyError, TypeError, ValueError, IndexError, Refusal) as exc:
        print(f"oriente replay: {args.path} does not replay: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if result is not None:
        print()
        print(describe_result(result, game=game_name))
    else:
        print("\n(The recorded game is not over.)")
    stored_events = record.get("events")
    if record.get("result") != result or (stored_events is not None and stored_events != replayed):
        print("oriente replay: the replay differs from the recorded events or result", file=sys.stderr)
        return 1
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the table server until SIGTERM or SIGINT (graceful shutdown)."""
    import logging

    import trio

    from oriente.clients.web import mounts
    from oriente.server.app import App, ClusterOptions, serve_until_signalled
    from oriente.server.stores import StoreError

    busy = _cannot_listen(args.host, args.port)
    if busy is not None:  # said before the store is opened, so that no store file is left behind
        print(f"oriente serve: cannot listen on {args.host}:{args.port}: {busy} "
              "(is another server running there? --port 0 picks a free port)", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from oriente.server.transport import Limits

    cluster = None
    if args.cluster is not None:
        cluster = ClusterOptions(bus=args.cluster, url=args.public_url, lease_s=args.lease,
                                 drain_on_stop=args.drain)

    limits = Limits(tables_per_connection=args.tables_per_connection, tables_per_address=args.tables_per_address)
    from oriente.server.accounts import AccountPolicy, SessionPolicy

    if not 0 < args.session_days <= args.session_max_days:
        print("oriente serve: --session-days must be above 0 and at most --session-max-days", file=sys.stderr)
        return 2
    accounts = AccountPolicy(sessions=SessionPolicy(idle=args.session_days * 86400.0,
                                                    most=args.session_max_days * 86400.0))
    app = App(args.store, host=args.host, port=args.port, web=mounts(), limits=limits,
              allow_origins=args.allow_origin, public_origins=args.public_origin, bot_delay=args.bot_delay,
              trusted_proxies=args.trusted_proxy, max_tables=args.max_tables,
              abandon_after=args.abandon_after, cluster=cluster, accounts=accounts,
              metrics_port=args.metrics_port, metrics_host=args.metrics_host)

    def ready(app: App) -> None:
        # One machine-readable line, so scripts (and tests) can find the port.
        metrics = f" metrics=http://{args.metrics_host}:{app.metrics_port}/metrics" if app.metrics_port else ""
        print(f"serving ws://{args.host}:{app.port} store={_without_password(args.store)} "
              f"recovered={app.recovered}{metrics}", flush=True)
        print(f"open http://{args.host}:{app.port}/ in a browser to play", flush=True)

    try:
        trio.run(partial(serve_until_signalled, app, ready, admin=True))
    except BaseExceptionGroup as group:
        # The store refused to open (another server holds it, the database
        # is unreachable), or another program took the port meanwhile: say
        # so in one line, no traceback.
        refused = group.subgroup(lambda exc: isinstance(exc, StoreError | OSError)
                                 or type(exc).__name__ == "BusError")  # the bus: not imported unless used
        if refused is None:
            raise
        print(f"oriente serve: {_first_leaf(refused)}", file=sys.stderr)
        return 1
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """Ask the server of a port on this machine, through its admin socket
    (server/admin.py), for a consistent copy of its SQLite store, written
    beside it as STORE.backup; return once it is there. While the server
    runs nothing else may open the store (docs/deploy.md, backups). No
    signal to a process id: only the server answers there."""
    import trio

    from oriente.server.admin import AdminError, ask

    if args.old_store is not None:
        print("oriente backup: give the server's port alone (oriente backup PORT): the server writes the copy "
              "beside the store it serves, as STORE.backup", file=sys.stderr)
        return 2

    async def asked() -> str | None:
        with trio.move_on_after(args.timeout):
            return await ask(args.port, "backup")
        return None

    try:
        answer = trio.run(asked)
    except AdminError as exc:
        print(f"oriente backup: {exc}", file=sys.stderr)
        return 1
    if answer is None:
        print(f"oriente backup: no answer from the server of port {args.port} after {args.timeout:g} s "
              "(its log says why)", file=sys.stderr)
        return 1
    verdict, _, rest = answer.partition(" ")
    size, _, path = rest.partition(" ")
    if verdict != "ok" or not size.isdigit() or not path:
        print(f"oriente backup: the server of port {args.port} says: {rest or 'nothing (it stopped?)'}",
              file=sys.stderr)
        return 1
    print(f"{path} ({size} bytes): a copy of the store as it was; copy it away")
    return 0


def _origin(text: str) -> str:
    """An --allow-origin or --public-origin value, checked when it is given."""
    from oriente.server.origins import OriginError, origin_text, parse_origin

    try:
        return origin_text(parse_origin(text))
    except OriginError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _trusted_proxy(text: str) -> str:
    """A --trusted-proxy value, checked when it is given."""
    from oriente.server.addresses import parse_trusted_proxy

    try:
        parse_trusted_proxy(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def cmd_drain(args: argparse.Namespace) -> int:
    """Ask the server of a port on this machine, through its admin socket
    (server/admin.py), to drain: it hands its tables to the other processes
    of its site one by one, its clients follow, it stops. Only a server
    answers there, and only to its own user: no signal to a process id."""
    import trio

    from oriente.server.admin import AdminError, ask

    try:
        answer = trio.run(ask, args.port, "drain")
    except AdminError as exc:
        print(f"oriente drain: {exc}", file=sys.stderr)
        return 1
    verdict, _, rest = answer.partition(" ")
    if verdict != "ok":
        print(f"oriente drain: the server of port {args.port} says: {rest or 'nothing (it stopped?)'}",
              file=sys.stderr)
        return 1
    handed = rest.removeprefix("drained ").strip()
    print(f"the server of port {args.port} handed {handed} table(s) to the other processes of its site and stops")
    return 0


def cmd_dev_services(args: argparse.Namespace) -> int:
    """A throwaway PostgreSQL and Redis (cli/devservices.py)."""
    from .devservices import main as dev_services

    return dev_services(args.dir)


def _server_port(text: str) -> int:
    """`oriente drain`'s and `oriente backup`'s server: its port (8765) or
    address (ws://127.0.0.1:8765)."""
    from urllib.parse import urlsplit

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


def _without_password(store: str) -> str:
    """A store's URL as it may be printed: any password replaced by ***."""
    from urllib.parse import urlsplit

    parts = urlsplit(store)
    if parts.password is None:
        return store
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def _cannot_listen(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on (the port is taken, the host is
    not this machine's), or None. Port 0 always works."""
    if port == 0:
        return None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        return f"{exc}"
    for family, kind, proto, _, address in infos:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server itself does
                probe.bind(address)
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def _first_leaf(group: BaseExceptionGroup) -> BaseException:
    first = group.exceptions[0]
    return _first_leaf(first) if isinstance(first, BaseExceptionGroup) else first


def cmd_play(args: argparse.Namespace) -> int:
    """The terminal client for people: a lobby, then the table screen."""
    from oriente.clients.terminal import run_play

    name = (args.name or os.environ.get("USER") or "player").strip()[:32] or "player"
    try:
        url = server_url(args.server)
    except ValueError as exc:
        print(f"oriente play: {exc}", file=sys.stderr)
        return 2
    return run_play(url, name, tuple(args.resume) if args.resume else None, token=args.token)


def server_url(text: str) -> str:
    """The websocket address of a server as a person may type it: 'ws://h:p'
    as is, 'http://h:p' (what `oriente serve` prints for browsers) as
    'ws://h:p', 'https://' as 'wss://', a bare 'h:p' or 'h' as 'ws://'."""
    given = text.strip()
    scheme, sep, rest = given.partition("://")
    if not sep:
        scheme, rest = "ws", given
    ws = {"ws": "ws", "wss": "wss", "http": "ws", "https": "wss"}.get(scheme.lower())
    host = rest.split("/", 1)[0]
    if ws is None or not host or any(c.isspace() for c in rest):
        raise ValueError(f"{text!r} is not a server address; try ws://HOST:PORT, e.g. ws://127.0.0.1:8765")
    return f"{ws}://{rest}"


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
    demo.set_defaults(func=cmd_demo)

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
    srv.add_argument("--session-days", type=checks.positive_seconds, default=30.0, metavar="DAYS",
                     help="a person's session signs in for DAYS after it was last used (default 30; "
                          "bots' API tokens last until revoked)")
    srv.add_argument("--session-max-days", type=checks.positive_seconds, default=365.0, metavar="DAYS",
                     help="and never longer than DAYS after the password sign-in that began it (default 365)")
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
    srv.set_defaults(func=cmd_serve)

    drn = sub.add_parser("drain", help="hand a server process's tables to the site's others, then stop it")
    drn.add_argument("port", type=_server_port, metavar="PORT",
                     help="the port of an `oriente serve --cluster` on this machine (or its address, "
                          "ws://127.0.0.1:PORT); asked through the server's admin socket")
    drn.set_defaults(func=cmd_drain)

    dev = sub.add_parser("dev-services", help="a throwaway PostgreSQL and Redis on free local ports, for trying "
                                              "a site of many processes (until Ctrl-C)")
    dev.add_argument("--dir", default=None, metavar="FOLDER",
                     help="keep their files in FOLDER, new or empty (default: a temporary folder, removed at the end)")
    dev.set_defaults(func=cmd_dev_services)

    bak = sub.add_parser("backup", help="have a running server copy its SQLite store to STORE.backup")
    bak.add_argument("port", type=_server_port, metavar="PORT",
                     help="the port of the `oriente serve` on this machine (or its address, ws://127.0.0.1:PORT); "
                          "asked through the server's admin socket")
    bak.add_argument("old_store", nargs="?", default=None, help=argparse.SUPPRESS)  # the old PID STORE form
    bak.add_argument("--timeout", type=checks.positive_seconds, default=600.0, metavar="S",
                     help="seconds to wait for the copy (default 600)")
    bak.set_defaults(func=cmd_backup)

    rep = sub.add_parser("replay", help="replay a game record and tell it from one viewpoint")
    rep.add_argument("path", metavar="PATH", help="a game record (JSON)")
    rep.add_argument("--as", dest="viewer", type=parse_viewer, default=SPECTATOR, metavar="SEAT|spectator|all",
                     help="whose view to tell it from (default: spectator)")
    rep.set_defaults(func=cmd_replay)

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
    ver.set_defaults(func=cmd_verify)

    play = sub.add_parser("play", help="play at a table server in the terminal (lobby, then the table)")
    play.add_argument("--server", default=os.environ.get("ORIENTE_SERVER", "ws://127.0.0.1:8765"), metavar="URL",
                      help="the server's address (default: $ORIENTE_SERVER, else ws://127.0.0.1:8765; http:// and "
                           "HOST:PORT work too)")
    play.add_argument("--name", default=None, help="the name you sit down with (default: your login name)")
    play.add_argument("--resume", nargs=2, metavar=("TABLE", "TOKEN"), default=None,
                      help="sit down again at a table you left, with the token printed when you left")
    play.add_argument("--token", default=os.environ.get("ORIENTE_TOKEN"), metavar="TOKEN",
                      help="sign in with an account's session or bot API token first (default: $ORIENTE_TOKEN)")
    play.set_defaults(func=cmd_play)

    from .tournament import add_parser as tournament_parser

    tournament_parser(sub, server_url)
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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `oriente` console script."""
    words = list(sys.argv[1:] if argv is None else argv)
    resume = _take_resume(words)
    args = build_parser().parse_args(words)
    if resume is not None:
        args.resume = resume
    try:
        return args.func(args)
    except BrokenPipeError:
        # `oriente demo | head`: the reader left; end quietly (the recipe of
        # Python's signal docs, so the final flush does not raise again).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
