"""R8 deals, each test named after the rule it checks."""

import pytest

from oriente.server.rules import (
    EVERYONE,
    SPECTATOR,
    AcceptDeal,
    Action,
    ActionKind,
    Announce,
    Choose,
    DeclineDeal,
    Promise,
    PromiseKind,
    ProposeDeal,
    Rejected,
    SettlePromise,
    Side,
    Support,
    Topic,
    Transfer,
    WithdrawDeal,
    apply,
    legal,
    pending,
    project,
    view,
)
from oriente.server.rules import events as E
from tests.rules.helpers import (
    answer_round,
    assert_cards_conserved,
    close_window,
    decision,
    events_of,
    fulfil,
    one_event,
    pass_privilege,
    pass_season,
    table_state,
)

SHOGUN = 0
MAHO = (3, 4, 5, 6)
DAIMYO = (7, 8, 9, 10, 11)
SAMURAI = (12, 13, 14, 15, 16, 17)
AKINDO = (18, 19, 20, 21, 22, 23, 24)
NOFU = tuple(range(25, 37))
NINJA = (37, 38, 39)
T = tuple(range(41, 53))  # treasures; with the default setup seat s holds T[s]


def give(card, giver, receiver, why="for your support"):
    return Transfer(card=card, giver=giver, receiver=receiver, consideration=why)


def propose(state, seat, *transfers, promises=(), note=""):
    events = apply(state, seat, ProposeDeal(transfers=tuple(transfers), promises=tuple(promises), note=note))
    return one_event(events, E.DealProposed).deal, events


def card_places(state):
    return sorted(state.card_places())


def support(side):
    return lambda did: Support(decision=did, side=side)




# -- positions in every kind of decision -------------------------------------------

def _asking():
    state, _ = table_state(5, [DAIMYO[0], NOFU[0], NOFU[1], AKINDO[0], AKINDO[1]])
    return state


def _privilege():
    state = _asking()
    apply(state, 0, Announce(decision=decision(state).id, action=Action(kind=ActionKind.INCOME)))
    return state


def _negotiation():
    state = _asking()
    fulfil(state, 0, ActionKind.ATTACK, 1)
    return state


def _support():
    state = _negotiation()
    close_window(state)
    return state


def _revolution():
    state, _ = table_state(5, [NOFU[0], NOFU[1], DAIMYO[0], AKINDO[0], AKINDO[1]])
    fulfil(state, 0, ActionKind.REVOLUTION)
    return state


def _trade():
    state, _ = table_state(5, [AKINDO[2], NOFU[1], DAIMYO[0], AKINDO[0], AKINDO[1]], piles={0: [MAHO[1]]})
    fulfil(state, 0, ActionKind.TRADE, 1)
    return state


def _reinforcement():
    state, _ = table_state(5, [SAMURAI[0], SAMURAI[1], DAIMYO[0], AKINDO[0], AKINDO[1]],
                           draws=[DAIMYO[1], NOFU[2]])
    fulfil(state, 0, ActionKind.ATTACK, 1)
    close_window(state)
    answer_round(state, {}, Topic.SUPPORT)
    return state


def _transformation():
    state, _ = table_state(5, [MAHO[0], NOFU[1], DAIMYO[0], AKINDO[0], AKINDO[1]])
    fulfil(state, 0, ActionKind.TRANSFORMATION)
    return state


POSITIONS = {
    Topic.ANNOUNCE: _asking,
    Topic.PRIVILEGE: _privilege,
    Topic.NEGOTIATION: _negotiation,
    Topic.SUPPORT: _support,
    Topic.REVOLUTION: _revolution,
    Topic.TRADE: _trade,
    Topic.REINFORCEMENT: _reinforcement,
    Topic.TRANSFORMATION: _transformation,
}


# -- R8.1 ------------------------------------------------------------------------

@pytest.mark.parametrize("topic", list(POSITIONS), ids=lambda t: t.value)
def test_r8_1_deals_may_be_made_at_any_time(topic):
    """R8.1: "Deals are public and may be made at any time about anything:
    attacks, support, abilities, privilege, future payments." — in every kind
    of open decision, by seats that are not waited on, without disturbing it."""
    state = POSITIONS[topic]()
    d = decision(state)
    assert d.topic is topic
    before = pending(state)
    deal, _ = propose(state, 3, give(T[3], 3, 4, "for your help with the " + topic.value),
                      promises=(Promise(promiser=4, promisee=3, text="I will not claim privilege"),))
    events = apply(state, 4, AcceptDeal(deal=deal))
    one_event(events, E.DealExecuted)
    assert state.pile[3] == [] and state.pile[4] == [T[4], T[3]]
    assert pending(state) == before
    assert_cards_conserved(state)


