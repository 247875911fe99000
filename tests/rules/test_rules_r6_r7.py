"""R6 (fights) and R7 (revolution), each test named after the rule it checks.

Positions are set up on configured decks (R2.8): `table_state` deals the
named inhabitants and score cards, and every test drives the game through
`apply` only, after the setup edits.
"""

import pytest

from oriente.server.rules import (
    EVERYONE,
    SPECTATOR,
    Action,
    ActionKind,
    Announce,
    Choose,
    Claim,
    Join,
    Pass,
    Rejected,
    Side,
    Support,
    Topic,
    apply,
    legal,
    project,
    view,
)
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
    answer_round,
    assert_cards_conserved,
    close_window,
    decision,
    events_of,
    fulfil,
    one_event,
    pass_privilege,
    table_state,
)

ATTACK = ActionKind.ATTACK
REVOLUTION = ActionKind.REVOLUTION


def support(side):
    return lambda did: Support(decision=did, side=side)


def join(did):
    return Join(decision=did)


def reveal_seat(state, seat):
    """Turn a seat's inhabitant face up as an earlier announcement would have."""
    state.revealed[seat] = True
    state.knows[state.inhabitant[seat]] = state.all_mask


def shown(state, viewer, seat):
    return view(state, viewer)["seats"][seat]["inhabitant"]


def fight_to_end(state, answers=None):
    """Close the negotiation window, then run the support round."""
    events = close_window(state)
    events += answer_round(state, answers or {}, Topic.SUPPORT)
    return events


# -- R6.1 ------------------------------------------------------------------------

def test_r6_1_defender_reveals_and_keeps_disc():
    """R6.1: "The attacked seat (the defender) reveals its inhabitant and keeps
    its disc." """
    state, _ = table_state(5, [DAIMYO[0], AKINDO[0], MAHO[0], NOFU[0], NOFU[1]])
    assert shown(state, SPECTATOR, 2) is None
    events = fulfil(state, 0, ATTACK, 2)
    began = one_event(events, E.FightBegan)
    assert began.defender == 2 and began.defender_card == MAHO[0]
    assert state.revealed[2]
    for viewer in (SPECTATOR, 1, 3, 4):
        assert shown(state, viewer, 2) == MAHO[0]
        assert project(began, viewer)["defender_card"] == MAHO[0]
    assert state.disc[2]
    assert 2 not in began.asked and 0 not in began.asked
    events = fight_to_end(state)
    assert one_event(events, E.FightResolved).winner == 2  # 5 against 4
    assert state.disc[2] and not state.disc[0]
    # The defender may still announce later in the season.
    d = decision(state)
    assert (d.topic, d.pivot) == (Topic.ANNOUNCE, 1)
    apply(state, 1, Pass(decision=d.id))
    d = decision(state)
    assert (d.topic, d.pivot) == (Topic.ANNOUNCE, 2)
    assert any(isinstance(c, Announce) for c in legal(state, 2))


# -- R6.2 ------------------------------------------------------------------------

def _six_seat_fight():
    """Seat 2 (Daimyo) attacks seat 4 (Maho-Tsukai); seat 5 has no disc."""
    state, _ = table_state(6, [AKINDO[0], NOFU[0], DAIMYO[0], AKINDO[1], MAHO[0], NOFU[1]], stone=0)
    state.disc[5] = False
    events = fulfil(state, 2, ATTACK, 4)
    return state, events


def test_r6_2_support_round_asks_clockwise_from_stone_holders_left():
    """R6.2: "each seat other than the attacker and the defender that still holds
    its disc is asked in turn, clockwise from the stone holder's left neighbour,
    to support one side or pass" """
    state, events = _six_seat_fight()
    assert state.stone == 2
    assert one_event(events, E.FightBegan).asked == (3, 0, 1)
    close_window(state)
    order = []
    while decision(state).topic is Topic.SUPPORT:
        d = decision(state)
        order.append(d.pivot)
        apply(state, d.pivot, Pass(decision=d.id))
    assert order == [3, 0, 1]


def test_r6_2_negotiation_window_comes_before_the_support_round():
    """R6.2: "First the *negotiation*: attacker and defender bid for support and
    anyone may make deals (R8) — online, a timed negotiation window (R10.2b).
    Then, "after the negotiations", each seat ... is asked in turn" """
    state, events = _six_seat_fight()
    d = decision(state)
    assert d.topic is Topic.NEGOTIATION and d.pivot is None
    round_id = one_event(events, E.FightBegan).decision  # the support round's (R10.2b2)
    # No support declaration is final while the window is open.
    assert not events_of(events, E.SupportDeclared)
    closed = close_window(state)
    assert isinstance(closed[0], E.NegotiationClosed) and closed[0].decision == d.id
    d = decision(state)
    assert d.topic is Topic.SUPPORT and d.pivot == 3 and d.id == round_id


