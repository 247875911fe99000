"""Oro's narration (clients/narrate_oro.py): every event of random games,
both variants, reads as words from every viewpoint in every language, and
a card hidden from a viewer is never named in that viewer's line (O8.7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oriente.clients.narrate import LANGUAGES, catalogue, game_words, narrate
from oriente.clients.narrate_oro import KNOWN_TYPES, OroNarrator, describe_result
from oriente.server.oro import (
    EVERYONE,
    SPECTATOR,
    Game,
    OroConfig,
    command_from_plain,
    decision_view,
    pending,
    project,
    view,
)
from oriente.server.oro import events as E
from oriente.server.policies.oro import POLICIES

from ..oro.knowledge_model import hidden_parts


def oro_game(seats: int, seed: int, gods: bool) -> Game:
    """A whole game: the heuristic at seat 0, the random policy elsewhere."""
    game = Game(OroConfig(seats=seats, seed=seed, gods=gods))
    rng = random.Random(seed)
    while not game.over:
        seat = pending(game.state)[0].pivot
        policy = POLICIES["heuristic" if seat == 0 else "random"]
        game.apply(seat, command_from_plain(policy(view(game.state, seat), decision_view(game.state, seat), rng)))
    return game


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return [oro_game(seats, seed, gods) for seats, seed, gods in ((2, 1, True), (3, 2, True), (4, 3, False),
                                                                  (4, 4, True), (3, 5, True))]


def test_every_event_type_has_words_in_every_language() -> None:
    events = {name for name, cls in vars(E).items() if isinstance(cls, type) and cls.__module__ == E.__name__}
    assert events == set(KNOWN_TYPES)
    # The game's words are its own catalogues (games/oro/words), none in the shared one.
    keys = {k for k in game_words("oro", "en")["narrate"] if k.startswith("oro.")}
    assert keys and set(game_words("oro", "en")["narrate"]) == keys
    for lang in LANGUAGES:
        assert set(game_words("oro", lang)["narrate"]) == keys, lang
        assert not any(k.startswith("oro.") for k in catalogue(lang)["narrate"]), lang


def test_every_event_of_random_games_narrates_and_hides_what_it_must(games: list[Game]) -> None:
    seen: set[str] = set()
    names = OroNarrator().islands
    for game in games:
        for e in game.events:
            full = project(e, EVERYONE)
            seen.add(full["type"])
            for viewer in (SPECTATOR, EVERYONE, 0, 1):
                shown = project(e, viewer)
                hidden = viewer != EVERYONE and any(not may for _, may in hidden_parts(full, viewer))
                for lang in LANGUAGES:
                    line = narrate(shown, viewer if isinstance(viewer, int) else None, lang=lang, game="oro")
                    if full["type"] == "TurnEnded" and not full.get("final"):
                        assert line == ""  # the draw tells a turn's end; a final turn is told (O5.6)
                        continue
                    assert line and "Something happened" not in line and "Etwas ist" not in line, (full, line)
                    assert "{" not in line, line
                    if hidden and full["type"] in ("Drew", "Discarded", "GaveUp", "KuLooked"):
                        assert not any(n in line for n in names), f"{viewer} reads a hidden card: {line}"
    assert seen >= KNOWN_TYPES - {"Passed", "PeleGave", "PeleTook", "KuLooked", "KuTook", "LonoUsed",
                                  "BridgeRemoved"}, seen


def test_examples_read_as_intended() -> None:
    n = OroNarrator("en")
    aloa, bafi = n.islands.index("ALOA"), n.islands.index("BAFI")
    conn = next(c for c, ends in enumerate(n.ends) if set(ends) == {aloa, bafi})
    assert n.narrate({"type": "Built", "seat": 1, "connection": conn, "island": bafi, "kanaloa": False}) == \
        "Seat 1 builds a bridge on ALOA–BAFI with a card of BAFI."
    assert n.narrate({"type": "Drew", "seat": 2, "island": None, "from_display": False, "refill": None,
                      "deck_size": 30, "lono": False}) == "Seat 2 draws a card from the deck (30 left)."
    gained: dict[str, Any] = {"type": "ControlGained", "seat": 0, "island": aloa, "removed": [[conn, 1], [3, 2]],
                              "stone": "kane", "kane": 2}
    assert n.narrate(gained) == ("Seat 0 takes control of ALOA and removes 2 bridges of seats 1 and 2. "
                                 "It takes the god stone Kane (2 points).")
    assert OroNarrator("de").narrate({"type": "Discarded", "seat": 3, "island": None}) == \
        "Sitz 3 wirft eine Karte verdeckt ab (???)."


def test_describe_result_lists_every_seat_by_rank(games: list[Game]) -> None:
    for game in games:
        result = project(game.events[-1], EVERYONE)
        text = describe_result(result)
        rows = text.splitlines()[2:]
        assert len(rows) == game.config.seats
        assert [int(r.split()[0]) for r in rows] == sorted(result["ranks"])
