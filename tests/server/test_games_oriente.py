"""Oriente's port (server/games/oriente.py): its options, how the first
revision of oriente.v1 spelt them, and the errors a client gets."""

from __future__ import annotations

from typing import Any

import pytest

from oriente.server.game_port import SettingsError
from oriente.server.games import PORTS
from oriente.server.games.oriente import OrientePort
from oriente.server.rules import GameConfig

PORT = OrientePort()
DECK = [5, 12, 18, 25, 30, 40] + [c for c in range(41) if c not in (5, 12, 18, 25, 30, 40)]
DEAL = {"deck": DECK, "treasures": [41, 45, 49, 52], "stone_holder": 2}


def test_the_registry_serves_oriente_by_its_name() -> None:
    assert PORTS["oriente"].name == "oriente"
    assert PORTS["oriente"].seats == range(4, 13)


def test_defaults_and_a_configured_deal() -> None:
    plain = PORT.configure(4, 9, {**PORT.new_table_options}, {})  # a new table, as the lobby configures it
    assert plain.options == {"deal": None, "max_open_proposals": 3, "rules_revision": 3}
    assert plain.public == {"configured_deal": False, "max_open_proposals": 3, "rules_revision": 3}
    assert plain.config == GameConfig(seats=4, seed=9)
    assert plain.record == {"seats": 4, "seed": 9, "deck": None, "treasures": None, "stone_holder": None,
                            "max_open_proposals": 3, "rules_revision": 3}
    dealt = PORT.configure(4, 9, {"deal": DEAL, "max_open_proposals": 2, "rules_revision": 2}, {})
    assert dealt.config == GameConfig(seats=4, seed=9, deck=tuple(DECK), treasures=(41, 45, 49, 52),
                                      stone_holder=2, max_open_proposals=2, rules_revision=2)
    assert dealt.public == {"configured_deal": True, "max_open_proposals": 2, "rules_revision": 2}, (
        "the deal itself stays secret")
    assert dealt.record["deck"] == DECK and dealt.record["stone_holder"] == 2


def test_a_table_stored_without_a_revision_keeps_revision_1() -> None:
    """R10.2b2: "Tables created before this ruling keep the shared id": their
    stored options have no rules_revision, and configure to the same setup
    as before it, so that their logs replay."""
    old = PORT.configure(4, 9, {"deal": None, "max_open_proposals": 3}, {})
    assert old.options == {"deal": None, "max_open_proposals": 3}
    assert old.config.rules_revision == 1 and "rules_revision" not in old.record
    assert old.public["rules_revision"] == 1
    for bad, code in (({"rules_revision": 4}, "table/bad_settings"), ({"rules_revision": "2"}, "message/invalid")):
        with pytest.raises(SettingsError) as refused:
            PORT.configure(4, 9, bad, {})
        assert refused.value.code == code


def test_configuring_again_with_the_kept_options_gives_the_same_setup() -> None:
    """Recovery configures a stored table again from the options it kept."""
    for options, legacy in (({}, {}), ({"deal": DEAL}, {}), ({}, {"deal": DEAL, "max_open_proposals": 5}),
                            ({"rules_revision": 2}, {}), ({"rules_revision": 1}, {})):
        first = PORT.configure(4, 1, options, legacy)
        assert PORT.configure(4, 1, first.options, {}) == first


def test_the_first_revision_top_level_fields_are_read_as_options() -> None:
    """oriente.v1's first revision had deal and max_open_proposals at the top
    level of create_table; options win where both are given, and other
    unknown top-level fields are ignored, as every unknown field is."""
    setup = PORT.configure(4, 3, {}, {"deal": DEAL, "max_open_proposals": 7, "colour": "red"})
    assert setup.options == {"deal": DEAL, "max_open_proposals": 7}
    setup = PORT.configure(4, 3, {"max_open_proposals": 2}, {"max_open_proposals": 7, "deal": None})
    assert setup.options == {"deal": None, "max_open_proposals": 2}


@pytest.mark.parametrize(("options", "code"), [
    ({"colour": "red"}, "table/bad_settings"),
    ({"max_open_proposals": 0}, "table/bad_settings"),
    ({"max_open_proposals": 21}, "table/bad_settings"),
    ({"max_open_proposals": "3"}, "message/invalid"),
    ({"max_open_proposals": True}, "message/invalid"),
    ({"deal": {"deck": DECK, "treasures": [41, 45, 49]}}, "message/invalid"),
    ({"deal": {**DEAL, "deck": [str(c) for c in DECK]}}, "message/invalid"),
    ({"deal": [1, 2]}, "message/invalid"),
    ({"deal": {**DEAL, "stone_holder": 4}}, "table/bad_deal"),
    ({"deal": {**DEAL, "deck": [40, *DECK[:5], *DECK[6:]]}}, "table/bad_deal"),
], ids=lambda v: repr(v)[:50])
def test_refusals_carry_the_code_the_client_gets(options: dict[str, Any], code: str) -> None:
    with pytest.raises(SettingsError) as refused:
        PORT.configure(4, 0, options, {})
    assert refused.value.code == code and refused.value.message


def test_a_refused_command_leaves_the_state_untouched() -> None:
    """The contract of apply: a rejection leaves no trace."""
    from oriente.server.game_port import TABLE_SEAT, RulesRejection

    state, _ = PORT.start(PORT.configure(4, 5, {}, {}).config)

    def everything() -> Any:
        return PORT.view(state, "all"), PORT.waiting(state), PORT.prompts(state, [0, 1, 2, 3])

    before = everything()
    waiting = PORT.waiting(state)
    assert waiting is not None and waiting.pivot is not None
    other = (waiting.pivot + 1) % 4
    for seat, command in ((other, {"type": "Pass", "decision": waiting.key[0]}),
                          (waiting.pivot, PORT.timeout_command(waiting)),
                          (waiting.pivot, {"type": "Nonsense"})):
        with pytest.raises(RulesRejection):
            PORT.apply(state, seat, command)
        assert everything() == before
    assert PORT.apply(state, TABLE_SEAT, PORT.timeout_command(waiting))
    assert everything() != before