def test_r8_1_support_promise_is_not_binding():
    """R8.1: "Promises are not binding." A seat that promised to support the
    defender may support the attacker; the ledger records the promise broken."""
    state = _negotiation()
    promise = Promise(promiser=2, promisee=1, text="I support you", kind=PromiseKind.SUPPORT,
                      attacker=0, defender=1, side=Side.DEFENDER)
    deal, _ = propose(state, 1, give(T[1], 1, 2, "for the support you promise"), promises=(promise,))
    apply(state, 2, AcceptDeal(deal=deal))
    close_window(state)
    d = decision(state)
    assert d.pivot == 2
    assert Support(decision=d.id, side=Side.ATTACKER) in legal(state, 2)
    events = apply(state, 2, Support(decision=d.id, side=Side.ATTACKER))
    assert one_event(events, E.SupportDeclared).side is Side.ATTACKER
    events += answer_round(state, {}, Topic.SUPPORT)
    settled = one_event(events, E.PromiseSettled)
    assert (settled.promiser, settled.status) == (2, "broken")
    assert state.broken[2] == 1
    assert T[1] in state.pile[2]  # the payment is not taken back


def test_r8_1_no_attack_and_pay_promises_are_not_binding():
    """R8.1: "Promises are not binding." The seat that promised not to attack
    may attack; the seat that promised to pay need not pay."""
    state = _asking()
    promises = (
        Promise(promiser=0, promisee=1, text="I will not attack you", kind=PromiseKind.NO_ATTACK, seat=1),
        Promise(promiser=0, promisee=1, text="I pay you my treasure", kind=PromiseKind.PAY, cards=(T[0],),
                by_season=1),
    )
    deal, _ = propose(state, 0, give(T[2], 2, 0, "for the promises to seat 1"), promises=promises)
    events = apply(state, 1, AcceptDeal(deal=deal))
    events += apply(state, 2, AcceptDeal(deal=deal))
    executed = one_event(events, E.DealExecuted)
    assert state.pile[0] == [T[0], T[2]]  # nothing is paid by the server
    assert state.pile[1] == [T[1]]
    d = decision(state)
    attack = Action(kind=ActionKind.ATTACK, target=1)
    assert Announce(decision=d.id, action=attack) in legal(state, 0)
    events = apply(state, 0, Announce(decision=d.id, action=attack))
    events += pass_privilege(state)
    no_attack, pay = executed.promise_ids
    assert [(s.promise, s.status) for s in events_of(events, E.PromiseSettled)] == [(no_attack, "broken")]
    events = close_window(state) + answer_round(state, {}, Topic.SUPPORT)
    events += pass_season(state)
    assert (pay, "broken") in [(s.promise, s.status) for s in events_of(events, E.PromiseSettled)]
    assert state.broken[0] == 2


# -- R8.2 ------------------------------------------------------------------------

def test_r8_2_exchange_is_atomic_once_every_party_accepted():
    """R8.2: "The only thing the server enforces is the exchange of score cards
    agreed in a deal: it happens atomically, once every party has accepted" """
    state = _asking()
    deal, _ = propose(state, 0, give(T[0], 0, 1), give(T[1], 1, 2), give(T[2], 2, 0),
                      promises=(Promise(promiser=1, promisee=0, text="I will claim privilege for you"),))
    places = card_places(state)
    events = apply(state, 1, AcceptDeal(deal=deal))
    assert events == [E.DealAccepted(deal=deal, seat=1)]
    assert card_places(state) == places
    events = apply(state, 2, AcceptDeal(deal=deal))
    executed = one_event(events, E.DealExecuted)
    assert len(executed.transfers) == 3
    assert (state.pile[0], state.pile[1], state.pile[2]) == ([T[2]], [T[0]], [T[1]])
    # Nothing but the listed score cards moved: the promise moves nothing.
    moved = {T[0], T[1], T[2]}
    assert [p for p in card_places(state) if p[1] not in moved] == [p for p in places if p[1] not in moved]
    assert_cards_conserved(state)


