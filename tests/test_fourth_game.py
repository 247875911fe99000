"""A fourth game, from its folder and one registry line: high card, the toy
game of tests/toy_game, registered as a game outside the project is (an
entry point of its own distribution; tests/fourth_game.py), with no other
file changed. It is listed in the lobby and created; played through the
demo and its record replayed and verified by the command line; played by
a person in the terminal client, through the generic screen and narrator,
in the game's own words (its words/LANG.json)."""

from __future__ import annotations

import json
import re
import select
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from oriente.clients.sdk import Client
from oriente.games import all_ports, load
from oriente.server.app import App

from .clients.test_terminal_tmux import TMUX, Tmux
from .fourth_game import LINE, NAME, entry_point_env, registered


def _oriente(*args: str, env: dict[str, str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "oriente.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment of a program that has high card (its entry point)."""
    return entry_point_env(tmp_path / "site")


@pytest.fixture
def toy() -> Iterator[None]:
    with registered():
        yield


def test_the_game_is_one_folder_and_one_line(toy: None) -> None:
    assert LINE == {NAME: "tests.toy_game:ToyPort"}
    port = load(NAME)
    assert port.name == NAME and NAME in all_ports()
    assert Path(sys.modules[type(port).__module__].__file__ or "").parent.name == "toy_game"


@pytest.mark.trio
async def test_listed_in_the_lobby_and_created(toy: None, tmp_path: Path) -> None:
    app = App(str(tmp_path / "store.sqlite"), port=0, games=all_ports())
    async with trio.open_nursery() as nursery:
        await nursery.start(app.run)
        async with Client.connect(f"ws://127.0.0.1:{app.port}") as client:
            welcome = client.welcome or {}
            assert NAME in welcome["games"]
            assert welcome["game_info"][NAME]["seats"] == {"min": 2, "max": 3, "default": 2}
            assert NAME in welcome["bots"]
            table = await client.create_table(3, game=NAME, options={"rounds": 2}, name="high card")
            listed = {t["table"]: t for t in await client.list_tables()}
            assert listed[table]["game"] == NAME and len(listed[table]["seats"]) == 3
        app.stop()


def test_the_demo_plays_it_and_its_record_replays_and_verifies(env: dict[str, str], tmp_path: Path) -> None:
    record = tmp_path / "highcard.json"
    demo = _oriente("demo", "--game", NAME, "--delay", "0", "--record", str(record), env=env, cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    # Told by the generic narrator in the game's own words (tests/toy_game/words/en.json).
    assert f"{NAME}, 2 seats, bold bots" in demo.stdout
    assert "High card for 2 seats, 3 rounds." in demo.stdout and "Round 3: cards" in demo.stdout
    assert "Final result:" in demo.stdout
    saved = json.loads(record.read_text())
    assert saved["game"] == NAME and saved["result"]["ranks"]

    replay = _oriente("replay", str(record), "--as", "0", env=env, cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    assert "Round 1 is dealt: " in replay.stdout and "Final result:" in replay.stdout
    # As seat 0 saw it: its own card, never the other's before the reveal.
    dealt = re.findall(r"Round \d is dealt: (.*)\.", replay.stdout)
    assert dealt and all(re.fullmatch(r"\d+, a hidden card", d) for d in dealt), dealt

    verify = _oriente("verify", str(record), env=env, cwd=tmp_path)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert f"verified: {record}" in verify.stdout

    # Without the game, the command line says which games it has.
    bare = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    refused = _oriente("replay", str(record), env=bare, cwd=tmp_path)
    assert refused.returncode == 2 and f"records a game of {NAME}" in refused.stderr


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux); the terminal client runs in it")
def test_a_person_plays_it_in_the_terminal(env: dict[str, str], tmp_path: Path) -> None:
    server = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--quiet",
                               "--bot-delay", "0.05", "--store", str(tmp_path / "store.sqlite")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
                              stdin=subprocess.DEVNULL)
    tmux: Tmux | None = None
    try:
        ready, _, _ = select.select([server.stdout], [], [], 30)
        line = server.stdout.readline() if ready and server.stdout else ""
        assert line.startswith("serving ws://"), line
        url = line.split()[1]
        program = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "oriente.cli", "play", "--server", url,
                                                    "--name", "Tester"])
        tmux = Tmux(f"env PYTHONPATH={shlex.quote(env['PYTHONPATH'])} {program}", tmp_path)
        trio.run(_play, tmux)
    finally:
        if tmux is not None:
            tmux.kill()
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


async def _play(tmux: Tmux) -> None:
    # The lobby offers the game with its seats, as the server describes it.
    await tmux.wait_for(rf"ORIENTE lobby[\s\S]*games: .*\b{NAME} 2-3\b", 30)
    await tmux.type(f"create {NAME} 2")
    await tmux.wait_for(r"you are seat 0 \(Tester\)", 20)
    await tmux.type("/bots")
    # Its words: the game's name in the header, the start told from its catalogue.
    await tmux.wait_for(r"High card for 2 seats, 3 rounds\.", 20)
    started = time.monotonic()
    answered = set()
    while time.monotonic() - started < 60:
        text = await tmux.screen()
        assert "Traceback" not in text and "[exited" not in text, text
        if "GAME OVER" in text:
            assert re.search(r"rank  seat score", text), text
            break
        decision = re.search(r">>> YOUR DECISION #(\d+): Bid", text)
        if decision and decision.group(1) not in answered and "1) Bid: raise true" in text:
            answered.add(decision.group(1))
            await tmux.type("1")
        await trio.sleep(0.1)
    else:
        raise AssertionError(f"the game did not end; the screen:\n{tmux.screens[-1]}")
    assert answered == {"1", "2", "3"}, answered
    await tmux.type("/quit")
    await tmux.wait_for(r"\[exited 0\]", 20)
