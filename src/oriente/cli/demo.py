"""`oriente demo`: the whole system in one command.

Starts a table server on the embedded SQLite store, seats reference bots
that play over real websockets through the bot SDK, and tells the game live
as a spectator sees it (public information only, R10.4). It ends with the
final scores and the path of the game record. With `--play` the user takes
seat 0 in the terminal client and the bots take the others.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import trio

from oriente.clients.game_story import story_for
from oriente.clients.narrate import describe_result
from oriente.clients.progname import command_name
from oriente.clients.sdk import Client, ServerError
from oriente.clients.terminal import run_play
from oriente.clients.web import mounts
from oriente.games import home, load
from oriente.games.kit.port import SPECTATOR, GamePort
from oriente.protocol.messages import DEFAULT_GAME
from oriente.protocol.presets import DEFAULT_PRESET, preset
from oriente.server.app import App
from oriente.server.stores import StoreError, StoreLocked, open_store

BOT_NAMES = ("Aiko", "Benkei", "Chiyo", "Daisuke", "Emi", "Fumio", "Goro", "Hana", "Isamu", "Jun", "Kaede", "Ren")
# Bots answer at once, but the table still has deadlines: a stuck bot cannot hang it.
BOT_TABLE = {"prompt_ms": 5_000, "window_ms": 5_000, "bank_ms": 0, "bank_refill_ms": 0,
             "zero_wait": False, "away_after": 3}
# With a person at the table: the timers every client offers people
# (docs/table.md T1.8), `normal` unless --timers says otherwise: a
# negotiation window of at least 45 s, long enough to build a deal by hand;
# the bots say done at once, so a window closes as soon as the person is
# done too (/done, R10.2b1) and every asked seat has declared.


async def play_port_bot(port: GamePort, url: str, table: str, name: str, policy: str, rng: random.Random,
                        delay: float, seat: int | None = None) -> None:
    """One of the game's reference bots over the protocol: the play the
    server's own bots make (the port's `bot_move`, server/bots.py), from
    the seat's newest view and prompt, each answer sent once, `delay`
    seconds after the frame that called for it. Its proposals carry their
    reasons (R8.8), which every client tells in its reader's language."""
    memo: dict[str, Any] = {}
    done: set[Any] = set()
    async with Client.connect(url) as client:
        me = await client.join(table, name, seat=seat)
        async for _update in me.updates():
            view, prompt = me.view, me.prompt
            if not view or not prompt or not (prompt.get("legal") or prompt.get("choose")):
                continue  # nothing asked of this seat (a bargaining bot has some command in every window)
            arrived = trio.current_time()
            move = port.bot_move(policy, me.seat, view, prompt, rng, memo)
            if move is None or (move.key in done and not move.again):  # again: a sealed answer changed back
                continue
            done.add(move.key)
            # Decided first, sent `delay` after the frame: its timing tells nothing of its cards (R10.2d).
            await trio.sleep_until(arrived + delay)
            now = me.prompt or {}
            if now.get("id") != prompt.get("id") or (move.command.get("type") in port.talk_commands
                                                     and now.get("kind") == "round"):
                # The decision it was made for closed meanwhile (a window became its round),
                # or it would talk while a round collects answers: said now, it would come
                # after the window it belongs to, and the story would tell it out of order.
                # Decide again on the newest frame.
                done.discard(move.key)
                continue
            with contextlib.suppress(ServerError):  # a race with the table moving on: the next frame tells
                await me.act(move.command)


async def run_table(**kwargs: Any) -> dict[str, Any]:
    """`_run_table`, stopped cleanly by Ctrl-C when it runs in the main
    thread: the interrupt is taken as a signal and cancels the table, its
    bots and its server, and only then is KeyboardInterrupt raised, here.
    Left to trio's own delivery, Ctrl-C could land inside a websocket's
    closing and surface as another error (seen: "coroutine raised
    StopIteration" in place of a clean stop)."""
    if threading.current_thread() is not threading.main_thread():
        return await _run_table(**kwargs)  # --play: the person's terminal owns Ctrl-C
    interrupted = False
    async with trio.open_nursery() as guard:

        async def stop_on_ctrl_c() -> None:
            nonlocal interrupted
            with trio.open_signal_receiver(signal.SIGINT) as signals:
                async for _ in signals:
                    interrupted = True
                    guard.cancel_scope.cancel()
                    return

        guard.start_soon(stop_on_ctrl_c)
        record = await _run_table(**kwargs)
        guard.cancel_scope.cancel()
    if interrupted:
        raise KeyboardInterrupt
    return record


