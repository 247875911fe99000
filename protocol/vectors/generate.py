"""Golden frames of protocol oriente.v1, generated from the code itself.

    .venv/bin/python protocol/vectors/generate.py      # rewrites vectors.json

Server frames are not written by hand: the script runs the real transport,
lobby and table actor in memory (a fake socket per connection, the memory store,
trio's MockClock, a fixed wall clock and deterministic tokens and table ids),
plays a short scripted session and keeps the exact bytes the server sent.
Client frames are the exact bytes of `protocol.codec.encode(decoded)`; each is
checked against `decode_client` when generated. Running the script twice
gives the same file byte for byte; tests/protocol/test_vectors.py checks that
the file in the tree is what the current code generates.

Each vector is one JSON object:

    name        unique, "client/..." or "server/..."
    direction   "client" (client to server) or "server"
    frame       "binary" (every real frame) or "text" (a text frame, refused)
    hex         the frame's bytes; null for a generated (oversized) frame
    decoded     the frame as JSON (null where the bytes are not msgpack)
    note        what the frame shows
  client vectors only:
    valid       whether decode_client accepts the frame
    error_code  for invalid frames: the code of the `error` reply
    error_re    for invalid frames: the "re" of that reply (the id the
                server could still read from the frame, else null)
    normalized  for valid frames: the message with every default filled in
    canonical   for valid frames: re-encoding the decoded message (struct
                field order, defaults included) gives these exact bytes
    generator   for frames too large to list: how to build them
  act vectors only:
    cmd_canonical   the `cmd` map is exactly the plain form the server uses
                    (the form `legal` lists)
    cmd_error_code  the code the server answers whatever the game state,
                    because the `cmd` map itself is refused
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import msgspec
import trio
import trio.testing
from argon2 import PasswordHasher

from oriente.protocol import messages as M
from oriente.protocol.codec import ProtocolError, client_id_of, decode_any, decode_client, encode
from oriente.server import dealing, ids, oro, samurai
from oriente.server.accounts import Accounts
from oriente.server.director import Director
from oriente.server.emails import Emails
from oriente.server.game_port import RulesRejection
from oriente.server.games import PORTS
from oriente.server.games.oriente import OrientePort
from oriente.server.limits import Limits
from oriente.server.lobby import Lobby
from oriente.server.mailer import Mailer, parse_smtp_url
from oriente.server.metrics import Metrics
from oriente.server.outbox import Outbox
from oriente.server.rules import GameConfig, Rejected, command_from_plain, new_game, plain
from oriente.server.session import Session as ServerSession
from oriente.server.stores import MemoryStore
from oriente.server.table import Stop
from oriente.server.transport import Transport

OUTPUT = Path(__file__).resolve().parent / "vectors.json"
WALL_EPOCH = 1_800_000_000.0  # the fake wall clock at trio time 0 (seconds)


# -- deterministic stand-ins ------------------------------------------------------

class _Tokens:
    """secrets.token_urlsafe, made repeatable for the duration of a run."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, nbytes: int | None = None) -> str:
        self.count += 1
        digest = hashlib.sha256(f"oriente-vectors-{self.count}".encode()).digest()
        return base64.urlsafe_b64encode(digest[: nbytes or 32]).rstrip(b"=").decode()


class _Seeds:
    """dealing.fresh_seed, made repeatable: 9, 10, 11... (the server's own
    seeds, for tables whose creator chose none)."""

    def __init__(self) -> None:
        self.next = 9

    def __call__(self) -> int:
        self.next += 1
        return self.next - 1


class _Reveal:
    """Commit and reveal (docs/table.md T7), made repeatable: salts are
    counted (the nonces the server supplies follow from them; a nonce drawn
    as tables before supplied nonces did is counted too), and the seed a table's salt and nonces
    would give is replaced by the seed the server drew when the table was
    made (9, 10, ...), so the scripted games keep their cards. The record
    vector's `commitment` therefore shows the shape, not a seed that
    verifies: check a verifier against a real record (`oriente demo`)."""

    def __init__(self, seeds: _Seeds) -> None:
        self.seeds = seeds
        self.count = 0
        self.by_salt: dict[str, int] = {}

    def salt(self) -> str:
        self.count += 1
        salt = hashlib.sha256(f"oriente-vectors-salt-{self.count}".encode()).hexdigest()
        self.by_salt[salt] = self.seeds.next - 1  # the table's own drawn seed
        return salt

    def nonce(self) -> str:
        self.count += 1
        return hashlib.sha256(f"oriente-vectors-nonce-{self.count}".encode()).hexdigest()

    def seed(self, salt: str, nonces: list[str]) -> int:
        return self.by_salt[salt]


