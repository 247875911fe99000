"""Every game's projection is fail-closed (games/kit/projection.py): an
event of a type it does not list reaches no viewer but "all" (the record
after the end): every seat and a spectator get that an event happened
(its type and its place in the log) and nothing of what it says. And each
projection lists exactly the event types its rules define, so the ones
the game emits are projected as they always were."""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

import pytest

from oriente import games
from oriente.games.kit.port import EVERYONE, SPECTATOR, GamePort
from tests.toy_game import ToyPort
from tests.toy_game import rules as toy_rules

PORTS: dict[str, GamePort] = {**games.all_ports(), "highcard": ToyPort()}
UNLISTED: dict[str, Any] = {"type": "SecretCardsShown", "seq": 17, "seat": 0, "card": 5, "hand": [3, 9, 11],
                            "cards": [1, 2, 3, 4]}


@pytest.mark.parametrize("name", PORTS)
def test_an_unlisted_event_type_reaches_no_viewer(name: str) -> None:
    port = PORTS[name]
    for viewer in [*range(port.seats.stop), SPECTATOR]:
        assert port.project(dict(UNLISTED), viewer) == {"type": "SecretCardsShown", "seq": 17}, viewer
    assert port.project(dict(UNLISTED), EVERYONE) == UNLISTED  # the record after the end holds everything


@pytest.mark.parametrize("name", list(games.registered()))
def test_each_projection_lists_exactly_the_event_types_its_rules_define(name: str) -> None:
    events = importlib.import_module(f"{games.home(name)}.rules.events")
    defined = {cls.__name__ for cls in vars(events).values()
               if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == events.__name__}
    views = importlib.import_module(f"{games.home(name)}.rules.views")
    assert defined and defined == views.LISTED


def test_the_toy_game_lists_what_it_emits() -> None:
    state, events = toy_rules.new_game(2, 7, 1)
    while state.result is None:
        events += toy_rules.apply(state, state.turns_done, {"type": "Bid", "decision": state.round, "raise": True})
    assert {e["type"] for e in events} == toy_rules.LISTED