def test_r6_2_each_declaration_is_public_on_its_turn_and_final():
    """R6.2: "each declaration is public on its turn and final, so later seats
    know the earlier ones. A supporter discards its disc." """
    state, _ = _six_seat_fight()
    close_window(state)
    d = decision(state)
    events = apply(state, 3, Support(decision=d.id, side=Side.ATTACKER))
    declared = one_event(events, E.SupportDeclared)
    assert (declared.seat, declared.side) == (3, Side.ATTACKER)
    for viewer in (SPECTATOR, 0, 1, 2, 4, 5):
        assert project(declared, viewer)["side"] == "attacker"
    assert not state.disc[3]
    # Later seats know it.
    assert view(state, 0)["decision"]["published"] == [[3, "attacker"]]
    assert view(state, SPECTATOR)["decision"]["published"] == [[3, "attacker"]]
    # Final: the seat cannot change it.
    with pytest.raises(Rejected) as err:
        apply(state, 3, Support(decision=d.id, side=Side.DEFENDER))
    assert err.value.code == "decision/answered"
    answer_round(state, {1: support(Side.DEFENDER)}, Topic.SUPPORT)
    assert not state.disc[1] and state.disc[0]


def test_r6_2_supporter_discards_its_disc():
    """R6.2: "A supporter discards its disc." A seat that passes keeps it."""
    state, _ = _six_seat_fight()
    events = fight_to_end(state, {0: support(Side.DEFENDER)})
    assert one_event(events, E.FightResolved).supporters[0][0] == 0
    assert state.disc == [False, True, False, True, True, False]
    # The supporter is no longer asked this season (R3.2: it passes automatically).
    asked = []
    while decision(state).topic is Topic.ANNOUNCE and state.season == 1:
        d = decision(state)
        asked.append(d.pivot)
        apply(state, d.pivot, Pass(decision=d.id))
    assert 0 not in asked and 2 not in asked


def test_r6_2_no_window_and_no_round_when_nobody_can_be_asked():
    """R6.2: "If no seat can be asked, there is neither negotiation window nor
    round." """
    state, _ = table_state(4, [MAHO[0], DAIMYO[0], NOFU[0], NOFU[1]], stone=0)
    state.disc[2] = state.disc[3] = False
    events = fulfil(state, 0, ATTACK, 1)
    began = one_event(events, E.FightBegan)
    assert began.decision is None and began.asked == ()
    assert not events_of(events, E.NegotiationClosed)
    resolved = one_event(events, E.FightResolved)
    assert resolved.winner == 0
    assert decision(state).topic is Topic.ANNOUNCE


# -- R6.3 ------------------------------------------------------------------------

def test_r6_3_supporters_reveal_and_add_their_value():
    """R6.3: "When every declaration is in, every supporter reveals its
    inhabitant (it stays revealed, R3.4a) and adds its value to the side it
    supports." """
    state, _ = table_state(4, [AKINDO[0], MAHO[0], DAIMYO[0], NOFU[0]], stone=0)
    fulfil(state, 0, ATTACK, 1)
    close_window(state)
    d = decision(state)
    assert d.pivot == 2
    apply(state, 2, Support(decision=d.id, side=Side.ATTACKER))
    # Declared, but not every declaration is in yet: still face down.
    assert not state.revealed[2]
    assert shown(state, SPECTATOR, 2) is None
    d = decision(state)
    events = apply(state, 3, Pass(decision=d.id))
    resolved = one_event(events, E.FightResolved)
    assert resolved.supporters == ((2, DAIMYO[0], Side.ATTACKER),)
    assert (resolved.attack_total, resolved.defence_total) == (2 + 4, 5)
    assert resolved.winner == 0  # without the Daimyo the Akindo would have lost
    assert state.revealed[2] and shown(state, SPECTATOR, 2) == DAIMYO[0]
    assert not state.revealed[3] and shown(state, SPECTATOR, 3) is None
    # It stays revealed into the next season (R3.4a).
    while state.season == 1:
        d = decision(state)
        apply(state, d.pivot, Pass(decision=d.id))
    assert state.revealed[2] and shown(state, 0, 2) == DAIMYO[0]


# -- R6.4 ------------------------------------------------------------------------

def _samurai_fight(draws):
    """Seat 3 (Samurai) attacks seat 1 (Samurai). Support: seat 4 (Samurai)
    for the defender, seat 5 (Nofu) and seat 0 (Samurai) for the attacker,
    seat 2 (Akindo) passes. The stone holder is seat 3 once it announces."""
    state, _ = table_state(6, [SAMURAI[0], SAMURAI[1], AKINDO[0], SAMURAI[2], SAMURAI[3], NOFU[0]],
                           stone=0, draws=draws)
    events = fulfil(state, 3, ATTACK, 1)
    assert one_event(events, E.FightBegan).asked == (4, 5, 0, 2)
    events = fight_to_end(state, {4: support(Side.DEFENDER), 5: support(Side.ATTACKER),
                                  0: support(Side.ATTACKER)})
    return state, events


