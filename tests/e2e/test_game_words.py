"""Each game's word catalogues are served at /i18n/GAME/LANG.json from the
game's own words folder (server/web.py), beside the shared catalogue; a
game without one, or a language it lacks, is a 404 (the page then uses
the shared words)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio

from oriente.clients.web import mounts
from oriente.server.app import App
from oriente.server.games import PORTS
from oriente.server.web import words_dir
from tests.toy_game import ToyPort

from .test_web_http import http_get

pytestmark = pytest.mark.trio


@pytest.fixture
async def site(tmp_path: Path, nursery: trio.Nursery) -> Any:
    app = App(str(tmp_path / "store.sqlite"), port=0, web=mounts(), games={**PORTS, "highcard": ToyPort()})
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def test_a_games_words_are_found_beside_its_port() -> None:
    assert words_dir(ToyPort()) == Path(__file__).resolve().parents[1] / "toy_game" / "words"

    class Named:
        words_dir = "/somewhere/else"

    assert words_dir(Named()) == Path("/somewhere/else")


async def test_a_games_words_are_served_from_its_folder(site: App) -> None:
    status, headers, body = await http_get(site.port, "/i18n/highcard/en.json")
    assert status == 200 and headers["content-type"].startswith("application/json")
    served = json.loads(body)
    assert served == json.loads((words_dir(ToyPort()) / "en.json").read_text(encoding="utf-8"))
    assert served["ui"]["game.highcard"] == "High card"
    for missing in ("/i18n/highcard/xx.json", "/i18n/nosuchgame/en.json"):
        status, _, _ = await http_get(site.port, missing)
        assert status == 404, missing
    status, _, body = await http_get(site.port, "/i18n/en.json")  # the shared catalogue is still there
    assert status == 200 and json.loads(body)["lang"] == "en"