async def _run_table(*, seats: int, seed: int | None, store: str, policy: str, delay: float,
                    out: Callable[[str], None], person: bool = False, timers: str = DEFAULT_PRESET,
                    person_name: str = "you",
                    ready: Callable[[str, str, str], None] | None = None,
                    watch: Callable[[dict[str, Any]], object] | None = None, port: int = 0,
                    game: str | None = None, options: dict[str, Any] | None = None,
                    seen: dict[str, Any] | None = None, where_kept: str = "",
                    linger: threading.Event | None = None) -> dict[str, Any]:
    """Serve one table of bots (and maybe a person at seat 0); narrate it as a
    spectator; return the finished game's record. `game` None creates the
    table without naming its game (the server's default, oriente.v1);
    `options` are the game's options for it. With `watch`, the server
    also serves the web client, says where to watch, hands the record to
    `watch` when the game ends and keeps serving until Ctrl-C. With
    `linger`, the server stays up after the game until it is set (the
    person at the table is still reading the end, and may /save)."""
    rules = load(game or DEFAULT_GAME)  # the game's port (`port` is the web port)
    web = None
    if watch is not None:
        web = mounts()
    app = App(store, port=port if watch is not None else 0, web=web)
    async with trio.open_nursery() as nursery:
        await nursery.start(app.run)
        url = f"ws://127.0.0.1:{app.port}"
        async with Client.connect(url) as host:
            settings: dict[str, Any] = {"name": "demo", "timers": preset(timers) if person else BOT_TABLE}
            if game is not None:
                settings["game"] = game
            if options:
                settings["options"] = options
            if seed is not None:
                settings["seed"] = seed
            if person:
                settings["proxy_after"] = 2  # a person who walks away is played by the game's proxy bot
            table = await host.create_table(seats=seats, **settings)
            if seen is not None:
                seen["table"] = table
            spectating = await host.spectate(table, views=True)
            out(f"Table {table} on {url} ({where_kept or 'store ' + store}): {rules.name}, {seats} seats"
                + (", you at seat 0." if person else f", {policy} bots."))
            if watch is not None:
                print(f"Watch it in a browser: http://127.0.0.1:{app.port}/#/t/{table}", flush=True)
            async with trio.open_nursery() as bots:
                first_bot = 0
                if person:
                    seat = await host.join(table, person_name, seat=0, views=False)
                    token = seat.token
                    await host.unsubscribe(table)
                    spectating = await host.spectate(table, views=True)
                    first_bot = 1
                    assert ready is not None and token is not None
                    ready(url, table, token)
                for i in range(first_bot, seats):
                    rng = random.Random(f"{seed}-{i}")
                    bots.start_soon(play_port_bot, rules, url, table, BOT_NAMES[i % len(BOT_NAMES)], policy, rng,
                                    delay, i)
                names: dict[int, str] = {}

                def label(s: Any) -> str:
                    return f"seat {s} ({names[s]})" if s in names else f"seat {s}"
                story = story_for(rules.name, SPECTATOR, label)
                async for update in spectating.updates():
                    for event in update.events:
                        if event["type"] == "SeatTaken":
                            names[event["seat"]] = event.get("name", "")
                    for line in story.tell([{k: v for k, v in e.items() if k != "seq"} for e in update.events],
                                           update.view):
                        out(line)
            record = await host.record(table)
            if seen is not None:
                seen["over"] = True
            if linger is not None:
                await trio.to_thread.run_sync(linger.wait, abandon_on_cancel=True)
        if watch is not None:
            watch(record)
            print(f"The game is over; it stays at http://127.0.0.1:{app.port}/#/t/{table} "
                  f"(replay: http://127.0.0.1:{app.port}/#/r/{table}) until you press Ctrl-C.", flush=True)
            with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for _ in signals:
                    break
        app.stop()
    return record


