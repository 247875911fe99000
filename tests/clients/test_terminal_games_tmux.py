"""A person plays Oro and Samurai with `oriente play` in a real terminal.

As tests/clients/test_terminal_tmux.py does for Oriente: tmux runs the
terminal client at 80x24 against a real server (`oriente serve`, its bots
acting at once), and the test reads the screen and types as a person:
creates the table from the lobby (`create oro 2`), fills the other seat with
the server's bot (`/bots`), and answers by number, by words (`build aloa
bafi`), and at Samurai's secret start with five numbers: the opening of
each game with its board and the usual mistakes, then each game to its
final tally (a few seconds each, the bot answering at once).
"""

from __future__ import annotations

import random
import re
import shlex
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from .test_terminal_tmux import TMUX, Tmux, _oriente, oriente_serve

pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (apt-get install tmux); these tests drive `oriente play` in a terminal")


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[str]:
    """`oriente serve` whose bots answer at once; its ws:// address."""
    with oriente_serve(tmp_path, "--bot-delay", "0") as (url, _):
        yield url


def _start(url: str, tmp_path: Path) -> Tmux:
    command = " ".join(shlex.quote(a) for a in [*_oriente(), "play", "--server", url, "--name", "Tester"])
    return Tmux(command, tmp_path, size=(80, 24))


async def _sit_down(tmux: Tmux, game: str) -> None:
    await tmux.wait_for(r"ORIENTE lobby", 20)
    # Relaxed timers (90 s a decision, a 2-minute bank): the person's clock
    # must not decide the test. With quick ones (30 s, bank 30 s) a machine
    # under two suites once ran a whole turn out between the screen showing
    # the decision and the typed move reaching the table.
    await tmux.type(f"create {game} 2 relaxed")
    await tmux.wait_for(r"you are seat 0 \(Tester\)", 20)
    await tmux.type("/bots")
    await tmux.wait_for(r">>> YOUR DECISION", 20)


def _lines_fit(text: str) -> None:
    assert all(len(line) <= 80 for line in text.splitlines()), text


def test_oro_opening_by_number_and_by_words_and_the_board(fast_server: str, tmp_path: Path) -> None:
    tmux = _start(fast_server, tmp_path)

    async def scenario() -> None:
        await _sit_down(tmux, "oro")
        text = await tmux.wait_for(r"1\) give up (\w+)", 10)
        _lines_fit(text)
        card = re.search(r"1\) give up (\w+)", text).group(1)  # type: ignore[union-attr]
        await tmux.type("1")
        # The status says what was chosen until the next decision comes; the bot answers at
        # once, so the story's line may be what the screen still shows of it.
        await tmux.wait_for(rf"You chose: give up {card}\.|\(you\) gives up {card}", 10)
        text = await tmux.wait_for(r">>> YOUR DECISION #\d+: your turn: build", 10)
        build = re.search(r"build (\w+)-(\w+) with (\w+)", text)
        if build is None:  # the summary's example names the first move in words
            build = re.search(r"e\.g\. build (\w+) (\w+) (\w+)\)", text)
        assert build is not None, text
        a, b, card = build.groups()
        await tmux.type(f"build {a.lower()} {b.lower()} {card.lower()}")
        await tmux.wait_for(rf"You chose: build {a.upper()}-{b.upper()} with {card.upper()}"
                            rf"|\(you\) builds a bridge on ({a.upper()}.{b.upper()}|{b.upper()}.{a.upper()})", 10)
        await tmux.type("/board")
        board = await tmux.wait_for(r"Enter: back to the table", 10)
        assert "Islands" in board and "ORO" in board, board
        _lines_fit(board)
        await tmux.type("")
        await tmux.wait_for(r"Scores: ", 10)
        await tmux.type("/deal give treasure to seat 1")
        await tmux.wait_for(r"/deal is not a word of this game", 10)
        await tmux.type("/quit")
        await tmux.wait_for(r"\[exited 0\]", 20)

    try:
        trio.run(scenario)
    finally:
        tmux.kill()


