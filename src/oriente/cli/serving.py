"""`oriente serve` and the commands that talk to a running server
(`backup`, `drain`), and `dev-services`: the server's side of the command
line, loaded only when one of them runs (the server's imports are the
heaviest of the program)."""

from __future__ import annotations

import argparse
import logging
import socket
import sys
from functools import partial
from urllib.parse import urlsplit

import trio

from oriente.clients.web import mounts
from oriente.server.accounts import AccountPolicy, SessionPolicy
from oriente.server.admin import AdminError, ask
from oriente.server.app import App, ClusterOptions, MailOptions, serve_until_signalled
from oriente.server.mailer import parse_smtp_url
from oriente.server.notifier import NotifyPolicy
from oriente.server.stores import StoreError
from oriente.server.transport import Limits

from .devservices import main as dev_services


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the table server until SIGTERM or SIGINT (graceful shutdown)."""
    busy = _cannot_listen(args.host, args.port)
    if busy is not None:  # said before the store is opened, so that no store file is left behind
        print(f"oriente serve: cannot listen on {args.host}:{args.port}: {busy} "
              "(is another server running there? --port 0 picks a free port)", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")

    cluster = None
    if args.cluster is not None:
        cluster = ClusterOptions(bus=args.cluster, url=args.public_url, lease_s=args.lease,
                                 drain_on_stop=args.drain)

    limits = Limits(tables_per_connection=args.tables_per_connection, tables_per_address=args.tables_per_address)

    if not 0 < args.session_days <= args.session_max_days:
        print("oriente serve: --session-days must be above 0 and at most --session-max-days", file=sys.stderr)
        return 2
    accounts = AccountPolicy(sessions=SessionPolicy(idle=args.session_days * 86400.0,
                                                    most=args.session_max_days * 86400.0))
    mail = None
    if args.smtp is not None:
        mail = MailOptions(smtp=parse_smtp_url(args.smtp),
                           policy=NotifyPolicy(every=args.mail_every * 60.0, grace=args.mail_after * 60.0))
    app = App(args.store, host=args.host, port=args.port, web=mounts(), limits=limits,
              allow_origins=args.allow_origin, public_origins=args.public_origin, bot_delay=args.bot_delay,
              trusted_proxies=args.trusted_proxy, max_tables=args.max_tables,
              abandon_after=args.abandon_after, cluster=cluster, accounts=accounts, mail=mail,
              sleep_horizon=args.sleep_horizon, max_turn_tables=args.max_turn_tables,
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

def cmd_drain(args: argparse.Namespace) -> int:
    """Ask the server of a port on this machine, through its admin socket
    (server/admin.py), to drain: it hands its tables to the other processes
    of its site one by one, its clients follow, it stops. Only a server
    answers there, and only to its own user: no signal to a process id."""
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
    return dev_services(args.dir)

def _without_password(store: str) -> str:
    """A store's URL as it may be printed: any password replaced by ***."""
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
