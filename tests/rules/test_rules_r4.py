"""Rules R4 (announce, privilege, fulfil) of docs/rules.md, and the rulebook's
worked example of a privilege chain."""

from __future__ import annotations

import pytest

from oriente.server.rules import ActionKind, Phase, Rejected, Topic, legal, view
from oriente.server.rules import events as E
from tests.rules.helpers import (
    AKINDO,
    DAIMYO,
    MAHO,
    NINJA,
    NOFU,
    SAMURAI,
    SHOGUN,
    SORYO,
    announce_now,
    answer_pass,
    claim,
    close_window,
    configured_game,
    decision,
    events_of,
    give,
    pass_round,
    pass_turn,
    settle,
)


def _announced(events):
    return [(a.seat, a.action.kind, a.action.target, a.claim, a.over) for a in events_of(events, E.Announced)]


# -- R4.1 / R4.2 ---------------------------------------------------------------------------

def test_r4_1_announce_takes_stone_reveals_and_names_one_allowed_action():
    """R4.1 Announce. The seat takes the destiny stone, reveals its inhabitant
    (if face down) and names exactly one action it is allowed (R5): an attack on
    a named seat, or an ability with its named target seat where it has one.
    An announcement stands until a claim cancels it or it is fulfilled."""
    state, _ = configured_game(4, [NOFU[0], DAIMYO[0], NOFU[1], NOFU[2]])
    for kind in (ActionKind.INCOME, ActionKind.BLESSING, ActionKind.TRANSFORMATION):
        with pytest.raises(Rejected) as err:
            announce_now(state, 0, kind)
        assert err.value.code == "announce/not_allowed"
    assert state.stone == 0 and not state.revealed[0] and state.phase is Phase.ASKING
    pass_turn(state, 0)
    ev = announce_now(state, 1, ActionKind.INCOME)
    assert _announced(ev) == [(1, ActionKind.INCOME, None, False, None)]
    assert events_of(ev, E.Announced)[0].card == DAIMYO[0]
    assert state.stone == 1 and state.revealed[1]
    for viewer in (0, 2, "spectator"):
        v = view(state, viewer)
        assert v["seats"][1]["inhabitant"] == DAIMYO[0] and v["stone_holder"] == 1
    # the announcement stands through the privilege round, then is fulfilled
    assert state.phase is Phase.PRIVILEGE and state.action.kind is ActionKind.INCOME
    ev = pass_round(state)
    assert [(f.seat, f.action.kind) for f in events_of(ev, E.Fulfilled)] == [(1, ActionKind.INCOME)]


def test_r4_2_target_is_always_another_seat_and_untargeted_actions_name_none():
    """R4.2 Target. The *target* of an announcement is the seat it names: the
    attacked seat, the seat named by Credit, Trade or Assassination, or the
    seat whose Shogun Succession takes. A target is always a seat other than
    the announcer. Transformation, Revolution, Incite, Income and Blessing
    have no target. Ruling: Transformation affects every other seat but
    designates none (the French text bars "le joueur désigné"), so it has no
    target."""
    state, _ = configured_game(4, [MAHO[0], NOFU[0], NOFU[1], NOFU[2]])
    for kind, target in ((ActionKind.ATTACK, 0), (ActionKind.ATTACK, None), (ActionKind.ATTACK, 4),
                         (ActionKind.TRANSFORMATION, 1)):
        with pytest.raises(Rejected) as err:
            announce_now(state, 0, kind, target)
        assert err.value.code == "announce/bad_target", (kind, target)
    announces = {(c.action.kind, c.action.target) for c in legal(state, 0) if hasattr(c, "action")}
    assert announces == {(ActionKind.ATTACK, t) for t in (1, 2, 3)} | {(ActionKind.TRANSFORMATION, None)}
    # a Transformation designates nobody: every other seat may claim against it
    announce_now(state, 0, ActionKind.TRANSFORMATION)
    assert decision(state).asked == (1, 2, 3)