def test_samurai_secret_tiles_figures_by_words_and_the_map(fast_server: str, tmp_path: Path) -> None:
    tmux = _start(fast_server, tmp_path)

    async def scenario() -> None:
        await _sit_down(tmux, "samurai")
        text = await tmux.wait_for(r"Type 5 numbers", 10)
        _lines_fit(text)
        assert "20 T" in text and "1 H2" in text, text  # the tile set, numbered
        await tmux.type("1 2 3")
        await tmux.wait_for(r"Choose exactly 5", 10)
        await tmux.type("1 1 2 3 4")
        await tmux.wait_for(r"Each number once", 10)
        await tmux.type("1 4 7 10 15")
        # The status says what was chosen while the choice is open; once every seat has
        # chosen it goes, and the story's line says it.
        await tmux.wait_for(r"You chose: helmet 2, Buddha 2, rice field 2, samurai 1, ronin 1"
                            r"|\(you\) has chosen", 10)
        # Seat 1 (the bot) may begin: "Waiting for seat 1 ...: place a figure" is not this seat's turn.
        text = await tmux.wait_for(r">>> YOUR DECISION #\d+: place a figure in a settlement", 20)
        first = re.search(r"1\) a (helmet|Buddha|rice field) in ([^\n]+?\(([A-Z]\d+)\))", text)
        if first is not None:
            figure, square = first.group(1), first.group(3)
        else:
            example = re.search(r"e\.g\. (helmet|buddha|rice field) .*?([a-z]\d+)\)", text)
            assert example is not None, text
            figure, square = example.group(1), example.group(2).upper()
        await tmux.type(f"{figure.split()[0].lower()} {square.lower()}")
        await tmux.wait_for(rf"You chose: an? {figure} in [^\n]*{square}|\(you\) puts an? {figure} in [^\n]*{square}",
                            10)
        await tmux.type("/map")
        board = await tmux.wait_for(r"Enter: back to the table", 10)
        assert re.search(r"\n ?A ", board) and " O " in board, board
        _lines_fit(board)
        await tmux.type("")
        await tmux.wait_for(r"Captured", 10)
        await tmux.type("/quit")
        await tmux.wait_for(r"\[exited 0\]", 20)

    try:
        trio.run(scenario)
    finally:
        tmux.kill()


def _numbers(text: str) -> int:
    """The highest choice number on screen: 'N) ...' or '(A-B)'."""
    found = [int(n) for n in re.findall(r"(\d+)\) ", text)] + [int(b) for b in re.findall(r"\(\d+-(\d+)\)", text)]
    return max(found, default=0)


@pytest.mark.parametrize("game", ["oro", "samurai"])
def test_a_person_plays_a_whole_game_of_oro_or_samurai(fast_server: str, tmp_path: Path, game: str) -> None:
    """Every decision answered as a person would, mostly by number, now and
    then by the words of the example the screen gives, to the final tally."""
    tmux = _start(fast_server, tmp_path)
    rng = random.Random(7)

    async def scenario() -> None:
        await _sit_down(tmux, game)
        last = None
        started = time.monotonic()
        while time.monotonic() - started < 240:
            text = await tmux.screen()
            assert "Traceback" not in text and "[exited" not in text, text
            if "GAME OVER" in text:
                assert "rank" in text, text
                return
            decision = re.search(r">>> YOUR DECISION #(\d+)", text)
            if decision and (decision.group(1), text[decision.start():]) != last:
                last = (decision.group(1), text[decision.start():])
                if "Type 5 numbers" in text:
                    await tmux.type(" ".join(str(n) for n in rng.sample(range(1, 21), 5)))
                elif (example := re.search(r"e\.g\. ([^)]+)\)", text)) and rng.random() < 0.2:
                    await tmux.type(example.group(1))
                elif (high := _numbers(text[decision.start():])) > 0:
                    await tmux.type(str(rng.randint(1, high)))
            await trio.sleep(0.05)
        raise AssertionError(f"the game did not end; the screen:\n{tmux.screens[-1]}")

    try:
        trio.run(scenario)
    finally:
        tmux.kill()
