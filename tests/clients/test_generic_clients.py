"""The clients, the CLI and the demo know a game through the registry and
what the game says of itself: a game's narrator, story and terminal screen
are found by its name, a game that brings none gets the generic ones, and
the generic modules name no game."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

from oriente import games
from oriente.clients.game_story import GameStory, story_for
from oriente.clients.narrate import GenericNarrator, Narrator, describe_result, narrate, narrator_for
from oriente.clients.terminal.games import GameScreen, GenericScreen, screen_for
from oriente.clients.terminal.served import games_text, seat_range, served_games
from oriente.protocol.messages import DEFAULT_GAME

SRC = Path(__file__).resolve().parents[2] / "src" / "oriente"

# The modules every game goes through: none may name one.
GENERIC = ("cli/main.py", "cli/demo.py", "clients/narrate.py", "clients/game_story.py", "clients/terminal/app.py",
           "clients/terminal/served.py", "clients/terminal/games/__init__.py")


@pytest.mark.parametrize("path", GENERIC)
def test_the_generic_modules_name_no_game(path: str) -> None:
    text = (SRC / path).read_text(encoding="utf-8")
    for name in games.registered():
        if name == DEFAULT_GAME:  # the program's own name too: only a name used as a game is the game
            quoted = rf"[\"']{name}[\"']"
            assert not re.search(rf"game\W{{1,12}}{quoted}|{quoted}\s*:|[=!]=\s*{quoted}", text), (path, name)
        else:
            assert not re.search(rf"\b{name}\b", text, re.IGNORECASE), (path, name)


def test_each_game_has_its_narrator_and_story_by_its_name() -> None:
    for name in games.registered():
        narrator = narrator_for(name)
        assert isinstance(narrator, Narrator)
        own = games.part(name, "narrate")
        assert own is not None and type(narrator).__module__ == own.__name__, name
        story = story_for(name, None, str)
        own_story = games.part(name, "story")
        assert type(story).__module__ == (own_story.__name__ if own_story else GameStory.__module__), name


def test_a_game_this_program_lacks_is_told_by_the_generic_narrator() -> None:
    narrator = narrator_for("nosuchgame")
    assert type(narrator) is GenericNarrator and games.part("nosuchgame", "narrate") is None
    assert narrate({"type": "Moved", "seat": 1, "to": [2, 3]}, game="nosuchgame") == \
        "Something happened (Moved: seat=1, to=[2, 3])."
    assert narrate({"type": "SeatLeft", "seat": 2}, game="nosuchgame") == "Seat 2 is free again."
    assert describe_result({"ranks": [2, 1], "scores": [3, 7]}, game="nosuchgame").splitlines() == \
        ["Final result:", "rank  seat score", "   1     1      7", "   2     0      3"]
    story = story_for("nosuchgame", 0, lambda s: f"seat {s}")
    assert isinstance(story, GameStory)
    assert story.tell([{"type": "TableStarted"}]) == ["Everyone is seated: the game begins."]


def test_the_generic_narrator_words_an_event_from_the_games_catalogue(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text('{"narrate": {"dice.Rolled": "{seat} rolls {dice}; {winner} leads."}}')
    narrator = GenericNarrator("dice", words=tmp_path, label=lambda s: f"seat {s} (ana)")
    assert narrator.narrate({"type": "Rolled", "seat": 0, "dice": [3, None], "winner": None}) == \
        "Seat 0 (ana) rolls 3, a hidden card; nobody leads."
    assert narrator.narrate({"type": "Unworded", "seat": 0}).startswith("Something happened (Unworded")


def test_each_game_has_its_terminal_screen_by_its_name() -> None:
    for name in games.registered():
        found = importlib_module(f"oriente.clients.terminal.games.{name}")
        assert found is not None, f"{name} has no terminal screen module"
        assert screen_for(name) is found.SCREEN
    assert isinstance(screen_for("nosuchgame"), GenericScreen)
    assert isinstance(screen_for("../../x"), GenericScreen)  # a name the server sent never reaches another module


def importlib_module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        return None


def test_the_generic_terminal_screen_lists_the_legal_commands_in_the_games_words() -> None:
    screen = GenericScreen("nosuchgame")
    screen.words = {"nosuchgame.choice.Bid": "Bid: raise {raise}", "nosuchgame.topic.bid": "Your bid",
                    "nosuchgame.field.cards": "Cards"}
    prompt = {"id": 4, "pivot": 1, "topic": "bid", "rule": "H3",
              "legal": [{"type": "Bid", "decision": 4, "raise": True}, {"type": "Fold", "decision": 4, "why": None}]}
    assert [c.label for c in screen.choices(prompt)] == ["Bid: raise true", "Fold why=?"]
    lines = screen.decision(prompt, {"cards": [3, None]}, 1, {}, width=80)
    assert lines[0].startswith(">>> YOUR DECISION #4: Your bid (H3)")
    assert "1) Bid: raise true" in "\n".join(lines) and "2) Fold why=?" in "\n".join(lines)
    assert screen.top({"cards": [3, None], "viewer": 1}, 1, {}, 80) == ["Cards: 3, ?"]
    assert screen.result({"ranks": [1, 2], "scores": [5, 2]})[2:] == ["   1     0      5", "   2     1      2"]
    assert isinstance(screen, GameScreen)


def test_the_lobby_reads_the_games_and_their_seats_from_the_welcome() -> None:
    welcome = {"games": ["oriente", "dice"], "game_info": {
        "oriente": {"seats": {"min": 4, "max": 12, "default": 4}, "options": [], "windows": True},
        "dice": {"seats": {"min": 2, "max": 5, "default": 3}, "options": [], "windows": False}}}
    assert served_games(welcome) == ("oriente", "dice")
    assert seat_range(welcome, "dice") == (2, 5, 3)
    assert seat_range(welcome, None) == seat_range(welcome, DEFAULT_GAME) == (4, 12, 4)
    assert games_text(welcome) == "oriente 4-12 seats, dice 2-5"
    # A server from before game_info: no range to check (the server still refuses, saying why).
    assert seat_range({"games": ["dice"]}, "dice") is None and games_text({}) == DEFAULT_GAME
    assert served_games(None) == (DEFAULT_GAME,)