def test_r6_4_samurai_reinforcements_turned_in_order():
    """R6.4: "every participant whose inhabitant is a Samurai — attacker,
    defender or supporter — turns over the top card of the deck; its value ...
    is added to that Samurai's side. ... cards are turned for the attacker
    first, then the defender, then the supporters in clockwise order from the
    stone holder's left neighbour." """
    draws = [AKINDO[1], NOFU[1], DAIMYO[0], MAHO[0]]
    state, events = _samurai_fight(draws)
    resolved = one_event(events, E.FightResolved)
    # Attacker 3, defender 1, then supporters clockwise from seat 4: 4, then 0.
    assert resolved.reinforcements == ((3, AKINDO[1]), (1, NOFU[1]), (4, DAIMYO[0]), (0, MAHO[0]))
    # attacker: 3 + Nofu 1 + Samurai 3 + reinforcements 2 (seat 3) and 5 (seat 0)
    assert resolved.attack_total == 3 + 1 + 3 + 2 + 5
    # defender: 3 + Samurai 3 + reinforcements 1 (seat 1) and 4 (seat 4)
    assert resolved.defence_total == 3 + 3 + 1 + 4
    assert resolved.winner == 3
    for viewer in (SPECTATOR, 2):
        assert project(resolved, viewer)["reinforcements"] == [[3, AKINDO[1]], [1, NOFU[1]], [4, DAIMYO[0]],
                                                              [0, MAHO[0]]]
    assert_cards_conserved(state)


def test_r6_4_no_reinforcement_without_a_samurai():
    """R6.4: only "every participant whose inhabitant is a Samurai" turns a
    card: a fight without Samurai turns none and leaves the deck alone."""
    state, _ = table_state(4, [MAHO[0], DAIMYO[0], NOFU[0], AKINDO[0]], stone=0)
    fulfil(state, 0, ATTACK, 1)
    deck_before = len(state.deck)
    events = fight_to_end(state, {2: support(Side.DEFENDER)})
    resolved = one_event(events, E.FightResolved)
    assert resolved.reinforcements == ()
    assert (resolved.attack_total, resolved.defence_total) == (5, 5)
    assert len(state.deck) == deck_before - 1  # only the loser's new inhabitant


# -- R6.5 ------------------------------------------------------------------------

def test_r6_5_higher_total_wins():
    """R6.5: "Each side's total is its inhabitant's value plus its supporters'
    values plus reinforcements. The higher total wins" """
    state, _ = table_state(4, [MAHO[0], DAIMYO[0], NOFU[0], AKINDO[0]], stone=0)
    fulfil(state, 0, ATTACK, 1)
    events = fight_to_end(state, {2: support(Side.DEFENDER), 3: support(Side.DEFENDER)})
    resolved = one_event(events, E.FightResolved)
    assert (resolved.attack_total, resolved.defence_total) == (5, 4 + 1 + 2)
    assert (resolved.winner, resolved.loser) == (1, 0)


def test_r6_5_tie_goes_to_the_defender():
    """R6.5: "The higher total wins; a tie goes to the defender." """
    state, _ = table_state(4, [DAIMYO[0], DAIMYO[1], NOFU[0], AKINDO[0]], stone=0)
    fulfil(state, 0, ATTACK, 1)
    events = fight_to_end(state)
    resolved = one_event(events, E.FightResolved)
    assert (resolved.attack_total, resolved.defence_total) == (4, 4)
    assert (resolved.winner, resolved.loser) == (1, 0)
    assert DAIMYO[0] in state.pile[1]


def test_r6_5_attacker_with_higher_total_wins():
    """R6.5: "The higher total wins" — also for the attacker."""
    state, _ = table_state(4, [MAHO[0], DAIMYO[0], NOFU[0], AKINDO[0]], stone=0)
    fulfil(state, 0, ATTACK, 1)
    events = fight_to_end(state)
    resolved = one_event(events, E.FightResolved)
    assert (resolved.attack_total, resolved.defence_total) == (5, 4)
    assert (resolved.winner, resolved.loser) == (0, 1)


def test_r6_5_attacked_shogun_always_wins():
    """R6.5: "R5.1 fixes the result for an attacked Shogun." (R5.1: "that seat
    wins the fight automatically")"""
    state, _ = table_state(5, [SORYO[0], SHOGUN, DAIMYO[0], MAHO[0], NOFU[0]], stone=0)
    fulfil(state, 0, ATTACK, 1)
    events = fight_to_end(state, {2: support(Side.ATTACKER), 3: support(Side.ATTACKER)})
    resolved = one_event(events, E.FightResolved)
    assert resolved.attack_total == 6 + 4 + 5 > resolved.defence_total == 7
    assert resolved.shogun_defence
    assert (resolved.winner, resolved.loser) == (1, 0)


