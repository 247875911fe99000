"""The bot tutorial's programs (docs/examples/) run as a reader would run
them: separate processes against `oriente serve` on a free port. And the
tutorial (docs/bots.md) shows each of them exactly as it is on disk."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "bots.md"
EXAMPLES = ROOT / "docs" / "examples"
# A code block that shows a whole example file is introduced by this marker.
FILE_BLOCK = re.compile(r"<!-- file: (docs/examples/[\w.]+) -->\n```python\n(.*?)^```$", re.S | re.M)


def test_the_tutorial_shows_every_example_file_verbatim():
    blocks = FILE_BLOCK.findall(TUTORIAL.read_text(encoding="utf-8"))
    assert sorted(path for path, _ in blocks) == sorted(f"docs/examples/{p.name}" for p in EXAMPLES.glob("*.py"))
    for path, code in blocks:
        assert code == (ROOT / path).read_text(encoding="utf-8"), f"docs/bots.md shows an old {path}"


def oriente_command() -> list[str]:
    """The `oriente` script installed next to this Python, as the tutorial
    runs it (or the same entry point as a module)."""
    script = Path(sys.executable).with_name("oriente")
    return [str(script)] if script.exists() else [sys.executable, "-m", "oriente.cli"]


class Processes:
    """Every process a test starts; whatever is left is killed at the end."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.procs: list[subprocess.Popen] = []

    def start(self, args: list[str]) -> subprocess.Popen:
        proc = subprocess.Popen(args, cwd=self.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.append(proc)
        return proc

    def bot(self, example: str, *args: str) -> subprocess.Popen:
        return self.start([sys.executable, str(EXAMPLES / example), *args])

    def cleanup(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


@pytest.fixture
def processes(tmp_path):
    procs = Processes(tmp_path)
    yield procs
    procs.cleanup()


@pytest.fixture
async def server(processes, tmp_path):
    """`oriente serve --port 0 --store ...`: the URL it listens on."""
    proc = processes.start([*oriente_command(), "serve", "--port", "0", "--store", str(tmp_path / "store.sqlite"),
                            "--quiet"])
    line = await readline(proc, 30)
    assert line.startswith("serving ws://"), line
    yield line.split()[1]
    proc.send_signal(signal.SIGTERM)
    await trio.to_thread.run_sync(proc.wait, 15, abandon_on_cancel=True)


async def readline(proc: subprocess.Popen, timeout: float) -> str:
    with trio.fail_after(timeout):
        line = await trio.to_thread.run_sync(proc.stdout.readline, abandon_on_cancel=True)
    if not line:
        raise AssertionError(f"the process ended: {proc.wait()} {proc.stderr.read()}")
    return line.strip()


async def finish(proc: subprocess.Popen, timeout: float = 240) -> list[str]:
    """Wait for a bot to end; its stdout lines after the ones already read.
    The timeout guards against a hang: a loaded machine may take minutes."""
    with trio.fail_after(timeout):
        out, err = await trio.to_thread.run_sync(proc.communicate, abandon_on_cancel=True)
    assert proc.returncode == 0, err
    return out.splitlines()


@pytest.mark.trio
async def test_random_bots_one_creates_a_table_three_join_and_all_finish(server, processes):
    first = processes.bot("random_bot.py", "--server", server, "--create", "4", "--name", "ana")
    created = await readline(first, 30)
    assert re.fullmatch(r"table [\w-]{12}", created), created
    table = created.split()[1]
    assert await readline(first, 30) == f"seat 0 at table {table}"
    others = [processes.bot("random_bot.py", "--server", server, "--table", table, "--name", f"bot{i}")
              for i in range(3)]
    outputs = [await finish(first)] + [await finish(p) for p in others]
    seats = {int(line.split()[1]) for out in outputs for line in out if line.startswith("seat ")}
    assert seats == {1, 2, 3}
    over = [line for out in outputs for line in out if line.startswith("game over: ")]
    assert len(over) == 4
    assert sorted(int(line.split()[-1]) for line in over)[0] == 1  # someone ranks first


@pytest.mark.trio
async def test_smart_and_heuristic_bots_and_a_resume_from_another_process(server, processes, tmp_path):
    """A smart bot joins and saves its token, then its process dies; a new
    process with the same token file resumes the seat and plays it to the
    end, alongside the heuristic bot and the random one that made the table."""
    first = processes.bot("random_bot.py", "--server", server, "--create", "4")
    table = (await readline(first, 30)).split()[1]
    token_file = tmp_path / "seat.txt"
    doomed = processes.bot("smart_bot.py", "--server", server, "--table", table, "--token-file", str(token_file))
    assert await readline(doomed, 30) == f"seat 1 at table {table}"
    doomed.kill()
    doomed.wait(10)
    assert token_file.read_text().split()[0] == table
    back = processes.bot("smart_bot.py", "--server", server, "--token-file", str(token_file))
    assert await readline(back, 30) == f"seat 1 at table {table}"
    others = [processes.bot("heuristic_bot.py", "--server", server, "--table", table),
              processes.bot("smart_bot.py", "--server", server, "--table", table)]
    outputs = [await finish(p) for p in (first, back, *others)]
    assert all(out[-1].startswith("game over: ") for out in outputs), outputs
    ranked = sorted(int(out[-1].split()[-1]) for out in outputs)
    assert ranked[0] == 1 and len(ranked) == 4


@pytest.mark.trio
async def test_bargaining_bots_trade_support_for_cards_and_finish(server, processes):
    """Four bargaining bots (docs/examples/bargaining_bot.py): they offer
    their support for cards in the fights of the game, answer each other's
    offers, and all play to the end."""
    first = processes.bot("bargaining_bot.py", "--server", server, "--create", "4")
    table = (await readline(first, 30)).split()[1]
    others = [processes.bot("bargaining_bot.py", "--server", server, "--table", table, "--name", f"b{i}")
              for i in range(3)]
    outputs = [await finish(p) for p in (first, *others)]
    assert all(out[-1].startswith("game over: ") for out in outputs), outputs
    lines = [line for out in outputs for line in out]
    offers = [line for line in lines if line.startswith("offer: ")]
    assert offers, "no bot offered its support in a whole game"
    assert all(re.fullmatch(r"offer: seat \d gives me an? .+; I will support the (attacker|defender), seat \d, "
                            r"in the fight of seat \d against seat \d\.", line) for line in offers), offers
    answers = [line for line in lines if line.startswith(("accept: ", "decline: "))]
    assert answers, "no offer was answered"
