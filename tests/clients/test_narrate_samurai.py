"""Samurai's narration (clients/narrate_samurai.py): every event of random
games reads as words from every viewpoint in every language, and a tile
hidden from a viewer is never named in that viewer's line (S7.4)."""

from __future__ import annotations

import pytest

from oriente import games as registry
from oriente.clients.narrate import LANGUAGES, catalogue, game_words, narrate
from oriente.clients.narrate_samurai import KNOWN_TYPES, SamuraiNarrator, describe_result
from oriente.games.kit.selfplay import SelfPlayed, play
from oriente.games.samurai.rules import default_board_data
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
    old = default_board_data(1)  # the map of rules revision 1 names no village (S8.2); revision 2's does
    assert SamuraiNarrator("en", None, old).hex(11) == "village B18" and SamuraiNarrator("de", None, old).hex(11) \
        == "Dorf B18"
    assert n.hex(11) == "Otaru (B18)"
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


# -- places and the end as a player says them (S5.6, S6.1; rules/hexnames.py) ----------------

def _board(seats: int, revision: int = 2) -> dict:
    port = registry.load("samurai")
    state, _ = port.start(port.configure(seats, 1, {"rules_revision": revision}, {}).config)
    return port.view(state, "spectator")["board"]


@pytest.mark.parametrize("lang,village", [("en", "village"), ("de", "Dorf"), ("fr", "village")])
def test_hexes_are_named_by_the_squares_the_terminal_shows(lang: str, village: str) -> None:
    """A hex is its square (`K12`), as the terminal draws and types it; a
    named settlement its name and square; an unnamed village (the map of
    revision 1) "village K7". Never "hex 48"."""
    from oriente.clients.terminal.games.samurai import hex_map

    board = _board(3)
    n = SamuraiNarrator(lang, None, board)
    terminal = hex_map({"board": board})
    land = next(h for h in board["hexes"] if h["terrain"] == "land")
    nara = next(h for h in board["hexes"] if h.get("name") == "Nara")
    line = n.narrate({"type": "TilePlaced", "seat": 1, "tile": 13, "kind": "samurai", "strength": 3,
                      "hex": land["id"], "by_table": False})
    assert line.endswith(f" {terminal.square(land['id'])}.") and land["square"] == terminal.square(land["id"])
    assert str(land["id"]) not in line.replace(terminal.square(land["id"]), "")
    line = n.narrate({"type": "FigurePlaced", "seat": 0, "decision": 3, "hex": nara["id"], "figure": "rice",
                      "by_table": False})
    assert f"Nara ({nara['square']})" in line
    old = _board(3, revision=1)
    unnamed = next(h for h in old["hexes"] if h["terrain"] == "village")
    line = SamuraiNarrator(lang, None, old).narrate({"type": "FigurePlaced", "seat": 0, "decision": 3,
                                                     "hex": unnamed["id"], "figure": "rice", "by_table": False})
    assert f"{village} {unnamed['square']}" in line and terminal.name(unnamed["id"]) != "", line


ENDED = {"type": "GameEnded", "captured": [[4, 1, 2], [2, 5, 3], [1, 1, 5]], "majorities": [0, 1, 2],
         "contenders": [0, 1, 2], "others": [3, 5, 2], "totals": [7, 10, 7], "ranks": [2, 1, 3],
         "winners": [1], "hands": [[], [], []]}


@pytest.mark.parametrize("lang,ran_out,aside,majority,guard", [
    ("en", "The last rice field has left the board: the game ends.",
     "The fourth figure has been set aside (2 helmets, 1 Buddha and 1 rice field beside the board)",
     "Sole majorities: seat 0 holds the most helmets (4), seat 1 holds the most Buddhas (5) and seat 2 holds"
     " the most rice fields (5).", "The rulebook has no such end"),
    ("de", "Das letzte Reisfeld hat den Spielplan verlassen: das Spiel endet.",
     "Die vierte Figur steht neben dem Spielplan (2 Helme, 1 Buddha und 1 Reisfeld)",
     "Alleinige Mehrheiten: Sitz 0 hat die meisten Helme (4)", "Die Spielregel kennt dieses Ende nicht"),
    ("fr", "La dernière rizière a quitté le plateau : la partie est finie.",
     "La quatrième figure a été mise de côté (2 casques, 1 Bouddha et 1 rizière à côté du plateau)",
     "Majorités à lui seul : siège 0 a le plus de casques (4)", "La règle ne connaît pas cette fin"),
])
def test_the_end_says_which_kind_ran_out_and_who_held_which_majority(lang: str, ran_out: str, aside: str,
                                                                      majority: str, guard: str) -> None:
    """S5.1, S5.2, S6.1: the story of the end says which kind ran out (the
    kind all of whose figures have left the board: 10 of 10 rice fields at
    3 seats here), or which figures were set aside, and who held which sole
    majority; the guard of S5.4 says the rulebook has no such end."""
    n = SamuraiNarrator(lang)
    last = n.narrate({**ENDED, "reason": "last_figure", "set_aside": [0, 0, 0]}).splitlines()
    assert last[0] == ran_out and last[1].startswith(majority.rstrip(".")) and len(last) == 3
    aside_line = n.narrate({**ENDED, "reason": "set_aside", "set_aside": [2, 1, 1]}).splitlines()[0]
    assert aside in aside_line
    assert guard in n.narrate({**ENDED, "reason": "no_moves", "set_aside": [0, 0, 0]}).splitlines()[0]
    nobody = n.narrate({**ENDED, "reason": "last_figure", "set_aside": [0, 0, 0], "majorities": [None] * 3,
                        "winners": []}).splitlines()
    assert len(nobody) == 2  # no majorities line when nobody holds one