# -- R6.6 ------------------------------------------------------------------------

def test_r6_6_winner_captures_loser_supporters_untouched():
    """R6.6: "The winner puts the loser's inhabitant face up onto its score
    pile. Supporters' inhabitants are never captured and capture nothing." """
    state, _ = table_state(5, [MAHO[0], AKINDO[0], DAIMYO[0], NOFU[0], AKINDO[1]], stone=0)
    fulfil(state, 0, ATTACK, 1)
    set_aside = list(state.set_aside)
    piles_before = [list(p) for p in state.pile]
    events = fight_to_end(state, {2: support(Side.ATTACKER), 3: support(Side.DEFENDER),
                                  4: support(Side.DEFENDER)})
    resolved = one_event(events, E.FightResolved)
    assert (resolved.winner, resolved.loser, resolved.captured) == (0, 1, AKINDO[0])
    assert state.pile[0] == piles_before[0] + [AKINDO[0]] + set_aside
    assert state.pile[1] == piles_before[1]
    for s in (2, 3, 4):
        assert state.pile[s] == piles_before[s]
    assert state.inhabitant[2:] == [DAIMYO[0], NOFU[0], AKINDO[1]]
    assert view(state, SPECTATOR)["seats"][0]["pile"] == state.pile[0]
    assert state.inhabitant[1] not in (AKINDO[0], None)


def test_r6_6_defender_winning_captures_the_attacker():
    """R6.6: "The winner puts the loser's inhabitant face up onto its score
    pile." — when the defender wins, the attacker's inhabitant."""
    state, _ = table_state(4, [NOFU[0], DAIMYO[0], NOFU[1], AKINDO[0]], stone=0)
    fulfil(state, 0, ATTACK, 1)
    events = fight_to_end(state)
    resolved = one_event(events, E.FightResolved)
    assert (resolved.winner, resolved.captured) == (1, NOFU[0])
    assert state.pile[1][-1] == NOFU[0]
    assert state.knows[NOFU[0]] == state.all_mask


# -- R6.7 ------------------------------------------------------------------------

def test_r6_7_loser_draws_face_down_without_reinforcements():
    """R6.7: "With no reinforcement cards, the loser draws the top card face
    down." """
    state, _ = table_state(4, [NOFU[0], DAIMYO[0], NOFU[1], AKINDO[0]], stone=0, draws=[MAHO[2]])
    fulfil(state, 0, ATTACK, 1)
    events = fight_to_end(state)
    drawn = one_event(events, E.InhabitantDrawn)
    assert (drawn.seat, drawn.card) == (0, MAHO[2])
    assert state.inhabitant[0] == MAHO[2] and not state.revealed[0]
    assert project(drawn, 0)["card"] == MAHO[2]
    for viewer in (1, 2, 3, SPECTATOR):
        assert project(drawn, viewer)["card"] is None
        assert shown(state, viewer, 0) is None
    assert shown(state, 0, 0) == MAHO[2]


def test_r6_7_loser_takes_reinforcement():
    """R6.7: "With reinforcement cards, the loser must take one of them (its
    choice if several) as its new inhabitant." Ruling: "since everyone saw it,
    the new inhabitant is *revealed*." """
    state, _ = table_state(4, [NOFU[0], SAMURAI[0], NOFU[1], AKINDO[0]], stone=0,
                           draws=[DAIMYO[0], MAHO[0]])
    fulfil(state, 0, ATTACK, 1)
    events = fight_to_end(state)
    resolved = one_event(events, E.FightResolved)
    assert resolved.reinforcements == ((1, DAIMYO[0]),)
    assert resolved.loser == 0
    taken = one_event(events, E.ReinforcementTaken)
    assert (taken.seat, taken.card) == (0, DAIMYO[0])
    assert not events_of(events, E.InhabitantDrawn)
    assert state.inhabitant[0] == DAIMYO[0] and state.revealed[0]
    assert shown(state, SPECTATOR, 0) == DAIMYO[0]
    assert state.deck[-1] == MAHO[0]  # nothing else was drawn
    assert decision(state).topic is Topic.ANNOUNCE  # one card: no choice to make
    assert_cards_conserved(state)