def test_r4_2_attack_target_is_the_attacked_seat():
    """R4.2 Target. The *target* of an announcement is the seat it names: the
    attacked seat, ..."""
    state, _ = configured_game(4, [NOFU[0], NOFU[1], NOFU[2], NOFU[3]])
    announce_now(state, 0, ActionKind.ATTACK, 2)
    assert decision(state).asked == (1, 3)
    pass_round(state)
    assert state.fight is not None and (state.fight.attacker, state.fight.defender) == (0, 2)


# -- R4.3 Claiming privilege ----------------------------------------------------------------

def test_r4_3a_a_seat_without_its_disc_cannot_claim():
    """R4.3 Claiming privilege. ... A seat may claim only if all hold:
    a) it still holds its action disc;"""
    state, _ = configured_game(4, [SORYO[0], NOFU[0], NOFU[1], NOFU[2]])
    announce_now(state, 0, ActionKind.BLESSING)
    pass_round(state)
    assert not state.disc[0] and state.revealed[0]  # a revealed Soryo, rank 6, without its disc
    announce_now(state, 1, ActionKind.INCITE)
    assert decision(state).asked == (2, 3)
    with pytest.raises(Rejected) as err:
        claim(state, 0, ActionKind.ATTACK, 1)
    assert err.value.code == "decision/not_asked"
    ev = pass_round(state)
    assert [f.seat for f in events_of(ev, E.Fulfilled)] == [1]


def test_r4_3b_the_target_cannot_claim():
    """R4.3 Claiming privilege. ... A seat may claim only if all hold: ...
    b) it is not the target of the announcement;"""
    state, _ = configured_game(4, [NOFU[0], SHOGUN, NOFU[1], NOFU[2]])
    announce_now(state, 0, ActionKind.ATTACK, 1)
    assert decision(state).asked == (2, 3)
    with pytest.raises(Rejected) as err:
        claim(state, 1, ActionKind.ATTACK, 0)
    assert err.value.code == "decision/not_asked"
    ev = pass_round(state)
    assert [f.seat for f in events_of(ev, E.Fulfilled)] == [0]
    assert state.fight is not None and state.fight.defender == 1


def test_r4_3c_claim_needs_higher_rank_or_equal_and_poorer():
    """R4.3 Claiming privilege. ... c) its inhabitant's rank is higher than the
    announcer's, or equal and the claimant has strictly fewer score cards."""
    state, _ = configured_game(5, [SAMURAI[0], AKINDO[0], SAMURAI[1], DAIMYO[0], NOFU[0]])
    announce_now(state, 0, ActionKind.ATTACK, 4)
    assert decision(state).asked == (1, 2, 3)
    # lower rank: rejected at once, and nothing changes
    with pytest.raises(Rejected) as err:
        claim(state, 1, ActionKind.ATTACK, 4)
    assert err.value.code == "privilege/rank_too_low"
    assert decision(state).pivot == 1 and state.announcer == 0
    assert not any(hasattr(c, "action") for c in legal(state, 1))
    answer_pass(state, 1)
    # equal rank, as many score cards (1 each): the claim counts as a pass
    ev = claim(state, 2, ActionKind.ATTACK, 4)
    assert _announced(ev) == []
    assert [(p.seat, p.voided_claim) for p in events_of(ev, E.PrivilegePassed)] == [(2, True)]
    assert state.announcer == 0 and decision(state).pivot == 3
    # higher rank: the claim wins
    ev = claim(state, 3, ActionKind.INCOME)
    assert _announced(ev) == [(3, ActionKind.INCOME, None, True, 0)]


def test_r4_3c_equal_rank_with_fewer_score_cards_may_claim():
    """R4.3 Claiming privilege. ... c) its inhabitant's rank is higher than the
    announcer's, or equal and the claimant has strictly fewer score cards."""
    state, _ = configured_game(4, [SAMURAI[0], SAMURAI[1], NOFU[0], NOFU[1]])
    give(state, 42, 1, 3)  # seat 1: 0 score cards, seat 0: 1
    announce_now(state, 0, ActionKind.ATTACK, 2)
    ev = claim(state, 1, ActionKind.ATTACK, 3)
    assert _announced(ev) == [(1, ActionKind.ATTACK, 3, True, 0)]
    assert state.stone == 1 and state.revealed[1]


