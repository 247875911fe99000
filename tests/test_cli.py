"""The `oriente` command (cli/): a demo game end to end, and its record replayed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from oriente.server.rules import plain, replay


def _oriente(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "oriente.cli", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )


def test_demo_plays_scores_and_records_a_game_that_replays(tmp_path: Path) -> None:
    record_path = tmp_path / "out" / "demo.json"
    run = _oriente("demo", "--seats", "4", "--seed", "1", "--quiet", "--delay", "0",
                   "--record", str(record_path), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Final result" in run.stdout
    rows = [line.split() for line in run.stdout.splitlines() if line[:4].strip().isdigit()]
    assert sorted(int(r[1]) for r in rows) == [0, 1, 2, 3]  # one score row per seat
    assert "announces" not in run.stdout  # --quiet leaves out the narration

    record = json.loads(record_path.read_text())
    assert record["config"]["seats"] == 4 and record["config"]["seed"] == 1
    game = replay(record)
    assert game.over
    assert plain(game.state.result) == record["result"]
    assert [row[2] for row in sorted(rows, key=lambda r: int(r[1]))] == [str(s) for s in record["result"]["scores"]]


def test_demo_is_repeatable_and_narrates(tmp_path: Path) -> None:
    """Bots that never bargain (random ones) replay the same game from the same seed;
    only the order in which two fighters say done in a window (R10.2b1) may differ,
    each sending it at once. Bargaining bots race each other with their offers."""
    a = _oriente("demo", "--seats", "6", "--seed", "5", "--delay", "0", "--bots", "random", "--record", "a.json",
                 cwd=tmp_path)
    b = _oriente("demo", "--seats", "6", "--seed", "5", "--delay", "0", "--bots", "random", "--record", "b.json",
                 cwd=tmp_path)
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    ra, rb = (json.loads((tmp_path / name).read_text()) for name in ("a.json", "b.json"))
    # Two tables (two ids) with the same seed and the same seeded bots play the same game.
    assert ra["table"] != rb["table"]
    def done(events: list[dict]) -> list[tuple[int, int]]:
        return sorted((e["decision"], e["seat"]) for e in events if e["type"] == "NegotiationDone")

    def rest(events: list[dict]) -> list[dict]:
        return [e for e in events if e["type"] != "NegotiationDone"]

    assert rest(ra["events"]) == rest(rb["events"]) and ra["result"] == rb["result"]
    assert done(ra["events"]) == done(rb["events"]) != []
    assert "Season 1 begins" in a.stdout and "Final result" in a.stdout
    assert "takes seat" in a.stdout  # the table's own events are told too


def test_demo_bots_bargain_by_default_and_say_their_offers(tmp_path: Path) -> None:
    """`oriente demo` seats negotiating bots: the story tells their deals,
    what each offer is for and why a deal is declined (R8.8), in the
    narrator's words rather than in English chat."""
    run = _oriente("demo", "--seats", "5", "--seed", "3", "--delay", "0", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert re.search(r"Seat \d \(\w+\) proposes deal #\d+ to seat \d \(\w+\)", run.stdout), run.stdout
    assert re.search(r"proposes deal #\d+ .*\. It is (a card for support|support of|a card for the promise)",
                     run.stdout), run.stdout
    assert re.search(r"Deal #\d+ is declined by seat \d \(\w+\): ", run.stdout), run.stdout
    assert "I offer: " not in run.stdout
    assert "Final result" in run.stdout


def test_demo_writes_to_records_by_default(tmp_path: Path) -> None:
    run = _oriente("demo", "--seats", "4", "--seed", "2", "--quiet", "--delay", "0", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    written = list((tmp_path / "records").glob("demo-*.json"))
    assert len(written) == 1 and str(written[0].relative_to(tmp_path)) in run.stdout
    # The demo keeps a store of its own, gone when it ends: nothing beside the record.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records"]


def test_replay_tells_the_game_from_each_viewpoint(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    demo = _oriente("demo", "--seats", "5", "--seed", "3", "--quiet", "--delay", "0",
                    "--record", str(path), cwd=tmp_path)
    assert demo.returncode == 0
    outputs = {}
    for viewer in ("spectator", "all", "0"):
        run = _oriente("replay", str(path), "--as", viewer, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert "A game for 5 seats begins" in run.stdout and "Final result" in run.stdout
        outputs[viewer] = run.stdout
    assert "(you: " in outputs["0"]
    assert "(you: " not in outputs["spectator"]
    assert outputs["all"] != outputs["spectator"]


def test_bad_input_is_refused_with_a_reason(tmp_path: Path) -> None:
    run = _oriente("demo", "--seats", "13", cwd=tmp_path)
    assert run.returncode == 2 and "4 to 12" in run.stderr
    (tmp_path / "junk.json").write_text("{}")
    run = _oriente("replay", str(tmp_path / "junk.json"), cwd=tmp_path)
    assert run.returncode == 2 and "record" in run.stderr


def test_replay_catches_a_record_that_no_longer_matches(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    demo = _oriente("demo", "--seats", "4", "--seed", "4", "--quiet", "--delay", "0",
                    "--record", str(path), cwd=tmp_path)
    assert demo.returncode == 0
    record = json.loads(path.read_text())
    record["result"]["scores"][0] += 1
    path.write_text(json.dumps(record))
    run = _oriente("replay", str(path), cwd=tmp_path)
    assert run.returncode == 1 and "differs" in run.stderr


def test_replay_reads_a_record_from_before_records_named_their_game(tmp_path: Path) -> None:
    """tests/fixtures/record_v1.json was written by the server before records
    had `game` (see tests/fixtures/make_store_v1.py): still an oriente record."""
    fixture = Path(__file__).resolve().parent / "fixtures" / "record_v1.json"
    assert "game" not in json.loads(fixture.read_text())
    run = _oriente("replay", str(fixture), "--as", "all", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Final result" in run.stdout
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**json.loads(fixture.read_text()), "game": "highcard"}))
    run = _oriente("replay", str(other), cwd=tmp_path)
    assert run.returncode == 2 and "highcard" in run.stderr


def test_the_usual_mistakes_get_one_clear_line_and_no_traceback(tmp_path: Path) -> None:
    """The usual mistakes: a wrong address, a port in use, a file that is no
    record, a record that does not replay; and `--version` answers."""
    import socket

    version = _oriente("--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("oriente ")
    (tmp_path / "junk.bin").write_bytes(bytes(range(128, 256)))
    (tmp_path / "bare.json").write_text('{"format": "oriente.record.v1"}')
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        runs = {
            "ftp": _oriente("play", "--server", "ftp://example", cwd=tmp_path),
            "closed": _oriente("play", "--server", "http://127.0.0.1:1", cwd=tmp_path),
            "bare": _oriente("play", "--server", "127.0.0.1:1", cwd=tmp_path),
            "junk": _oriente("replay", "junk.bin", cwd=tmp_path),
            "record": _oriente("replay", "bare.json", cwd=tmp_path),
            "port": _oriente("serve", "--port", str(port), "--store", "taken.sqlite", cwd=tmp_path),
        }
    for what, run in runs.items():
        said = (run.stdout + run.stderr).strip().splitlines()
        assert run.returncode in (1, 2) and len(said) == 1 and "Traceback" not in run.stderr, (what, said)
    assert "not a server address" in runs["ftp"].stderr
    assert "cannot reach the server at ws://127.0.0.1:1" in runs["closed"].stdout  # http:// became ws://
    assert "cannot reach the server at ws://127.0.0.1:1" in runs["bare"].stdout
    assert "cannot read junk.bin" in runs["junk"].stderr and "does not replay" in runs["record"].stderr
    assert f"cannot listen on 127.0.0.1:{port}" in runs["port"].stderr
    assert not list(tmp_path.glob("taken.sqlite*")), "a server that could not start leaves no store behind"


def test_demo_plays_a_game_of_oro_that_replays(tmp_path: Path) -> None:
    """`oriente demo --game oro` plays a complete game over the server and
    exits 0 with no terminal attached; its record retells with `replay`."""
    record_path = tmp_path / "oro.json"
    run = _oriente("demo", "--game", "oro", "--seed", "3", "--delay", "0", "--record", str(record_path), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Oro begins: 3 seats" in run.stdout and "rank  seat points" in run.stdout
    record = json.loads(record_path.read_text())
    assert record["game"] == "oro" and record["config"]["gods"] is True and record["result"]["ranks"]
    again = _oriente("replay", str(record_path), "--as", "0", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Your hand:" in again.stdout

    def ranks(text: str) -> list[str]:
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("Final result"))
        return [line for line in lines[start:start + 6] if line[:4].strip().isdigit()]
    assert ranks(again.stdout) == ranks(run.stdout) and len(ranks(run.stdout)) == 3


def test_demo_plays_a_game_of_samurai_that_replays(tmp_path: Path) -> None:
    """`oriente demo --game samurai` plays a complete game over the server and
    exits 0 with no terminal attached; its record retells with `replay`, as
    seat 1 saw it (its own tiles named, nobody else's)."""
    record_path = tmp_path / "samurai.json"
    run = _oriente("demo", "--game", "samurai", "--seed", "3", "--delay", "0", "--record", str(record_path),
                   cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Samurai begins: 3 seats" in run.stdout and re.search(r"Edo \([A-Z]+\d+\) receives", run.stdout)
    assert "has chosen their tiles." in run.stdout and "has chosen:" not in run.stdout, "a spectator sees no tile"
    record = json.loads(record_path.read_text())
    assert record["game"] == "samurai" and record["result"]["ranks"]
    assert sum(1 for _, c in record["commands"] if c["type"] == "ChooseTiles") == 3, "every bot chose (S2.3)"
    again = _oriente("replay", str(record_path), "--as", "1", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    # Told as seat 1 saw it, seats named as the record names them ("seat 1 (you)", "seat 0 (Aiko)").
    assert "Seat 1 (you) has chosen:" in again.stdout
    assert re.search(r"Seat 0 \(\w+\) has chosen their tiles\.", again.stdout), again.stdout

    def tally(text: str) -> list[str]:
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("Samurai: the final tally"))
        return [line for line in lines[start:start + 6] if line[:4].strip().isdigit()]
    assert tally(again.stdout) == tally(run.stdout) and len(tally(run.stdout)) == 3


def test_demo_refuses_what_oro_cannot_do(tmp_path: Path) -> None:
    too_many = _oriente("demo", "--game", "oro", "--seats", "5", cwd=tmp_path)
    assert too_many.returncode == 2 and "2 to 4 seats, not 5" in too_many.stderr
    no_bot = _oriente("demo", "--game", "oro", "--bots", "negotiator", cwd=tmp_path)
    assert no_bot.returncode == 2 and "its bots are heuristic, random" in no_bot.stderr


def test_verify_passes_an_honest_demo_and_fails_a_changed_seed_salt_nonce_or_card(tmp_path: Path) -> None:
    """`oriente verify` (docs/table.md T7): exit 0 for the demo's own record;
    1, saying why, once its seed, salt, a nonce or a dealt card is changed;
    2 for a record from before commitments."""
    path = tmp_path / "demo.json"
    run = _oriente("demo", "--seats", "4", "--bots", "random", "--delay", "0", "--quiet", "--record", str(path),
                   cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    honest = _oriente("verify", str(path), cwd=tmp_path)
    assert honest.returncode == 0, honest.stdout + honest.stderr
    assert "verified:" in honest.stdout
    record = json.loads(path.read_text(encoding="utf-8"))
    # The first event that shows a card (the seed of the demo is the server's, so which one varies).
    drawn = next(i for i, e in enumerate(record["events"]) if isinstance(e.get("card"), int))

    def changed(name: str, change: Any) -> subprocess.CompletedProcess[str]:
        bad = json.loads(json.dumps(record))
        change(bad)
        target = tmp_path / f"{name}.json"
        target.write_text(json.dumps(bad), encoding="utf-8")
        return _oriente("verify", str(target), cwd=tmp_path)

    cases = {
        "seed": (lambda r: r["commitment"].update(seed=r["commitment"]["seed"] + 1), "seed"),
        "salt": (lambda r: r["commitment"].update(salt="ab" * 32), "salt"),
        "nonce": (lambda r: r["commitment"]["nonces"].__setitem__(2, "cd" * 32), "nonce"),
        "card": (lambda r: r["events"][drawn].update(card=(r["events"][drawn]["card"] + 1) % 41),
                 record["events"][drawn]["type"]),
    }
    for name, (change, says) in cases.items():
        run = changed(name, change)
        assert run.returncode == 1, (name, run.stdout, run.stderr)
        assert "FAILED" in run.stdout and says in run.stdout, (name, run.stdout)
    old = changed("old", lambda r: r.pop("commitment"))
    assert old.returncode == 2 and "predates commitments" in old.stdout, old.stdout


def _served_record(nonces: list[str | None]) -> dict[str, Any]:
    """A finished 4-seat table's record, joined with these nonces (None: a
    join without one), from the lobby on the memory store under MockClock."""
    import trio
    import trio.testing

    from oriente.protocol import messages as M
    from oriente.server.games import PORTS
    from oriente.server.lobby import Lobby
    from oriente.server.outbox import Outbox
    from oriente.server.stores import MemoryStore

    timers = M.Timers(prompt_ms=2000, window_ms=0, bank_ms=0, bank_refill_ms=0, zero_wait=True, away_after=3)

    async def main() -> dict[str, Any]:
        async with trio.open_nursery() as nursery:
            store = MemoryStore()
            await nursery.start(store.run)
            lobby = Lobby(PORTS, store, nursery)
            table = await lobby.create(*lobby.settings_from(M.CreateTable(seats=4, timers=timers)))
            for i, nonce in enumerate(nonces):
                await table.send(Outbox(1000), M.Join(id=i, table=table.id, name=f"p{i}", nonce=nonce))
            await table.ended.wait()
            nursery.cancel_scope.cancel()
            return table.record()

    return trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def test_verify_binds_the_record_to_what_was_seen_and_says_what_it_cannot_prove(tmp_path: Path) -> None:
    """`oriente verify --commitment --seat --nonce` (docs/table.md T7.3): the
    record must carry the commitment you saw before joining and your nonce;
    its result must be the replay's end; and it says plainly what no check
    proves, the server's free hand when no seat brought a nonce included."""
    def verify(record: dict[str, Any], *flags: str) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "r.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        return _oriente("verify", str(path), *flags, cwd=tmp_path)

    nobody = _served_record([None] * 4)
    run = verify(nobody)
    assert run.returncode == 0 and "not proven: no seat brought a nonce of its own" in run.stdout, run.stdout
    assert "not proven: that the commitment is the one shown before anyone joined" in run.stdout
    assert verify(nobody, "--seat", "1").returncode == 0, "seat 1 brought none: the server's nonce is the salt's"

    record = _served_record(["n" * 20 + str(i) for i in range(4)])
    shown = record["commitment"]["sha256"]
    run = verify(record, "--commitment", shown, "--seat", "2", "--nonce", "n" * 20 + "2")
    assert run.returncode == 0, run.stdout
    assert "ok: the record's commitment is the one shown before the joins" in run.stdout
    assert "no seat brought a nonce of its own" not in run.stdout
    other = verify(record, "--commitment", "ab" * 32)
    assert other.returncode == 1 and "is not the one shown before the joins" in other.stdout, other.stdout
    assert verify(record, "--seat", "2", "--nonce", "n" * 21).returncode == 1
    reversed_ranks = json.loads(json.dumps(record))
    ranks = reversed_ranks["result"]["ranks"]
    reversed_ranks["result"]["ranks"] = [5 - r for r in ranks]
    run = verify(reversed_ranks)
    assert run.returncode == 1 and "is not the end the replay reaches" in run.stdout, run.stdout


def test_serve_refuses_a_trusted_proxy_or_an_origin_that_is_not_one(tmp_path: Path) -> None:
    run = _oriente("serve", "--port", "0", "--trusted-proxy", "notanip", cwd=tmp_path)
    assert run.returncode == 2 and "--trusted-proxy: 'notanip' is not an IP address or network" in run.stderr
    run = _oriente("serve", "--port", "0", "--public-origin", "play.example.org", cwd=tmp_path)
    assert run.returncode == 2 and "--public-origin" in run.stderr and "scheme://host[:port]" in run.stderr
    assert "Traceback" not in run.stderr and not list(tmp_path.glob("*.sqlite*")), "refused before anything started"
