"""The README as a newcomer meets it: short, its two commands first, every
Python snippet run as written against a real server, the tournament example
run as written (it must start a round), and every command line's options
known to the command it calls."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from oriente.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w*)\n(.*?)^```$", README, flags=re.S | re.M)
PYTHON = [code for lang, code in BLOCKS if lang == "python"]
SHELL = [code for lang, code in BLOCKS if lang == ""]
DEFAULT = "ws://127.0.0.1:8765"
# What the README's placeholders stand for, so that their lines parse.
PLACEHOLDERS = {"POSTGRES_URL": "postgresql://postgres@127.0.0.1:5432/postgres",
                "REDIS_URL": "redis://127.0.0.1:6379/0", "TABLE": "AbCdEfGhIjKl"}


def test_short_with_the_two_commands_first() -> None:
    assert len(README.splitlines()) <= 250
    assert BLOCKS[0] == ("", "python3 -m venv .venv && .venv/bin/pip install -e '.[test,dev]' && "
                             ".venv/bin/oriente demo --seats 6\n.venv/bin/python -m pytest\n")
    head = README[:README.index("## ")]
    assert "# Oriente" in head and "wins" in head  # what it is and how it is won, before any section
    for link in re.findall(r"\]\(([^)#]+)\)", README):
        assert (ROOT / link).exists(), link


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """`oriente serve` as the README starts it (its bots without their delay), on a free port."""
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--bot-delay", "0",
                             "--quiet", "--store", str(tmp_path / "site.sqlite")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("serving ws://"), line
        yield line.split()[1]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("code", PYTHON, ids=[f"python{i}" for i in range(len(PYTHON))])
def test_each_python_snippet_runs_as_written(code: str, server: str, tmp_path: Path) -> None:
    """Run as written but for the port: the server's address is the one it got."""
    script = tmp_path / "snippet.py"
    script.write_text(code.replace(DEFAULT, server))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stdout + run.stderr
    if "add_bots" in code:
        assert run.stdout.startswith("ranks: ["), run.stdout  # the bot's game ended: it did not hang


def test_the_tournament_example_starts_a_round(server: str, tmp_path: Path) -> None:
    block = next(code for code in SHELL if "tournament create" in code)
    if not (ROOT / ".venv" / "bin" / "oriente").exists():
        pytest.skip("no .venv/bin/oriente in the checkout (the README's first command makes it)")
    run = subprocess.run(["bash", "-c", block + "kill $(jobs -p) 2>/dev/null; wait\n"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
                         env={"ORIENTE_SERVER": server, "PATH": "/usr/bin:/bin"})
    assert "round 1" in run.stdout and "table 1: " in run.stdout, run.stdout + run.stderr
    assert "too_few" not in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert "rank" in run.stdout.lower() or "points" in run.stdout.lower(), run.stdout  # the standings


def _oriente_calls(code: str) -> Iterator[list[str]]:
    """Each `oriente ...` invocation of a shell block, as the words argparse gets."""
    for line in code.splitlines():
        line = line.split("  #")[0].strip()
        line = re.sub(r"\$\((?:[^()]|\([^()]*\))*\)", "X", line).replace("$O", ".venv/bin/oriente")
        for part in re.split(r"&&|\|\||[;|&]|\bdo\b|\bdone\b", line):
            words = shlex.split(part.replace("$", ""))
            if words and words[0].endswith("oriente") and "bin" in words[0] and "=" not in words[0]:
                yield [PLACEHOLDERS.get(w, w) for w in words[1:]]


def test_every_command_lines_options_exist() -> None:
    calls = [words for code in SHELL for words in _oriente_calls(code)]
    assert len(calls) >= 15
    for words in calls:
        try:
            build_parser().parse_args(words)
        except SystemExit as stop:
            pytest.fail(f"oriente {' '.join(words)}: refused ({stop.code})")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for code in SHELL:
        for extra in re.findall(r"pip install -e '\.\[([\w,]+)\]'", code):
            assert set(extra.split(",")) <= set(extras), extra
        for script, options in re.findall(r"\.venv/bin/python (bench/\w+\.py)((?: --[\w-]+)*)", code):
            source = (ROOT / script).read_text()
            assert all(f'"{o}"' in source for o in options.split()), (script, options)
        if "node bot.js" in code:
            bot = (ROOT / "src/oriente/clients/js/bot.js").read_text()
            assert "npm ci" in code and all(o.lstrip("-") in bot for o in re.findall(r"node bot\.js((?: --\w+ \S+)*)",
                                                                                   code)[0].split()[::2])


BENCHMARKS = sorted(p.name for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_"))


@pytest.mark.parametrize("script", BENCHMARKS)
def test_a_benchmark_run_without_the_project_says_how_to_run_it(script: str) -> None:
    """`python bench/engine.py` outside the virtual environment printed a
    traceback about a missing module. `-S` leaves out every installed
    package, as a Python without the project would."""
    run = subprocess.run([sys.executable, "-S", f"bench/{script}", "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and f"as the README does: .venv/bin/python bench/{script}" in run.stderr