def test_r6_7_loser_chooses_rest_to_bottom_in_order_ninjas_to_winner():
    """R6.7: "the loser must take one of them (its choice if several) as its new
    inhabitant. The other reinforcement cards go face down to the bottom of the
    deck, in the order they were turned — except Ninjas, which go onto the
    winner's score pile." """
    draws = [NINJA[1], NOFU[1], DAIMYO[0], AKINDO[1]]
    state, events = _samurai_fight(draws)
    resolved = one_event(events, E.FightResolved)
    assert resolved.reinforcements == ((3, NINJA[1]), (1, NOFU[1]), (4, DAIMYO[0]), (0, AKINDO[1]))
    assert resolved.attack_total == 3 + 1 + 3 + 0 + 2
    assert resolved.defence_total == 3 + 3 + 1 + 4
    assert (resolved.winner, resolved.loser) == (1, 3)
    d = decision(state)
    assert d.topic is Topic.REINFORCEMENT and d.pivot == 3
    with pytest.raises(Rejected) as err:
        apply(state, 1, Choose(decision=d.id, card=DAIMYO[0]))
    assert err.value.code == "decision/not_yours"
    with pytest.raises(Rejected):
        apply(state, 3, Choose(decision=d.id, card=MAHO[3]))
    winner_pile = list(state.pile[1])
    bottom_before = state.known_bottom
    events = apply(state, 3, Choose(decision=d.id, card=DAIMYO[0]))
    taken = one_event(events, E.ReinforcementTaken)
    assert taken.card == DAIMYO[0]
    assert taken.to_winner == (NINJA[1],)
    assert taken.to_bottom == (NOFU[1], AKINDO[1])
    assert state.inhabitant[3] == DAIMYO[0] and state.revealed[3]
    assert state.pile[1] == [*winner_pile, NINJA[1]]
    # Put under the deck one after the other in turned order: the Nofu first,
    # then the Akindo beneath it. deck[0] is the bottom card.
    assert state.known_bottom == bottom_before + 2
    assert state.deck[:2] == [AKINDO[1], NOFU[1]]
    assert view(state, SPECTATOR)["deck_bottom"][:2] == [AKINDO[1], NOFU[1]]
    assert not state.in_play
    assert_cards_conserved(state)


# -- R6.8 ------------------------------------------------------------------------

def test_r6_8_suicide_attack_is_legal():
    """R6.8: "Suicide attacks (a weak attacker on a strong defender) are legal." """
    state, _ = table_state(4, [NINJA[0], SHOGUN, NOFU[1], AKINDO[0]], stone=0)
    d = decision(state)
    attack = Action(kind=ATTACK, target=1)
    assert Announce(decision=d.id, action=attack) in legal(state, 0)
    events = apply(state, 0, Announce(decision=d.id, action=attack))
    assert one_event(events, E.Announced).action == attack
    events = pass_privilege(state)
    events += fight_to_end(state)
    resolved = one_event(events, E.FightResolved)
    assert (resolved.winner, resolved.captured) == (1, NINJA[0])


# -- R7.1 ------------------------------------------------------------------------

def test_r7_1_revolution_round_clockwise_from_announcers_left():
    """R7.1: "On fulfilment, the other seats are asked in turn, clockwise from
    the announcer's left, whether they join — the *revolution round*" (seats
    without a disc, or with a revealed non-Nofu, are skipped, R10.2c)."""
    state, _ = table_state(6, [DAIMYO[0], NOFU[1], AKINDO[0], NOFU[0], MAHO[0], NOFU[2]], stone=3)
    state.disc[5] = False
    reveal_seat(state, 0)
    events = fulfil(state, 3, REVOLUTION)
    opened = one_event(events, E.RevolutionRoundOpened)
    assert opened.asked == (4, 1, 2)
    order = []
    while decision(state).topic is Topic.REVOLUTION:
        d = decision(state)
        order.append(d.pivot)
        apply(state, d.pivot, Pass(decision=d.id))
    assert order == [4, 1, 2]


def test_r7_1_joining_nofu_reveals_and_discards_disc_on_its_turn():
    """R7.1: "A seat may join if it holds its disc and its inhabitant is a Nofu;
    on its turn it reveals the Nofu and discards its disc." """
    state, _ = table_state(5, [NOFU[0], AKINDO[0], NOFU[1], DAIMYO[0], NOFU[2]], stone=0)
    fulfil(state, 0, REVOLUTION)
    d = decision(state)
    assert d.topic is Topic.REVOLUTION and d.asked == (1, 2, 3, 4) and d.pivot == 1
    # Seat 2 joins early: sealed, so nothing is revealed or discarded yet.
    assert apply(state, 2, Join(decision=d.id)) == []
    assert state.disc[2] and not state.revealed[2]
    events = apply(state, 1, Pass(decision=d.id))
    answered = events_of(events, E.RevolutionAnswered)
    assert [(a.seat, a.joined) for a in answered] == [(1, False), (2, True)]
    assert answered[1].card == NOFU[1]
    assert project(answered[1], SPECTATOR)["card"] == NOFU[1]
    assert state.revealed[2] and not state.disc[2]
    assert shown(state, 3, 2) == NOFU[1]
    # Later seats know who joined before them.
    assert view(state, 4)["decision"]["published"] == [[1, None], [2, True]]