def test_r4_3c_against_revolution_one_square_worker_akindo_needs_fewer_cards():
    """R4.3 Claiming privilege. ... c) ... Against an announced Revolution, the
    announcer's rank counts as 1 + the number of workers on the square
    (workers in the hut do not count). Ruling: ... only "higher, or equal and
    poorer" fits both worked examples (one worker: an Akindo with more cards
    may not claim; two workers: a Samurai may claim only with fewer cards),
    so we apply it;"""
    state, _ = configured_game(4, [NOFU[0], NOFU[1], AKINDO[0], AKINDO[1]])
    announce_now(state, 0, ActionKind.INCITE)
    pass_round(state)
    assert state.square == 1
    give(state, 44, 3, 2)  # seat 2: 2 score cards, seat 3: none, seat 1: 1
    ev = announce_now(state, 1, ActionKind.REVOLUTION)
    assert events_of(ev, E.PrivilegeRoundOpened)[0].rank == 2
    assert decision(state).asked == (2, 3)
    ev = claim(state, 2, ActionKind.ATTACK, 1)  # equal rank, more cards: a pass
    assert _announced(ev) == [] and events_of(ev, E.PrivilegePassed)[0].voided_claim
    ev = claim(state, 3, ActionKind.ATTACK, 1)  # equal rank, fewer cards: wins
    assert _announced(ev) == [(3, ActionKind.ATTACK, 1, True, 1)]


def test_r4_3c_against_revolution_two_square_workers_samurai_needs_fewer_cards():
    """R4.3 Claiming privilege. ... c) ... Against an announced Revolution, the
    announcer's rank counts as 1 + the number of workers on the square ...
    (... two workers: a Samurai may claim only with fewer cards)"""
    state, _ = configured_game(5, [NOFU[0], NOFU[1], NOFU[2], SAMURAI[0], SAMURAI[1]])
    for seat in (0, 1):
        announce_now(state, seat, ActionKind.INCITE)
        pass_round(state)
    assert state.square == 2
    give(state, 45, 4, 0)  # seat 4: no score cards
    ev = announce_now(state, 2, ActionKind.REVOLUTION)
    assert events_of(ev, E.PrivilegeRoundOpened)[0].rank == 3
    assert decision(state).asked == (3, 4)
    ev = claim(state, 3, ActionKind.ATTACK, 2)  # 1 card against 1: a pass
    assert _announced(ev) == []
    ev = claim(state, 4, ActionKind.ATTACK, 2)
    assert _announced(ev) == [(4, ActionKind.ATTACK, 2, True, 2)]


def test_r4_3c_workers_in_the_hut_do_not_count_against_revolution():
    """R4.3 Claiming privilege. ... c) ... Against an announced Revolution, the
    announcer's rank counts as 1 + the number of workers on the square
    (workers in the hut do not count)."""
    state, _ = configured_game(8, [NOFU[0], NOFU[1], AKINDO[0], *NOFU[2:7]])
    announce_now(state, 0, ActionKind.INCITE)
    pass_round(state)
    assert (state.hut, state.square) == (1, 0)
    give(state, 48, 7, 2)  # the Akindo has more score cards than the announcer
    ev = announce_now(state, 1, ActionKind.REVOLUTION)
    assert events_of(ev, E.PrivilegeRoundOpened)[0].rank == 1
    ev = claim(state, 2, ActionKind.ATTACK, 1)
    assert _announced(ev) == [(2, ActionKind.ATTACK, 1, True, 1)]


def test_r4_3d_a_seat_that_announced_in_the_chain_cannot_claim():
    """R4.3 Claiming privilege. ... d) it has not announced yet in the current
    chain (R4.4a)."""
    state, _ = configured_game(4, [SORYO[0], SORYO[1], NOFU[0], NOFU[1]])
    give(state, 42, 1, 2)
    announce_now(state, 0, ActionKind.BLESSING)
    ev = claim(state, 1, ActionKind.ATTACK, 2)
    assert _announced(ev) == [(1, ActionKind.ATTACK, 2, True, 0)]
    # seat 0, a revealed Soryo of the same rank holding its disc, is not asked again
    assert decision(state).asked == (3,)
    with pytest.raises(Rejected) as err:
        claim(state, 0, ActionKind.BLESSING)
    assert err.value.code == "decision/not_asked"


