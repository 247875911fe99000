"""The story a viewer reads (clients/story.py): what single events cannot say."""

from __future__ import annotations

import random
import re

from oriente.clients.story import Story
from oriente.server.rules import SPECTATOR, Game, GameConfig, project
from tests.randomplay import random_move

from .test_narrate import _deal_game


def _told(game_seed: int, seats: int, viewer) -> list[str]:
    game = Game(GameConfig(seats=seats, seed=game_seed))
    rng = random.Random(game_seed)
    story = Story(viewer if viewer != SPECTATOR else None)
    lines = story.tell([project(e, viewer) for e in game.events], game.view(viewer))
    while (move := random_move(game.state, rng)) is not None:
        new = game.apply(*move)
        lines += story.tell([project(e, viewer) for e in new], game.view(viewer))
    return lines


def test_r6_5_fight_totals_are_told_as_the_cards_that_made_them() -> None:
    """R6.5: "Each side's total is its inhabitant's value plus its supporters'
    values plus reinforcements": the story says which cards, and they add up."""
    broken_down = 0
    for seed, seats in ((1, 6), (2, 5), (3, 8)):
        for line in _told(seed, seats, SPECTATOR):
            for total, parts in re.findall(r"(\d+) \(= ([^)]*(?:\([^)]*\)[^)]*)*)\)", line):
                values = [int(v) for v in re.findall(r"\b[A-Z][\w-]* (\d+)\b", parts)]
                assert values and sum(values) == int(total), line
                broken_down += 1
    assert broken_down >= 10


def test_season_scores_and_runs_of_passes() -> None:
    lines = _told(2, 6, 0)
    assert any(re.search(r"^Score piles after season 1: seat 0 \d+, ", line, re.M) for line in lines)
    story = Story(None)
    told = story.tell([{"type": "PrivilegePassed", "seat": s} for s in (1, 2, 4)]
                      + [{"type": "PrivilegePassed", "seat": 5, "voided_claim": True}])
    assert told[0] == "Seats 1, 2 and 4 do not claim privilege."
    assert told[1].startswith("Seat 5 does not claim privilege. (Their equal-rank claim")
    # A screen merges a run that goes on over several frames; a printed story cannot.
    screen = Story(None)
    assert screen.tell([{"type": "PrivilegePassed", "seat": 1}], merge=True) == ["Seat 1 does not claim privilege."]
    told = screen.tell([{"type": "PrivilegePassed", "seat": 2}], merge=True)
    assert told == ["Seats 1 and 2 do not claim privilege."]
    assert screen.replaces_last
    assert screen.tell([{"type": "Passed", "seat": 3}, {"type": "PrivilegePassed", "seat": 4}], merge=True) == [
        "Seat 3 passes.", "Seat 4 does not claim privilege."] and not screen.replaces_last


def test_r8_6_a_settled_promise_says_what_it_promised() -> None:
    """R8.6: "The server keeps a public ledger of promises — open, kept,
    broken"; the story tells what a settled promise was about."""
    game = _deal_game()
    story = Story(None)
    lines = story.tell([project(e, SPECTATOR) for e in game.events])
    assert "Seat 1 kept promise #1: to seat 0: “I will support you this season”." in lines