@contextmanager
def _repeatable_tokens() -> Iterator[None]:
    patched = ("fresh_seed", "new_salt", "server_nonce", "derive_seed")
    original, originals = secrets.token_urlsafe, {name: getattr(dealing, name) for name in patched}
    original_draw = ids._draw
    tokens = secrets.token_urlsafe = _Tokens()
    # Ids and tokens (server/ids.py) as token_urlsafe drew them at the same
    # lengths, from the same counter: the vectors keep their ids.
    ids._draw = lambda length: tokens(length * 3 // 4)
    seeds = _Seeds()
    reveal = _Reveal(seeds)
    dealing.fresh_seed, dealing.new_salt, dealing.server_nonce, dealing.derive_seed = (
        seeds, reveal.salt, reveal.nonce, reveal.seed)
    try:
        yield
    finally:
        secrets.token_urlsafe = original
        ids._draw = original_draw
        for name, value in originals.items():
            setattr(dealing, name, value)


class _Socket:
    """What Transport.handler uses of a websockets connection."""

    def __init__(self, label: str) -> None:
        self.remote_address = (label, 0)
        self.request = None  # no handshake headers: the peer is the client
        self._push, self._frames = trio.open_memory_channel[Any](math.inf)
        self.sent: list[bytes] = []
        self.closed: tuple[int, str] | None = None

    def __aiter__(self) -> Any:
        return self._frames.__aiter__()

    async def send(self, frame: bytes) -> None:
        self.sent.append(frame)

    async def aclose(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)

    def push(self, frame: bytes | str) -> None:
        self._push.send_nowait(frame)

    def hang_up(self) -> None:
        self._push.close()


# -- the book of vectors ----------------------------------------------------------

class Book:
    def __init__(self) -> None:
        self.vectors: list[dict[str, Any]] = []
        self.names: set[str] = set()

    def _add(self, vector: dict[str, Any]) -> None:
        if vector["name"] in self.names:
            raise ValueError(f"duplicate vector name {vector['name']}")
        self.names.add(vector["name"])
        self.vectors.append(vector)

    def server(self, name: str, frame: bytes, note: str) -> dict[str, Any]:
        decoded = decode_any(frame)
        if encode(decoded) != frame:
            raise AssertionError(f"{name}: the server frame does not re-encode to itself")
        self._add({"name": name, "direction": "server", "frame": "binary", "hex": frame.hex(),
                   "decoded": decoded, "note": note})
        return decoded

    def client(self, name: str, message: Any, note: str, game: str = M.DEFAULT_GAME) -> bytes:
        """A valid client frame: the bytes codec.encode gives for `message`.
        An act of another game than the default says which (`game`)."""
        frame = encode(message)
        struct = decode_client(frame)  # raises if the catalogue refuses it
        vector: dict[str, Any] = {
            "name": name, "direction": "client", "frame": "binary", "hex": frame.hex(),
            "decoded": decode_any(frame), "note": note, "valid": True,
            "normalized": msgspec.to_builtins(struct), "canonical": encode(struct) == frame,
        }
        if isinstance(struct, M.Act):
            if game != M.DEFAULT_GAME:
                vector["game"] = game
            _describe_cmd(vector, struct.cmd, game)
        self._add(vector)
        return frame

    def invalid(self, name: str, frame: bytes | str, note: str) -> None:
        """A frame decode_client refuses; the vector records the code."""
        try:
            decode_client(frame)
        except ProtocolError as exc:
            code = exc.code
        else:
            raise AssertionError(f"{name}: expected the codec to refuse this frame")
        raw = frame.encode() if isinstance(frame, str) else frame
        try:
            decoded = decode_any(raw) if isinstance(frame, bytes) else None
        except msgspec.DecodeError:
            decoded = None
        self._add({"name": name, "direction": "client", "frame": "text" if isinstance(frame, str) else "binary",
                   "hex": raw.hex(), "decoded": decoded, "note": note, "valid": False,
                   "error_code": code, "error_re": client_id_of(frame)})

    def generated(self, name: str, message: dict[str, Any], pad_field: str, frame_bytes: int, note: str) -> None:
        """A frame too large to list: `message` with `pad_field` padded with
        'a' until the encoded frame has exactly `frame_bytes` bytes."""
        def size(pad: int) -> int:
            return len(encode({**message, pad_field: "a" * pad}))

        pad = max(0, frame_bytes - size(0))
        while pad > 0 and size(pad) > frame_bytes:
            pad -= 1
        while size(pad) < frame_bytes:
            pad += 1
        frame = encode({**message, pad_field: "a" * pad})
        if len(frame) != frame_bytes:
            raise AssertionError(f"{name}: cannot build a frame of exactly {frame_bytes} bytes")
        vector: dict[str, Any] = {
            "name": name, "direction": "client", "frame": "binary", "hex": None, "decoded": None, "note": note,
            "generator": {"message": message, "pad_field": pad_field, "pad_char": "a", "pad_length": pad,
                          "frame_bytes": frame_bytes},
        }
        try:
            struct = decode_client(frame)
        except ProtocolError as exc:
            vector.update(valid=False, error_code=exc.code, error_re=client_id_of(frame))
        else:
            vector.update(valid=True, canonical=encode(struct) == frame)
        self._add(vector)


def _describe_cmd(vector: dict[str, Any], cmd: dict[str, Any], game: str) -> None:
    """How the rules of `game` read an act's cmd map, before any game state matters."""
    parse = {"oro": oro.command_from_plain, "samurai": samurai.command_from_plain}.get(game, command_from_plain)
    try:
        parsed = parse(cmd)
        if type(parsed).__name__ == "Timeout":
            state, _ = new_game(GameConfig(seats=4, seed=0))
            OrientePort().apply(state, 0, cmd)  # refused: only the table's clock sends timeouts
    except RulesRejection as exc:
        vector["cmd_error_code"] = exc.code
        return
    except Rejected as exc:
        vector["cmd_error_code"] = exc.code
        return
    vector["cmd_canonical"] = plain(parsed) == cmd


# -- driving the server -----------------------------------------------------------

class Peer:
    """One client connection to the in-memory server."""

    def __init__(self, session: Session, label: str) -> None:
        self.session = session
        self.socket = _Socket(label)
        self.read = 0
        self.last_seq = 0

    async def send(self, message: Any, vector: str | None = None, note: str = "",
                   game: str = M.DEFAULT_GAME) -> list[bytes]:
        frame = self.session.book.client(vector, message, note, game) if vector else encode(message)
        self.socket.push(frame)
        return await self.receive()

    async def receive(self) -> list[bytes]:
        await self.session.settle()
        new = self.socket.sent[self.read:]
        self.read = len(self.socket.sent)
        for frame in new:
            msg = decode_any(frame)
            if msg["t"] == "snapshot":
                self.last_seq = max(self.last_seq, msg["seq"])
            elif msg["t"] == "events":
                for e in msg["events"]:
                    self.last_seq = max(self.last_seq, e["seq"])
        return new

    async def hang_up(self) -> None:
        self.socket.hang_up()
        await self.session.settle()


def expect(frames: list[bytes], *types: str) -> list[bytes]:
    got = tuple(decode_any(f)["t"] for f in frames)
    if got != types:
        raise AssertionError(f"expected frames {types}, got {got}: "
                             + repr([decode_any(f) for f in frames]))
    return frames


class KeptMail(Mailer):
    """The generator's SMTP server: every message is kept, none is sent."""

    def __init__(self) -> None:
        super().__init__(parse_smtp_url("smtp://mail.example.org?from=oriente@example.org"))
        self.kept: list[EmailMessage] = []

    async def send(self, message: EmailMessage) -> None:
        self.kept.append(message)


class Session:
    def __init__(self, book: Book, clock: trio.testing.MockClock, nursery: trio.Nursery,
                 limits: Limits = Limits()) -> None:
        self.book = book
        self.clock = clock
        self.nursery = nursery
        self.store = MemoryStore()
        wall = lambda: WALL_EPOCH + trio.current_time()  # noqa: E731
        cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        self.lobby = Lobby(PORTS, self.store, nursery, wall=wall,
                           accounts=Accounts(self.store, hasher=cheap, wall=wall, inline=True))
        self.director = Director(self.lobby, self.store, nursery, wall=wall)
        emails = Emails(self.store, KeptMail(), "https://play.example.org", wall=wall)
        self.transport = Transport(ServerSession(self.lobby, Metrics(), limits, director=self.director,
                                                 emails=emails), Metrics(), limits)

    async def start(self) -> Session:
        await self.nursery.start(self.store.run)
        return self

    async def settle(self) -> None:
        await trio.testing.wait_all_tasks_blocked()

    async def connect(self, label: str) -> tuple[Peer, list[bytes]]:
        peer = Peer(self, label)
        # _Socket has the parts of a websockets connection the transport uses.
        self.nursery.start_soon(self.transport.handler, peer.socket)  # type: ignore[arg-type]
        return peer, await peer.receive()

    async def wait(self, seconds: float) -> None:
        self.clock.jump(seconds)
        await self.settle()


TIMERS = {"prompt_ms": 30_000, "window_ms": 20_000, "bank_ms": 60_000, "bank_refill_ms": 15_000,
          "zero_wait": False, "away_after": 1}
BOT_TIMERS = {"prompt_ms": 2_000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0,
              "zero_wait": True, "away_after": 3}
# A configured deal (R2.8) for four seats whose first season ends the game:
# the top card is the bonus, the next four are the inhabitants, and the
# Geisha is the sixth card, drawn as the bonus at the end of season 1.
DECK = [5, 12, 18, 25, 30, 40] + [c for c in range(41) if c not in (5, 12, 18, 25, 30, 40)]
DEAL = {"deck": DECK, "treasures": [41, 45, 49, 52], "stone_holder": 2}


async def _play(book: Book, clock: trio.testing.MockClock) -> None:
    async with trio.open_nursery() as nursery:
        s = await Session(book, clock, nursery).start()
        await _table_session(book, s)
        await _finished_table(book, s)
        await _refusals(book, s)
        await _oro_table(book, s)
        await _accounts(book, s)
        await _samurai_table(book, s)
        await _tournaments(book, s)
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        await _limits(book, clock, nursery)
        nursery.cancel_scope.cancel()


async def _table_session(book: Book, s: Session) -> None:
    ana, frames = await s.connect("ana")
    book.server("server/welcome", expect(frames, "welcome")[0],
                "The first frame on every connection: protocol name, version, server name and the "
                "connection's limits.")
    frames = await ana.send({"t": "hello", "id": "h1", "name": "ana", "client": "example-bot/1.0"},
                            "client/hello", "Optional greeting; name and client are informational.")
    book.server("server/ok/hello", expect(frames, "ok")[0], "The reply to hello.")
    frames = await ana.send({"t": "ping", "id": 1}, "client/ping", "A liveness check.")
    book.server("server/ok/ping", expect(frames, "ok")[0], "The reply to ping.")
    frames = await ana.send({"t": "create_table", "id": 2, "seats": 4, "name": "vectors", "public": True,
                             "timers": TIMERS, "auto_start": True, "game": "oriente",
                             "options": {"max_open_proposals": 3}},
                            "client/create_table",
                            "A four-seat table of oriente with its own timers and one of the game's options; "
                            "the server chooses its seed (these vectors' server gives 9).")
    created = book.server("server/ok/create_table", expect(frames, "ok")[0],
                          "The new table's id and its public information. Creating a table does not seat you.")
    table = created["table"]
    frames = await ana.send({"t": "list_tables", "id": 3}, "client/list_tables", "The public tables.")
    book.server("server/ok/list_tables", expect(frames, "ok")[0],
                "The first page of the public tables' information; `next` is null: there is no other page.")
    frames = await ana.send({"t": "list_tables", "id": 4, "cursor": "s0", "limit": 20}, "client/list_tables_page",
                            "A page of at most 20 tables after a cursor (the `next` of the page before).")
    expect(frames, "ok")

    eve, frames = await s.connect("eve")
    frames = await eve.send({"t": "spectate", "id": "s1", "table": table}, "client/spectate",
                            "Watch a table; without `after` no history is sent, only the snapshot.")
    expect(frames, "ok", "snapshot")
    book.server("server/ok/spectate", frames[0], "Subscribed as a spectator: `you` is \"spectator\".")
    book.server("server/snapshot/spectator_open_table", frames[1],
                "Before the start there is no game: view and prompt are null.")

    frames = await ana.send({"t": "join", "id": 4, "table": table, "name": "ana", "seat": 0}, "client/join",
                            "Take seat 0.")
    expect(frames, "ok", "snapshot")
    book.server("server/ok/join", frames[0],
                "The seat and its token: keep the token, it is the only way back to the seat.")
    book.server("server/snapshot/seat_open_table", frames[1], "The joiner's first snapshot, before the start.")

    ben, _ = await s.connect("ben")
    frames = await ben.send({"t": "join", "id": 1, "table": table, "name": "ben"}, "client/join_any_seat",
                            "Take the lowest free seat.")
    ben_token = decode_any(expect(frames, "ok", "snapshot")[0])["token"]
    frames = await ana.receive()
    book.server("server/events/seat_taken", expect(frames, "events")[0],
                "A table event, seen by everyone already at the table.")
    cai, _ = await s.connect("cai")
    expect(await cai.send({"t": "join", "id": 1, "table": table, "name": "cai"}), "ok", "snapshot")
    dee, _ = await s.connect("dee")
    frames = await dee.send({"t": "join", "id": 1, "table": table, "name": "dee", "seat": 3})
    expect(frames, "ok", "snapshot", "events")
    book.server("server/events/table_started/seat3", frames[2],
                "The last seat is taken and the game starts (auto_start). Seat 3 holds the stone and is "
                "asked first: its prompt lists `legal`.")
    frames = await ana.receive()
    expect(frames, "events", "events", "events")
    book.server("server/events/table_started/seat0", frames[2],
                "The same step as seat 0 sees it: only its own inhabitant is shown; the prompt's `legal` is "
                "empty ([]) because seat 0 is not asked and has no deal to answer.")
    frames = await eve.receive()
    expect(frames, "events", "events", "events", "events", "events")
    book.server("server/events/table_started/spectator", frames[4],
                "The same step as a spectator sees it: every hidden card is null.")
    await ben.receive()
    await cai.receive()

    await s.wait(4.0)
    frames = await dee.send({"t": "act", "id": "d1", "table": table,
                             "cmd": {"type": "Announce", "decision": 1,
                                     "action": {"type": "Action", "kind": "attack", "target": 1}}},
                            "client/act/announce_attack", "Seat 3 announces an attack on seat 1 (R4.1).")
    expect(frames, "events", "ok")
    book.server("server/ok/act", frames[1], "The command was applied; `seq` is the table's last sequence "
                "number after it. The events frame of the same step comes first.")
    frames = await cai.receive()
    book.server("server/events/privilege_round", expect(frames, "events")[0],
                "Seat 2's view: a privilege round (R10.2a) asks seats 0 and 2; seat 0 is the pivot and "
                "seat 2 may answer early (sealed).")
    for peer in (ana, ben, eve):
        await peer.receive()

    await s.wait(2.5)
    frames = await cai.send({"t": "act", "id": 7, "table": table, "cmd": {"type": "Pass", "decision": 2}},
                            "client/act/pass", "Seat 2 passes early: the answer is sealed until it is the pivot.")
    expect(frames, "events", "ok")
    book.server("server/events/sealed", frames[0],
                "The answer was sealed: no event for anyone, the sender alone gets an events frame with no "
                "events and its prompt, which now shows its `sealed` answer.")
    for peer in (ana, ben, dee, eve):
        expect(await peer.receive())

    await s.wait(3.0)
    pass_cmd = {"t": "act", "id": 11, "table": table, "cmd": {"type": "Pass", "decision": 2}}
    frames = await ana.send(pass_cmd)
    expect(frames, "events", "ok")
    book.server("server/events/fight_began", frames[0],
                "Seat 0 passes as the pivot; the sealed pass of seat 2 is then used at once. The attack is "
                "fulfilled and the negotiation window (R10.2b) opens.")
    frames = await ana.send(pass_cmd, "client/act/retry",
                            "The same act sent again with the same id (a retry after a reconnect).")
    book.server("server/ok/act_duplicate", expect(frames, "ok")[0],
                "A retried id is not applied again: ok with duplicate=true.")
    frames = await ana.send({"t": "act", "id": 12, "table": table, "cmd": {"type": "Pass", "decision": 2}})
    book.server("server/error/decision_closed", expect(frames, "error")[0],
                "A late answer to a decision that has closed. Normal in play: ignore it.")
    for peer in (ben, cai, dee, eve):
        await peer.receive()

    frames = await ben.send({"t": "act", "id": 2, "table": table, "cmd": {"type": "Support", "decision": 3,
                                                                        "side": "defender"}})
    book.server("server/error/decision_not_asked", expect(frames, "error")[0],
                "The defender is not asked in the support round.")
    await s.wait(1.0)
    frames = await ben.send(
        {"t": "act", "id": 3, "table": table, "cmd": {
            "type": "ProposeDeal",
            "transfers": [{"type": "Transfer", "card": 41, "giver": 1, "receiver": 2,
                           "consideration": "for your support"}],
            "promises": [{"type": "Promise", "promiser": 2, "promisee": 1, "text": "I support you in this fight",
                          "kind": "support", "attacker": 3, "defender": 1, "side": "defender", "cards": [],
                          "by_season": None, "seat": None}],
            "note": "defend me"}},
        "client/act/propose_deal",
        "Seat 1 offers its treasure to seat 2 for a support promise (R8).")
    expect(frames, "events", "ok")
    frames = await cai.receive()
    book.server("server/events/deal_proposed", expect(frames, "events")[0], "Deals are public.")
    frames = await cai.send({"t": "act", "id": 8, "table": table, "cmd": {"type": "AcceptDeal", "deal": 1}},
                            "client/act/accept_deal", "Seat 2 accepts: every party has accepted, the deal runs.")
    book.server("server/events/deal_executed", expect(frames, "events", "ok")[0],
                "The cards move at once; the promise enters the ledger.")
    for peer in (ana, ben, dee, eve):
        await peer.receive()

    await s.wait(2.0)
    frames = await ana.send({"t": "act", "id": 13, "table": table,
                             "cmd": {"type": "Support", "decision": 3, "side": "attacker"}},
                            "client/act/support_attacker", "An early (sealed) declaration during the window.")
    expect(frames, "events", "ok")
    book.server("server/events/window_sealed", frames[0], "Seat 0's sealed declaration, in its own prompt.")
    frames = await dee.send({"t": "act", "id": "d2", "table": table, "cmd": {"type": "Done", "decision": 3}},
                            "client/act/done", "The attacker says it is done bargaining (R10.2b1).")
    book.server("server/events/negotiation_done", expect(frames, "events", "ok")[0],
                "Public: the attacker is done; the window's prompt lists it under `done`.")
    for peer in (ana, ben, cai, eve):
        await peer.receive()
    frames = await ben.send({"t": "act", "id": 4, "table": table, "cmd": {"type": "Done", "decision": 3}})
    expect(frames, "events", "ok")
    for peer in (ana, cai, dee, eve):
        await peer.receive()
    frames = await cai.send({"t": "act", "id": 9, "table": table,
                             "cmd": {"type": "Support", "decision": 3, "side": "defender"}},
                            "client/act/support_defender",
                            "Both fighters said done; the last asked seat hands in its declaration: the "
                            "window closes at once (R10.2b1).")
    expect(frames, "events", "ok")
    frames = await ben.receive()
    book.server("server/events/fight_resolved", expect(frames, "events")[0],
                "Seat 1's view: the window closes, the declarations become final, the fight is resolved, "
                "and asking resumes with seat 1.")
    for peer in (ana, dee, eve):
        await peer.receive()

    await ben.hang_up()  # seat 1's client crashes while it is the pivot
    frames = await ana.receive()
    book.server("server/events/seat_offline", expect(frames, "events")[0],
                "Seat 1's last connection closed.")
    await s.wait(90.0)  # seat 1's deadline passes: prompt_ms plus its whole time bank
    frames = await ana.receive()
    book.server("server/events/timeout_away", expect(frames, "events")[0],
                "Seat 1 timed out (away_after=1): it is marked away and its silence meant a pass; the "
                "season ends (the bonus card drawn is hidden) and the next begins.")
    for peer in (cai, dee, eve):
        await peer.receive()

    ben2, _ = await s.connect("ben-again")
    frames = await ben2.send({"t": "resume", "id": "r1", "table": table, "token": ben_token,
                              "after": ben.last_seq, "views": True},
                             "client/resume", "Back after a reconnect: the token and the last seq seen; "
                             "views=true asks for the full view in every live events frame.")
    expect(frames, "ok", "events", "snapshot", "events")
    book.server("server/ok/resume", frames[0], "Subscribed to the seat again.")
    book.server("server/events/history", frames[1],
                "Missed events, projected for this seat, with history=true and no prompt.")
    book.server("server/snapshot/seat", frames[2],
                "The full current view of seat 1: its own inhabitant, the public board, its prompt.")
    book.server("server/events/seat_online", frames[3],
                "The seat is connected again. This connection asked for views: the frame carries `view`.")
    for peer in (ana, cai, dee, eve):
        await peer.receive()

    frames = await ben2.send({"t": "back", "id": "rb", "table": table}, "client/back",
                             "Seat 1 is attended again: back from away without a game command.")
    expect(frames, "events", "ok")
    book.server("server/events/seat_back", frames[0],
                "`back` brings an away seat back (R10.3), as any command would. With `view`, as asked for in "
                "the resume.")
    book.server("server/ok/back", frames[1], "The reply to back.")
    for peer in (ana, cai, dee, eve):
        await peer.receive()

    frames = await ben2.send(
        {"t": "act", "id": "r2", "table": table, "cmd": {
            "type": "ProposeDeal",
            "promises": [{"type": "Promise", "promiser": 1, "promisee": 0, "text": "I will not attack you",
                          "kind": "no_attack", "seat": 0}]}},
        "client/act/propose_promise_only",
        "A deal of one promise, defaults left out (transfers, note and the unused promise fields).")
    expect(frames, "events", "ok")
    for peer in (ana, cai, dee, eve):
        await peer.receive()
    frames = await ana.send({"t": "act", "id": 14, "table": table, "cmd": {"type": "DeclineDeal", "deal": 2}},
                            "client/act/decline_deal", "Seat 0 declines the proposal.")
    expect(frames, "events", "ok")
    for peer in (ben2, cai, dee, eve):
        await peer.receive()
    frames = await ana.send(
        {"t": "act", "id": 15, "table": table, "cmd": {
            "type": "ProposeDeal", "counter_to": 2, "why": {"code": "counter", "deal": 2},
            "promises": [{"type": "Promise", "promiser": 1, "promisee": 0, "text": "I will not attack you",
                          "kind": "no_attack", "seat": 0},
                         {"type": "Promise", "promiser": 0, "promisee": 1, "text": "Nor I you",
                          "kind": "no_attack", "seat": 1}]}},
        "client/act/propose_counter",
        "A counter-offer: it names the deal it answers (`counter_to`) and says what it is for (`why`, R8.8).")
    book.server("server/events/deal_counter", expect(frames, "events", "ok")[0],
                "The counter-offer is a proposal like any other; its event carries `counter_to` and `why`.")
    for peer in (ben2, cai, dee, eve):
        await peer.receive()
    frames = await ben2.send({"t": "act", "id": "r2b", "table": table, "cmd": {
        "type": "DeclineDeal", "deal": 3, "why": {"code": "record", "seat": 0, "kept": 0, "broken": 0}}},
        "client/act/decline_deal_why", "A decline with its reason, a code with its parameters (R8.8).")
    book.server("server/events/deal_declined_why", expect(frames, "events", "ok")[0],
                "`DealClosed` carries the decline's reason (`why`); each client words it in its language.")
    for peer in (ana, cai, dee, eve):
        await peer.receive()

    frames = await ben2.send({"t": "chat", "id": "r3", "table": table, "text": "fair enough"}, "client/chat",
                             "Seated players only; 1 to 500 characters.")
    book.server("server/ok/chat", expect(frames, "events", "ok")[1], "The reply to chat.")
    frames = await ana.receive()
    book.server("server/events/chat", expect(frames, "events")[0], "Chat is a table event.")
    for peer in (cai, dee, eve):
        await peer.receive()

    frames = await ben2.send({"t": "act", "id": "r4", "table": table,
                              "cmd": {"type": "Timeout", "decision": 5, "pivot": 3}},
                             "client/act/timeout", "Timeout is the table's own command: a client may not send it.")
    book.server("server/error/timeout_not_table", expect(frames, "error")[0], "Refused.")
    frames = await ben2.send({"t": "act", "id": "r5", "table": table, "cmd": {"type": "Retreat", "decision": 5}},
                             "client/act/unknown_command", "An unknown command type.")
    book.server("server/error/command_unknown", expect(frames, "error")[0], "Refused by the rules.")
    frames = await ben2.send({"t": "act", "id": "r6", "table": table, "cmd": {"type": "Pass", "decision": "5"}},
                             "client/act/bad_field", "A command field of the wrong type.")
    book.server("server/error/command_invalid", expect(frames, "error")[0], "Refused by the rules.")

    frames = await eve.send({"t": "act", "id": "s2", "table": table, "cmd": {"type": "Pass", "decision": 5}})
    book.server("server/error/not_seated", expect(frames, "error")[0],
                "A spectator (or a connection that has not resumed its seat) cannot act.")
    frames = await eve.send({"t": "resume", "id": "s3", "table": table, "token": "not-a-token"})
    book.server("server/error/bad_token", expect(frames, "error")[0], "The token holds no seat at this table.")
    frames = await eve.send({"t": "unsubscribe", "id": "s4", "table": table}, "client/unsubscribe",
                            "Stop receiving the table's frames.")
    book.server("server/ok/unsubscribe", expect(frames, "ok")[0], "The reply to unsubscribe.")
    frames = await eve.send({"t": "join", "id": "s5", "table": table, "name": "eve"})
    book.server("server/error/table_started", expect(frames, "error")[0], "Seats are taken before the start only.")
    frames = await eve.send({"t": "record", "id": "s6", "table": table})
    book.server("server/error/record_not_finished", expect(frames, "error")[0],
                "The record exists once the game has ended.")
    frames = await eve.send({"t": "add_bots", "id": "s7", "table": table, "token": "not-a-token",
                             "policy": "heuristic", "count": None}, "client/add_bots",
                            "Fill free seats of an open table with the server's own bots, for a seated player.")
    book.server("server/error/bots_unavailable", expect(frames, "error")[0],
                "A server that runs no bots says so; the welcome frame lists the kinds it has.")


async def _finished_table(book: Book, s: Session) -> None:
    """A bot table with a configured deal: four timeouts end the game."""
    fay, _ = await s.connect("fay")
    frames = await fay.send({"t": "create_table", "id": 1, "seats": 4, "name": "bots", "public": False,
                             "seed": 7, "timers": BOT_TIMERS, "options": {"deal": DEAL}, "auto_start": False},
                            "client/create_table_bots",
                            "A private bot table (zero_wait timers) with a configured deal and a manual start.")
    table = decode_any(expect(frames, "ok")[0])["table"]
    frames = await fay.send({"t": "join", "id": 2, "table": table, "name": "fay", "seat": 0})
    fay_token = decode_any(expect(frames, "ok", "snapshot")[0])["token"]
    frames = await fay.send({"t": "leave", "id": 3, "table": table, "token": fay_token}, "client/leave",
                            "Give the seat up (before the start only).")
    book.server("server/ok/leave", expect(frames, "events", "ok")[1], "The reply to leave.")
    frames = await fay.send({"t": "join", "id": 4, "table": table, "name": "fay", "seat": 0})
    # after leave the connection stayed subscribed (as a spectator): it sees its own SeatTaken
    fay_token = decode_any(expect(frames, "events", "ok", "snapshot")[1])["token"]
    gus, _ = await s.connect("gus")
    frames = await gus.send({"t": "join", "id": 1, "table": table, "name": "gus", "seat": 0})
    book.server("server/error/seat_taken", expect(frames, "error")[0], "Seat 0 is taken.")
    frames = await gus.send({"t": "join", "id": 2, "table": table, "name": "gus", "seat": 4})
    book.server("server/error/seat_unknown", expect(frames, "error")[0], "Seats are 0 to seats-1.")
    frames = await gus.send({"t": "join", "id": 3, "table": table, "name": "   "})
    book.server("server/error/bad_name", expect(frames, "error")[0], "A name has 1 to 32 characters.")
    join_gus = {"t": "join", "id": 4, "table": table, "name": "gus", "nonce": "k3y-9c1f0e7a-5b2d-retry"}
    expect(await gus.send(join_gus, "client/join_nonce",
                          "A join with a nonce, a secret of 16 to 64 characters: it may be retried safely."),
           "ok", "snapshot")
    gus2, _ = await s.connect("gus-again")
    frames = await gus2.send({**join_gus, "id": 1})
    book.server("server/ok/join_retry", expect(frames, "ok", "snapshot")[0],
                "The same join again (its reply was lost): the same seat and token, duplicate=true. This "
                "connection now holds the seat.")
    await gus.receive()
    frames = await fay.send({"t": "start", "id": 5, "table": table, "token": fay_token})
    book.server("server/error/not_full", expect(frames, "events", "error")[1],
                "A start needs every seat taken.")
    peers = [fay, gus]
    for name in ("hal", "ida"):
        peer, _ = await s.connect(name)
        expect(await peer.send({"t": "join", "id": 1, "table": table, "name": name}), "ok", "snapshot")
        peers.append(peer)
    for peer in peers:
        await peer.receive()
    frames = await fay.send({"t": "start", "id": 6, "table": table, "token": fay_token}, "client/start",
                            "Start a full table whose auto_start is off.")
    expect(frames, "events", "ok")
    book.server("server/ok/start", frames[1], "The reply to start, after the events of the start.")
    for peer in peers[1:]:
        await peer.receive()
    for _ in range(4):  # every seat in turn lets its 2 s prompt pass
        await s.wait(2.0)
    frames = await fay.receive()
    book.server("server/events/table_finished", frames[-1],
                "The season ends, the Geisha is drawn as the bonus card (R9.2), the game ends: the final "
                "reveal, then TableFinished. No prompt any more.")
    frames = await fay.send({"t": "record", "id": 7, "table": table}, "client/record",
                            "The full record of a finished game.")
    book.server("server/ok/record", expect(frames, "ok")[0],
                "Everything revealed: config (seed and deal), commands, events, table events, result.")
    frames = await fay.send({"t": "act", "id": 8, "table": table, "cmd": {"type": "Pass", "decision": 6}})
    book.server("server/error/game_over", expect(frames, "error")[0], "The game has ended.")
    frames = await fay.send({"t": "rematch", "id": 9, "table": table, "token": fay_token}, "client/rematch",
                            "Play the ended table's game again: a new table with the same settings.")
    # Two actors answer: the old table tells its viewers, the new one seats fay.
    by_type = {decode_any(f)["t"]: f for f in frames}
    assert sorted(by_type) == ["events", "ok", "snapshot"], sorted(by_type)
    book.server("server/events/rematch_offered", by_type["events"],
                "The ended table's viewers hear of its rematch (a table event).")
    book.server("server/ok/rematch", by_type["ok"],
                "The reply to rematch is a join's: the requester's own seat at the new table, and its token.")


async def _refusals(book: Book, s: Session) -> None:
    """Frames the transport refuses before any table sees them."""
    kim, _ = await s.connect("kim")
    frames = await kim.send({"t": "join", "id": 1, "table": "no-such-table", "name": "kim"})
    book.server("server/error/table_unknown", expect(frames, "error")[0], "There is no such table.")
    frames = await kim.send({"t": "create_table", "id": 2, "seats": 13})
    book.server("server/error/bad_settings", expect(frames, "error")[0], "create_table refused.")
    frames = await kim.send({"t": "create_table", "id": 3, "seats": 4,
                             "options": {"deal": {**DEAL, "stone_holder": 4}}})
    book.server("server/error/bad_deal", expect(frames, "error")[0], "A configured deal the rules refuse (R2.8).")
    frames = await kim.send({"t": "shout", "id": 4})
    book.server("server/error/unknown_type", expect(frames, "error")[0],
                "An unknown message type; the connection stays open.")
    kim.socket.push(b"\xc1")
    book.server("server/error/malformed", expect(await kim.receive(), "error")[0],
                "Bytes that are not msgpack: no id could be read, so re is null.")
    frames = await kim.send({"t": "create_table", "id": 5, "seats": 4, "game": "chess"})
    book.server("server/error/unknown_game", expect(frames, "error")[0], "A game this server does not play.")
    frames = await kim.send({"t": "create_table", "id": 6, "seats": 4, "name": "first revision", "seed": 7,
                             "timers": BOT_TIMERS, "deal": DEAL, "max_open_proposals": 2},
                            "client/create_table_first_revision",
                            "oriente's options at the top level, as the first revision of oriente.v1 had them: "
                            "still read (as options of the default game, oriente).")
    book.server("server/ok/create_table_first_revision", expect(frames, "ok")[0],
                "The table has the configured deal and the cap on open proposals of the message above.")


async def _accounts(book: Book, s: Session) -> None:
    """Accounts (PROTOCOL.md 19): sign up, sign in, a bot's API token, a
    rated table that refuses a signed-out seat, the leaderboard."""
    eve, _ = await s.connect("eve")
    frames = await eve.send({"t": "sign_up", "id": 1, "name": "eve", "password": "correct horse"},
                            "client/sign_up", "Make a person's account; the connection is signed in to it.")
    book.server("server/ok/sign_up", expect(frames, "ok")[0],
                "The account (bots are marked bot: true) and a session token for sign_in later.")
    frames = await eve.send({"t": "bot_token", "id": 2, "bot": "eve-bot", "label": "laptop"},
                            "client/bot_token", "An API token for the person's bot (made on first use).")
    bot = book.server("server/ok/bot_token", expect(frames, "ok")[0],
                      "The bot's account, its API token (shown once) and the token's id, for revoke_token.")
    frames = await eve.send({"t": "tokens", "id": 3}, "client/tokens", "The person's bots' API tokens.")
    book.server("server/ok/tokens", expect(frames, "ok")[0], "Ids and labels only: tokens are stored hashed.")
    phone, _ = await s.connect("eve-phone")
    await phone.send({"t": "hello", "id": 0, "client": "example-app/2.1"})
    await s.wait(60)
    expect(await phone.send({"t": "sign_in", "id": 1, "name": "eve", "password": "correct horse"}), "ok")
    frames = await eve.send({"t": "sessions", "id": 30}, "client/sessions", "The person's live sessions.")
    book.server("server/ok/sessions", expect(frames, "ok")[0],
                "Latest used first: where each began (address, client) and was last used, when it ends "
                "unused, and which one is this connection's (current). Never a token.")
    frames = await eve.send({"t": "sign_out_everywhere", "id": 31, "keep_current": True},
                            "client/sign_out_everywhere",
                            "End every other session of the person (without keep_current: this one too).")
    book.server("server/ok/sign_out_everywhere", expect(frames, "ok")[0], "How many sessions ended.")
    frames = await eve.send({"t": "set_email", "id": 32, "address": "eve@example.org"}, "client/set_email",
                            "Give the person's e-mail address: a confirmation link is mailed to it.")
    book.server("server/ok/set_email", expect(frames, "ok")[0],
                "The address as the person sees it: not confirmed until the mailed link is opened.")
    frames = await eve.send({"t": "set_email", "id": 33, "address": "eve@example.net"})
    book.server("server/error/email_limited", expect(frames, "error")[0],
                "One confirmation mail per account in 10 minutes: the seconds to wait in retry_after.")
    frames = await phone.send({"t": "sessions", "id": 2})
    book.server("server/error/session_ended", expect(frames, "error")[0],
                "The other connection's session was ended elsewhere: it is signed out at its next act "
                "for the account.")
    rob, _ = await s.connect("rob")
    frames = await rob.send({"t": "sign_in", "id": 1, "token": bot["token"]}, "client/sign_in_token",
                            "A bot signs in with its API token (a person's session token works the same).")
    book.server("server/ok/sign_in_token", expect(frames, "ok")[0], "Signed in as the bot.")
    frames = await rob.send({"t": "sign_in", "id": 2, "name": "eve", "password": "wrong horse"},
                            "client/sign_in", "A person signs in with name and password.")
    wrong = book.server("server/error/bad_credentials", expect(frames, "error")[0],
                        "A wrong password; an unknown name gets exactly this frame too.")
    frames = await rob.send({"t": "sign_in", "id": 2, "name": "nobody", "password": "wrong horse"})
    assert decode_any(expect(frames, "error")[0]) == wrong, "an unknown name must look like a wrong password"
    for guess in range(5):  # the sixth wrong password in a row: the next try under this name waits 1 s
        expect(await rob.send({"t": "sign_in", "id": 2, "name": "eve", "password": f"guess {guess}"}), "error")
    frames = await rob.send({"t": "sign_in", "id": 3, "name": "eve", "password": "correct horse"})
    book.server("server/error/backing_off", expect(frames, "error")[0],
                "Too many failed sign-ins under this name: refused before the password is checked (the right "
                "one too, from an address the account has not signed in from), with the seconds to wait.")
    frames = await eve.send({"t": "revoke_token", "id": 4, "token_id": bot["token_id"]}, "client/revoke_token",
                            "Revoke one of the bots' tokens: it signs no one in any more.")
    book.server("server/ok/revoke_token", expect(frames, "ok")[0], "Revoked.")
    frames = await eve.send({"t": "create_table", "id": 5, "seats": 4, "timers": BOT_TIMERS,
                             "rated": True}, "client/create_table_rated",
                            "A rated table: every seat must be signed in, and the result moves ratings.")
    table = book.server("server/ok/create_table_rated", expect(frames, "ok")[0], "The table says rated: true.")
    kim, _ = await s.connect("kim-2")
    frames = await kim.send({"t": "join", "id": 1, "table": table["table"], "name": "kim"})
    book.server("server/error/sign_in_required", expect(frames, "error")[0], "A signed-out join of a rated table.")
    frames = await eve.send({"t": "join", "id": 6, "table": table["table"], "name": "ignored"})
    book.server("server/ok/join_signed_in", expect(frames, "ok", "snapshot")[0],
                "A signed-in join: the seat takes the account's name and card.")
    frames = await eve.send({"t": "my_tables", "id": 10, "tables": [table["table"]]}, "client/my_tables",
                            "A person's own tables: those a client keeps the ids of, and the signed-in account's.")
    book.server("server/ok/my_tables", expect(frames, "ok")[0],
                "Each table's information, and `you`: the account's seat there (null: none).")
    frames = await eve.send({"t": "leaderboard", "id": 7, "game": "oriente", "limit": 10}, "client/leaderboard",
                            "The best rated accounts of one game.")
    book.server("server/ok/leaderboard", expect(frames, "ok")[0], "No rated game has ended here yet.")
    frames = await eve.send({"t": "profile", "id": 8, "name": "eve-bot"}, "client/profile",
                            "An account's ratings, their history and its reputation.")
    book.server("server/ok/profile", expect(frames, "ok")[0], "A bot says whose it is.")
    frames = await eve.send({"t": "sign_out", "id": 9}, "client/sign_out",
                            "Sign this connection out; a session token is revoked.")
    book.server("server/ok/sign_out", expect(frames, "ok")[0], "Signed out.")


async def _tournaments(book: Book, s: Session) -> None:
    """Tournaments (PROTOCOL.md 21): create one, enter it, follow it as an
    entrant, an organiser's action, a refusal, the list, a withdrawal."""
    org, _ = await s.connect("organiser")
    frames = await org.send({"t": "tournament_create", "id": 1, "settings": {
        "name": "Friday Swiss", "game": "oriente", "format": "swiss", "rounds": 3, "table_sizes": [4, 5],
        "timers": BOT_TIMERS, "seed": 7}}, "client/tournament_create",
        "An organiser creates a Swiss event of three rounds at tables of 4 or 5.")
    created = book.server("server/ok/tournament_create", expect(frames, "ok")[0],
                          "The tournament's id and the organiser token, given this once.")
    tid, org_token = created["tournament"], created["organiser_token"]
    kim, _ = await s.connect("kim-t")
    frames = await kim.send({"t": "tournament_register", "id": 1, "tournament": tid, "name": "kim", "kind": "bot"},
                            "client/tournament_register", "A bot enters the tournament.")
    entry = book.server("server/ok/tournament_register", expect(frames, "ok")[0],
                        "The entrant's id and its entry token, given this once.")
    frames = await kim.send({"t": "tournament_watch", "id": 2, "tournament": tid, "token": entry["token"]},
                            "client/tournament_watch", "Follow the tournament as that entrant.")
    expect(frames, "ok", "tournament")
    book.server("server/tournament", frames[1],
                "The tournament's state; `you` holds the entrant's table and seat token once it is seated.")
    frames = await org.send({"t": "tournament_direct", "id": 3, "tournament": tid, "token": org_token,
                             "action": "start_round"}, "client/tournament_direct",
                            "The organiser starts the first round.")
    book.server("server/error/tournament_too_few", expect(frames, "error")[0],
                "One entrant cannot fill a table of 4: the round waits for entries.")
    frames = await org.send({"t": "list_tournaments", "id": 4}, "client/list_tournaments",
                            "The tournaments of this server.")
    book.server("server/ok/list_tournaments", expect(frames, "ok")[0], "In brief.")
    frames = await kim.send({"t": "tournament_withdraw", "id": 3, "tournament": tid, "token": entry["token"]},
                            "client/tournament_withdraw", "The entrant withdraws itself.")
    book.server("server/ok/tournament_withdraw", next(f for f in frames if decode_any(f)["t"] == "ok"),
                "Its results so far stand; no later round seats it.")


async def _oro_table(book: Book, s: Session) -> None:
    """A table of Oro (PROTOCOL.md 18): two seats, the gods variant, the
    setup round, one turn that builds and draws, a refused build."""
    pia, _ = await s.connect("pia")
    frames = await pia.send({"t": "create_table", "id": 1, "seats": 2, "name": "islands", "seed": 11,
                             "timers": TIMERS, "game": "oro", "options": {"gods": True}},
                            "client/create_table/oro", "A two-seat table of Oro with the gods variant (O7).")
    table = book.server("server/ok/create_table_oro", expect(frames, "ok")[0],
                        "Its public options say the variant and the board, nothing of the seed.")["table"]
    rex, _ = await s.connect("rex")
    token = decode_any(expect(await pia.send({"t": "join", "id": 2, "table": table, "name": "pia"}),
                              "ok", "snapshot")[0])["token"]
    expect(await rex.send({"t": "join", "id": 1, "table": table, "name": "rex", "views": True}),
           "ok", "snapshot", "events")
    await pia.receive()
    eve, _ = await s.connect("eve")
    frames = await eve.send({"t": "resume", "id": 1, "table": table, "token": token, "views": True})
    book.server("server/snapshot/oro_seat", expect(frames, "ok", "snapshot")[1],
                "Seat 0's view of the setup round (O8.2): its hand with who knows each card, the others' "
                "hand sizes, the board, the god stones; the prompt lists the cards it may give up.")
    spy, _ = await s.connect("spy")
    expect(await spy.send({"t": "spectate", "id": 1, "table": table}), "ok", "snapshot")
    peers = {0: pia, 1: rex}
    live = s.lobby.get(table)
    assert live is not None
    port = live.port  # the generator's own shortcut to whose turn it is; clients read the prompt

    def prompt(viewer: int | str) -> dict[str, Any]:
        p = port.prompts(live.play.state, [viewer])[viewer]
        assert p is not None
        return p

    while prompt("spectator")["topic"] == "give_up":
        seat = prompt("spectator")["pivot"]
        await peers[seat].send({"t": "act", "id": 10 + seat, "table": table, "cmd": prompt(seat)["legal"][0]},
                               f"client/act/oro_give_up_{seat}", "A card given up to the display (O2.2).", "oro")
    seat = prompt("spectator")["pivot"]
    build = next(c for c in prompt(seat)["legal"] if c["type"] == "Build" and not c["kanaloa"])
    await peers[seat].send({"t": "act", "id": 20, "table": table, "cmd": build}, "client/act/oro_build",
                           "A bridge for a card of one of the connection's islands (O3.2).", "oro")
    other = peers[1 - seat]
    await other.receive()
    await spy.receive()
    frames = await peers[seat].send({"t": "act", "id": 21, "table": table,
                                     "cmd": {"type": "Draw", "decision": build["decision"], "island": None}},
                                    "client/act/oro_draw", "Draw the deck's top card, ending the turn (O3.6).",
                                    "oro")
    book.server("server/events/oro_turn", expect(frames, "events", "ok")[0],
                "The drawer sees its card; the next turn begins with its prompt.")
    book.server("server/events/oro_turn_spectator", expect(await spy.receive(), "events")[0],
                "The same draw as a spectator sees it: the card from the deck is null.")
    await other.receive()
    wrong = {**build, "decision": prompt("spectator")["id"]}
    frames = await other.send({"t": "act", "id": 22, "table": table, "cmd": wrong})
    book.server("server/error/oro_build_occupied", expect(frames, "error")[0],
                "A bridge on a connection that has one: replace it instead (O3.3).")
    # A process of a many-process site drains: the table goes to another one.
    await live.send(None, Stop(hand_over=True, url="ws://10.0.0.2:8765"))
    book.server("server/moved", expect(await spy.receive(), "moved")[0],
                "The table is served by another process from now on; the server closes the connection "
                "(1012): reconnect (to `url` when given, if its origin is one of `welcome.origins`) and "
                "resume from your last seq.")
    # The welcome of a process of such a site lists the site's origins.
    s.transport.cluster = _Site()
    _, frames = await s.connect("site")
    s.transport.cluster = None
    book.server("server/welcome_site", expect(frames, "welcome")[0],
                "The welcome of a process of a many-process site: `origins` lists the site's processes "
                "(scheme, host and port), the only places a `moved` frame's `url` may send a client.")
    # The welcome of a server that runs bots lists them per game and says what each is.
    s.transport.session.bots = object()  # type: ignore[assignment]  # only its presence counts for the welcome
    _, frames = await s.connect("bots")
    s.transport.session.bots = None
    book.server("server/welcome_bots", expect(frames, "welcome")[0],
                "A server that runs bots: `bots` lists the kinds per game (the default first), `bot_about` "
                "says what each is; Oriente's negotiating characters say how they treat their word.")


class _Site:
    """The transport's view of a site of two processes (server.cluster's
    seam), for the welcome such a process sends; it serves every table here."""

    async def forward(self, outbox: Outbox, msg: Any, frame: bytes | str, *,
                      who: tuple[str, str] | None = None) -> bool:
        return False

    def disconnected(self, outbox: Outbox) -> None:
        pass

    def listing(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return local

    def origins(self) -> list[str]:
        return ["ws://10.0.0.1:8765", "ws://10.0.0.2:8765"]

    def tournament_listing(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return local

    async def open_tables_created_by(self, address: str) -> int:
        return 0

    async def created(self, table_id: str, address: str) -> None:
        pass


async def _samurai_table(book: Book, s: Session) -> None:
    """A table of Samurai (PROTOCOL.md 21): two seats, the tile choice with
    one early, sealed answer, the figures, one turn that places a tile and
    ends, a refused placement."""
    ida, _ = await s.connect("ida")
    frames = await ida.send({"t": "create_table", "id": 1, "seats": 2, "name": "edo", "seed": 11,
                             "timers": TIMERS, "game": "samurai", "options": {"first_seat": 0}},
                            "client/create_table/samurai", "A two-seat table of Samurai whose seat 0 begins (S2.2).")
    table = book.server("server/ok/create_table_samurai", expect(frames, "ok")[0],
                        "Its public options name the map and the tile set, nothing of the seed.")["table"]
    ken, _ = await s.connect("ken")
    token = decode_any(expect(await ida.send({"t": "join", "id": 2, "table": table, "name": "ida"}),
                              "ok", "snapshot")[0])["token"]
    expect(await ken.send({"t": "join", "id": 1, "table": table, "name": "ken", "views": True}),
           "ok", "snapshot", "events")
    await ida.receive()
    spy, _ = await s.connect("spy")
    expect(await spy.send({"t": "spectate", "id": 1, "table": table}), "ok", "snapshot")
    peers = {0: ida, 1: ken}
    live = s.lobby.get(table)
    assert live is not None
    port = live.port  # the generator's own shortcut to whose turn it is; clients read the prompt

    def prompt(viewer: int | str) -> dict[str, Any]:
        p = port.prompts(live.play.state, [viewer])[viewer]
        assert p is not None
        return p

    choice = prompt(1)["id"]
    await ken.send({"t": "act", "id": 10, "table": table,
                    "cmd": {"type": "ChooseTiles", "decision": choice, "tiles": [10, 11, 12, 13, 14]}},
                   "client/act/samurai_choose_early",
                   "Seat 1 chooses before its turn in the round: sealed, shown to nobody else (S7.2).", "samurai")
    eve, _ = await s.connect("eve")
    frames = await eve.send({"t": "resume", "id": 1, "table": table, "token": token, "views": True})
    book.server("server/snapshot/samurai_seat", expect(frames, "ok", "snapshot")[1],
                "Seat 0's view of the tile choice (S2.3): the map in play, the tile set, its empty hand and "
                "its whole supply; the prompt describes the choice (`choose`), since it is not listed.")
    await ida.send({"t": "act", "id": 11, "table": table,
                    "cmd": {"type": "ChooseTiles", "decision": choice, "tiles": [11, 12, 13, 15, 16]}},
                   "client/act/samurai_choose_0",
                   "The pivot's choice is final at once, and so then is the sealed one (S7.2).", "samurai")
    await ken.receive()
    await spy.receive()
    first = True
    act_id = 100
    while prompt("spectator")["topic"] == "figure":
        seat = prompt("spectator")["pivot"]
        act_id += 1  # each act its own id: a repeated id is a resend (PROTOCOL.md 5)
        cmd = {"t": "act", "id": act_id, "table": table, "cmd": prompt(seat)["legal"][0]}
        if first:
            await peers[seat].send(cmd, "client/act/samurai_figure",
                                   "A figure in a city, which holds two of different kinds (S2.5).", "samurai")
            first = False
        else:
            await peers[seat].send(cmd)
        await peers[1 - seat].receive()
        await spy.receive()
    turn = prompt(0)
    place = next(c for c in turn["legal"] if c["type"] == "PlaceTile")
    await ida.send({"t": "act", "id": 30, "table": table, "cmd": place}, "client/act/samurai_place",
                   "A tile from the hand on an empty hex; the turn stays open (S7.1).", "samurai")
    await ken.receive()
    await spy.receive()
    frames = await ida.send({"t": "act", "id": 31, "table": table,
                             "cmd": {"type": "EndTurn", "decision": turn["id"]}},
                            "client/act/samurai_end_turn", "The turn ends: captures, then the refill (S3.7).",
                            "samurai")
    book.server("server/events/samurai_turn", expect(frames, "events", "ok")[0],
                "The seat that ended its turn sees the tile it drew; the next turn begins with its prompt.")
    book.server("server/events/samurai_turn_spectator", expect(await spy.receive(), "events")[0],
                "The same end of turn as a spectator sees it: the tile drawn is null.")
    await ken.receive()
    taken = {**place, "decision": prompt("spectator")["id"]}
    occupied = next(c for c in prompt(1)["legal"] if c["type"] == "PlaceTile")
    frames = await ken.send({"t": "act", "id": 32, "table": table, "cmd": {**occupied, "hex": taken["hex"]}})
    book.server("server/error/samurai_hex_occupied", expect(frames, "error")[0],
                "A tile on a hex that holds one (S3.3).")


async def _limits(book: Book, clock: trio.testing.MockClock, nursery: trio.Nursery) -> None:
    """Rate limit and strikes, with tiny limits so that they trip at once."""
    s = await Session(book, clock, nursery, Limits(rate=200.0, burst=1.0)).start()
    lee, _ = await s.connect("lee")
    await lee.send({"t": "ping", "id": 1})
    frames = await lee.send({"t": "ping", "id": 2})  # the clock does not move: the bucket is empty
    book.server("server/error/rate_limited", expect(frames, "error")[0],
                "Over the rate limit: the frame was not handled, and it counts as a strike. Send it again later.")
    session = ServerSession(s.lobby, Metrics(), Limits(strikes=2))
    conn = session.connect(Outbox(8))
    for cid in (1, 2):
        session._refuse(conn, cid, "message/unknown_type", "unknown message type 'shout'")
    frames = []
    while True:
        try:
            frames.append(conn.outbox.receive.receive_nowait())
        except (trio.WouldBlock, trio.EndOfChannel):
            break
    book.server("server/goodbye", expect(frames, "error", "error", "goodbye")[2],
                "Too many refused frames: the server's last frame before it closes the connection.")


def _static_client(book: Book, table: str) -> None:
    """Client frames not sent in the session above: every other form."""
    book.client("client/ping_no_id", {"t": "ping"}, "id is optional; the reply then has re=null.")
    book.client("client/ping_string_id", {"t": "ping", "id": "p-42"}, "An id may be a string or an integer.")
    book.client("client/hello_minimal", {"t": "hello"}, "Every field but t has a default.")
    book.client("client/unknown_field", {"t": "ping", "id": 5, "trace": "abc"},
                "Unknown fields are ignored.")
    book.client("client/create_table_minimal", {"t": "create_table", "seats": 6},
                "Everything but seats has a default; the seed is then random.")
    book.client("client/create_table/turn_based",
                {"t": "create_table", "seats": 4, "timers": {"prompt_ms": 86_400_000, "window_ms": 28_800_000,
                                                             "bank_ms": 259_200_000, "bank_refill_ms": 43_200_000,
                                                             "away_after": 3, "turn_based": True}},
                "A turn-based table (docs/table.md T8): a day per decision, eight hours to negotiate, a bank of "
                "three days; its deadlines are wall-clock times.")
    book.client("client/join_canonical", {"t": "join", "table": table, "name": "ana", "seat": None,
                                          "views": False, "id": 7},
                "The struct's own order (t, fields, id last) and every default: re-encodes to the same bytes.")
    book.client("client/resume_no_after", {"t": "resume", "id": 9, "table": table,
                                           "token": "token-from-join"},
                "Resume without history: ok, then the snapshot.")
    book.client("client/resume_nonce", {"t": "resume", "id": 12, "table": table, "token": "token-of-a-reserved-seat",
                                        "nonce": "m7-own-share-of-the-seed"},
                "Resume a seat that has no nonce yet (a tournament's reserved seat) before the start, bringing "
                "the seat's own secret nonce: its hash becomes the seat's share of the seed.")
    book.client("client/rematch_nonce", {"t": "rematch", "id": 13, "table": table, "token": "token-of-the-old-seat",
                                         "nonce": "r4-rematch-retry-and-share"},
                "A rematch with a nonce: the join it makes is safe to retry, and the nonce is the seat's share "
                "of the rematch's seed (the table the ended game announced in TableFinished.rematch).")
    book.client("client/spectate_after", {"t": "spectate", "id": 10, "table": table, "after": 0},
                "Spectate with the whole history (after=0).")
    book.client("client/join_views", {"t": "join", "id": 11, "table": table, "name": "vic", "views": True},
                "Join and receive the full view in every events frame.")

    def act(name: str, cmd: dict[str, Any], note: str, cid: Any = 20) -> None:
        book.client(f"client/act/{name}", {"t": "act", "id": cid, "table": table, "cmd": cmd}, note)

    act("announce_untargeted", {"type": "Announce", "decision": 4,
                                "action": {"type": "Action", "kind": "blessing", "target": None}},
        "An action without a target: target null (or left out).")
    act("announce_minimal", {"type": "Announce", "decision": 4, "action": {"kind": "income"}},
        "The Action's own type tag and a null target may be left out.")
    act("claim", {"type": "Claim", "decision": 2, "action": {"type": "Action", "kind": "attack", "target": 1}},
        "Claim privilege with one's own announcement (R4.4).")
    act("join_revolution", {"type": "Join", "decision": 6}, "Join a revolution (R7.1).")
    act("choose", {"type": "Choose", "decision": 8, "card": 44},
        "Pick a card: Trade's card to give, the card to keep in a Transformation, the loser's reinforcement.")
    act("withdraw_deal", {"type": "WithdrawDeal", "deal": 3}, "Withdraw one's acceptance (or proposal).")
    act("settle_promise", {"type": "SettlePromise", "promise": 1, "kept": False},
        "The promisee settles a free-text promise.")
    act("propose_pay_and_free", {
        "type": "ProposeDeal",
        "transfers": [],
        "promises": [
            {"type": "Promise", "promiser": 0, "promisee": 2, "text": "two treasures by season 3",
             "kind": "pay", "attacker": None, "defender": None, "side": None, "cards": [44, 47],
             "by_season": 3, "seat": None},
            {"type": "Promise", "promiser": 2, "promisee": 0, "text": "I will warn you of any attack",
             "kind": "free", "attacker": None, "defender": None, "side": None, "cards": [],
             "by_season": None, "seat": None}],
        "note": ""}, "Promise kinds pay and free, every field given.")
    act("bad_side", {"type": "Support", "decision": 3, "side": "both"}, "A Side outside attacker/defender.")
    act("bad_action_kind", {"type": "Announce", "decision": 1, "action": {"kind": "fly"}}, "An unknown action kind.")
    act("cmd_without_type", {"decision": 1}, "A command map without its type.")


def _invalid_client(book: Book, table: str) -> None:
    book.invalid("client/invalid/unknown_type", encode({"t": "shout", "id": 1}), "An unknown message type.")
    book.invalid("client/invalid/missing_type", encode({"id": 2, "table": table}), "No field t.")
    book.invalid("client/invalid/type_not_string", encode({"t": 7, "id": 3}), "t is not a string.")
    book.invalid("client/invalid/wrong_field_type",
                 encode({"t": "join", "id": 4, "table": table, "name": "ana", "seat": "0"}),
                 "seat must be an integer or null.")
    book.invalid("client/invalid/missing_field", encode({"t": "join", "id": 5, "table": table}),
                 "join needs a name.")
    book.invalid("client/invalid/id_float", encode({"t": "ping", "id": 1.5}),
                 "An id is an integer, a string or null; the reply cannot echo it (re null).")
    book.invalid("client/invalid/id_bool", encode({"t": "ping", "id": True}),
                 "An id of true or false is refused too, but the reply echoes it (re true).")
    book.invalid("client/invalid/cmd_not_map", encode({"t": "act", "id": 6, "table": table, "cmd": ["Pass", 1]}),
                 "cmd must be a map.")
    book.invalid("client/invalid/nested_type",
                 encode({"t": "create_table", "id": 7, "seats": 4, "timers": {"prompt_ms": "30s"}}),
                 "Nested fields are checked too.")
    book.invalid("client/invalid/seats_float", encode({"t": "create_table", "id": 8, "seats": 4.0}),
                 "An integer field given as a float.")
    book.invalid("client/invalid/array_root", encode(["ping", 1]), "A frame holds one map, not an array.")
    book.invalid("client/invalid/string_root", encode("ping"), "A frame holds one map, not a string.")
    book.invalid("client/invalid/bad_byte", b"\xc1", "0xc1 is never valid msgpack.")
    book.invalid("client/invalid/truncated", encode({"t": "ping", "id": 9})[:-3], "A frame cut short.")
    book.invalid("client/invalid/trailing_bytes", encode({"t": "ping", "id": 10}) + b"\x00",
                 "One map and then more bytes.")
    book.invalid("client/invalid/empty", b"", "An empty binary frame.")
    book.invalid("client/invalid/text_frame", '{"t": "ping", "id": 11}',
                 "A text frame (here JSON); hex holds its UTF-8 bytes.")
    book.generated("client/invalid/too_large", {"t": "chat", "id": 12, "table": table, "text": ""}, "text",
                   M.MAX_FRAME + 1, "One byte over the protocol's frame limit: refused, the connection stays.")
    book.generated("client/at_frame_limit", {"t": "chat", "id": 13, "table": table, "text": ""}, "text",
                   M.MAX_FRAME, "Exactly at the frame limit: decoded (the table then refuses the chat text).")


def generate() -> list[dict[str, Any]]:
    """Every vector, in a fixed order."""
    book = Book()
    clock = trio.testing.MockClock()
    with _repeatable_tokens():
        trio.run(_play, book, clock, clock=clock)
    table = next(v for v in book.vectors if v["name"] == "server/ok/create_table")["decoded"]["table"]
    _static_client(book, table)
    _invalid_client(book, table)
    order = {"client": 0, "server": 1}
    return sorted(book.vectors, key=lambda v: (order[v["direction"]], v["name"]))


def render(vectors: list[dict[str, Any]]) -> str:
    """One vector per line, so that a change shows as a one-line diff."""
    lines = [json.dumps(v, ensure_ascii=False, separators=(", ", ": ")) for v in vectors]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def main() -> int:
    OUTPUT.write_text(render(generate()), encoding="utf-8")
    print(f"wrote {OUTPUT.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
