"""R8.7 proposal limits (rules revision 3), each test quoting the rule.

Before them, a seat alternating ProposeDeal (40 promises of ~480
characters) and WithdrawDeal grew the server by 12 MiB/s and the store by
9.6 MiB/s; nothing in the rules bounded how often, or how much text."""

import pytest

from oriente.server.rules import Promise, PromiseKind, ProposeDeal, Rejected, WithdrawDeal, apply
from oriente.server.rules import events as E
from oriente.server.rules.deals import MAX_PROPOSALS_PER_SEASON, capability
from tests.rules.helpers import one_event, pass_season, table_state

NOFU = tuple(range(25, 37))


def _state(revision=3):
    state, _ = table_state(4, [NOFU[0], NOFU[1], NOFU[2], NOFU[3]], rules_revision=revision)
    return state


def _promise(text="I will back you", promisee=1):
    return Promise(promiser=0, promisee=promisee, kind=PromiseKind.FREE, text=text)


def _propose(state, *promises, note=""):
    events = apply(state, 0, ProposeDeal(transfers=(), promises=tuple(promises) or (_promise(),), note=note))
    return one_event(events, E.DealProposed).deal


def test_r8_7_a_seat_makes_at_most_40_proposals_in_a_season_withdrawn_ones_included():
    """R8.7: "A seat makes at most 40 proposals in a season (withdrawn,
    declined and executed ones count alike; the count starts again with
    each season)"."""
    state = _state()
    for _ in range(MAX_PROPOSALS_PER_SEASON):
        apply(state, 0, WithdrawDeal(deal=_propose(state)))
    assert capability(state, 0) == {"propose": False, "open": 0, "max_open": 3, "season_left": 0}
    with pytest.raises(Rejected) as refused:
        _propose(state)
    assert refused.value.code == "deal/season_limit"
    # Another seat is not held back by seat 0's talk.
    apply(state, 1, ProposeDeal(transfers=(), promises=(Promise(promiser=1, promisee=0, text="later"),)))
    pass_season(state)
    assert capability(state, 0)["season_left"] == MAX_PROPOSALS_PER_SEASON
    _propose(state)


def test_r8_7_the_texts_of_one_proposal_hold_at_most_2000_characters_together():
    """R8.7: "the texts of one proposal — its considerations, its promises'
    texts and its note — hold at most 2,000 characters together"."""
    state = _state()
    part = "x" * 480
    with pytest.raises(Rejected) as refused:
        _propose(state, *[_promise(part, promisee=1 + i % 3) for i in range(5)])
    assert refused.value.code == "deal/too_long" and "2000" in refused.value.message
    three = [_promise(part, promisee=1 + i % 3) for i in range(3)]  # 1,440 characters
    with pytest.raises(Rejected) as refused:
        _propose(state, *three, _promise("w" * 61), note="y" * 500)  # 2,001
    assert refused.value.code == "deal/too_long" and "2001" in refused.value.message
    _propose(state, *three, _promise("w" * 60), note="y" * 500)  # 2,000
    assert capability(state, 0)["season_left"] == MAX_PROPOSALS_PER_SEASON - 1, "a refused proposal costs nothing"


def test_r10_2b3_a_table_of_revision_2_keeps_playing_without_the_limits():
    """R10.2b3: "A table of revision 2 plays without the proposal limits of R8.7"."""
    state = _state(revision=2)
    for _ in range(MAX_PROPOSALS_PER_SEASON + 5):
        apply(state, 0, WithdrawDeal(deal=_propose(state, *[_promise("z" * 480, promisee=1 + i % 3)
                                                             for i in range(5)])))
    assert "season_left" not in capability(state, 0)
