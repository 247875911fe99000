"""`oriente tournament ...` (cli/tournament.py) against a real `oriente serve`:
an organiser creates an event, enters the server's bots, starts the round,
reads the standings and downloads the exports, all from the command line."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oriente.cli.main import main
from oriente.cli.tournament import collusion_lines


class _Run:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def oriente(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """The `oriente` command, run in this process (one interpreter start
    for the server only: the commands are the same code either way)."""

    def run(*args: str, cwd: Path) -> _Run:
        code = main(list(args))
        out = capsys.readouterr()
        return _Run(code, out.out, out.err)

    return run


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--bot-delay", "0",
                             "--store", str(tmp_path / "s.sqlite"), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"ws://[\d.]+:(\d+)", line)
    assert match, line
    yield f"ws://127.0.0.1:{match.group(1)}"
    proc.terminate()
    proc.wait(20)


def test_an_organiser_runs_an_event_from_the_command_line(server: str, tmp_path: Path, oriente) -> None:  # type: ignore[no-untyped-def]
    _oriente = oriente
    s = ("--server", server)
    made = _oriente("tournament", "create", *s, "--name", "CLI Cup", "--rounds", "1", "--sizes", "4",
                    "--timers", "bots", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    tid = re.search(r"^tournament (\S+)", made.stdout, re.M).group(1)  # type: ignore[union-attr]
    org = re.search(r"^organiser token (\S+)", made.stdout, re.M).group(1)  # type: ignore[union-attr]
    for name in ("Aiko", "Benkei", "Chiyo", "Daisuke"):
        entered = _oriente("tournament", "register", tid, *s, "--name", name, "--bot", "random", "--token", org,
                           cwd=tmp_path)
        assert entered.returncode == 0, entered.stderr
    refused = _oriente("tournament", "start-round", tid, *s, "--token", "not-the-token", cwd=tmp_path)
    assert refused.returncode == 1 and "auth/not_organiser" in refused.stderr
    started = _oriente("tournament", "start-round", tid, *s, "--token", org, cwd=tmp_path)
    assert started.returncode == 0, started.stderr
    assert "round 1" in started.stdout and "table 1:" in started.stdout
    deadline = time.monotonic() + 45
    while True:
        standings = _oriente("tournament", "standings", tid, *s, cwd=tmp_path)
        assert standings.returncode == 0, standings.stderr
        if "finished" in standings.stdout.splitlines()[0] or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert "1 of 1 rounds, finished" in standings.stdout
    out = tmp_path / "exports" / "standings.csv"  # a folder not there yet: made, as /save and --record do
    assert _oriente("tournament", "export", tid, *s, "--what", "csv", "--out", str(out), cwd=tmp_path).returncode == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert sorted(r["name"] for r in rows) == ["Aiko", "Benkei", "Chiyo", "Daisuke"]
    assert sum(float(r["points"]) for r in rows) == pytest.approx(2.0)
    records = _oriente("tournament", "export", tid, *s, "--what", "records", cwd=tmp_path)
    assert len(json.loads(records.stdout)["records"]) == 1
    report = _oriente("tournament", "direct", tid, *s, "collusion", "--token", org, cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert report.stdout.startswith("Collusion report:") and "{" not in report.stdout, report.stdout


def test_the_collusion_report_is_a_table_in_words() -> None:
    """`direct ... collusion` printed the report as raw JSON."""
    report = {"kinds": ["pay", "support"], "mean_per_game": 0.5, "pairs": [
        {"from": "Aiko", "to": "Benkei", "from_id": "e1", "to_id": "e2", "games": 3, "pay": 2, "support": 4,
         "per_game": 2.0, "stands_out": True},
        {"from": "Chiyo", "to": "Aiko", "from_id": "e3", "to_id": "e1", "games": 3, "pay": 0, "support": 1,
         "per_game": 0.333, "stands_out": False}]}
    lines = collusion_lines(report)
    assert "0.50 times per game together" in lines[0] and lines[1] == "1 pair stands out."
    assert lines[2].split() == ["from", "to", "games", "pay", "support", "per", "game"]
    assert lines[3].split() == ["Aiko", "Benkei", "3", "2", "4", "2.00", "STANDS", "OUT"]
    assert lines[4].split() == ["Chiyo", "Aiko", "3", "0", "1", "0.33"]
    assert collusion_lines({"kinds": [], "pairs": []}) == [
        "Collusion report: in the finished games so far, no entrant helped another."]