# With --watch, bots act about as fast as people read the table.
WATCH_DELAY = 1.2


def demo(*, seats: int, seed: int | None, store: str | None, record_path: str | None, policy: str,
         delay: float | None, quiet: bool, play: bool, name: str, timers: str = DEFAULT_PRESET, watch: bool = False,
         port: int = 0, game: str | None = None, options: dict[str, Any] | None = None) -> int:
    """Run the demo on `store`, or (None) on a store of its own that is gone
    when the demo ends: a demo neither meets a running `oriente serve`'s
    store nor leaves a table behind in it."""
    with _own_store(store) as (path, where_kept):
        seen: dict[str, Any] = {}
        try:
            return _demo(seats=seats, seed=seed, store=path, record_path=record_path, policy=policy, delay=delay,
                         quiet=quiet, play=play, name=name, timers=timers, watch=watch, port=port, game=game,
                         options=options, seen=seen, where_kept=where_kept)
        except (KeyboardInterrupt, BaseExceptionGroup) as exc:
            # trio hands Ctrl-C on as KeyboardInterrupt, alone or in a group.
            if isinstance(exc, KeyboardInterrupt) or exc.subgroup(KeyboardInterrupt) is not None:
                if store is not None:
                    _stop_left_table(path, seen)
                print("\nStopped.", file=sys.stderr)
                return 130
            if exc.subgroup(BrokenPipeError) is not None:  # `oriente demo | head`: main ends quietly
                raise BrokenPipeError from None
            reason = store_refusal(exc)
            if reason is None:
                raise
            print(f"oriente demo: {reason}", file=sys.stderr)
            return 1


@contextlib.contextmanager
def _own_store(store: str | None) -> Iterator[tuple[str, str]]:
    """`store` as given, or a fresh SQLite file in a folder removed at the end."""
    if store is not None:
        yield store, ""
        return
    with tempfile.TemporaryDirectory(prefix="oriente-demo-") as folder:
        yield str(Path(folder) / "demo.sqlite"), "its own store, gone when the demo ends"


def store_refusal(group: BaseExceptionGroup) -> str | None:
    """One line for a store that would not open (another server holds it, a
    database out of reach), or None if the failure is something else."""
    found = group.subgroup(lambda exc: isinstance(exc, StoreError))
    if found is None:
        return None
    leaf = first_leaf(found)
    if isinstance(leaf, StoreLocked):
        return f"{leaf} (without --store the demo keeps a store of its own)"
    return str(leaf)


def first_leaf(group: BaseExceptionGroup) -> BaseException:
    """The first exception in a (nested) group: the one to tell."""
    first = group.exceptions[0]
    return first_leaf(first) if isinstance(first, BaseExceptionGroup) else first


def _stop_left_table(store: str, seen: dict[str, Any]) -> None:
    """A demo stopped before its game ended leaves nobody to play its table:
    mark it abandoned in the store given, so that a later `oriente serve` on
    that store does not bring it back to wait for bots that are gone."""
    table = seen.get("table")
    if table is None or seen.get("over"):
        return

    async def mark() -> None:
        kept = open_store(store)
        async with trio.open_nursery() as nursery:
            await nursery.start(kept.run)
            try:
                await kept.update_table(table, status="abandoned", now=time.time())
            finally:
                await kept.aclose()

    try:
        trio.run(mark)
    except Exception as exc:
        print(f"oriente demo: the table {table} stays in {store} ({exc})", file=sys.stderr)
    else:
        print(f"The demo table {table} was stopped and is marked abandoned in {store}.", file=sys.stderr)


def primer(game: str) -> str:
    """A few sentences on what `game` is and how it is won (its home's
    primer module), told before the story; empty for a game without one."""
    try:
        module = importlib.import_module(f"{home(game)}.primer")
    except ModuleNotFoundError:
        return ""
    return str(getattr(module, "PRIMER", ""))