def test_r8_2_void_unless_every_card_is_still_where_the_deal_says():
    """R8.2: "... and only if every card is still where the deal says." A deal
    whose card has moved on executes none of its transfers."""
    state = _asking()
    first, _ = propose(state, 0, give(T[0], 0, 1), give(T[1], 1, 0))
    second, _ = propose(state, 0, give(T[0], 0, 2, "for the same favour"))
    apply(state, 2, AcceptDeal(deal=second))
    assert state.pile[2] == [T[2], T[0]]
    events = apply(state, 1, AcceptDeal(deal=first))
    closed = one_event(events, E.DealClosed)
    assert (closed.deal, closed.reason) == (first, "void")
    assert not events_of(events, E.DealExecuted)
    assert state.pile[1] == [T[1]] and state.pile[0] == []  # T[1] did not move either
    assert first not in state.deals
    assert_cards_conserved(state)


# -- R8.3 ------------------------------------------------------------------------

def test_r8_3_no_inhabitant_can_be_given_or_swapped():
    """R8.3: "Not allowed: giving away or swapping one's inhabitant" """
    state = _asking()
    places = card_places(state)
    for bad in (give(state.inhabitant[0], 0, 1),  # one's own inhabitant
                give(state.inhabitant[1], 1, 0),  # swap: the other's inhabitant
                give(state.inhabitant[1], 0, 1)):  # someone else's inhabitant
        with pytest.raises(Rejected) as err:
            propose(state, 0, bad)
        assert err.value.code == "deal/card_not_owned"
    with pytest.raises(Rejected) as err:
        propose(state, 0, give(T[0], 0, 1), give(state.inhabitant[1], 1, 0))
    assert err.value.code == "deal/card_not_owned"
    assert not state.deals and card_places(state) == places


def test_r8_3_no_score_cards_for_nothing():
    """R8.3: "Not allowed: ... giving score cards for nothing (the French text:
    "sans raison"). ... Every transfer states its consideration (free text,
    which may cite an earlier deal); the server checks only that one is
    stated." """
    state = _asking()
    for why in ("", "   ", "\n"):
        with pytest.raises(Rejected) as err:
            propose(state, 0, give(T[0], 0, 1, why))
        assert err.value.code == "deal/no_consideration"
    assert not state.deals
    deal, _ = propose(state, 0, give(T[0], 0, 1, "x"))
    one_event(apply(state, 1, AcceptDeal(deal=deal)), E.DealExecuted)


def test_r8_3_each_card_goes_to_exactly_one_seat():
    """R8.3: "Each card goes to exactly one seat; splitting a payment takes a
    further deal." """
    state = _asking()
    with pytest.raises(Rejected) as err:
        propose(state, 0, give(T[0], 0, 1), give(T[0], 0, 2))
    assert err.value.code == "deal/duplicate_card"
    assert not state.deals


def test_r8_3_paying_a_supporter_after_the_fight_is_a_deal():
    """R8.3: "The consideration may be past, present or future — cards, a
    promise, support already given, a claim made, an earlier promise being
    kept — so paying a supporter after the fight (the rulebook's own example)
    is a deal." """
    state = _negotiation()
    close_window(state)
    events = answer_round(state, {2: support(Side.ATTACKER)}, Topic.SUPPORT)
    one_event(events, E.FightResolved)
    deal, _ = propose(state, 0, give(T[0], 0, 2, "for the support you gave me in the fight against seat 1"))
    one_event(apply(state, 2, AcceptDeal(deal=deal)), E.DealExecuted)
    assert T[0] in state.pile[2]


# -- R8.4 ------------------------------------------------------------------------

