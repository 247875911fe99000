"""The page's words in English, German and French: plurals from the
catalogue's KEY_one/KEY_other forms (one rule with the Python narrators,
narrate.py plural_key), French that says "vous" throughout, one name
field in the lobby, a bot's mark and the tournament's downloads in words,
and a message that stays on the page it was said on."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from oriente.clients.narrate import LANGUAGES, catalogue, game_words, ui_text

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def test_plural_forms_in_the_lobby_in_every_language(server: Any, page: Any) -> None:
    page.goto(server.url)
    proxy = page.locator("form.create select").filter(has_text="missed")
    expect(proxy).to_contain_text("after 1 missed turn")
    expect(proxy).to_contain_text("after 2 missed turns")
    page.select_option("#lang", "de")
    proxy = page.locator("form.create select").filter(has_text="verpasst")
    expect(proxy).to_contain_text("nach 1 verpassten Zug")
    expect(proxy).not_to_contain_text("nach 1 verpassten Zügen")
    expect(proxy).to_contain_text("nach 2 verpassten Zügen")
    page.select_option("#lang", "fr")
    proxy = page.locator("form.create select").filter(has_text="oubli")
    expect(proxy).to_contain_text("après 1 oubli")
    expect(proxy).not_to_contain_text("après 1 oublis")
    expect(proxy).to_contain_text("après 2 oublis")
    # French says "vous" throughout, the lobby's one name field included.
    expect(page.locator("label[for], label").filter(has_text="Votre nom")).to_have_count(1)
    text = page.locator("body").inner_text()
    assert not re.search(r"\b(tu|ton|ta|tes|toi)\b", text, re.IGNORECASE), text
    assert page.errors == []


def test_plural_rule_is_one_for_the_page_and_the_narrators() -> None:
    """The Python side picks the same form as the page's translator, French
    counting 0 as one; every plural key has both forms in every language."""
    assert ui_text("lobby.proxy_after", "de", n=1) == "spielt ein Bot nach 1 verpassten Zug"
    assert ui_text("lobby.proxy_after", "fr", n=0) == "un bot joue pour lui après 0 oubli"
    assert ui_text("lobby.proxy_after", "fr", n=3) == "un bot joue pour lui après 3 oublis"
    for lang in LANGUAGES:
        games = [game_words(g, lang).get(part, {}) for g in ("oriente", "oro", "samurai") for part in ("ui", "narrate")]
        for words in [catalogue(lang)["ui"], catalogue(lang)["narrate"], *games]:
            for key in words:
                if key.endswith("_one"):
                    assert key[:-4] + "_other" in words, (lang, key)
    source = (ROOT / "src/oriente/clients/web/src/i18n.js").read_text(encoding="utf-8")
    assert "export function pluralKey" in source


def test_french_says_vous_in_every_catalogue() -> None:
    """One form of address per language: French formal (vous) throughout."""
    tu = re.compile(r"\b(tu|ton|ta|tes|toi|te)\b|\bt'|-toi\b", re.IGNORECASE)
    found = []
    for words in (catalogue("fr"), *(game_words(g, "fr") for g in ("oriente", "oro", "samurai"))):
        for part in ("ui", "narrate"):
            found += [(k, v) for k, v in words.get(part, {}).items() if tu.search(v)]
    assert not found, found


def test_lobby_has_one_name_field_and_a_stale_message_stays_on_its_page(server: Any, page: Any) -> None:
    page.goto(server.url)
    expect(page.locator("#name")).to_have_count(1)
    expect(page.locator("#account-name")).to_have_count(0)
    expect(page.get_by_text("Account name")).to_have_count(0)
    page.fill("#name", "")
    page.locator("form.create").get_by_role("button", name="Create").click()
    expect(page.locator(".toast")).to_contain_text("name")
    page.goto(f"{server.url}#/leaderboard")
    expect(page.locator(".leaderboard")).to_be_visible()
    expect(page.locator(".toast")).to_have_count(0)
    assert page.errors == []


def test_a_bots_mark_and_the_tournament_downloads_are_said_in_words(server: Any, page: Any) -> None:
    page.goto(server.url)
    page.select_option("#lang", "de")
    page.fill("#name", "Luca")
    form = page.locator("form.create")
    form.locator("#seats").select_option("4")
    form.locator("#bots").select_option("3")
    form.locator("button[type=submit]").click()
    expect(page.locator(".ring .seat").first).to_be_visible()
    page.goto(server.url)
    names = page.locator(".table-row .names")
    expect(names).to_contain_text("(Bot)")
    expect(names).not_to_contain_text("(bot)")
    director = server.app.director

    async def create() -> str:
        t, _ = await director.create({"name": "Cup", "rounds": 1, "table_sizes": [4]})
        return t.id

    tid = server.call(create)
    page.goto(f"{server.url}#/tournament/{tid}")
    downloads = page.locator(".downloads")
    expect(downloads).to_contain_text("Tabelle als Tabellenblatt (CSV)")
    expect(downloads).not_to_contain_text("Downloads:")
    assert page.errors == []


def test_catalogues_parse_and_keep_their_layout() -> None:
    """Every catalogue touched here is still the JSON the page fetches."""
    paths = [*(ROOT / "src/oriente/clients/i18n").glob("*.json"), *(ROOT / "src/oriente/games").glob("*/words/*.json")]
    for path in paths:
        json.loads(path.read_text(encoding="utf-8"))


def test_a_language_chosen_before_the_connection_is_up_survives_it(server: Any, page: Any) -> None:
    """The connection coming up re-asks the language (the server has said
    which games' words to load). It must ask for the language chosen, not
    app.lang, which is still the page's first language while the chosen
    one's words are on their way: that put a German reader who picked
    German at once back in English, and stored English as the choice."""
    sockets: list[Any] = []
    page.route_web_socket(re.compile(r"^ws"), lambda ws: sockets.append(ws))
    german = re.compile(r"/i18n/de\.json$")
    held: list[Any] = []
    page.route(german, lambda route: held.append(route))
    page.goto(server.url)
    with page.expect_request(german):
        page.select_option("#lang", "de")
    assert len(sockets) == 1, "the page did not try to connect"
    sockets[0].connect_to_server()
    expect(page.locator(".conn.up")).to_be_visible()
    for r in held:
        r.continue_()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#lang")).to_have_value("de")
    assert page.evaluate("localStorage.getItem('oriente.lang')") == "de"
    assert page.errors == []