def _demo(*, seats: int, seed: int | None, store: str, record_path: str | None, policy: str,
          delay: float | None, quiet: bool, play: bool, name: str, timers: str, watch: bool,
          port: int, game: str | None, options: dict[str, Any] | None, seen: dict[str, Any],
          where_kept: str) -> int:
    out: Callable[[str], None] = (lambda line: None) if quiet else print
    if not play:
        out(primer(game or DEFAULT_GAME))
    if watch:
        trio.run(lambda: run_table(seats=seats, seed=seed, store=store, policy=policy,
                                   delay=WATCH_DELAY if delay is None else delay, out=out, port=port,
                                   watch=lambda record: _finish(record, record_path, print), game=game,
                                   options=options, seen=seen, where_kept=where_kept))
        return 0
    if not play:
        record = trio.run(lambda: run_table(seats=seats, seed=seed, store=store, policy=policy,
                                            delay=0.05 if delay is None else delay, out=out, game=game,
                                            options=options, seen=seen, where_kept=where_kept))
        return _finish(record, record_path, print)
    return _demo_with_person(seats=seats, seed=seed, store=store, record_path=record_path,
                             policy=policy, name=name, timers=timers, game=game, options=options)


def _finish(record: dict[str, Any], record_path: str | None, out: Callable[[str], None]) -> int:
    path = Path(record_path) if record_path else Path("records") / f"demo-{record['table']}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
    except OSError as exc:
        # The game was played: its scores still go to the screen, and why no record.
        out(describe_result(record["result"], game=record.get("game", DEFAULT_GAME)))
        print(f"oriente demo: cannot write the record to {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    out("")
    names = record.get("names") or []
    if names:
        out("Seats: " + ", ".join(f"{i} {n}" for i, n in enumerate(names)))
    out(describe_result(record["result"], game=record.get("game", DEFAULT_GAME)))
    out(f"\nGame record (full reveal): {path}   replay it with: {command_name()} replay {path} --as all")
    return 0


def _demo_with_person(*, seats: int, seed: int | None, store: str, record_path: str | None,
                      policy: str, name: str, timers: str, game: str | None = None,
                      options: dict[str, Any] | None = None) -> int:
    """The server and bots run in a background thread with their own trio
    loop; the terminal client owns the foreground (and the terminal)."""
    ready = threading.Event()
    left = threading.Event()  # the person has quit: the server may stop once the game is over
    where: dict[str, Any] = {}

    def on_ready(url: str, table: str, token: str) -> None:
        where.update(url=url, table=table, token=token)
        ready.set()

    def background() -> None:
        try:
            where["record"] = trio.run(lambda: run_table(
                seats=seats, seed=seed, store=store, policy=policy, delay=0.05 if timers == "quick" else 0.3,
                out=lambda line: None, person=True, timers=timers, person_name=name, ready=on_ready, game=game,
                options=options, seen=where, linger=left))
        except BaseException as exc:
            where["error"] = exc
            ready.set()

    thread = threading.Thread(target=background, daemon=True)
    thread.start()
    ready.wait()
    if "error" in where:
        error = where["error"]
        reason = (store_refusal(error) or str(first_leaf(error))) if isinstance(error, BaseExceptionGroup) \
            else str(error)
        print(f"oriente demo: the server could not start: {reason}", file=sys.stderr)
        return 1
    code = run_play(where["url"], name, (where["table"], where["token"]), resumable=False)
    left.set()
    thread.join(timeout=60 if where.get("over") else 1)  # a finished game's server stops at once
    if "record" in where:
        return _finish(where["record"], record_path, print)
    print("You left before the end. The demo's server stops with this program, so this game stops here; "
          f"to keep a game you can come back to, run `{command_name()} serve` and `{command_name()} play`.")
    return code


def cmd_demo(args: argparse.Namespace) -> int:
    """A server on the embedded store, a table of bots over websockets, the
    game told live as a spectator sees it; then the scores and the record.
    What the game offers (its seats, its bots, its options) is what it
    says of itself (its port's `describe`, as `welcome.game_info` says it)."""
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