def test_r8_4_every_deal_event_is_visible_to_every_seat_and_spectators():
    """R8.4: "There are no private channels: every deal proposal, acceptance,
    refusal and chat message is visible to all seats (and spectators)." (Chat
    itself is carried by the table; the engine's part is the deal record,
    including the note that goes with a proposal.)"""
    state = _asking()
    log = []
    deal, ev = propose(state, 0, give(T[0], 0, 1), note="a word for everyone",
                       promises=(Promise(promiser=1, promisee=0, text="I will support you"),))
    log += ev
    log += apply(state, 1, AcceptDeal(deal=deal))  # accepted and executed
    promise_id = one_event(log, E.DealExecuted).promise_ids[0]
    declined, ev = propose(state, 2, give(T[2], 2, 3))
    log += ev + apply(state, 3, DeclineDeal(deal=declined))
    withdrawn, ev = propose(state, 3, give(T[3], 3, 4))
    log += ev + apply(state, 3, WithdrawDeal(deal=withdrawn))
    void_a, ev = propose(state, 4, give(T[4], 4, 2))
    log += ev
    void_b, ev = propose(state, 4, give(T[4], 4, 3, "for another favour"))
    log += ev + apply(state, 3, AcceptDeal(deal=void_b)) + apply(state, 2, AcceptDeal(deal=void_a))
    log += apply(state, 0, SettlePromise(promise=promise_id, kept=True))
    lapsing, ev = propose(state, 1, give(T[1], 1, 2))
    log += ev
    shown = {v: view(state, v) for v in (0, 1, 2, 3, 4, SPECTATOR)}
    log += pass_season(state)
    kinds = {type(e) for e in log}
    assert {E.DealProposed, E.DealAccepted, E.DealClosed, E.DealExecuted, E.PromiseSettled} <= kinds
    assert {e.reason for e in events_of(log, E.DealClosed)} == {"declined", "withdrawn", "void", "lapsed"}
    deal_events = [e for e in log if type(e) in (E.DealProposed, E.DealAccepted, E.DealClosed,
                                                  E.DealExecuted, E.PromiseSettled)]
    for e in deal_events:
        full = project(e, EVERYONE)
        for viewer in (0, 1, 2, 3, 4, SPECTATOR):
            assert project(e, viewer) == full
    assert project(deal_events[0], SPECTATOR)["note"] == "a word for everyone"
    # The open proposals and the ledger read the same for everyone.
    for part in ("deals", "ledger"):
        assert len({repr(v[part]) for v in shown.values()}) == 1
    assert shown[SPECTATOR]["deals"][0]["deal"] == lapsing
    assert shown[SPECTATOR]["ledger"][0]["status"] == "kept"
    assert shown[3]["seats"][1]["kept"] == 1


# -- R8.5 ------------------------------------------------------------------------

def test_r8_5_talk_reveals_no_inhabitant():
    """R8.5: "Talk is free and binds no one: a player may say anything about
    any card — its own inhabitant, what it saw in a Transformation — true or
    not; but no inhabitant is ever revealed except where a rule reveals it." """
    state = _asking()
    claim = "my inhabitant is the Shogun"  # it is a Nofu
    deal, ev = propose(state, 1, give(T[1], 1, 2, claim), note=claim,
                       promises=(Promise(promiser=1, promisee=2, text="seat 0 holds a Daimyo"),))
    ev += apply(state, 2, AcceptDeal(deal=deal))
    assert all(type(e) in (E.DealProposed, E.DealAccepted, E.DealExecuted) for e in ev)
    assert state.revealed == [False] * 5
    for viewer in (0, 2, 3, 4, SPECTATOR):
        seats = view(state, viewer)["seats"]
        assert seats[1]["inhabitant"] is None
        if viewer != 0:
            assert seats[0]["inhabitant"] is None
    assert view(state, 1)["seats"][1]["inhabitant"] == NOFU[0]
    # Everything said is public, and says nothing the engine would act on.
    for e in ev:
        for viewer in (0, 2, SPECTATOR):
            assert project(e, viewer) == project(e, EVERYONE)
    assert pending(state)[0].topic is Topic.ANNOUNCE and pending(state)[0].pivot == 0


def test_r8_5_no_deal_can_move_an_inhabitant():
    """R8.5: "no inhabitant is ever revealed except where a rule reveals it" and
    R8.3 "Not allowed: giving away or swapping one's inhabitant": no proposal
    naming any inhabitant, by any giver, is accepted, and executed deals leave
    every inhabitant where it was."""
    state = _asking()
    inhabitants = list(state.inhabitant)
    for card in inhabitants:
        for giver in range(5):
            for receiver in range(5):
                if giver == receiver:
                    continue
                with pytest.raises(Rejected):
                    propose(state, giver, give(card, giver, receiver))
    deal, _ = propose(state, 0, give(T[0], 0, 1), give(T[1], 1, 0))
    apply(state, 1, AcceptDeal(deal=deal))
    assert state.inhabitant == inhabitants and state.revealed == [False] * 5


