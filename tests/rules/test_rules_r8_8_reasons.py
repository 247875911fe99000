"""R8.8 reasons and counter-offers, each test quoting the rule."""

import pytest

from oriente.server.rules import (
    DeclineDeal,
    Promise,
    PromiseKind,
    ProposeDeal,
    Rejected,
    apply,
    command_from_plain,
    plain,
    project,
    view,
)
from oriente.server.rules import events as E
from oriente.server.rules.reasons import DECLINE, PROPOSE
from oriente.server.rules.views import SPECTATOR
from tests.rules.helpers import one_event, table_state

NOFU = tuple(range(25, 37))


def _state():
    state, _ = table_state(4, [NOFU[0], NOFU[1], NOFU[2], NOFU[3]])
    return state


def _offer(state, seat=0, to=1, **extra):
    cmd = ProposeDeal(promises=(Promise(promiser=seat, promisee=to, text="I will back you", kind=PromiseKind.FREE),),
                      **extra)
    return one_event(apply(state, seat, cmd), E.DealProposed)


def test_r8_8_a_decline_carries_its_reason_as_a_code_with_parameters_on_the_deal_event():
    """R8.8: "A seat that declines a deal may say why ... a code from a
    fixed catalogue with its parameters ... public like every deal (R8.4)
    and travel on the deal's own events (`DealClosed.why`...)"."""
    state = _state()
    deal = _offer(state).deal
    why = {"code": "record", "seat": 0, "kept": 1, "broken": 3}
    cmd = command_from_plain({"type": "DeclineDeal", "deal": deal, "why": why})
    closed = one_event(apply(state, 1, cmd), E.DealClosed)
    assert (closed.reason, closed.why) == ("declined", why)
    for viewer in (0, 2, SPECTATOR):
        assert project(closed, viewer)["why"] == why


def test_r8_8_a_counter_offer_names_the_deal_it_answers_and_says_what_it_is_for():
    """R8.8: "a proposal may say what it is for and name the earlier deal it
    answers (a counter-offer) ... (`DealProposed.why` and
    `DealProposed.counter_to`) ... open or closed; a counter-offer is a
    proposal like any other and closes nothing by itself"."""
    state = _state()
    first = _offer(state).deal
    counter = _offer(state, seat=1, to=0, counter_to=first, why={"code": "counter", "deal": first})
    assert (counter.counter_to, counter.why) == (first, {"code": "counter", "deal": first})
    assert first in state.deals  # still open: the counter closed nothing
    entry = next(d for d in view(state, 2)["deals"] if d["deal"] == counter.deal)
    assert (entry["counter_to"], entry["why"]["code"]) == (first, "counter")
    apply(state, 1, DeclineDeal(deal=first))
    again = _offer(state, seat=1, to=0, counter_to=first)  # a closed deal may be answered too
    assert again.counter_to == first and again.why is None


def test_r8_8_without_a_reason_a_decline_and_a_proposal_are_what_they_were():
    """R8.8: "Without a reason or a counter, a decline and a proposal are
    what they were, and so is every table's log": no new field appears."""
    state = _state()
    proposed = plain(_offer(state))
    assert "why" not in proposed and "counter_to" not in proposed
    closed = plain(one_event(apply(state, 1, DeclineDeal(deal=proposed["deal"])), E.DealClosed))
    assert closed == {"type": "DealClosed", "deal": proposed["deal"], "seat": 1, "reason": "declined"}
    assert plain(DeclineDeal(deal=3)) == {"type": "DeclineDeal", "deal": 3}
    assert "why" not in next(iter(view(state, 0)["decision"]["legal"]), {})


@pytest.mark.parametrize("why, fragment", [
    ({"code": "nonsense"}, "one of"),
    ({"code": "record", "seat": 0, "kept": 1}, "'broken'"),
    ({"code": "record", "seat": 9, "kept": 1, "broken": 0}, "a seat 0..3"),
    ({"code": "worth_less", "card": 12}, "no parameter 'card'"),
    ({"code": "record", "seat": 0, "kept": True, "broken": 0}, "a count"),
    ("because", "a map"),
])
def test_r8_8_the_server_checks_a_reasons_form(why, fragment):
    """R8.8: "the server checks its form (a known code, each parameter
    present and of its type, nothing else)" — a reason cannot smuggle a
    card."""
    state = _state()
    deal = _offer(state).deal
    with pytest.raises(Rejected) as refused:
        apply(state, 1, command_from_plain({"type": "DeclineDeal", "deal": deal, "why": why}))
    assert refused.value.code in ("deal/bad_reason", "command/invalid") and fragment in refused.value.message
    assert deal in state.deals  # nothing happened


def test_r8_8_a_counter_names_a_deal_proposed_earlier():
    """R8.8: "that a counter names a deal proposed earlier in the game"."""
    state = _state()
    _offer(state)
    for bad in (0, 2, 99):
        with pytest.raises(Rejected) as refused:
            _offer(state, seat=1, to=0, counter_to=bad)
        assert refused.value.code == "deal/bad_counter"
    with pytest.raises(Rejected) as refused:
        _offer(state, seat=1, to=0, why={"code": "worth_less"})  # a decline's code, not a proposal's
    assert refused.value.code == "deal/bad_reason"


def test_r8_8_no_parameter_of_the_catalogue_can_name_a_card():
    """R8.8: "Parameters are public facts — seats, a fight's sides, a deal's
    or a promise's id, counts from the public ledger — so a reason cannot
    name a hidden card"."""
    kinds = {kind for catalogue in (DECLINE, PROPOSE) for params in catalogue.values() for kind in params.values()}
    assert kinds <= {"seat", "count", "side", "id"}
    assert not any("card" in name for catalogue in (DECLINE, PROPOSE) for params in catalogue.values()
                   for name in params)
