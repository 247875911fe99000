"""Samurai's narration (clients/narrate_samurai.py): every event of random
games reads as words from every viewpoint in every language, and a tile
hidden from a viewer is never named in that viewer's line (S7.4)."""

from __future__ import annotations

import pytest

from oriente import games as registry
from oriente.clients.narrate import LANGUAGES, catalogue, game_words, narrate
from oriente.clients.narrate_samurai import KNOWN_TYPES, SamuraiNarrator, describe_result
from oriente.games.kit.selfplay import SelfPlayed, play
from oriente.server.samurai import EVERYONE, SPECTATOR, project
from oriente.server.samurai import events as E


def samurai_game(seats: int, seed: int) -> SelfPlayed:
    """A whole game: the heuristic at seat 0, the random policy elsewhere."""
    return play(registry.load("samurai"), seats, seed, ["heuristic"] + ["random"] * (seats - 1))


@pytest.fixture(scope="module")
def games() -> list[SelfPlayed]:
    return [samurai_game(seats, seed) for seats, seed in ((2, 1), (3, 2), (4, 3))]


def test_every_event_type_has_words_in_every_language() -> None:
    events = {name for name, cls in vars(E).items() if isinstance(cls, type) and cls.__module__ == E.__name__}
    assert events == set(KNOWN_TYPES)
    # The game's words are its own catalogues (games/samurai/words), none in the shared one.
    keys = {k for k in game_words("samurai", "en")["narrate"] if k.startswith("sam.")}
    assert keys and set(game_words("samurai", "en")["narrate"]) == keys
    for lang in LANGUAGES:
        assert set(game_words("samurai", lang)["narrate"]) == keys, lang
        assert not any(k.startswith("sam.") for k in catalogue(lang)["narrate"]), lang


def test_every_event_of_random_games_narrates_and_hides_what_it_must(games: list[SelfPlayed]) -> None:
    seen: set[str] = set()
    for game in games:
        for e in game.events:
            full = project(e, EVERYONE)
            seen.add(full["type"])
            for viewer in (SPECTATOR, EVERYONE, 0, 1):
                shown = project(e, viewer)
                for lang in LANGUAGES:
                    line = narrate(shown, viewer if isinstance(viewer, int) else None, lang=lang, game="samurai")
                    if full["type"] == "TurnEnded":
                        assert line == ""
                        continue
                    assert line and "{" not in line and "Event" not in line, (lang, full, line)
                    hidden = "tiles" in full and shown["tiles"] != full["tiles"]
                    if hidden:
                        named = SamuraiNarrator(lang).tile_list(full["tiles"])
                        assert named not in line, (lang, viewer, line)
    assert seen >= {"TilesChosen", "TilePlaced", "FigureCaptured", "TilesDrawn", "GameEnded"}


def test_the_story_names_edo_tiles_and_the_winner() -> None:
    """Hexes by the terminal's squares (squares.py), Edo and a village as such."""
    n = SamuraiNarrator("en")
    assert n.narrate({"type": "CapitalFilled", "hex": 62, "figures": ["helmet", "buddha", "rice"]}) == \
        "Edo (I17) receives helmet, Buddha and rice field."
    assert n.narrate({"type": "TilePlaced", "seat": 1, "tile": 13, "kind": "samurai", "strength": 3, "hex": 108,
                      "by_table": True}) == "Seat 1 places samurai 3 on O8 (time ran out: the table chose)."
    assert n.hex(11) == "village B18" and SamuraiNarrator("de").hex(11) == "Dorf B18"
    assert n.hex(9999) == "hex 9999"  # an id the map does not have
    assert n.narrate({"type": "TilesDrawn", "seat": 0, "tiles": [None], "supply_left": 3}) == \
        "Seat 0 draws a tile; 3 left in the supply."
    assert n.narrate({"type": "FigureCaptured", "hex": 117, "figure": "rice", "seat": None, "influence": [2, 2]}) \
        .endswith("it is set aside.")
    de = SamuraiNarrator("de")
    assert de.narrate({"type": "GameEnded", "reason": "no_moves", "winners": [2]}).endswith("Sitz 2 gewinnt.")


def test_the_result_table_lists_every_seat_best_first(games: list[SelfPlayed]) -> None:
    result = project(games[1].events[-1], EVERYONE)
    text = describe_result(result, lang="en")
    rows = text.splitlines()[2:]
    assert len(rows) == 3 and int(rows[0].split()[0]) == 1
