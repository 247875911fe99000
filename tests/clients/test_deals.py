"""The SDK's deal helpers (clients/deals.py): what they build the rules
accept as it is, what they read agrees with the view, what they value is
the reference negotiator's valuation, and importing the SDK loads no
server module."""

from __future__ import annotations

import subprocess
import sys

import pytest

from oriente.clients import deals, sdk
from oriente.server.policies import valuation
from oriente.server.rules import AcceptDeal, apply, command_from_plain, plain, view
from oriente.server.rules.cards import VALUE
from oriente.server.rules.views import decision_view
from tests.policies.test_negotiator import _high_stakes
from tests.rules.helpers import NOFU


def test_built_deals_are_the_canonical_commands_the_rules_accept():
    """A proposal built with the helpers parses to itself (the canonical
    form `legal` and the events use) and executes in a real game."""
    state = _high_stakes()
    offer = deals.proposal([deals.give(NOFU[8], 1, 2, "for your support")],
                           [deals.support(2, 1, 0, 1, "defender"), deals.no_attack(3, 1),
                            deals.pay(1, 2, [NOFU[8]], 1), deals.free(2, 1, "I will cheer for you")],
                           "a card for your support")
    assert plain(command_from_plain(offer)) == offer
    apply(state, 1, command_from_plain(offer))
    v = view(state, 2)
    (deal,) = deals.offers_to(v, 2)
    assert deals.mine(view(state, 1), 1) == [deal] and deals.offers_to(v, 1) == []
    assert deals.cards_to(deal, 2) == [NOFU[8]] and deals.cards_from(deal, 1) == [NOFU[8]]
    assert [p["kind"] for p in deals.promises_of(deal, 2)] == ["support", "free"]
    for seat in (2, 3):
        apply(state, seat, AcceptDeal(deal=deal["deal"]))
    v = view(state, 2)
    assert deals.promised_side(v, 2) == "defender"
    assert [e["kind"] for e in deals.open_promises(v, kind="no_attack")] == ["no_attack"]
    assert deals.record(v, 2) == (0, 0) and deals.trust(v, 2) == 0.75


def test_value_is_the_negotiators_valuation():
    """`value` and `partner_value` are valuation.deal_value and
    valuation.partner_value on the seat's view and prompt: the same reading
    a negotiating bot makes."""
    state = _high_stakes()
    v, p = view(state, 2), decision_view(state, 2)
    offer = deals.proposal([deals.give(NOFU[8], 1, 2, "for your support")], [deals.support(2, 1, 0, 1, "defender")])
    r = valuation.reading(v, p)
    assert deals.value(v, offer, p) == valuation.deal_value(r, offer)
    assert deals.partner_value(v, offer, 1, p) == valuation.partner_value(r, offer, 1)
    bigger = deals.proposal([deals.give(state.pile[1][0], 1, 2, "for your support")],
                            [deals.support(2, 1, 0, 1, "defender")])
    assert VALUE[state.pile[1][0]] > VALUE[NOFU[8]] and deals.value(v, bigger, p) > deals.value(v, offer, p)
    assert deals.describe(offer, 1) == ("I give seat 2 a Nofu (1); seat 2 will support the defender, me, "
                                        "in the fight of seat 0 against seat 1.")
    assert all(deals.card_value(c) == VALUE[c] for c in range(53))


def test_the_sdk_imports_no_server_module():
    code = ("import sys; import oriente.clients.sdk, oriente.clients.deals; "
            "bad = [m for m in sys.modules if m.startswith('oriente.server')]; print(bad); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert sdk.deals is deals


def test_reasons_and_counters_are_built_read_and_worded_as_the_rules_take_them():
    """R8.8 for bot authors: the SDK's catalogue of reasons is the rules'
    one; a decline with its reason and a counter-offer are commands the
    rules accept, and the events they make are read back and worded."""
    from oriente.games.oriente.rules import Promise, PromiseKind, ProposeDeal
    from oriente.games.oriente.rules import events as E
    from oriente.games.oriente.rules.reasons import DECLINE, PROPOSE
    from tests.rules.helpers import table_state

    assert {c: tuple(p) for c, p in DECLINE.items()} == deals.DECLINE_REASONS
    assert {c: tuple(p) for c, p in PROPOSE.items()} == deals.PROPOSE_REASONS
    with pytest.raises(ValueError):
        deals.reason("record", seat=1)
    with pytest.raises(ValueError):
        deals.decline(3, "counter", deal=2)
    state, _ = table_state(4, [25, 26, 27, 28])
    first = apply(state, 0, ProposeDeal(promises=(Promise(promiser=0, promisee=1, text="I back you",
                                                          kind=PromiseKind.FREE),)))[0]
    offer = deals.counter({"deal": first.deal}, [], [deals.no_attack(1, 0)])
    proposed = next(e for e in apply(state, 1, command_from_plain(offer)) if isinstance(e, E.DealProposed))
    assert deals.counters({"counter_to": proposed.counter_to}) == first.deal
    closed = apply(state, 1, command_from_plain(deals.decline(first.deal, "record", seat=0, kept=1, broken=3)))[0]
    assert deals.why_of({"why": closed.why}) == {"code": "record", "seat": 0, "kept": 1, "broken": 3}
    assert deals.reason_words(closed.why) == "the record of seat 0: 1 promises kept, 3 broken"
    assert deals.reason_words({"code": "from_the_future"}) == "from_the_future"
