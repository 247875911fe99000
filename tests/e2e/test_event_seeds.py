"""A tournament's seeds, attacked from everything public (docs/tournaments.md
TR2.4, TR3.2): the round seeds the `tournament` frames and `export.json`
show from the moment a round is seated must not give any board of any
round. The attack is the one that worked while seeds were SplitMix64 steps
of the event's seed: invert the step from a round seed to the event's seed
(two candidates: the top bit is cut), then derive every board from it.

Over real sockets and a real SQLite store: a duplicate event of eight
server bots, two rounds, the second started by itself (`auto_rounds`)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

import pytest
import trio

from oriente.protocol.codec import decode_any
from oriente.server.app import App
from oriente.server.gamekit.rng import MASK64, splitmix64

from .test_tournament import fetch
from .tourney import call, organiser
from .wsclient import BOT_TIMERS, Client, open_client, unpack

pytestmark = pytest.mark.trio

GOLDEN = 0x9E3779B97F4A7C15


def _inverse(m: int) -> int:
    return pow(m, -1, 1 << 64)


def unmix(z: int) -> int:
    """The state a SplitMix64 output came from (the step's mixing inverted)."""
    z = z ^ (z >> 31) ^ (z >> 62)
    z = (z * _inverse(0x94D049BB133111EB)) & MASK64
    z = z ^ (z >> 27) ^ (z >> 54)
    z = (z * _inverse(0xBF58476D1CE4E5B9)) & MASK64
    return z ^ (z >> 30) ^ (z >> 60)


def splitmix_derive(seed: int, *parts: int) -> int:
    """The derivation the attack assumes (an event seed to a round's or a board's seed)."""
    x = seed & MASK64
    for p in parts:
        x, out = splitmix64((x ^ (p * GOLDEN)) & MASK64)
        x = out
    return x & (2**63 - 1)


def event_seeds_from(round_seed: int, number: int, attempt: int) -> set[int]:
    """Every event seed whose SplitMix64 derivation gives `round_seed` (of
    round `number`, seated for the `attempt`-th time)."""
    parts = [number, *([attempt] if attempt else [])]
    found = set()
    for top in (0, 1 << 63):
        x = round_seed | top
        for p in reversed(parts):
            x = ((unmix(x) - GOLDEN) & MASK64) ^ (p * GOLDEN & MASK64)
        if splitmix_derive(x, *parts) == round_seed:
            found.add(x)
    return found


async def test_the_attack_finds_a_splitmix_events_seed() -> None:
    """The attack itself works (so that its failure below means something)."""
    for seed in (1, 2575481345599048289, 2**63 + 12345):
        for number in (1, 2, 7):
            assert seed & MASK64 in event_seeds_from(splitmix_derive(seed, number), number, 0)
            assert seed & MASK64 in event_seeds_from(splitmix_derive(seed, number, 3), number, 3)


async def test_no_board_follows_from_anything_public(tmp_path: Any, nursery: trio.Nursery) -> None:
    store = str(tmp_path / "store.sqlite")
    app = App(store, port=0, bot_delay=0.0)
    await nursery.start(app.run)
    assert app.port is not None
    port = app.port
    tid, org = await organiser(port, {"name": "Dup", "format": "duplicate", "rounds": 2, "table_sizes": [4],
                                      "timers": BOT_TIMERS, "show_up_s": 1.0, "auto_rounds": True})
    for i in range(8):
        reply = await call(port, {"t": "tournament_register", "tournament": tid, "name": f"bot{i}",
                                  "policy": "random", "organiser_token": org})
        assert reply["t"] == "ok", reply
    public: list[bytes] = []  # every byte anyone was shown
    predicted: set[int] = set()  # the boards the attack derives
    seen_commitments: dict[str, str] = {}  # board -> its commitment, as first shown
    async with open_client(port) as ws:
        watcher = Client(ws)
        await watcher.recv()
        await watcher.send({"t": "tournament_watch", "tournament": tid})
        await direct_start(port, tid, org)
        with trio.fail_after(300):
            while True:
                raw = await ws.recv()
                public.append(raw)
                frame = unpack(raw)
                if frame.get("t") != "tournament":
                    continue
                state = frame["state"]
                sizes = state["config"]["table_sizes"]
                for rnd in state["rounds"]:
                    for seed_guess in event_seeds_from(rnd["seed"], rnd["number"], rnd["attempt"]):
                        for number in range(1, state["config"]["rounds"] + 1):
                            for size in sizes:
                                predicted.add(splitmix_derive(seed_guess, number, size, 1))
                    for x in rnd["tables"]:
                        if x.get("board_commitment") is not None:
                            seen_commitments.setdefault(x["board"], x["board_commitment"])
                export = await fetch(port, f"/tournament/{tid}/export.json")
                public.append(export)
                if state["finished"]:
                    break
    final = json.loads(await fetch(port, f"/tournament/{tid}/export.json"))
    records = await fetch(port, f"/tournament/{tid}/records.json")
    public += [json.dumps(final).encode(), records]
    boards = {x["board"]: x for r in final["rounds"] for x in r["tables"]}
    played = {r["record"]["config"]["seed"] for r in json.loads(records)["records"]}
    assert played == {x["board_seed"] for x in boards.values()}, "each table played its round's board"
    assert len(boards) == 2 and len(played) == 2
    assert not predicted & played, "a board follows from the public round seeds"

    # Every board was committed to from the moment its round was seated, and
    # its revealed seed and salt give that commitment.
    assert set(seen_commitments) == set(boards)
    for name, x in boards.items():
        body = f"oriente.board.v1\0{tid}\0{name}\0{x['board_salt']}\0{x['board_seed']}".encode()
        assert hashlib.sha256(body).hexdigest() == seen_commitments[name] == x["board_commitment"]

    # The key the seeds come from is in the store, and nowhere anyone looks.
    await app.aclose()
    db = sqlite3.connect(store)
    body = db.execute("SELECT body FROM tournaments WHERE id = ?", (tid,)).fetchone()[0]
    db.close()
    key = decode_any(body)["seed_key"]
    assert isinstance(key, str) and len(key) == 64
    shown = b"".join(public)
    assert key.encode() not in shown and bytes.fromhex(key) not in shown
    assert final["config"]["seeded"] is False and final["config"]["seed_scheme"] == "hmac-sha256.v1"


async def direct_start(port: int, tid: str, org: str) -> None:
    reply = await call(port, {"t": "tournament_direct", "tournament": tid, "token": org, "action": "start_round"})
    assert reply["t"] == "ok", reply


async def test_an_event_stored_before_the_keyed_seeds_goes_on_with_its_own(tmp_path: Any,
                                                                          nursery: trio.Nursery) -> None:
    """tests/fixtures/fair_v1.sqlite: a duplicate event written by the
    server before round seeds were keyed, round 1 played, round 2 not
    started. It opens, says that its boards may be known (`seeded`, its
    scheme), and its round 2 is seated and dealt from its old seeds, not
    re-keyed mid-event (round 1's seating still checks)."""
    import shutil
    from pathlib import Path

    fixtures = Path(__file__).parent.parent / "fixtures"
    keep = json.loads((fixtures / "fair_v1.json").read_text())
    store = tmp_path / "store.sqlite"
    shutil.copy(fixtures / "fair_v1.sqlite", store)
    app = App(str(store), port=0, bot_delay=0.0)
    await nursery.start(app.run)
    assert app.port is not None
    tid, org, event_seed = keep["tournament"], keep["organiser_token"], keep["event_seed"]
    before = json.loads(await fetch(app.port, f"/tournament/{tid}/export.json"))
    assert before["config"]["seed_scheme"] == "splitmix64.v0" and before["config"]["seeded"] is True
    assert before["rounds"][0]["seed"] == splitmix_derive(event_seed, 1)
    assert before["seating_ok"] is True
    await direct_start(app.port, tid, org)
    with trio.fail_after(300):
        while True:
            state = json.loads(await fetch(app.port, f"/tournament/{tid}/export.json"))
            if state["finished"]:
                break
            await trio.sleep(0.2)
    second = state["rounds"][1]
    assert second["seed"] == splitmix_derive(event_seed, 2)
    assert {x["board_seed"] for x in second["tables"]} == {splitmix_derive(event_seed, 2, 4, 1)}
    assert all(x["board_commitment"] is None for x in second["tables"])
    assert state["seating_ok"] is True
    await app.aclose()


async def test_an_event_whose_organiser_chose_the_seed_says_so(server: App) -> None:
    """As a table whose creator chose its seed: `seeded: true` in the
    public settings, from the first frame on. The organiser cannot choose
    the scheme its seeds are made by."""
    assert server.port is not None
    chosen, _ = await organiser(server.port, {"name": "Chosen", "seed": 42})
    drawn, _ = await organiser(server.port, {"name": "Drawn"})
    for tid, seeded in ((chosen, True), (drawn, False)):
        reply = await call(server.port, {"t": "tournament_watch", "tournament": tid})
        assert reply["t"] == "ok"
        state = json.loads(await fetch(server.port, f"/tournament/{tid}/export.json"))
        assert state["config"]["seeded"] is seeded and "seed" not in state["config"]
    refused = await call(server.port, {"t": "tournament_create",
                                       "settings": {"name": "Old", "seed_scheme": "splitmix64.v0"}})
    assert refused["t"] == "error" and refused["code"] == "tournament/bad_settings", refused


async def test_a_signed_in_entry_is_bound_to_its_account_and_its_name_is_its_own(server: App) -> None:
    """A signed-in entrant enters under its account: the entry carries the
    account and its name, once per account. Nobody else, signed out or
    signed in as another account, can enter under an account's name."""
    assert server.port is not None
    tid, _ = await organiser(server.port, {"name": "Cup"})
    async with open_client(server.port) as wa, open_client(server.port) as wb:
        ana, bob = Client(wa), Client(wb)
        await ana.recv()
        await bob.recv()
        signed = await ana.request({"t": "sign_up", "name": "ana", "password": "correct horse 1"})
        assert signed["t"] == "ok", signed
        await bob.request({"t": "sign_up", "name": "bob", "password": "correct horse 2"})
        for name in ("bob", "BOB", " Bob"):
            taken = await call(server.port, {"t": "tournament_register", "tournament": tid, "name": name})
            assert taken["t"] == "error" and taken["code"] == "tournament/name_reserved", taken
        entry = await ana.request({"t": "tournament_register", "tournament": tid, "name": "whatever"})
        assert entry["t"] == "ok", entry
        again = await ana.request({"t": "tournament_register", "tournament": tid, "name": "ana2"})
        assert again["t"] == "error" and again["code"] == "tournament/already_entered", again
        own = await bob.request({"t": "tournament_register", "tournament": tid, "name": "someone"})
        assert own["t"] == "ok", own
        anyone = await call(server.port, {"t": "tournament_register", "tournament": tid, "name": "Carol"})
        assert anyone["t"] == "ok", "a name no account holds is anyone's"
    state = json.loads(await fetch(server.port, f"/tournament/{tid}/export.json"))
    entrants = {e["name"]: e for e in state["entrants"]}
    assert entrants["ana"]["account"] == signed["account"]["id"], "the entry is the account's, under its name"
    assert entrants["bob"]["account"] is not None and entrants["Carol"]["account"] is None
    assert "whatever" not in entrants


async def test_the_key_survives_a_restart_and_seeds_the_rounds_after_it(tmp_path: Any,
                                                                         nursery: trio.Nursery) -> None:
    """The event's key is kept in the store: a server started again on it
    seats round 2 and deals its board from the same key (its round seed and
    board are the key's), and the board's commitment checks."""
    from oriente.server.tournament.seeds import HMAC_SCHEME, EventSeeds

    store = str(tmp_path / "store.sqlite")
    app = App(store, port=0, bot_delay=0.0)
    await nursery.start(app.run)
    assert app.port is not None
    tid, org = await organiser(app.port, {"name": "Dup", "format": "duplicate", "rounds": 2, "table_sizes": [4],
                                          "timers": BOT_TIMERS, "show_up_s": 1.0})
    for i in range(4):
        await call(app.port, {"t": "tournament_register", "tournament": tid, "name": f"bot{i}", "policy": "random",
                              "organiser_token": org})

    async def played(port: int, number: int) -> dict[str, Any]:
        with trio.fail_after(120):
            while True:
                state = json.loads(await fetch(port, f"/tournament/{tid}/export.json"))
                if len(state["rounds"]) >= number and state["rounds"][number - 1]["tables"][0]["status"] == "finished":
                    return state
                await trio.sleep(0.1)

    await direct_start(app.port, tid, org)
    await played(app.port, 1)
    await app.aclose()
    app = App(store, port=0, bot_delay=0.0)
    await nursery.start(app.run)
    assert app.port is not None
    await direct_start(app.port, tid, org)
    state = await played(app.port, 2)
    await app.aclose()
    db = sqlite3.connect(store)
    key = bytes.fromhex(decode_any(db.execute("SELECT body FROM tournaments WHERE id = ?", (tid,)).fetchone()[0])
                        ["seed_key"])
    db.close()
    seeds = EventSeeds(tid, HMAC_SCHEME, key=key)
    for number in (1, 2):
        table = state["rounds"][number - 1]["tables"][0]
        assert state["rounds"][number - 1]["seed"] == seeds.round(number)
        assert table["board_seed"] == seeds.board(number, 4).seed
        assert table["board_commitment"] == seeds.board(number, 4).commitment
    assert state["seating_ok"] is True