def test_r7_1_only_a_nofu_with_its_disc_may_join():
    """R7.1: "A seat may join if it holds its disc and its inhabitant is a
    Nofu" — a face-down non-Nofu is asked but can only pass; a seat without
    its disc is not asked."""
    state, _ = table_state(5, [NOFU[0], AKINDO[0], NOFU[1], DAIMYO[0], NOFU[2]], stone=0)
    state.disc[4] = False
    fulfil(state, 0, REVOLUTION)
    d = decision(state)
    assert d.asked == (1, 2, 3)
    with pytest.raises(Rejected) as err:
        apply(state, 1, Join(decision=d.id))
    assert err.value.code == "revolution/not_nofu"
    assert legal(state, 1) == [Pass(decision=d.id)]
    with pytest.raises(Rejected) as err:
        apply(state, 4, Join(decision=d.id))
    assert err.value.code == "decision/not_asked"
    events = answer_round(state, {2: join}, Topic.REVOLUTION)
    assert one_event(events, E.RevolutionResolved).revolters == (0, 2)


# -- R7.2 ------------------------------------------------------------------------

def test_r7_2_strength_is_square_workers_plus_revolting_nofu():
    """R7.2: "Strength = workers on the square + number of revolting Nofu
    (announcer included)." With 8 seats a worker in the hut does not count."""
    state, _ = table_state(8, [NOFU[0], AKINDO[0], NOFU[1], NOFU[2], MAHO[0], DAIMYO[0], DAIMYO[1], MAHO[1]],
                           stone=0)
    state.supply, state.hut, state.square = 3, 1, 2
    fulfil(state, 0, REVOLUTION)
    events = answer_round(state, {2: join}, Topic.REVOLUTION)
    resolved = one_event(events, E.RevolutionResolved)
    assert resolved.revolters == (0, 2)
    assert resolved.strength == 2 + 2
    # Daimyos (4) are victims at strength 4; Maho-Tsukai (5) are not.
    assert resolved.victims == (1, 5, 6)


# -- R7.3 ------------------------------------------------------------------------

def test_r7_3_everyone_reveals_and_victims_are_exact():
    """R7.3: "Every seat reveals its inhabitant. Every inhabitant whose value is
    at most the strength is a *victim* — except Ninjas, non-revolting Nofu, and
    the revolting Nofu themselves." """
    # Strength 1 (square) + 2 (Nofu) = 3.
    inh = [NOFU[0], SAMURAI[0], NINJA[0], NOFU[1], DAIMYO[0], AKINDO[0], NOFU[2], MAHO[0]]
    state, _ = table_state(8, inh, stone=0)
    state.supply, state.square = 5, 1
    fulfil(state, 0, REVOLUTION)
    events = answer_round(state, {3: join}, Topic.REVOLUTION)
    resolved = one_event(events, E.RevolutionResolved)
    assert resolved.strength == 3
    assert resolved.victims == (1, 5)  # Samurai (3 = strength) and Akindo (2)
    assert all(state.revealed)
    assert dict(resolved.inhabitants) == dict(enumerate(inh))
    for viewer in (SPECTATOR, 2, 6):
        assert [shown(state, viewer, s) for s in range(8)] == inh


def test_r7_3_shogun_is_a_victim_at_strength_seven():
    """R7.3: "Every inhabitant whose value is at most the strength is a
    *victim*" — with five workers on the square and two Nofu, even the
    Shogun (7)."""
    state, _ = table_state(5, [NOFU[0], SHOGUN, NOFU[1], NINJA[0], SORYO[0]], stone=0)
    state.supply, state.square = 1, 5
    fulfil(state, 0, REVOLUTION)
    events = answer_round(state, {2: join}, Topic.REVOLUTION)
    resolved = one_event(events, E.RevolutionResolved)
    assert resolved.strength == 7
    assert resolved.victims == (1, 4)


# -- R7.4 ------------------------------------------------------------------------

def _loot_game(seed):
    # Strength 1 + 1 = 2: the Akindos are victims.
    state, _ = table_state(
        5, [NOFU[0], AKINDO[0], AKINDO[1], DAIMYO[0], AKINDO[2]], stone=0, seed=seed,
        piles={1: [MAHO[1], SAMURAI[0], SAMURAI[1], NOFU[5]], 2: [], 4: [DAIMYO[3]]},
    )
    state.supply, state.square = 5, 1
    piles = [list(p) for p in state.pile]
    fulfil(state, 0, REVOLUTION)
    events = answer_round(state, {}, Topic.REVOLUTION)
    return state, piles, one_event(events, E.RevolutionResolved)