# -- R4.4 Order of claims ------------------------------------------------------------------

def test_r4_4_first_claim_clockwise_wins_and_the_preempted_seat_keeps_its_disc():
    """R4.4 Order of claims. In the printed game the announcer asks the others
    clockwise starting at the left neighbour, and the first who claims wins;
    the seats after it are never asked. Online this is the *privilege round*
    (R10.2a). A claim carries the claimant's own announcement (action and
    target, R4.1). The winner takes the stone, reveals its inhabitant and its
    announcement stands; a new privilege round follows against it, asked from
    its left neighbour. The pre-empted seat keeps its disc and may announce
    again later in the season, any action."""
    state, _ = configured_game(5, [NOFU[0], NOFU[1], NOFU[2], SORYO[0], SHOGUN], bonus=DAIMYO[0])
    announce_now(state, 0, ActionKind.INCITE)
    assert decision(state).asked == (1, 2, 3, 4)
    assert claim(state, 4, ActionKind.ATTACK, 0) == []  # sealed, early
    assert claim(state, 3, ActionKind.BLESSING) == []
    answer_pass(state, 1)
    ev = answer_pass(state, 2)
    assert _announced(ev) == [(3, ActionKind.BLESSING, None, True, 0)]
    assert state.stone == 3 and state.revealed[3]
    assert not state.revealed[4]  # seat 4's later claim was discarded unseen
    opened = events_of(ev, E.PrivilegeRoundOpened)
    assert len(opened) == 1 and opened[0].announcer == 3 and opened[0].asked == (4, 1, 2)
    assert decision(state).pivot == 4  # asked afresh: the old sealed claim is gone
    ev = pass_round(state)
    assert [f.seat for f in events_of(ev, E.Fulfilled)] == [3]
    assert state.disc == [True, True, True, False, True]
    assert state.pile[3] == [44, DAIMYO[0]]
    pass_turn(state, 4)
    ev = announce_now(state, 0, ActionKind.REVOLUTION)  # a different action this time
    assert _announced(ev) == [(0, ActionKind.REVOLUTION, None, False, None)]


def test_r4_4a_a_seat_announces_at_most_once_in_a_chain():
    """R4.4a Chains end. Ruling. A *chain* runs from an announcement made when
    asked (R3.2) to the fulfilment that ends it. Within one chain each seat
    announces at most once: a seat that has announced in the chain is not
    asked again in it. Without deals no seat could ever claim twice in a chain
    (ranks never fall along it); with deals, seats of equal rank could pass
    score cards around and claim in a circle forever. A chain therefore has
    at most n announcements."""
    state, _ = configured_game(4, [SAMURAI[0], SAMURAI[1], NOFU[0], NOFU[1]])
    give(state, 42, 1, 3)
    announce_now(state, 0, ActionKind.ATTACK, 3)
    ev = claim(state, 1, ActionKind.ATTACK, 3)
    assert _announced(ev) == [(1, ActionKind.ATTACK, 3, True, 0)]
    # seat 0 is a revealed Samurai of equal rank with its disc: only R4.4a keeps it out
    assert decision(state).asked == (2,)
    give(state, 43, 2, 1)
    give(state, 41, 0, 3)  # now seat 0 would be equal and poorer (0 cards against 1)
    assert len(state.pile[0]) < len(state.pile[1])
    with pytest.raises(Rejected) as err:
        claim(state, 0, ActionKind.ATTACK, 3)
    assert err.value.code == "decision/not_asked"
    ev = pass_round(state)
    assert [f.seat for f in events_of(ev, E.Fulfilled)] == [1]
    # the chain has ended: seat 0 may announce in the next one
    settle(state)
    assert decision(state).topic is Topic.ANNOUNCE