# -- R8.6 ------------------------------------------------------------------------

def test_r8_6_proposal_lists_transfers_and_promises():
    """R8.6: "A proposal lists every card transfer (card, giver, receiver,
    stated consideration) and any promises (who promises what: free text,
    optionally in a structured form the server can check ...)" """
    state = _asking()
    transfers = (give(T[0], 0, 1, "for support"),)
    promises = (Promise(promiser=1, promisee=0, text="I support you against seat 2", kind=PromiseKind.SUPPORT,
                        attacker=0, defender=2, side=Side.ATTACKER),)
    _deal, events = propose(state, 0, *transfers, promises=promises)
    proposed = one_event(events, E.DealProposed)
    assert proposed.transfers == transfers and proposed.promises == promises
    assert proposed.parties == (0, 1)
    shown = project(proposed, SPECTATOR)
    assert shown["transfers"][0] == {"type": "Transfer", "card": T[0], "giver": 0, "receiver": 1,
                                     "consideration": "for support"}
    assert shown["promises"][0]["kind"] == "support" and shown["promises"][0]["side"] == "attacker"
    # A structured promise must be well formed.
    with pytest.raises(Rejected) as err:
        propose(state, 0, promises=(Promise(promiser=1, promisee=0, text="x", kind=PromiseKind.SUPPORT),))
    assert err.value.code == "deal/bad_promise"


def test_r8_6_proposing_counts_as_the_proposers_acceptance():
    """R8.6: "It executes when every seat that gives or receives has accepted;
    proposing counts as the proposer's acceptance" """
    state = _asking()
    deal, events = propose(state, 0, give(T[1], 1, 0, "for my future support"))
    assert not events_of(events, E.DealExecuted)
    assert state.deals[deal].accepted == {0}
    with pytest.raises(Rejected) as err:
        apply(state, 0, AcceptDeal(deal=deal))
    assert err.value.code == "deal/already_accepted"
    events = apply(state, 1, AcceptDeal(deal=deal))
    one_event(events, E.DealExecuted)
    assert state.pile[0] == [T[0], T[1]]


def test_r8_6_executes_only_when_every_giver_and_receiver_accepted():
    """R8.6: "It executes when every seat that gives or receives has accepted"
    — a receiver's acceptance is needed too, and a non-party cannot accept."""
    state = _asking()
    deal, _ = propose(state, 0, give(T[0], 0, 1), give(T[0 + 2], 2, 3))
    with pytest.raises(Rejected) as err:
        apply(state, 4, AcceptDeal(deal=deal))
    assert err.value.code == "deal/not_party"
    for seat in (1, 2):
        assert not events_of(apply(state, seat, AcceptDeal(deal=deal)), E.DealExecuted)
    assert state.pile[3] == [T[3]]
    one_event(apply(state, 3, AcceptDeal(deal=deal)), E.DealExecuted)
    assert state.pile[3] == [T[3], T[2]]


def test_r8_6_any_party_may_withdraw_before_execution():
    """R8.6: "any party may withdraw before that" """
    state = _asking()
    deal, _ = propose(state, 0, give(T[0], 0, 1), give(T[2], 2, 0))
    apply(state, 2, AcceptDeal(deal=deal))
    with pytest.raises(Rejected) as err:
        apply(state, 3, WithdrawDeal(deal=deal))
    assert err.value.code == "deal/not_party"
    events = apply(state, 2, WithdrawDeal(deal=deal))
    closed = one_event(events, E.DealClosed)
    assert (closed.seat, closed.reason) == (2, "withdrawn")
    with pytest.raises(Rejected) as err:
        apply(state, 1, AcceptDeal(deal=deal))
    assert err.value.code == "deal/unknown"
    assert state.pile[0] == [T[0]] and state.pile[1] == [T[1]]
    # A party that has not accepted yet refuses instead.
    deal, _ = propose(state, 0, give(T[0], 0, 1))
    closed = one_event(apply(state, 1, DeclineDeal(deal=deal)), E.DealClosed)
    assert (closed.seat, closed.reason) == (1, "declined")
    assert not state.deals