def test_r7_4_each_victim_gives_half_its_cards_rounded_down():
    """R7.4: "Each victim gives floor(half) of its score cards, chosen at
    random, to the revolution (victims taken in clockwise order from the
    announcer's left ...)." """
    state, before, resolved = _loot_game(seed=1)
    assert resolved.victims == (1, 2, 4)
    loot = dict(resolved.loot)
    assert [s for s, _ in resolved.loot] == [1, 2, 4]
    assert len(before[1]) == 5 and len(loot[1]) == 2
    assert len(before[2]) == 1 and loot[2] == ()
    assert len(before[4]) == 2 and len(loot[4]) == 1
    for s in (1, 2, 4):
        assert set(loot[s]) <= set(before[s])
        assert sorted(state.pile[s]) == sorted(set(before[s]) - set(loot[s]))
    assert state.pile[3] == before[3]  # the Daimyo (4) is not a victim
    assert_cards_conserved(state)


def test_r7_4_loot_is_chosen_at_random_from_the_seed():
    """R7.4: "... chosen at random ..." — the same seed gives the same loot,
    and different seeds do not always take the same cards."""
    first = _loot_game(seed=3)[2]
    assert _loot_game(seed=3)[2] == first
    taken = {dict(_loot_game(seed=s)[2].loot)[1] for s in range(12)}
    assert len(taken) > 1


# -- R7.5 ------------------------------------------------------------------------

def test_r7_5_redistribution_deals_from_announcer_clockwise_among_revolters():
    """R7.5: "All revolting Nofu put their whole score piles together with the
    loot, shuffle, and deal the cards one at a time, starting with the stone
    holder (the announcer) and going clockwise among the revolting seats
    only, until none are left." """
    inh = [NOFU[0], AKINDO[0], NOFU[1], SAMURAI[0], NOFU[2], MAHO[0]]
    state, _ = table_state(6, inh, stone=2, piles={3: [DAIMYO[1], DAIMYO[2], MAHO[2]], 0: [NINJA[1]]})
    state.supply, state.square = 5, 1
    before = [list(p) for p in state.pile]
    events = fulfil(state, 2, REVOLUTION)
    bonus = list(state.set_aside)
    events = answer_round(state, {4: join, 0: join}, Topic.REVOLUTION)
    resolved = one_event(events, E.RevolutionResolved)
    assert resolved.revolters == (2, 4, 0)
    assert resolved.strength == 4
    assert resolved.victims == (3, 1)  # clockwise from seat 3
    loot = [c for _, cards in resolved.loot for c in cards]
    pool = loot + before[2] + before[4] + before[0]
    assert sorted(c for _, c in resolved.dealt) == sorted(pool)
    cycle = [2, 4, 0]
    assert [s for s, _ in resolved.dealt] == [cycle[i % 3] for i in range(len(pool))]
    for s in cycle:
        mine = [c for seat, c in resolved.dealt if seat == s]
        assert sorted(state.pile[s]) == sorted(mine + (bonus if s == 2 else []))
    assert state.pile[5] == before[5]  # Maho-Tsukai (5): no victim, no revolter
    assert_cards_conserved(state)


def test_r7_5_pool_is_shuffled_from_the_seed():
    """R7.5: "... put their whole score piles together with the loot, shuffle,
    and deal ..." — the order dealt comes from the seed, not from the piles."""
    def dealt(seed):
        state, _ = table_state(4, [NOFU[0], NOFU[1], DAIMYO[0], MAHO[0]], stone=0, seed=seed,
                               piles={0: [DAIMYO[1], DAIMYO[2], MAHO[1], MAHO[2], SAMURAI[0]]})
        fulfil(state, 0, REVOLUTION)
        events = answer_round(state, {1: join}, Topic.REVOLUTION)
        return one_event(events, E.RevolutionResolved).dealt
    assert dealt(5) == dealt(5)
    assert len({dealt(s) for s in range(8)}) > 1


# -- R7.6 ------------------------------------------------------------------------

def test_r7_6_all_workers_return_to_the_supply():
    """R7.6: "Afterwards every worker, on the square and in the hut, returns to
    the supply." """
    state, _ = table_state(8, [NOFU[0], AKINDO[0], NOFU[1], NOFU[2], MAHO[0], DAIMYO[0], DAIMYO[1], MAHO[1]],
                           stone=0)
    state.supply, state.hut, state.square = 3, 1, 2
    fulfil(state, 0, REVOLUTION)
    answer_round(state, {}, Topic.REVOLUTION)
    assert (state.supply, state.hut, state.square) == (6, 0, 0)
    workers = view(state, SPECTATOR)["workers"]
    assert (workers["supply"], workers["hut"], workers["square"]) == (6, 0, 0)


# -- the rulebook's worked example -------------------------------------------------

