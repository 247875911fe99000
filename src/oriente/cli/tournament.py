"""`oriente tournament ...`: an organiser runs a whole event from the
command line, and a bot enters one (docs/tournaments.md, PROTOCOL.md 20).

    oriente tournament create --name NAME [--game G] [--format swiss|duplicate|arena] [--rounds N]
                              [--sizes 5,6] [--bots allowed|only|none] [--no-show proxy|forfeit]
                              [--show-up S] [--scoring linear|win] [--timers bots|people] [--apart A,B]
    oriente tournament register TOURNAMENT --name NAME [--bot POLICY --token ORGANISER]
    oriente tournament play TOURNAMENT --token ENTRY [--bot POLICY]     a bot plays every table it is seated at
    oriente tournament start-round TOURNAMENT --token ORGANISER
    oriente tournament direct TOURNAMENT ACTION --token ORGANISER [--round R] [--table N] [--ranks 1,2,3]
                              [--entrant ID]          pause, resume, reseat, adjudicate, disqualify, ...
    oriente tournament standings TOURNAMENT
    oriente tournament export TOURNAMENT [--what csv|json|records] [--out PATH]

Every command takes `--server URL` (default ws://127.0.0.1:8765). Actions
go over the protocol; exports are plain GET downloads from the same port.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import trio

from oriente.clients.sdk import Client, Disconnected, ServerError
from oriente.protocol.presets import DEFAULT_PRESET, preset

from .botplay import play_seat

BOT_TIMERS = {"prompt_ms": 2000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": True,
              "away_after": 3}
PEOPLE_TIMERS = preset(DEFAULT_PRESET)  # docs/table.md T1.8
EXPORTS = {"csv": "standings.csv", "json": "export.json", "records": "records.json"}


def http_base(url: str) -> str:
    """The server's HTTP address from its websocket one (same port)."""
    scheme, _, rest = url.partition("://")
    return ("https" if scheme == "wss" else "http") + "://" + rest.rstrip("/")


async def _request(url: str, message: dict[str, Any]) -> dict[str, Any]:
    async with Client.connect(url, reconnect=False) as client:
        return await client.request(message)


