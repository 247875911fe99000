"""The command line refuses a bad value in one line naming the option, and the
demo says why it cannot run instead of printing a traceback (cli/checks.py,
cli/demo.py)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from oriente.cli.main import build_parser

from .interrupt import default_sigint

REFUSED = [
    (["serve", "--port", "70000"], "--port: 70000 is not a port: ports are 1 to 65535"),
    (["serve", "--port", "-5"], "--port: -5 is not a port"),
    (["serve", "--port", "eighty"], "--port: 'eighty' is not a whole number"),
    (["serve", "--metrics-port", "65536"], "--metrics-port: 65536 is not a port"),
    (["demo", "--watch", "--port", "99999"], "--port: 99999 is not a port"),
    (["serve", "--store", "mysql://u@db/oriente"], "--store: mysql:// is not a store Oriente can use"),
    (["serve", "--store", "postgresql:///oriente"], "names no host"),
    (["serve", "--bot-delay", "-1"], "--bot-delay: -1 is not a duration"),
    (["serve", "--bot-delay", "nan"], "--bot-delay: nan is not a duration"),
    (["serve", "--max-tables", "0"], "--max-tables: 0 is too small"),
    (["serve", "--tables-per-connection", "0"], "--tables-per-connection: 0 is too small"),
    (["serve", "--tables-per-address", "-3"], "--tables-per-address: -3 is too small"),
    (["serve", "--abandon-after", "0"], "--abandon-after: 0 is too short"),
    (["serve", "--lease", "-1"], "--lease: -1 is not a duration"),
    (["serve", "--session-days", "0"], "--session-days: 0 is too short"),
    (["serve", "--trusted-proxy", "notanip"], "'notanip' is not an IP address or network"),
    (["serve", "--host", "not a host"], "--host: 'not a host' is not an address or host name"),
    (["serve", "--metrics-host", "x_y.local"], "--metrics-host: 'x_y.local' is not an address"),
    (["serve", "--cluster", "http://127.0.0.1:6379"], "--cluster: 'http://127.0.0.1:6379' is not a redis://"),
    (["serve", "--public-url", "127.0.0.1:8765"], "--public-url: '127.0.0.1:8765' is not a ws:// or wss://"),
    (["demo", "--delay", "-0.5"], "--delay: -0.5 is not a duration"),
    (["demo", "--seats", "0"], "--seats: 0 is too small"),
    (["demo", "--seed", "-1"], "--seed: -1 is not a seed"),
    (["drain", "0"], "give the port the server serves, not 0"),
    (["drain", "70000"], "70000 is not a port"),
    (["backup", "-7"], "-7 is not a port"),
    (["backup", "0"], "give the port the server serves, not 0"),
    (["backup", "8765", "--timeout", "0"], "--timeout: 0 is too short"),
    (["verify", "r.json", "--seat", "-1"], "--seat: -1 is too small"),
    (["tournament", "create", "--name", "x", "--rounds", "0"], "--rounds: 0 is too small"),
    (["tournament", "create", "--name", "x", "--sizes", "0,5"], "give numbers of 1 or more"),
    (["tournament", "create", "--name", "x", "--show-up", "-1"], "--show-up: -1 is not a duration"),
    (["tournament", "play", "T", "--token", "e", "--delay", "-1"], "--delay: -1 is not a duration"),
    (["tournament", "direct", "T", "pause", "--token", "o", "--round", "0"], "--round: 0 is too small"),
    (["tournament", "direct", "T", "adjudicate", "--token", "o", "--table", "0"], "--table: 0 is too small"),
    (["tournament", "direct", "T", "begin", "--token", "o"], "start-round, pause, resume"),
]


@pytest.mark.parametrize(("words", "said"), REFUSED, ids=[" ".join(w) for w, _ in REFUSED])
def test_a_bad_value_is_refused_in_one_line_naming_it(words: list[str], said: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(words)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err, err
    assert "another server" not in err and "Traceback" not in err


def test_good_values_are_taken(tmp_path: Path) -> None:
    args = build_parser().parse_args(["serve", "--port", "0", "--host", "::1", "--bot-delay", "0",
                                      "--store", str(tmp_path / "s.sqlite"), "--metrics-host", "localhost",
                                      "--cluster", "redis://127.0.0.1:6379/0", "--public-url", "ws://10.0.0.5:8765"])
    assert (args.port, args.host, args.bot_delay, args.store) == (0, "::1", 0.0, str(tmp_path / "s.sqlite"))
    assert build_parser().parse_args(["serve", "--store", "postgresql://u@db/o?schema=s"]).store.startswith("postgres")
    assert build_parser().parse_args(["serve", "--port", "65535"]).port == 65535
    # The command is start-round; `direct` says it so and takes the protocol's start_round too.
    for word in ("start-round", "start_round"):
        direct = build_parser().parse_args(["tournament", "direct", "T", word, "--token", "o"])
        assert direct.action == "start-round"


def _oriente(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "oriente.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def test_a_store_under_a_missing_folder_is_said_plainly(tmp_path: Path) -> None:
    for command in ("demo", "serve"):
        run = _oriente(command, "--store", "no/such/folder/s.sqlite", cwd=tmp_path)
        assert run.returncode == 2, run.stderr
        assert "the folder 'no/such/folder' does not exist; create it first" in run.stderr
        assert "Traceback" not in run.stderr
    assert not (tmp_path / "no").exists()


def test_a_record_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("a file, not a folder\n")
    for record, said in (("notes.txt/game.json", "cannot make its folder"), (".", "is a folder")):
        run = _oriente("demo", "--seats", "4", "--record", record, cwd=tmp_path)
        assert run.returncode == 2 and f"--record {record}: {said}" in run.stderr, run.stderr
        assert "Traceback" not in run.stderr and not run.stdout


@pytest.fixture
def serving(tmp_path: Path):  # type: ignore[no-untyped-def]
    """`oriente serve` on tmp_path/held.sqlite, until the test ends."""
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--quiet",
                             "--store", "held.sqlite"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("serving "), line + proc.stderr.read() if proc.stderr else line
        yield tmp_path / "held.sqlite"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_demo_on_a_store_a_server_holds_says_so_in_one_line(serving: Path) -> None:
    for extra in ([], ["--play"]):
        run = _oriente("demo", "--store", serving.name, "--seats", "4", *extra, cwd=serving.parent)
        assert run.returncode == 1, run.stderr
        assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert "is in use by another server" in run.stderr, run.stderr
        assert "without --store the demo keeps a store of its own" in run.stderr
    # Without --store the demo has its own store, beside the running server's.
    run = _oriente("demo", "--seats", "4", "--quiet", "--delay", "0", "--bots", "random", cwd=serving.parent)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in serving.parent.glob("*.sqlite")) == ["held.sqlite"]


def test_ctrl_c_in_a_watched_demo_leaves_no_table_running(tmp_path: Path) -> None:
    """Stopped mid-game, the demo marks its table abandoned in the store it was
    given: a later `oriente serve` there does not wait on bots that are gone."""
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "demo", "--watch", "--store", "w.sqlite",
                             "--seats", "4"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, preexec_fn=default_sigint)
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            if line.startswith("Watch it in a browser"):
                break
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "marked abandoned" in err, err
    db = sqlite3.connect(tmp_path / "w.sqlite")
    try:
        assert [status for (status,) in db.execute("select status from tables")] == ["abandoned"]
    finally:
        db.close()
    serve = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", "w.sqlite"],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             stdin=subprocess.DEVNULL)
    try:
        assert serve.stdout is not None and serve.stderr is not None
        line = serve.stdout.readline()
        assert "recovered=0" in line, line or serve.stderr.read()
    finally:
        serve.terminate()
        serve.wait(timeout=30)
