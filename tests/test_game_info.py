"""What each game says of itself (games/kit/describe.py) is true of its
port: the seat counts are the ones it plays, every option it offers takes
its default, its suggestion and its bounds and refuses what is beyond them,
and the description reads back as it was sent (welcome.game_info,
PROTOCOL.md 4). Every registered game, and the toy game, which describes
itself by the same base (tests/toy_game)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from oriente import games
from oriente.games.kit.describe import GameInfo, GameOption
from oriente.games.kit.port import GamePort, Port, SettingsError
from tests.toy_game import ToyPort

PORTS: dict[str, GamePort] = {**games.all_ports(), "highcard": ToyPort()}
DOC = (Path(__file__).resolve().parents[1] / "protocol" / "PROTOCOL.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", PORTS)
def test_every_port_derives_from_the_base_and_describes_itself(name: str) -> None:
    port = PORTS[name]
    assert isinstance(port, Port)
    info = port.describe()
    assert info.seats == port.seats and info.default_seats in port.seats
    assert GameInfo.from_plain(json.loads(json.dumps(info.plain()))) == info


@pytest.mark.parametrize("name", PORTS)
def test_every_offered_option_is_one_the_port_takes(name: str) -> None:
    port = PORTS[name]
    info = port.describe()
    seats = info.default_seats
    port.configure(seats, 1, info.initial_options(), {})
    for option in info.options:
        values = [option.default, option.initial, *(option.choices or ())]
        values += [v for v in (option.min, option.max) if v is not None]
        for value in values:
            setup = port.configure(seats, 1, {option.name: value}, {})
            assert setup.options.get(option.name) == value or value is None, (option.name, value)
        beyond = [v for v in ((option.min or 0) - 1, (option.max or 0) + 1) if option.type == "int"
                  and not option.accepts(v)]
        beyond += {"int": ["3"], "bool": [1], "str": [3], "choice": []}[option.type]
        for value in beyond:
            with pytest.raises(SettingsError):
                port.configure(seats, 1, {option.name: value}, {})


def test_the_example_in_protocol_md_is_what_the_games_say() -> None:
    block = re.search(r'```json\n(\{"t": "welcome"[^`]*"game_info"[^`]*)```', DOC)
    assert block is not None
    told = json.loads(block.group(1))["game_info"]
    assert told == {name: games.load(name).describe().plain() for name in told}
    assert set(told) == set(games.registered())


def test_a_port_that_leaves_everything_out_gets_the_plain_case() -> None:
    class Bare(Port):
        name = "bare"
        seats = range(3, 6)

    assert Bare().describe().plain() == {"seats": {"min": 3, "max": 5, "default": 3}, "options": [],
                                         "windows": False}


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"type": "float", "default": 1.0}, "type is one of"),
    ({"type": "choice", "default": "a"}, "lists its choices"),
    ({"type": "int", "default": 1, "choices": (1, 2)}, "only a choice"),
    ({"type": "bool", "default": True, "min": 0}, "only an int has bounds"),
    ({"type": "int", "default": 30, "min": 1, "max": 20}, "not a value it takes"),
    ({"type": "bool", "default": False, "suggested": "yes"}, "not a value it takes"),
    ({"type": "choice", "default": "c", "choices": ("a", "b")}, "not a value it takes"),
])
def test_a_description_that_cannot_be_true_is_refused(kwargs: dict[str, object], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        GameOption(name="x", **kwargs)  # type: ignore[arg-type]


def test_seats_and_names_are_checked() -> None:
    with pytest.raises(ValueError, match="not within"):
        GameInfo(seats=range(2, 5), default_seats=5)
    with pytest.raises(ValueError, match="named once"):
        GameInfo(seats=range(2, 5), default_seats=2,
                 options=(GameOption("a", "bool", False), GameOption("a", "int", 1)))
    with pytest.raises(ValueError, match="not a game description"):
        GameInfo.from_plain({"seats": {"min": 2}})
    with pytest.raises(ValueError, match="whole numbers"):
        GameInfo.from_plain({"seats": {"min": 2, "max": "4", "default": 2}})


def test_reading_back_ignores_what_a_later_server_adds() -> None:
    told = {"seats": {"min": 2, "max": 4, "default": 3, "note": "x"}, "windows": False, "colour": "red",
            "options": [{"name": "n", "type": "int", "default": 2, "min": 1, "step": 1}]}
    info = GameInfo.from_plain(told)
    assert info.seats == range(2, 5) and info.options == (GameOption("n", "int", 2, min=1),)