def _run(url: str, message: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return trio.run(_request, url, message)
    except ServerError as exc:
        print(f"oriente tournament: {exc.code}: {exc.message}", file=sys.stderr)
    except Disconnected as exc:
        print(f"oriente tournament: {exc}", file=sys.stderr)
    return None


def cmd_create(args: argparse.Namespace) -> int:
    settings: dict[str, Any] = {"name": args.name, "game": args.game, "format": args.format, "rounds": args.rounds,
                                "table_sizes": args.sizes, "bots": args.bots, "no_show": args.no_show,
                                "show_up_s": args.show_up, "scoring": args.scoring,
                                "timers": BOT_TIMERS if args.timers == "bots" else PEOPLE_TIMERS,
                                "apart": [pair.split(",", 1) for pair in args.apart]}
    if args.seed is not None:
        settings["seed"] = args.seed
    reply = _run(args.server, {"t": "tournament_create", "settings": settings})
    if reply is None:
        return 1
    print(f"tournament {reply['tournament']}")
    print(f"organiser token {reply['organiser_token']}  (keep it: every director's action needs it)")
    if args.seed is not None:
        print("seeded: you chose the seed, so every board follows from it; entrants are told (docs/tournaments.md "
              "TR2.5)")
    return 0


def cmd_register(args: argparse.Namespace) -> int:
    message: dict[str, Any] = {"t": "tournament_register", "tournament": args.tournament, "name": args.name,
                               "kind": "bot" if args.bot or args.kind == "bot" else "player"}
    if args.bot:
        message.update(policy=args.bot, organiser_token=args.token)
    reply = _run(args.server, message)
    if reply is None:
        return 1
    print(f"entrant {reply['entrant']}")
    print(f"entry token {reply['token']}")
    return 0


def cmd_direct(args: argparse.Namespace) -> int:
    # The command line says start-round, the protocol's action is start_round.
    message: dict[str, Any] = {"t": "tournament_direct", "tournament": args.tournament, "token": args.token,
                               "action": args.action.replace("-", "_")}
    for key in ("round", "entrant"):
        if getattr(args, key, None) is not None:
            message[key] = getattr(args, key)
    if getattr(args, "table", None) is not None:
        message["table"] = args.table - 1  # as start-round numbers them, 1 first; the protocol's index is 0 first
    if getattr(args, "ranks", None) is not None:
        message["ranks"] = args.ranks
    reply = _run(args.server, message)
    if reply is None:
        return 1
    if "round" in reply:
        rnd = reply["round"]
        names = {e["id"]: e["name"] for e in reply["state"]["entrants"]}
        print(f"round {rnd['number']} (seed {rnd['seed']}):")
        for t in rnd["tables"]:
            board = f"  (board {t['board']}, committed {t['board_commitment'][:16]}...)" \
                if t.get("board_commitment") else ""
            print(f"  table {t['index'] + 1}: " + ", ".join(names[e] for e in t["entrants"]) + board)
        for e, points in rnd["byes"].items():
            print(f"  bye: {names[e]} ({points:g} points)")
    elif "report" in reply:
        print("\n".join(collusion_lines(reply["report"])))
    else:
        print("done")
    return 0


def collusion_lines(report: dict[str, Any]) -> list[str]:
    """The collusion report (docs/tournaments.md TR5.5) as a person reads it:
    a sentence on what it counts, then one row per pair that helped, the
    most helpful first, and the pairs that stand out marked. The kinds of
    help are the game's own words (its port names them)."""
    kinds = [str(k) for k in report.get("kinds") or []]
    pairs = report.get("pairs") or []
    if not pairs:
        return ["Collusion report: in the finished games so far, no entrant helped another."]
    mean = float(report.get("mean_per_game") or 0)
    marked = sum(1 for p in pairs if p.get("stands_out"))
    lines = [f"Collusion report: who helped whom ({', '.join(kinds)}) in the games they shared, the most helpful "
             f"pair first. The event's pairs help {mean:.2f} times per game together on average; a pair at twice "
             f"that over two games or more stands out (docs/tournaments.md TR5.5)."]
    lines.append(f"{marked} pair{'' if marked == 1 else 's'} stand{'s' if marked == 1 else ''} out."
                 if marked else "No pair stands out.")
    width = max([len("from"), len("to"), *(len(str(p.get(k, ""))) for p in pairs for k in ("from", "to"))])
    width = min(width, 24)
    head = f"{'from':<{width}}  {'to':<{width}}  {'games':>5}" + "".join(f"  {k:>{max(5, len(k))}}" for k in kinds)
    lines.append(head + f"  {'per game':>8}")
    for p in pairs:
        row = (f"{str(p.get('from', ''))[:width]:<{width}}  {str(p.get('to', ''))[:width]:<{width}}  "
               f"{p.get('games', 0):>5}" + "".join(f"  {p.get(k, 0):>{max(5, len(k))}}" for k in kinds)
               + f"  {float(p.get('per_game') or 0):>8.2f}")
        lines.append(row + ("  STANDS OUT" if p.get("stands_out") else ""))
    return lines


def _get(url: str) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            body: bytes = r.read()
            return body
    except urllib.error.HTTPError as exc:
        print(f"oriente tournament: {url}: {exc.code} {exc.reason}", file=sys.stderr)
    except urllib.error.URLError as exc:
        print(f"oriente tournament: {url}: {exc.reason}", file=sys.stderr)
    return None


def cmd_standings(args: argparse.Namespace) -> int:
    body = _get(f"{http_base(args.server)}/tournament/{args.tournament}/export.json")
    if body is None:
        return 1
    state = json.loads(body)
    config = state["config"]
    played = len(state["rounds"])
    print(f"{config['name']} ({config['game']}, {config['format']}): "
          f"{played} of {config['rounds']} rounds{', finished' if state['finished'] else ''}")
    board = config["format"] == "duplicate"
    print(f"{'#':>3}  {'name':<24} {'points':>7} {'games':>5} {'wins':>5} {'sos':>6}" + ("  board" if board else ""))
    for row in state["standings"]:
        rank = "DQ" if row["rank"] is None else str(row["rank"])
        tail = f"  {row['board_score']:+.2f}" if board else ""
        mark = "" if row["status"] == "active" else f" ({row['status']})"
        print(f"{rank:>3}  {(row['name'] + mark)[:24]:<24} {row['points']:7.2f} {row['games']:5d} "
              f"{row['wins']:5.1f} {row['sos']:6.2f}{tail}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    body = _get(f"{http_base(args.server)}/tournament/{args.tournament}/{EXPORTS[args.what]}")
    if body is None:
        return 1
    if args.out:
        out = Path(args.out)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(body)
        except OSError as exc:
            print(f"oriente tournament: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"wrote {out} ({len(body)} bytes)")
    else:
        sys.stdout.write(body.decode())
    return 0


async def play_tournament(url: str, tournament: str, token: str, policy: str, seed: int | None,
                          delay: float) -> int:
    """A reference bot through the SDK: every table the tournament seats it
    at, one after the other, until the event ends (an arena: until Ctrl-C)."""
    rng = random.Random(seed)
    games = 0
    async with Client.connect(url) as client:
        async for seat in client.tournament_seats(tournament, token):
            print(f"seated at {seat.table}, seat {seat.seat}", flush=True)
            await play_seat(seat, "tournament bot", policy, rng, delay)
            games += 1
            print(f"table {seat.table} ended: {seat.result and seat.result.get('ranks')}", flush=True)
    print(f"the tournament has ended; {games} games played")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    try:
        return trio.run(play_tournament, args.server, args.tournament, args.token, args.bot, args.seed, args.delay)
    except ServerError as exc:
        print(f"oriente tournament: {exc.code}: {exc.message}", file=sys.stderr)
    except Disconnected as exc:
        print(f"oriente tournament: {exc}", file=sys.stderr)
    except KeyboardInterrupt:
        return 130
    return 1


