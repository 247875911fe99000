"""welcome.game_info (PROTOCOL.md 4) over a real socket: the server
announces what every game it plays says of itself, a game registered
beside the built-in ones (the toy game) included, and the SDK reads it
back typed (Client.game_info)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from oriente.clients.sdk import Client, GameInfo
from oriente.games import all_ports
from oriente.server.app import App
from tests.toy_game import ToyPort

pytestmark = pytest.mark.trio


@pytest.fixture
async def site(tmp_path: Path, nursery: trio.Nursery) -> Any:
    app = App(str(tmp_path / "store.sqlite"), port=0, games={**all_ports(), "highcard": ToyPort()})
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def test_welcome_describes_every_game_and_the_sdk_reads_it(site: App) -> None:
    async with Client.connect(f"ws://127.0.0.1:{site.port}") as client:
        assert client.welcome is not None
        told = client.welcome["game_info"]
        assert sorted(told) == sorted(client.games) == sorted([*all_ports(), "highcard"])
        assert told["highcard"] == {"seats": {"min": 2, "max": 3, "default": 2},
                                    "options": [{"name": "rounds", "type": "int", "default": 3, "min": 1, "max": 9}],
                                    "windows": False}
        info = client.game_info
        assert all(isinstance(i, GameInfo) for i in info.values())
        assert info == {name: port.describe() for name, port in {**all_ports(), "highcard": ToyPort()}.items()}
        toy = info["highcard"]
        table = await client.create_table(toy.default_seats, game="highcard", options=toy.initial_options())
        assert table


async def test_an_older_server_has_no_description_and_the_sdk_says_so() -> None:
    client = Client("ws://127.0.0.1:1")
    client.welcome = {"t": "welcome", "protocol": "oriente.v1", "version": 1, "server": "old", "limits": {}}
    assert client.game_info == {} and client.games == ["oriente"]
    client.welcome = {**client.welcome, "games": ["oriente", "x"],
                      "game_info": {"oriente": {"seats": {"min": 4, "max": 12, "default": 4}},
                                    "x": {"seats": "many"}}}
    assert list(client.game_info) == ["oriente"]  # the unreadable one is left out (and logged)
