"""The page and the Python narrator tell every event in the same words.

Both read the same catalogues (the shared clients/i18n/LANG.json with the
game's own words/LANG.json merged in, as the page's i18n.js merges them); the logic that picks
templates exists twice, in games/oriente/narrate.py and clients/web/src/games/oriente/narrate.js.
Node runs the page's narrator over every projected event of several games,
for several viewers, in every language, and the lines must be equal."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from oriente.clients.narrate import LANGUAGES, TABLE_EVENTS, catalogue, game_words
from oriente.games.oriente.narrate import OrienteNarrator
from oriente.server.rules import EVERYONE, SPECTATOR, Game, GameConfig, project
from oriente.server.rules.reference import reference
from tests.randomplay import random_move

from ..clients.test_narrate import _deal_game

WEB = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "web"

def merged(lang: str, game: str) -> dict:
    """The catalogue the page holds for a table of `game`: the shared one with
    the game's own words merged in (clients/web/src/i18n.js, loadCatalogue)."""
    shared = catalogue(lang)
    words = game_words(game, lang)
    assert words, f"{game} has no words in {lang}"
    return {**shared, "ui": {**shared["ui"], **words.get("ui", {})},
            "narrate": {**shared["narrate"], **words.get("narrate", {})}}


SCRIPT = """
import { readFileSync } from "node:fs";
import { OrienteNarrator as Narrator } from "%(narrate)s";
const input = JSON.parse(readFileSync(0, "utf8"));
const ref = input.reference;
const kinds = new Map(ref.kinds.map((k) => [k.kind, k]));
const cards = {
  kind: (c) => ref.cards[c].kind,
  name: (c, lang) => { const k = kinds.get(ref.cards[c].kind); const n = k.name[lang] ?? k.name.en;
                       return k.kind === "treasure" ? `${n} ${ref.cards[c].value}` : n; },
};
const out = {};
for (const lang of input.languages) {
  const n = new Narrator(input.catalogues[lang], input.catalogues.en, cards);
  out[lang] = input.events.map(([e, viewer]) => n.narrate(e, viewer));
}
process.stdout.write(JSON.stringify(out));
"""


def _games() -> list[Game]:
    games = [_deal_game()]
    for seats, seed in ((4, 1), (6, 2), (8, 3), (12, 4), (5, 9)):
        game = Game(GameConfig(seats=seats, seed=seed))
        rng = random.Random(seed)
        while (move := random_move(game.state, rng)) is not None:
            game.apply(*move)
        games.append(game)
    return games


