"""Rejections say what is wrong in words a client's author can act on:
the field, what it must be, and the rule behind a refusal."""

from __future__ import annotations

from typing import Any

import pytest

from oriente.server.rules import GameConfig, Rejected, apply, command_from_plain, new_game
from oriente.server.rules.commands import Promise, PromiseKind, ProposeDeal, Transfer


def rejection(data: Any) -> Rejected:
    with pytest.raises(Rejected) as caught:
        command_from_plain(data)
    return caught.value


@pytest.mark.parametrize("data, code, message", [
    ({"decision": 1}, "command/unknown", "a command names its type in field 'type', one of: Announce,"),
    ({"type": "Pass"}, "command/invalid", "field 'decision' is missing: an integer"),
    ({"type": "Pass", "decision": "1"}, "command/invalid", "field 'decision' must be an integer, not a string"),
    ({"type": "Support", "decision": 1}, "command/invalid", "field 'side' is missing: one of attacker, defender"),
    ({"type": "Support", "decision": 1, "side": "both"}, "command/invalid",
     "field 'side' must be one of attacker, defender, not 'both'"),
    ({"type": "Announce", "decision": 1}, "command/invalid", "field 'action' is missing: a map"),
    ({"type": "SettlePromise", "promise": 1}, "command/invalid", "field 'kept' is missing: true or false"),
    ({"type": "ProposeDeal", "transfers": [{"card": 41, "giver": 0, "receiver": 1}]}, "command/invalid",
     "field 'consideration' is missing: a string"),
], ids=lambda v: repr(v)[:40])
def test_a_malformed_command_is_told_which_field_and_why(data: Any, code: str, message: str) -> None:
    error = rejection(data)
    assert error.code == code and error.message.startswith(message), error.message


def _propose(deal: ProposeDeal, season: int = 1) -> Rejected:
    state, _ = new_game(GameConfig(seats=4, seed=1))
    state.season = season
    with pytest.raises(Rejected) as caught:
        apply(state, 0, deal)
    return caught.value


def test_an_empty_promise_text_is_not_called_a_gift() -> None:
    error = _propose(ProposeDeal(promises=(Promise(promiser=0, promisee=1, text=" "),)))
    assert error.code == "deal/bad_promise"
    assert "'text'" in error.message and "gift" not in error.message


def test_a_missing_consideration_is_the_rule_against_gifts() -> None:
    state, _ = new_game(GameConfig(seats=4, seed=1))
    treasure = state.pile[0][0]
    error = _propose(ProposeDeal(transfers=(Transfer(card=treasure, giver=0, receiver=1, consideration=""),)))
    assert error.code == "deal/no_consideration" and "R8.3" in error.message and "'consideration'" in error.message


def test_a_pay_promise_for_a_past_season_names_the_season_it_needs() -> None:
    promise = Promise(promiser=0, promisee=1, text="two cards", kind=PromiseKind.PAY, cards=(41,), by_season=3)
    error = _propose(ProposeDeal(promises=(promise,)), season=7)
    assert error.code == "deal/bad_promise"
    assert "this season (7) or a later one, not 3" in error.message


def test_every_rejection_of_the_rules_names_its_rule() -> None:
    """Each `Rejected(...)` raised in Oriente's rules cites the rule behind it
    (a rule id in its message), except a malformed command (command/...),
    which breaks no rule of the game."""
    import ast
    import re
    from pathlib import Path

    rules = Path(__file__).resolve().parents[2] / "src" / "oriente" / "games" / "oriente" / "rules"
    missing = []
    for path in sorted(rules.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Rejected" and node.args):
                continue
            code = node.args[0].value if isinstance(node.args[0], ast.Constant) else None
            if isinstance(code, str) and code.startswith("command/"):
                continue
            message = ast.get_source_segment(source, node.args[1]) or ""
            if not re.search(r"R\d|RULE\[|why_not_asked", message):
                missing.append(f"{path.name}:{node.lineno} {code}")
    assert not missing, missing


def test_a_target_claiming_is_told_why_it_is_not_asked() -> None:
    """R10.2a: "Asked: every other seat that holds its disc, is not the
    target, has not announced in this chain (R4.4a), and is not publicly
    unable to outrank the announcer"; a refused claim says which of these."""
    from oriente.server.rules import Action, ActionKind, Announce, Claim, pending

    from .helpers import AKINDO, DAIMYO, NOFU, SAMURAI, table_state

    state, _ = table_state(4, [NOFU[0], SAMURAI[0], DAIMYO[0], AKINDO[0]], stone=0)
    d = pending(state)[0]
    apply(state, 0, Announce(decision=d.id, action=Action(kind=ActionKind.ATTACK, target=1)))
    d = pending(state)[0]
    assert d.topic.value == "privilege" and 1 not in d.asked
    claim = Claim(decision=d.id, action=Action(kind=ActionKind.ATTACK, target=2))
    with pytest.raises(Rejected) as caught:
        apply(state, 1, claim)
    assert caught.value.code == "decision/not_asked"
    assert "target" in caught.value.message and "(R10.2a)" in caught.value.message
    with pytest.raises(Rejected) as caught:
        apply(state, 0, claim)
    assert "announced" in caught.value.message