def test_r8_6_proposal_lapses_at_the_end_of_the_season():
    """R8.6: "A proposal lapses at the end of the season." """
    state = _asking()
    deal, _ = propose(state, 0, give(T[0], 0, 1))
    events = pass_season(state)
    closed = one_event(events, E.DealClosed)
    assert (closed.deal, closed.reason) == (deal, "lapsed")
    assert events.index(closed) < events.index(one_event(events, E.SeasonEnded))
    with pytest.raises(Rejected) as err:
        apply(state, 1, AcceptDeal(deal=deal))
    assert err.value.code == "deal/unknown"
    assert state.pile[1] == [T[1]]


def test_r8_6_void_when_a_named_card_moved_by_play():
    """R8.6: "If a named card is no longer where the proposal says at the last
    acceptance, the deal is void." — here the card left through an Akindo's
    Credit between proposal and acceptance."""
    state, _ = table_state(5, [AKINDO[0], NOFU[1], DAIMYO[0], AKINDO[1], MAHO[1]], piles={1: [NOFU[4]]})
    deal, _ = propose(state, 1, give(NOFU[4], 1, 2, "for your help"), give(T[2], 2, 1))
    events = fulfil(state, 0, ActionKind.CREDIT, 1)
    assert one_event(events, E.CreditTaken).cards == (NOFU[4],)
    events = apply(state, 2, AcceptDeal(deal=deal))
    assert one_event(events, E.DealClosed).reason == "void"
    assert T[2] in state.pile[2] and NOFU[4] in state.pile[0]


def test_r8_6_open_proposals_are_limited_by_the_table():
    """R8.6: "A seat may have at most a table-set number of open proposals." """
    state, _ = table_state(5, [DAIMYO[0], NOFU[0], NOFU[1], AKINDO[0], AKINDO[1]], max_open_proposals=2)
    first, _ = propose(state, 0, give(T[0], 0, 1))
    propose(state, 0, give(T[0], 0, 2))
    with pytest.raises(Rejected) as err:
        propose(state, 0, give(T[0], 0, 3))
    assert err.value.code == "deal/too_many_open"
    propose(state, 1, give(T[1], 1, 0))  # others are not affected
    apply(state, 0, WithdrawDeal(deal=first))
    propose(state, 0, give(T[0], 0, 3))


def test_r8_6_the_prompt_says_who_may_propose_now_and_within_which_limits():
    """R8.6: "A seat may have at most a table-set number of open proposals."
    ProposeDeal is open-ended, so it is never in `legal`; each seat's prompt
    carries `deal` instead (PROTOCOL.md 6), kept in step with the cap."""
    from oriente.server.rules.views import decision_view

    state, _ = table_state(5, [DAIMYO[0], NOFU[0], NOFU[1], AKINDO[0], AKINDO[1]], max_open_proposals=2)

    def deal_of(seat):
        return decision_view(state, seat)["deal"]

    assert deal_of(0) == {"propose": True, "open": 0, "max_open": 2}
    first, _ = propose(state, 0, give(T[0], 0, 1))
    propose(state, 0, give(T[0], 0, 2))
    assert deal_of(0) == {"propose": False, "open": 2, "max_open": 2}
    assert deal_of(1)["propose"] and deal_of(1)["open"] == 0
    assert "deal" not in decision_view(state, "spectator")
    assert not any(c["type"] == "ProposeDeal" for c in decision_view(state, 0)["legal"])
    apply(state, 0, WithdrawDeal(deal=first))
    assert deal_of(0)["propose"] and deal_of(0)["open"] == 1