def test_the_page_narrates_like_python_in_every_language(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is missing: CI must check the page's narrator")
        pytest.skip("Node.js is not installed; it runs the page's narrator here")
    events = []
    for game in _games():
        for e in game.events:
            for viewer in (SPECTATOR, EVERYONE, 0, 1):
                events.append([project(e, viewer), viewer if isinstance(viewer, int) else None])
    events.append([{"type": "Chat", "seat": 1, "name": "bob", "text": "<b>hi</b>", "seq": 3}, None])
    events.append([{"type": "SeatPresence", "seat": 2, "connected": False, "seq": 4}, None])
    events.append([{"type": "TableFailed", "message": "an error", "seq": 5}, None])
    events.append([{"type": "RematchOffered", "table": "XAEha4bFs9xk", "seat": 0, "seq": 6}, None])
    events.append([{"type": "SeatTaken", "seat": 3, "name": "Aiko (bot)", "bot": "heuristic", "seq": 7}, None])
    catalogues = {lang: merged(lang, "oriente") for lang in LANGUAGES}
    script = tmp_path / "narrate.mjs"
    script.write_text(SCRIPT % {"narrate": (WEB / "src" / "games" / "oriente" / "narrate.js").as_uri()})
    run = subprocess.run([node, str(script)], input=json.dumps({
        "reference": reference(), "languages": list(LANGUAGES), "catalogues": catalogues, "events": events,
    }), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    page = json.loads(run.stdout)
    for lang in LANGUAGES:
        narrator = OrienteNarrator(lang)
        python = [narrator.table_event(e) if e["type"] in TABLE_EVENTS else narrator.narrate(e, v)
                  for e, v in events]
        mismatches = [(e["type"], p, j) for (e, _), p, j in zip(events, python, page[lang], strict=True) if p != j]
        assert not mismatches, f"{lang}: {len(mismatches)} lines differ, first: {mismatches[0]}"
        assert not any(line.startswith(narrator.t("unknown", type="", fields="")[:8]) for line in python)
    assert len(events) > 5000


ORO_SCRIPT = """
import { readFileSync } from "node:fs";
import { OroNarrator } from "%(narrate)s";
const input = JSON.parse(readFileSync(0, "utf8"));
const out = {};
for (const lang of input.languages) {
  const n = new OroNarrator(input.catalogues[lang], input.catalogues.en, input.board);
  out[lang] = input.events.map(([e, viewer]) => n.narrate(e, viewer));
}
process.stdout.write(JSON.stringify(out));
"""


def test_the_page_narrates_oro_like_python_in_every_language(tmp_path: Path) -> None:
    """The same over Oro's games (clients/narrate_oro.py and games/oro/narrate.js),
    on the default board as the reference gives it."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is missing: CI must check the page's narrator")
        pytest.skip("Node.js is not installed; it runs the page's narrator here")
    from oriente.clients.narrate_oro import OroNarrator
    from oriente.server.games.oro import OroPort
    from oriente.server.oro import EVERYONE as ORO_ALL
    from oriente.server.oro import project as oro_project

    from ..clients.test_narrate_oro import oro_game

    events = []
    for seats, seed, gods in ((2, 1, True), (3, 2, True), (4, 3, False), (4, 6, True)):
        for e in oro_game(seats, seed, gods).events:
            for viewer in (SPECTATOR, ORO_ALL, 0, 1):
                events.append([oro_project(e, viewer), viewer if isinstance(viewer, int) else None])
    # The god stones' events, which random games may not reach, seen and unseen.
    events += [[e, v] for v in (None, 0) for e in (
        {"type": "KuLooked", "seat": 0, "target": 1, "hand": [3, 1, 3] if v == 0 else [None, None, None]},
        {"type": "KuTook", "seat": 0, "target": 1, "island": 3 if v == 0 else None},
        {"type": "PeleTook", "seat": 0, "taken": [[1, 4 if v == 0 else None], [2, 9 if v == 0 else None]]},
        {"type": "PeleGave", "seat": 0, "to": 2, "island": 9 if v == 0 else None},
        {"type": "LonoUsed", "seat": 2}, {"type": "Passed", "seat": 1},
        {"type": "Replaced", "seat": 1, "connection": 5, "owner": 0, "islands": [1], "kanaloa": 1},
        {"type": "BridgeRemoved", "seat": 1, "island": 12, "connection": 7, "owner": 2})]
    catalogues = {lang: merged(lang, "oro") for lang in LANGUAGES}
    script = tmp_path / "narrate_oro.mjs"
    script.write_text(ORO_SCRIPT % {"narrate": (WEB / "src" / "games" / "oro" / "narrate.js").as_uri()})
    run = subprocess.run([node, str(script)], input=json.dumps({
        "board": OroPort().reference()["board"], "languages": list(LANGUAGES), "catalogues": catalogues,
        "events": events}), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    page = json.loads(run.stdout)
    for lang in LANGUAGES:
        narrator = OroNarrator(lang)
        python = [narrator.narrate(e, v) for e, v in events]
        mismatches = [(e["type"], p, j) for (e, _), p, j in zip(events, python, page[lang], strict=True) if p != j]
        assert not mismatches, f"{lang}: {len(mismatches)} lines differ, first: {mismatches[0]}"
    assert len(events) > 1000


SAMURAI_SCRIPT = """
import { readFileSync } from "node:fs";
import { SamuraiNarrator } from "%(narrate)s";
const input = JSON.parse(readFileSync(0, "utf8"));
const out = {};
for (const lang of input.languages) {
  const n = new SamuraiNarrator(input.catalogues[lang], input.catalogues.en, input.board, input.tiles);
  out[lang] = input.events.map(([e, viewer]) => n.narrate(e, viewer));
}
process.stdout.write(JSON.stringify(out));
"""


def test_the_page_narrates_samurai_like_python_in_every_language(tmp_path: Path) -> None:
    """The same over Samurai's games (clients/narrate_samurai.py and
    games/samurai/narrate.js), on the default map and tiles as the reference gives them."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is missing: CI must check the page's narrator")
        pytest.skip("Node.js is not installed; it runs the page's narrator here")
    from oriente.clients.narrate_samurai import SamuraiNarrator
    from oriente.server.games.samurai import SamuraiPort
    from oriente.server.samurai import EVERYONE as SAM_ALL
    from oriente.server.samurai import project as sam_project

    from ..clients.test_narrate_samurai import samurai_game

    events = []
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        for e in samurai_game(seats, seed).events:
            for viewer in (SPECTATOR, SAM_ALL, 0):
                events.append([sam_project(e, viewer), viewer if isinstance(viewer, int) else None])
    # What random games may not reach: the clock's choices, a pass, a game nobody wins.
    events += [[e, None] for e in (
        {"type": "TilesChosen", "seat": 1, "decision": 1, "tiles": [None] * 5, "by_table": True},
        {"type": "TurnPassed", "seat": 0, "decision": 9, "by_table": False},
        {"type": "TileSwapped", "seat": 1, "tile": 19, "hex": 108, "moved": 13, "to": 92, "by_table": True},
        {"type": "GameEnded", "reason": "set_aside", "winners": []})]
    catalogues = {lang: merged(lang, "samurai") for lang in LANGUAGES}
    script = tmp_path / "narrate_samurai.mjs"
    script.write_text(SAMURAI_SCRIPT % {"narrate": (WEB / "src" / "games" / "samurai" / "narrate.js").as_uri()})
    ref = SamuraiPort().reference()
    run = subprocess.run([node, str(script)], input=json.dumps({
        "board": ref["board"], "tiles": ref["tiles"], "languages": list(LANGUAGES), "catalogues": catalogues,
        "events": events}), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    page = json.loads(run.stdout)
    for lang in LANGUAGES:
        narrator = SamuraiNarrator(lang)
        python = [narrator.narrate(e, v) for e, v in events]
        mismatches = [(e["type"], p, j) for (e, _), p, j in zip(events, python, page[lang], strict=True) if p != j]
        assert not mismatches, f"{lang}: {len(mismatches)} lines differ, first: {mismatches[0]}"
    assert len(events) > 1000


SQUARES_SCRIPT = """
import { readFileSync } from "node:fs";
import { squares } from "%(squares)s";
const boards = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(boards.map((hexes) => Object.fromEntries(squares(hexes)))));
"""


def test_the_page_names_samurai_hexes_by_the_terminals_squares(tmp_path: Path) -> None:
    """The terminal names hexes like chess squares (K12); the page, its
    story and the Python narrator name them by the same squares, on the
    whole default map and on the two-seat map (Honshu alone), where the
    rows and columns start elsewhere."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is missing: CI must check the page's hex names")
        pytest.skip("Node.js is not installed; it runs the page's squares here")
    from oriente.clients.terminal.games.samurai import HexMap
    from oriente.games.samurai.port import SamuraiPort
    from oriente.games.samurai.squares import squares

    hexes = SamuraiPort().reference()["board"]["hexes"]
    boards = [hexes, [h for h in hexes if h.get("part") == "honshu"]]
    script = tmp_path / "squares.mjs"
    script.write_text(SQUARES_SCRIPT % {"squares": (WEB / "src" / "games" / "samurai" / "squares.js").as_uri()})
    run = subprocess.run([node, str(script)], input=json.dumps(boards), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    page = json.loads(run.stdout)
    for board, names in zip(boards, page, strict=True):
        terminal = HexMap(board)
        assert {int(k): v for k, v in names.items()} == squares(board) == {h["id"]: terminal.square(h["id"])
                                                                         for h in board}
    assert len(set(page[0].values())) == len(hexes)  # every hex a square of its own
