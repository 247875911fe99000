"""`oriente replay` and `oriente verify`: a game's record read back,
retold from one seat, and checked against what the table committed to."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oriente.clients.game_story import story_for
from oriente.clients.narrate import describe_result
from oriente.clients.sdk import verify_record
from oriente.games import UnknownGame, load, registered
from oriente.games.kit.port import EVERYONE, GamePort, Viewer
from oriente.games.kit.replay import RULES_RECORD, record_game, steps
from oriente.protocol.messages import DEFAULT_GAME
from oriente.refusal import Refusal

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

def _read_record(path: str, command: str) -> dict[str, Any] | None:
    """The game record in the file at `path`, or None once `oriente
    COMMAND` has said on stderr why it is none (unreadable, not JSON, not a
    record in a format this program reads)."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"oriente {command}: cannot read {path}: {exc}", file=sys.stderr)
        return None
    if not _is_record(record):
        print(f"oriente {command}: {path} is not a game record ({RECORD_FORMAT}, or a game's own)", file=sys.stderr)
        return None
    return dict(record)


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a finished game's record: the commitment published before play
    (against the one you saw live, with --commitment), the nonces the server
    supplied, your own seat's nonce (--seat, --nonce), the seed from the salt
    and the seats' nonces, the config that seed deals, every event and the
    result replayed through the game's port, and the table events as far as
    the record proves them. Says what it cannot prove. Exit 0 when all hold,
    1 when one does not (saying which), 2 when the record cannot be verified
    (an old record, a seed a player chose, not a record)."""
    record = _read_record(args.path, "verify")
    if record is None:
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
    record = _read_record(args.path, "replay")
    if record is None:
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