def test_example_revolution_one_worker_two_nofu_strength_three():
    """The worked example of the second German rulebook, under R7.1-R7.6 and
    R4.3 c: "one worker: an Akindo with more cards may not claim". Seats
    A..G are 0..6 as printed (A Soryo, B Ninja, C Nofu announcing, D Nofu not
    joining, E Akindo with four score cards, F Samurai with three, G Nofu
    joining); seat 7 (H) adds a Daimyo. R7.2: "Strength = workers on the
    square + number of revolting Nofu (announcer included)." R7.3: "Every
    inhabitant whose value is at most the strength is a *victim* — except
    Ninjas, non-revolting Nofu, and the revolting Nofu themselves." R7.4:
    "Each victim gives floor(half) of its score cards". R7.5: "deal the
    cards one at a time, starting with the stone holder (the announcer) and
    going clockwise among the revolting seats only". R7.6: "every worker ...
    returns to the supply." """
    A, B, C, D, E_, F, G, H = range(8)
    inh = [SORYO[0], NINJA[0], NOFU[0], NOFU[1], AKINDO[0], SAMURAI[0], NOFU[2], DAIMYO[0]]
    treasures = tuple(range(41, 49))
    state, _ = table_state(
        8, inh, stone=A, treasures=treasures,
        piles={
            C: [treasures[G]],  # C holds two score cards, G none
            E_: [NINJA[1], NOFU[3], SORYO[1]],
            F: [MAHO[0], AKINDO[1]],
            H: [DAIMYO[1], DAIMYO[2]],
            B: [AKINDO[2]],
            D: [AKINDO[3]],
        },
    )
    state.supply, state.square = 5, 1  # one worker on the square
    assert [len(p) for p in state.pile] == [1, 2, 2, 2, 4, 3, 0, 3]
    before = [list(p) for p in state.pile]

    # A and B pass, C announces the Revolution.
    d = decision(state)
    apply(state, A, Pass(decision=d.id))
    d = decision(state)
    apply(state, B, Pass(decision=d.id))
    d = decision(state)
    assert d.pivot == C
    events = apply(state, C, Announce(decision=d.id, action=Action(kind=REVOLUTION)))
    opened = one_event(events, E.PrivilegeRoundOpened)
    assert opened.rank == 2 and opened.asked == (D, E_, F, G, H, A, B)
    # E would like to claim with its Akindo (2), but it has more score cards
    # than C: its claim counts as a pass, told only to E.
    d = decision(state)
    assert apply(state, E_, Claim(decision=d.id, action=Action(kind=ActionKind.CREDIT, target=C))) == []
    events = apply(state, D, Pass(decision=d.id))
    passes = events_of(events, E.PrivilegePassed)
    assert [(p.seat, p.voided_claim) for p in passes] == [(D, False), (E_, True)]
    assert project(passes[1], E_)["voided_claim"] is True
    for viewer in (A, B, C, D, F, G, H, SPECTATOR):
        assert project(passes[1], viewer)["voided_claim"] is False
    events = pass_privilege(state)
    one_event(events, E.Fulfilled)
    bonus = list(state.set_aside)
    assert len(bonus) == 1

    # G joins; D (a Nofu) and everyone else pass.
    events = answer_round(state, {G: join}, Topic.REVOLUTION)
    joined = [a.seat for a in events_of(events, E.RevolutionAnswered) if a.joined]
    assert joined == [G]
    r = one_event(events, E.RevolutionResolved)
    assert r.revolters == (C, G)
    assert r.strength == 3
    # Everyone reveals.
    assert all(state.revealed)
    # Victims: only E (Akindo 2) and F (Samurai 3). Not B (Ninja), D (a Nofu
    # that did not join), C and G (revolting Nofu), A (Soryo 6), H (Daimyo 4).
    assert r.victims == (E_, F)
    loot = dict(r.loot)
    assert set(loot) == {E_, F}
    assert len(loot[E_]) == 2 and set(loot[E_]) <= set(before[E_])
    assert len(loot[F]) == 1 and set(loot[F]) <= set(before[F])
    assert sorted(state.pile[E_]) == sorted(set(before[E_]) - set(loot[E_]))
    assert sorted(state.pile[F]) == sorted(set(before[F]) - set(loot[F]))
    for s in (A, B, D, H):
        assert state.pile[s] == before[s]
    # Five cards (three looted, C's two), dealt C, G, C, G, C.
    pool = list(loot[E_]) + list(loot[F]) + before[C] + before[G]
    assert len(pool) == 5
    assert sorted(c for _, c in r.dealt) == sorted(pool)
    assert [s for s, _ in r.dealt] == [C, G, C, G, C]
    assert sorted(state.pile[G]) == sorted(c for s, c in r.dealt if s == G)
    # C's fulfilment bonus goes onto its pile after the action (R4.5).
    assert sorted(state.pile[C]) == sorted([c for s, c in r.dealt if s == C] + bonus)
    awarded = one_event(events, E.BonusAwarded)
    assert events.index(awarded) > events.index(r)
    # The worker on the square returns.
    assert (state.supply, state.hut, state.square) == (6, 0, 0)
    assert not state.disc[C] and not state.disc[G] and state.disc[D]
    assert_cards_conserved(state)
    # The whole resolution is public.
    assert project(r, SPECTATOR) == project(r, EVERYONE)