def test_r4_4a_a_chain_has_at_most_n_announcements():
    """R4.4a ... with deals, seats of equal rank could pass score cards around
    and claim in a circle forever. A chain therefore has at most n
    announcements."""
    state, _ = configured_game(4, list(SAMURAI[:4]))
    give(state, 42, 1, 0)  # seat 0: 2 cards, seat 1: none
    ev = announce_now(state, 0, ActionKind.ATTACK, 2)
    ev += claim(state, 1, ActionKind.ATTACK, 3)
    ev += give(state, 41, 0, 1) + give(state, 42, 0, 1)  # seat 1: 2 cards, seat 2: 1
    ev += claim(state, 2, ActionKind.ATTACK, 0)
    ev += give(state, 44, 3, 1)  # seat 3: none
    ev += claim(state, 3, ActionKind.ATTACK, 1)
    assert [a[0] for a in _announced(ev)] == [0, 1, 2, 3]
    # seats 0 and 2 are revealed Samurai of equal rank with their discs, yet
    # every seat has announced: no round opens and seat 3 fulfils at once
    assert [r.announcer for r in events_of(ev, E.PrivilegeRoundOpened)] == [0, 1, 2]
    assert [f.seat for f in events_of(ev, E.Fulfilled)] == [3]
    assert state.disc == [True, True, True, False]


# -- R4.5 Fulfil ------------------------------------------------------------------------------

def test_r4_5_fulfil_discards_disc_sets_bonus_aside_and_awards_it_after_a_lost_attack():
    """R4.5 Fulfil. When nobody claims, the last announcer fulfils: it discards
    its disc; if it is the first seat to fulfil this season, the whole bonus
    pile is set aside for it (under the stone); the action is carried out; then
    the set-aside bonus cards go face up onto its score pile — even if the
    action failed (a lost attack)."""
    state, _ = configured_game(4, [NOFU[0], DAIMYO[0], NOFU[1], NOFU[2]], bonus=SAMURAI[0],
                               draws=[NOFU[3], AKINDO[0]])
    announce_now(state, 0, ActionKind.ATTACK, 1)
    ev = pass_round(state)
    assert [(f.seat, f.bonus_set_aside) for f in events_of(ev, E.Fulfilled)] == [(0, 1)]
    assert not state.disc[0]
    assert state.set_aside == [SAMURAI[0]] and state.bonus == []
    v = view(state, "spectator")
    assert v["bonus_set_aside"] == 1 and v["bonus_size"] == 0
    assert state.phase is Phase.NEGOTIATION
    close_window(state)
    ev = pass_round(state)
    fight = events_of(ev, E.FightResolved)[0]
    assert fight.winner == 1 and fight.loser == 0
    assert state.pile[0] == [41, SAMURAI[0]] and state.set_aside == []
    assert events_of(ev, E.BonusAwarded)[0].cards == (SAMURAI[0],)
    # the second seat to fulfil this season gets no bonus
    ev = announce_now(state, 1, ActionKind.INCOME)
    ev += pass_round(state)
    assert events_of(ev, E.Fulfilled)[0].bonus_set_aside == 0
    assert state.pile[1] == [42, NOFU[0], AKINDO[0]]
    assert not events_of(ev, E.BonusAwarded)


def test_r4_5a_a_step_reads_the_live_state_succession_after_the_shogun_was_traded():
    """R4.5a Live state. Ruling. Each step of an action reads the state at the
    moment the step is carried out; accepted deals execute at once, also
    between the steps of an action (the rules allow deals "at any time"). If a
    deal has removed what a step needs (a Succession whose Shogun score card
    was traded on), that step does nothing — but the fulfilment still counts:
    the disc is discarded and the bonus awarded."""
    state, _ = configured_game(4, [NINJA[0], SHOGUN, DAIMYO[0], NOFU[0]], draws=[NOFU[1], SAMURAI[0]])
    announce_now(state, 0, ActionKind.ASSASSINATION, 1)
    pass_round(state)
    assert SHOGUN in state.pile[0]
    for seat in (1, 2, 3):
        pass_turn(state, seat)
    assert state.season == 2 and state.bonus == [SAMURAI[0]]
    pass_turn(state, 0)
    pass_turn(state, 1)
    announce_now(state, 2, ActionKind.SUCCESSION, 0)
    assert state.phase is Phase.PRIVILEGE
    ev = give(state, SHOGUN, 0, 3, "for keeping quiet")
    assert events_of(ev, E.DealExecuted) and SHOGUN in state.pile[3]
    ev = pass_round(state)
    done = events_of(ev, E.SuccessionDone)
    assert len(done) == 1 and not done[0].done
    assert state.inhabitant[2] == DAIMYO[0] and SHOGUN in state.pile[3]
    assert not state.disc[2]
    assert state.pile[2] == [43, SAMURAI[0]]
    assert decision(state).pivot == 3


