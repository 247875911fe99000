"""Each game's words are its own: its terms and its narrator's lines in its
words/LANG.json (served at /i18n/GAME/LANG.json, merged by the page, read
by the Python narrators); the shared catalogue keeps the page's texts and
the words every game's narration uses."""

from __future__ import annotations

from oriente import games
from oriente.clients.narrate import LANGUAGES, catalogue, game_words, words_folder


def test_every_game_has_its_words_in_every_language_and_the_same_keys() -> None:
    for name in games.registered():
        folder = words_folder(name)
        assert folder is not None and folder.parent.name == games.home(name).rpartition(".")[2], name
        keys = {part: set(game_words(name, "en")[part]) for part in ("ui", "narrate")}
        assert keys["ui"] or keys["narrate"], name
        assert f"game.{name}" in keys["ui"], f"{name} names itself"
        for lang in LANGUAGES:
            words = game_words(name, lang)
            assert set(words["ui"]) == keys["ui"], (name, lang)
            # The same lines in every language, but for its grammar: an article a language needs
            # for one kind of card (Oriente's "card_a.KIND") is its own.
            grammar = {k for k in keys["narrate"] ^ set(words["narrate"]) if k.startswith("card_a.")}
            assert set(words["narrate"]) ^ keys["narrate"] == grammar, (name, lang)


def test_the_shared_catalogue_holds_no_games_words() -> None:
    for lang in LANGUAGES:
        shared = catalogue(lang)
        for name in games.registered():
            own = game_words(name, lang)
            for part in ("ui", "narrate"):
                both = set(own[part]) & set(shared[part])
                assert not both, (lang, name, part, sorted(both)[:5])
                assert not any(k.startswith(f"{name}.") or k == f"game.{name}" for k in shared[part]), (lang, name)