def test_r8_6_server_settles_structured_promises():
    """R8.6: "The server keeps a public ledger of promises — open, kept, broken
    — settling structured promises itself from what happens" """
    state = _negotiation()
    promises = (
        Promise(promiser=2, promisee=0, text="I support you", kind=PromiseKind.SUPPORT,
                attacker=0, defender=1, side=Side.ATTACKER),
        Promise(promiser=3, promisee=0, text="I pay you my treasure", kind=PromiseKind.PAY,
                cards=(T[3],), by_season=1),
        Promise(promiser=4, promisee=0, text="I will not attack you", kind=PromiseKind.NO_ATTACK, seat=0),
    )
    deal, _ = propose(state, 0, give(T[0], 0, 2, "for all of your promises"), promises=promises)
    events = []
    for seat in (2, 3, 4):
        events += apply(state, seat, AcceptDeal(deal=deal))
    support_id, pay_id, no_attack_id = one_event(events, E.DealExecuted).promise_ids
    ledger = {row["promise"]: row["status"] for row in view(state, SPECTATOR)["ledger"]}
    assert ledger == {support_id: "open", pay_id: "open", no_attack_id: "open"}
    # Paying with a further deal keeps the pay promise.
    paid, _ = propose(state, 3, give(T[3], 3, 0, "as promised in the earlier deal"))
    events = apply(state, 0, AcceptDeal(deal=paid))
    assert [(s.promise, s.status) for s in events_of(events, E.PromiseSettled)] == [(pay_id, "kept")]
    close_window(state)
    events = answer_round(state, {2: support(Side.ATTACKER)}, Topic.SUPPORT)
    assert [(s.promise, s.status) for s in events_of(events, E.PromiseSettled)] == [(support_id, "kept")]
    events = pass_season(state)
    assert [(s.promise, s.status) for s in events_of(events, E.PromiseSettled)] == [(no_attack_id, "kept")]
    assert (state.kept[2], state.kept[3], state.kept[4]) == (1, 1, 1)
    assert all(row["status"] == "kept" for row in view(state, 1)["ledger"])


def test_r8_6_promisee_settles_free_text_and_records_are_public():
    """R8.6: "... and letting the promisee settle free-text ones; each player's
    kept/broken record is public." """
    state = _asking()
    deal, _ = propose(state, 0, give(T[0], 0, 1, "for your promise"),
                      promises=(Promise(promiser=1, promisee=0, text="I will claim privilege against seat 3"),))
    pid = one_event(apply(state, 1, AcceptDeal(deal=deal)), E.DealExecuted).promise_ids[0]
    for seat in (1, 2):
        with pytest.raises(Rejected) as err:
            apply(state, seat, SettlePromise(promise=pid, kept=True))
        assert err.value.code == "promise/not_promisee"
    assert SettlePromise(promise=pid, kept=False) in legal(state, 0)
    events = apply(state, 0, SettlePromise(promise=pid, kept=False))
    settled = one_event(events, E.PromiseSettled)
    assert (settled.promiser, settled.status, settled.by) == (1, "broken", 0)
    with pytest.raises(Rejected) as err:
        apply(state, 0, SettlePromise(promise=pid, kept=True))
    assert err.value.code == "promise/settled"
    for viewer in (0, 1, 2, 3, 4, SPECTATOR):
        seats = view(state, viewer)["seats"]
        assert (seats[1]["kept"], seats[1]["broken"]) == (0, 1)


def test_r8_6_pay_promise_settled_from_what_happens():
    """R8.6: "... pay named cards by the end of a named season ... The server
    keeps a public ledger of promises — open, kept, broken — settling
    structured promises itself from what happens" — an Akindo that promised a
    card and hands it over as its Trade card has paid by the season's end."""
    state, _ = table_state(4, [AKINDO[0], NOFU[0], DAIMYO[0], MAHO[0]], piles={0: [DAIMYO[1]]})
    promise = Promise(promiser=0, promisee=1, text="you get my Daimyo this season", kind=PromiseKind.PAY,
                      cards=(DAIMYO[1],), by_season=1)
    deal, _ = propose(state, 0, promises=(promise,))
    pid = one_event(apply(state, 1, AcceptDeal(deal=deal)), E.DealExecuted).promise_ids[0]
    fulfil(state, 0, ActionKind.TRADE, 1)
    d = decision(state)
    assert d.topic is Topic.TRADE
    done = one_event(apply(state, 0, Choose(decision=d.id, card=DAIMYO[1])), E.TradeDone)
    assert done.given == DAIMYO[1]
    events = pass_season(state)
    assert DAIMYO[1] in state.pile[1]  # paid, and still there when the season ends
    settled = [(s.promise, s.status) for s in events_of(events, E.PromiseSettled)]
    assert (pid, "broken") not in settled
    assert state.ledger[pid].status == "kept"
    assert state.broken[0] == 0