# -- R4.6 Deals during a privilege round ---------------------------------------------------------

def test_r4_6_deals_while_a_privilege_round_is_open_decide_an_equal_rank_claim():
    """R4.6 Deals (R8) may be made throughout, also while a privilege round is
    open (bribing someone to claim is part of the game).
    R4.3 ... Rank is fixed while a privilege round is open; card counts may
    change through deals, so the card-count part of c) is judged when the
    claim becomes decisive (R10.2a)."""
    # a deal made while the round is open makes a sealed equal-rank claim valid
    state, _ = configured_game(4, [SAMURAI[0], NOFU[0], SAMURAI[1], NOFU[1]])
    announce_now(state, 0, ActionKind.ATTACK, 3)
    assert decision(state).asked == (1, 2)
    assert claim(state, 2, ActionKind.ATTACK, 1) == []
    ev = give(state, 43, 2, 1, "for letting me claim")
    assert events_of(ev, E.DealExecuted) and state.phase is Phase.PRIVILEGE
    ev = answer_pass(state, 1)
    assert _announced(ev) == [(2, ActionKind.ATTACK, 1, True, 0)]
    # and the other way round: a claim that was poorer when sent is judged as it stands
    state, _ = configured_game(4, [SAMURAI[0], NOFU[0], SAMURAI[1], NOFU[1]])
    give(state, 43, 2, 3)
    announce_now(state, 0, ActionKind.ATTACK, 3)
    claim(state, 2, ActionKind.ATTACK, 1)
    give(state, 42, 1, 2, "a bribe to stay out")
    ev = answer_pass(state, 1)
    assert _announced(ev) == []
    assert events_of(ev, E.PrivilegePassed)[-1].voided_claim


# -- the rulebook's worked example ---------------------------------------------------------------

def test_example_privilege_chain_nofu_akindo_daimyo_soryo_blessing():
    """R4.4 ... The winner takes the stone, reveals its inhabitant and its
    announcement stands; a new privilege round follows against it, asked from
    its left neighbour. The pre-empted seat keeps its disc and may announce
    again later in the season, any action. R5.2 Soryo (6): Blessing. Takes the
    bonus pile onto its score pile, if it has not yet been awarded this
    season"""
    state, _ = configured_game(4, [NOFU[0], AKINDO[0], DAIMYO[0], SORYO[0]], bonus=SAMURAI[0])
    ev = announce_now(state, 0, ActionKind.INCITE)
    assert events_of(ev, E.PrivilegeRoundOpened)[0].asked == (1, 2, 3)
    ev = claim(state, 1, ActionKind.CREDIT, 0)
    assert _announced(ev) == [(1, ActionKind.CREDIT, 0, True, 0)]
    assert events_of(ev, E.PrivilegeRoundOpened)[0].asked == (2, 3)
    ev = claim(state, 2, ActionKind.INCOME)
    assert _announced(ev) == [(2, ActionKind.INCOME, None, True, 1)]
    assert events_of(ev, E.PrivilegeRoundOpened)[0].asked == (3,)
    ev = claim(state, 3, ActionKind.BLESSING)
    assert _announced(ev) == [(3, ActionKind.BLESSING, None, True, 2)]
    assert [f.seat for f in events_of(ev, E.Fulfilled)] == [3]
    awarded = events_of(ev, E.BonusAwarded)
    assert [(b.seat, b.cards, b.blessing) for b in awarded] == [(3, (SAMURAI[0],), True)]
    assert state.pile[3] == [44, SAMURAI[0]] and state.bonus == []
    assert state.pile[:3] == [[41], [42], [43]]
    assert state.disc == [True, True, True, False]
    assert state.stone == 3 and state.revealed == [True] * 4
    assert (state.square, state.supply) == (0, 6)  # the Incite never happened
    # asking resumes at the Soryo's left: the first pre-empted seat announces again
    ev = announce_now(state, 0, ActionKind.ATTACK, 1)
    assert _announced(ev) == [(0, ActionKind.ATTACK, 1, False, None)]
