"""The rules package as a Python library (server/rules/__init__.py): the
card table, configured deals written by card name (R2.8), and `legal()`
split into the decision's answers and the deal options."""

from __future__ import annotations

import random

import pytest

import oriente.server.rules as rules
from oriente.server.rules import (
    CARDS,
    DEAL_COMMAND_TYPES,
    DECISION_COMMAND_TYPES,
    ConfigError,
    Game,
    GameConfig,
    Kind,
    configured_deal,
)


def test_the_card_table_has_the_53_cards_of_r1() -> None:
    """R1.1/R1.2: 41 inhabitants (1 Shogun, 2 Soryo, 4 Maho-Tsukai, 5 Daimyo,
    6 Samurai, 7 Akindo, 12 Nofu, 3 Ninja, 1 Geisha) and 12 treasures."""
    assert [c.id for c in CARDS] == list(range(53))
    counts = {k: sum(1 for c in CARDS if c.kind is k) for k in Kind}
    assert counts == {Kind.SHOGUN: 1, Kind.SORYO: 2, Kind.MAHO_TSUKAI: 4, Kind.DAIMYO: 5, Kind.SAMURAI: 6,
                      Kind.AKINDO: 7, Kind.NOFU: 12, Kind.NINJA: 3, Kind.GEISHA: 1, Kind.TREASURE: 12}
    assert (CARDS[0].name, CARDS[0].rank, CARDS[0].value) == ("Shogun", 7, 7)
    assert (CARDS[40].name, CARDS[40].rank, CARDS[40].value) == ("Geisha", None, 0)
    assert (CARDS[52].name, CARDS[52].rank, CARDS[52].value) == ("Treasure 4", None, 4)
    assert all(c.rank == c.value for c in CARDS if c.kind <= Kind.SHOGUN)


def test_r2_8_a_configured_deal_by_card_name() -> None:
    """R2.8: a configured deal fixes the deck order, the treasures and the
    stone holder; written by name, the weakest unused cards fill the rest."""
    config = configured_deal(4, ["Shogun", "Nofu", "Nofu", "Maho-Tsukai"], bonus="Daimyo", draws=["Geisha"],
                             treasures=["Treasure 4", "Treasure 2", "Treasure 3", "treasure 4"], stone=2)
    game = Game(config)
    started = game.events[0]
    assert started.inhabitants == (0, 25, 26, 3)
    assert started.treasures == (49, 41, 45, 50) and started.stone_holder == 2
    assert game.state.bonus == [7]
    assert game.state.deck[-1] == 40, "the Geisha is the next card drawn"
    mixed = configured_deal(4, {1: 25, 2: "Nofu"})  # an id given is spoken for before names resolve
    assert mixed.deck[2:4] == (25, 26)
    for bad in (["Shogun", "Shogun", "Nofu", "Nofu"], ["Dragon", "Nofu", "Nofu", "Nofu"]):
        with pytest.raises(ConfigError):
            configured_deal(4, bad)
    with pytest.raises(ConfigError):
        configured_deal(4, ["Nofu"] * 4, bonus="Treasure 2")


def test_legal_is_the_answers_then_the_deal_options_and_each_kind_is_told_apart() -> None:
    """Over random play with deals: every answer names the open decision and
    is a decision command; every deal option is a deal command; legal() is
    the two, in that order."""
    assert not DECISION_COMMAND_TYPES & DEAL_COMMAND_TYPES
    rng = random.Random(5)
    game = Game(GameConfig(seats=5, seed=5))
    checked = 0
    while (decisions := game.pending()) and checked < 400:
        d = decisions[0]
        for seat in range(5):
            answers, options = game.answers(seat), game.deal_options(seat)
            assert game.legal(seat) == answers + options
            # A fighter's Done (R10.2b1) names the window too, though it answers for no asked seat.
            assert all(type(c).__name__ in DECISION_COMMAND_TYPES | {"Done"} and c.decision == d.id for c in answers)
            assert all(type(c).__name__ in DEAL_COMMAND_TYPES for c in options)
            checked += 1
        if d.pivot is None:
            game.apply(rules.TABLE, rules.Timeout(decision=d.id, pivot=None))
            continue
        pile = game.state.pile[d.pivot]
        if pile and rng.random() < 0.2 and rules.deals.capability(game.state, d.pivot)["propose"]:
            other = (d.pivot + 1) % 5
            game.apply(d.pivot, rules.ProposeDeal(transfers=(rules.Transfer(
                card=pile[0], giver=d.pivot, receiver=other, consideration="for your friendship"),)))
        options = game.answers(d.pivot) + game.deal_options(d.pivot)
        game.apply(d.pivot, rng.choice(options))
    assert checked >= 400


def test_the_layout_doc_s_example_of_the_rules_runs() -> None:
    """docs/layout.md shows the rules as a library; the example must run as written."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "docs" / "layout.md").read_text(encoding="utf-8")
    # The example imports the rules from the game's home (the old name, oriente.server.rules, works for one release).
    blocks = [b for b in re.findall(r"```python\n(.*?)```", readme, flags=re.S)
              if "oriente.games.oriente.rules" in b or "oriente.server.rules" in b]
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/layout.md", "exec"), {"__name__": "readme"})
