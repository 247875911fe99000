"""Rules R5 (actions by inhabitant) of docs/rules.md, and the rulebook's worked
example of the Shogun attacking a Maho-Tsukai."""

from __future__ import annotations

import pytest

from oriente.server.rules import ActionKind, Phase, Rejected, Side, Topic, legal, project, view
from oriente.server.rules import events as E
from oriente.server.rules.cards import VALUE
from tests.rules.helpers import (
    AKINDO,
    DAIMYO,
    GEISHA,
    MAHO,
    NINJA,
    NOFU,
    SAMURAI,
    SHOGUN,
    SORYO,
    announce_now,
    answer_pass,
    assert_cards_conserved,
    choose,
    claim,
    close_window,
    configured_game,
    decision,
    events_of,
    give,
    pass_round,
    pass_turn,
    say_done,
    settle,
    support,
)


def _announceable(state, seat):
    """The (kind, target) pairs `seat` may announce or claim with now."""
    return {(c.action.kind, c.action.target) for c in legal(state, seat) if hasattr(c, "action")}


def _fight(state, answers):
    """Close the negotiation window, then answer the support round:
    `answers[seat]` is a Side; the others pass. Returns the events."""
    ev = close_window(state)
    while decision(state).topic is Topic.SUPPORT:
        d = decision(state)
        side = answers.get(d.pivot)
        ev += support(state, d.pivot, side) if side is not None else answer_pass(state, d.pivot)
        if not state.fight:
            break
    return ev


# -- R5.1 Shogun -------------------------------------------------------------------------------

def test_r5_1_shogun_has_no_ability_to_announce():
    """R5.1 Shogun (7): Invincible defence. No ability to announce."""
    state, _ = configured_game(4, [SHOGUN, NOFU[0], NOFU[1], NOFU[2]])
    assert _announceable(state, 0) == {(ActionKind.ATTACK, t) for t in (1, 2, 3)}
    for kind in (ActionKind.BLESSING, ActionKind.INCOME, ActionKind.TRANSFORMATION, ActionKind.INCITE):
        with pytest.raises(Rejected) as err:
            announce_now(state, 0, kind)
        assert err.value.code == "announce/not_allowed"


def test_r5_1_attacked_shogun_wins_whatever_the_totals_and_the_fight_runs_normally():
    """R5.1 ... When it is the inhabitant of the seat *attacked* (R6), that seat
    wins the fight automatically. ... The fight otherwise runs normally —
    negotiation, support round, supporters reveal, Samurai turn
    reinforcements (R6.2–R6.4), the loser takes a reinforcement card (R6.7) —
    only the result (R6.5) is fixed: the defender wins."""
    state, _ = configured_game(5, [MAHO[0], SHOGUN, DAIMYO[0], SORYO[0], SAMURAI[0]], draws=[DAIMYO[1]])
    announce_now(state, 0, ActionKind.ATTACK, 1)
    pass_round(state)
    assert state.phase is Phase.NEGOTIATION and decision(state).asked == (2, 3, 4)
    ev = _fight(state, {2: Side.ATTACKER, 3: Side.ATTACKER, 4: Side.ATTACKER})
    assert len(events_of(ev, E.SupportDeclared)) == 3
    fight = events_of(ev, E.FightResolved)[0]
    assert fight.attack_total == 5 + 4 + 6 + 3 + 4 and fight.defence_total == 7
    assert fight.shogun_defence and fight.winner == 1 and fight.loser == 0
    assert fight.reinforcements == ((4, DAIMYO[1]),)
    assert state.revealed[2] and state.revealed[3] and state.revealed[4]
    assert state.inhabitant[1] == SHOGUN and MAHO[0] in state.pile[1]
    assert state.inhabitant[0] == DAIMYO[1] and state.revealed[0]


def test_r5_1_shogun_attacking_gets_no_automatic_win():
    """R5.1 ... It does not protect against Assassination, nor help a side it
    supports, nor when the Shogun itself attacks."""
    state, _ = configured_game(4, [SHOGUN, SORYO[0], DAIMYO[0], NOFU[0]])
    ev = announce_now(state, 0, ActionKind.ATTACK, 1)
    assert not events_of(ev, E.PrivilegeRoundOpened)  # nobody outranks a Shogun
    ev = _fight(state, {2: Side.DEFENDER})
    fight = events_of(ev, E.FightResolved)[0]
    assert (fight.attack_total, fight.defence_total) == (7, 10)
    assert not fight.shogun_defence and fight.winner == 1
    assert SHOGUN in state.pile[1]


def test_r5_1_shogun_gives_no_automatic_win_to_the_side_it_supports():
    """R5.1 ... It does not protect against Assassination, nor help a side it
    supports, nor when the Shogun itself attacks."""
    state, _ = configured_game(5, [SORYO[0], NOFU[0], SHOGUN, MAHO[0], NOFU[1]])
    announce_now(state, 0, ActionKind.ATTACK, 1)
    pass_round(state)
    ev = _fight(state, {2: Side.DEFENDER, 3: Side.ATTACKER})
    fight = events_of(ev, E.FightResolved)[0]
    assert (fight.attack_total, fight.defence_total) == (11, 8)
    assert fight.winner == 0 and NOFU[0] in state.pile[0]


def test_r5_1_shogun_does_not_protect_against_assassination():
    """R5.1 ... It does not protect against Assassination, nor help a side it
    supports, nor when the Shogun itself attacks."""
    state, _ = configured_game(4, [NINJA[0], SHOGUN, NOFU[0], NOFU[1]])
    assert (ActionKind.ASSASSINATION, 1) in _announceable(state, 0)
    announce_now(state, 0, ActionKind.ASSASSINATION, 1)
    ev = pass_round(state)
    assert [(a.target, a.card) for a in events_of(ev, E.Assassinated)] == [(1, SHOGUN)]
    assert SHOGUN in state.pile[0] and state.inhabitant[1] != SHOGUN


# -- R5.2 Soryo --------------------------------------------------------------------------------

def test_r5_2_blessing_as_first_fulfilment_takes_the_bonus_once():
    """R5.2 Soryo (6): Blessing. Takes the bonus pile onto its score pile, if
    it has not yet been awarded this season ... If the Soryo is the first to
    fulfil, it gets the bonus through the ability and nothing more through
    R4.5."""
    state, _ = configured_game(4, [NOFU[0], SORYO[0], NOFU[1], NOFU[2]], bonus=AKINDO[0],
                               draws=[SAMURAI[0]])
    for _ in range(4):
        pass_turn(state)  # nobody fulfils in season 1: the bonus pile grows
    assert state.bonus == [AKINDO[0], SAMURAI[0]]
    pass_turn(state, 0)
    announce_now(state, 1, ActionKind.BLESSING)
    ev = pass_round(state)
    assert events_of(ev, E.Fulfilled)[0].bonus_set_aside == 0
    awarded = events_of(ev, E.BonusAwarded)
    assert [(b.seat, b.cards, b.blessing) for b in awarded] == [(1, (AKINDO[0], SAMURAI[0]), True)]
    assert state.pile[1] == [42, AKINDO[0], SAMURAI[0]] and state.bonus == []
    assert_cards_conserved(state)


def test_r5_2_blessing_after_the_bonus_was_awarded_does_nothing():
    """R5.2 Soryo (6): Blessing. Takes the bonus pile onto its score pile, if
    it has not yet been awarded this season; otherwise it does nothing (it may
    still be announced — the Soryo's real strength is claiming privilege)."""
    state, _ = configured_game(4, [DAIMYO[0], SORYO[0], NOFU[0], NOFU[1]], bonus=AKINDO[0],
                               draws=[SAMURAI[0]])
    announce_now(state, 0, ActionKind.INCOME)
    pass_round(state)
    assert state.pile[0] == [41, SAMURAI[0], AKINDO[0]]
    assert (ActionKind.BLESSING, None) in _announceable(state, 1)
    announce_now(state, 1, ActionKind.BLESSING)
    ev = pass_round(state)
    assert [f.seat for f in events_of(ev, E.Fulfilled)] == [1]
    assert all(b.cards == () for b in events_of(ev, E.BonusAwarded))
    assert state.pile[1] == [42] and not state.disc[1]
    assert state.pile[0] == [41, SAMURAI[0], AKINDO[0]]


# -- R5.3 Maho-Tsukai --------------------------------------------------------------------------

def test_r5_3_no_transformation_while_another_seat_shows_a_revealed_maho():
    """R5.3 Maho-Tsukai (5): Transformation. Not allowed while another seat's
    inhabitant is a revealed Maho-Tsukai."""
    state, _ = configured_game(4, [MAHO[0], NOFU[0], MAHO[1], NOFU[1]])
    assert (ActionKind.TRANSFORMATION, None) in _announceable(state, 0)
    announce_now(state, 0, ActionKind.ATTACK, 1)  # seat 0's Maho-Tsukai is now revealed
    assert decision(state).asked == (2, 3)
    claims = _announceable(state, 2)
    assert (ActionKind.TRANSFORMATION, None) not in claims and (ActionKind.ATTACK, 0) in claims
    with pytest.raises(Rejected) as err:
        claim(state, 2, ActionKind.TRANSFORMATION)
    assert err.value.code == "announce/not_allowed"
    # its own revealed Maho-Tsukai does not bar a seat
    pass_round(state)
    settle(state)
    assert state.revealed[0] and state.inhabitant[0] == MAHO[0]


def test_r5_3_transformation_steps_and_knowledge():
    """R5.3 ... Carried out in the printed order:
    1. The Maho-Tsukai goes face down to the bottom of the deck (everyone saw
       it: its place at the bottom is public, R10.4).
    2. Take every other seat's inhabitant. The transforming seat looks at them
       and secretly keeps one as its new inhabitant, face down.
    3. Draw the top card of the deck, unseen.
    4. Shuffle the rest together with the drawn card and deal one face down to
       each other seat, clockwise from the transforming seat's left. Every
       inhabitant dealt this way is face down, also ones that were revealed
       before. ...
    Knowledge: the transforming seat saw the taken inhabitants (not the drawn
    card); each other seat sees only its new card."""
    state, _ = configured_game(4, [MAHO[0], DAIMYO[0], SAMURAI[0], NOFU[0]], draws=[SORYO[0], AKINDO[0]])
    pass_turn(state, 0)
    announce_now(state, 1, ActionKind.INCOME)  # reveals seat 1's Daimyo
    pass_round(state)
    pass_turn(state, 2)
    pass_turn(state, 3)
    deck_size = len(state.deck)
    announce_now(state, 0, ActionKind.TRANSFORMATION)
    ev = pass_round(state)
    began = events_of(ev, E.TransformationBegan)[0]
    assert began.maho == MAHO[0] and began.taken == ((1, DAIMYO[0]), (2, SAMURAI[0]), (3, NOFU[0]))
    assert state.deck[0] == MAHO[0] and view(state, "spectator")["deck_bottom"] == [MAHO[0]]
    assert state.inhabitant == [None] * 4
    assert state.deck[-1] == AKINDO[0]  # the card step 3 will draw
    d = decision(state)
    assert d.topic is Topic.TRANSFORMATION and d.pivot == 0
    assert {c.card for c in legal(state, 0)} == {DAIMYO[0], SAMURAI[0], NOFU[0]}
    assert view(state, 0)["seen"] == [{"season": 1, "cards": [DAIMYO[0], SAMURAI[0], NOFU[0]]}]
    assert view(state, 1)["seen"] == []
    ev = choose(state, 0, SAMURAI[0])
    done = events_of(ev, E.TransformationDone)[0]
    assert done.kept == SAMURAI[0] and done.drawn == AKINDO[0]
    assert state.inhabitant[0] == SAMURAI[0]
    assert sorted(state.inhabitant[1:]) == sorted([DAIMYO[0], NOFU[0], AKINDO[0]])
    assert [s for s, _ in done.dealt] == [1, 2, 3]
    assert state.revealed == [False] * 4
    assert len(state.deck) == deck_size
    assert_cards_conserved(state)
    for viewer in range(4):
        seen = [s["inhabitant"] for s in view(state, viewer)["seats"]]
        assert seen == [c if s == viewer else None for s, c in enumerate(state.inhabitant)]
    assert project(done, 0)["drawn"] is None and project(done, 0)["kept"] == SAMURAI[0]
    assert project(done, 2)["kept"] is None
    assert project(done, 2)["dealt"] == [[s, c if s == 2 else None] for s, c in done.dealt]


def test_r5_3_geisha_drawn_in_a_transformation_ends_the_game_after_the_deal():
    """R5.3 ... 4. ... If the drawn card was the Geisha, the deal is completed
    first and then the game ends (R9.2)."""
    state, _ = configured_game(4, [MAHO[0], DAIMYO[0], SAMURAI[0], NOFU[0]], bonus=AKINDO[0],
                               draws=[GEISHA])
    announce_now(state, 0, ActionKind.TRANSFORMATION)
    pass_round(state)
    ev = choose(state, 0, DAIMYO[0])
    assert state.phase is Phase.OVER
    done = events_of(ev, E.TransformationDone)[0]
    assert done.drawn == GEISHA and len(done.dealt) == 3
    assert state.inhabitant[0] == DAIMYO[0]
    assert sorted(state.inhabitant[1:]) == sorted([SAMURAI[0], NOFU[0], GEISHA])
    holder = state.inhabitant.index(GEISHA)
    result = state.result
    assert result.reason == "geisha"
    assert result.scores[holder] == sum(VALUE[c] for c in state.pile[holder])
    assert AKINDO[0] in state.pile[0]  # the bonus set aside for the transforming seat


# -- R5.4 Daimyo -------------------------------------------------------------------------------

def test_r5_4_income_puts_the_top_card_face_up_on_the_score_pile():
    """R5.4 Daimyo (4): Income — the top card of the deck goes face up onto its
    score pile."""
    state, _ = configured_game(4, [DAIMYO[0], NOFU[0], NOFU[1], NOFU[2]], bonus=AKINDO[0],
                               draws=[SORYO[0], NINJA[0]])
    announce_now(state, 0, ActionKind.INCOME)
    ev = pass_round(state)
    assert [(i.seat, i.card) for i in events_of(ev, E.IncomeDrawn)] == [(0, SORYO[0])]
    assert state.pile[0] == [41, SORYO[0], AKINDO[0]]
    assert state.deck[-1] == NINJA[0]
    for viewer in (2, "spectator"):
        assert view(state, viewer)["seats"][0]["pile"] == [41, SORYO[0], AKINDO[0]]


def test_r5_4_succession_swaps_daimyo_and_a_revealed_shogun():
    """R5.4 ... Succession — allowed only while the Shogun is another seat's
    revealed inhabitant or lies in another seat's score pile (that seat is the
    target; "another" follows the German text): the Daimyo and the Shogun swap
    places, so the Shogun becomes this seat's revealed inhabitant and the
    Daimyo takes the Shogun's place (revealed inhabitant, or score card)."""
    state, _ = configured_game(4, [DAIMYO[0], SHOGUN, NOFU[0], NOFU[1]])
    # a face-down Shogun is no target
    assert not any(k is ActionKind.SUCCESSION for k, _ in _announceable(state, 0))
    with pytest.raises(Rejected) as err:
        announce_now(state, 0, ActionKind.SUCCESSION, 1)
    assert err.value.code == "announce/not_allowed"
    pass_turn(state, 0)
    announce_now(state, 1, ActionKind.ATTACK, 3)  # the Shogun reveals itself
    _fight(state, {})
    assert state.revealed[1] and state.inhabitant[1] == SHOGUN
    pass_turn(state, 2)
    pass_turn(state, 3)
    assert (ActionKind.SUCCESSION, 1) in _announceable(state, 0)
    announce_now(state, 0, ActionKind.SUCCESSION, 1)
    ev = pass_round(state)
    done = events_of(ev, E.SuccessionDone)[0]
    assert done.done and not done.from_pile
    assert state.inhabitant[0] == SHOGUN and state.revealed[0]
    assert state.inhabitant[1] == DAIMYO[0] and state.revealed[1]
    assert [s["inhabitant"] for s in view(state, "spectator")["seats"][:2]] == [SHOGUN, DAIMYO[0]]


def test_r5_4_succession_takes_a_shogun_from_another_seats_score_pile():
    """R5.4 ... Succession — allowed only while the Shogun is another seat's
    revealed inhabitant or lies in another seat's score pile ... the Daimyo
    takes the Shogun's place (revealed inhabitant, or score card)."""
    state, _ = configured_game(4, [NINJA[0], SHOGUN, DAIMYO[0], NOFU[0]], bonus=AKINDO[0])
    announce_now(state, 0, ActionKind.ASSASSINATION, 1)
    pass_round(state)
    assert state.pile[0] == [41, SHOGUN, AKINDO[0]]
    pass_turn(state, 1)
    assert _announceable(state, 2) >= {(ActionKind.SUCCESSION, 0)}
    announce_now(state, 2, ActionKind.SUCCESSION, 0)
    ev = pass_round(state)
    done = events_of(ev, E.SuccessionDone)[0]
    assert done.done and done.from_pile
    assert state.pile[0] == [41, DAIMYO[0], AKINDO[0]]
    assert state.inhabitant[2] == SHOGUN and state.revealed[2]


def test_r5_4_no_succession_on_a_shogun_in_ones_own_score_pile():
    """R5.4 ... Succession — allowed only while the Shogun is another seat's
    revealed inhabitant or lies in another seat's score pile (that seat is the
    target; "another" follows the German text)"""
    state, _ = configured_game(4, [SHOGUN, DAIMYO[0], SORYO[0], NOFU[0]])
    announce_now(state, 0, ActionKind.ATTACK, 1)
    _fight(state, {2: Side.DEFENDER})
    assert SHOGUN in state.pile[1] and state.disc[1]
    assert decision(state).pivot == 1
    assert not any(k is ActionKind.SUCCESSION for k, _ in _announceable(state, 1))
    for target in (0, 2, 3):
        with pytest.raises(Rejected) as err:
            announce_now(state, 1, ActionKind.SUCCESSION, target)
        assert err.value.code == "announce/not_allowed"


# -- R5.5 Samurai ------------------------------------------------------------------------------

def test_r5_5_samurai_has_no_ability_to_announce():
    """R5.5 Samurai (3): Reinforcement. No ability to announce."""
    state, _ = configured_game(4, [SAMURAI[0], NOFU[0], NOFU[1], NOFU[2]])
    assert _announceable(state, 0) == {(ActionKind.ATTACK, t) for t in (1, 2, 3)}
    with pytest.raises(Rejected) as err:
        announce_now(state, 0, ActionKind.INCOME)
    assert err.value.code == "announce/not_allowed"


def test_r5_5_attacking_samurai_turns_a_reinforcement():
    """R5.5 Samurai (3): Reinforcement. ... In every fight it takes part in
    (attacking, attacked or supporting), see R6.4."""
    state, _ = configured_game(4, [SAMURAI[0], DAIMYO[0], NOFU[0], NOFU[1]], draws=[AKINDO[0]])
    announce_now(state, 0, ActionKind.ATTACK, 1)
    pass_round(state)
    ev = _fight(state, {})
    fight = events_of(ev, E.FightResolved)[0]
    assert fight.reinforcements == ((0, AKINDO[0]),)
    assert (fight.attack_total, fight.defence_total) == (5, 4) and fight.winner == 0
    assert DAIMYO[0] in state.pile[0]
    assert state.inhabitant[1] == AKINDO[0] and state.revealed[1]


def test_r5_5_attacked_and_supporting_samurai_turn_reinforcements():
    """R5.5 Samurai (3): Reinforcement. ... In every fight it takes part in
    (attacking, attacked or supporting), see R6.4."""
    state, _ = configured_game(4, [DAIMYO[0], SAMURAI[0], SAMURAI[1], NOFU[0]], draws=[NOFU[5], NOFU[6]])
    announce_now(state, 0, ActionKind.ATTACK, 1)
    pass_round(state)
    ev = _fight(state, {2: Side.ATTACKER})
    fight = events_of(ev, E.FightResolved)[0]
    assert sorted(fight.reinforcements) == [(1, NOFU[5]), (2, NOFU[6])]
    assert (fight.attack_total, fight.defence_total) == (4 + 3 + 1, 3 + 1)
    assert decision(state).topic is Topic.REINFORCEMENT and decision(state).pivot == 1
    choose(state, 1, NOFU[6])
    assert state.inhabitant[1] == NOFU[6]


# -- R5.6 Akindo -------------------------------------------------------------------------------

def test_r5_6_akindo_abilities_cannot_target_a_revealed_akindo():
    """R5.6 Akindo (2): neither ability may target a seat whose inhabitant is a
    revealed Akindo."""
    state, _ = configured_game(4, [AKINDO[0], AKINDO[1], NOFU[0], AKINDO[2]])
    assert {(ActionKind.CREDIT, 3), (ActionKind.TRADE, 3)} <= _announceable(state, 0)
    announce_now(state, 0, ActionKind.CREDIT, 3)  # a face-down Akindo may be targeted
    assert decision(state).asked == (1, 2)
    claims = _announceable(state, 1)
    assert (ActionKind.CREDIT, 0) not in claims and (ActionKind.TRADE, 0) not in claims
    assert {(ActionKind.CREDIT, 2), (ActionKind.TRADE, 2), (ActionKind.ATTACK, 0)} <= claims
    for kind in (ActionKind.CREDIT, ActionKind.TRADE):
        with pytest.raises(Rejected) as err:
            claim(state, 1, kind, 0)
        assert err.value.code == "announce/not_allowed"


def test_r5_6_credit_takes_every_nofu_from_the_target_score_pile():
    """R5.6 ... Credit — take every Nofu from the target's score pile onto
    your own."""
    state, _ = configured_game(4, [NOFU[0], DAIMYO[0], AKINDO[0], NOFU[1]], draws=[NOFU[2], NOFU[3]])
    announce_now(state, 0, ActionKind.ATTACK, 1)  # the Nofu loses and is captured
    pass_round(state)
    _fight(state, {})
    announce_now(state, 1, ActionKind.INCOME)  # draws a second Nofu
    pass_round(state)
    assert state.pile[1] == [42, NOFU[0], NOFU[3]]
    announce_now(state, 2, ActionKind.CREDIT, 1)
    ev = pass_round(state)
    assert [(c.target, c.cards) for c in events_of(ev, E.CreditTaken)] == [(1, (NOFU[0], NOFU[3]))]
    assert state.pile[1] == [42]
    assert state.pile[2] == [43, NOFU[0], NOFU[3]]


def test_r5_6_trade_gives_first_and_draws_excluding_the_card_given():
    """R5.6 ... Trade — choose one of your score cards (if you have any)
    and give it to the target; then draw one card at random from the target's
    score pile, not counting the card just given, onto your own (nothing if
    that leaves no card). ... Both results are public."""
    state, _ = configured_game(4, [AKINDO[0], NOFU[0], NOFU[1], NOFU[2]], bonus=SAMURAI[0])
    give(state, 42, 1, 3)  # the target's pile is empty
    announce_now(state, 0, ActionKind.TRADE, 1)
    ev = pass_round(state)
    done = events_of(ev, E.TradeDone)[0]
    assert (done.given, done.drawn) == (41, None)
    assert state.pile[1] == [41] and state.pile[0] == [SAMURAI[0]]
    assert project(done, "spectator")["given"] == 41


def test_r5_6_trade_lets_the_akindo_choose_the_card_to_give():
    """R5.6 ... Trade — choose one of your score cards (if you have any)
    and give it to the target; then draw one card at random from the target's
    score pile, not counting the card just given, onto your own"""
    state, _ = configured_game(4, [AKINDO[0], NOFU[0], NOFU[1], NOFU[2]], bonus=SAMURAI[0])
    give(state, 44, 3, 0)
    announce_now(state, 0, ActionKind.TRADE, 1)
    pass_round(state)
    d = decision(state)
    assert d.topic is Topic.TRADE and d.pivot == 0
    assert {c.card for c in legal(state, 0)} == {41, 44}
    ev = choose(state, 0, 44)
    done = events_of(ev, E.TradeDone)[0]
    assert (done.given, done.drawn) == (44, 42)  # the only card not just given
    assert state.pile[1] == [44]
    assert state.pile[0] == [41, 42, SAMURAI[0]]
    assert project(done, 2)["drawn"] == 42


def test_r5_6_akindo_without_score_cards_gives_nothing_and_still_draws():
    """R5.6 ... An Akindo with no score cards gives nothing and still draws."""
    state, _ = configured_game(4, [AKINDO[0], NOFU[0], NOFU[1], NOFU[2]], bonus=SAMURAI[0])
    give(state, 41, 0, 2)
    announce_now(state, 0, ActionKind.TRADE, 1)
    ev = pass_round(state)
    done = events_of(ev, E.TradeDone)[0]
    assert (done.given, done.drawn) == (None, 42)
    assert state.pile[1] == [] and state.pile[0] == [42, SAMURAI[0]]


# -- R5.7 Nofu ---------------------------------------------------------------------------------

def test_r5_7_incite_with_4_to_7_seats_puts_a_worker_on_the_square():
    """R5.7 Nofu (1): Incite — ... With 4–7 seats the hut is not used: a worker
    goes from the supply straight onto the square."""
    for seats in (4, 7):
        state, _ = configured_game(seats)
        announce_now(state, 0, ActionKind.INCITE)
        ev = pass_round(state)
        assert [i.moved_to for i in events_of(ev, E.Incited)] == ["square"]
        assert (state.supply, state.hut, state.square) == (5, 0, 1)


def test_r5_7_incite_with_8_to_12_seats_goes_through_the_hut():
    """R5.7 Nofu (1): Incite — with 8–12 seats: if the hut is empty, move a
    worker from the supply into the hut; if the hut is occupied, move that
    worker onto the square instead (no new worker)."""
    for seats in (8, 12):
        state, _ = configured_game(seats)
        expected = [("hut", (5, 1, 0)), ("square", (5, 0, 1)), ("hut", (4, 1, 1)), ("square", (4, 0, 2))]
        for seat, (moved, workers) in enumerate(expected):
            announce_now(state, seat, ActionKind.INCITE)
            ev = pass_round(state)
            assert [i.moved_to for i in events_of(ev, E.Incited)] == [moved]
            assert (state.supply, state.hut, state.square) == workers
            assert view(state, "spectator")["workers"]["hut"] == workers[1]


def test_r5_7_last_incite_with_an_empty_supply_moves_nothing():
    """R5.7 ... If no worker can move, nothing happens."""
    state, _ = configured_game(7)
    moved = []
    for seat in range(7):
        ev = announce_now(state, seat, ActionKind.INCITE)
        if state.phase is Phase.PRIVILEGE:
            ev += pass_round(state)
        moved += [i.moved_to for i in events_of(ev, E.Incited)]
    assert moved == ["square"] * 6 + [None]
    assert (state.supply, state.hut, state.square) == (0, 0, 6)


# -- R5.8 Ninja --------------------------------------------------------------------------------

def test_r5_8_assassination_takes_the_inhabitant_and_the_target_draws_face_down():
    """R5.8 Ninja (0): Assassination. Take the target's inhabitant (face up or
    down) onto your score pile; the target draws a new inhabitant face down."""
    state, _ = configured_game(4, [NINJA[0], SORYO[0], NOFU[0], NOFU[1]], bonus=AKINDO[0],
                               draws=[SAMURAI[0]])
    announce_now(state, 0, ActionKind.ASSASSINATION, 1)
    assert decision(state).asked == (2, 3)
    ev = pass_round(state)
    assert [(a.target, a.card) for a in events_of(ev, E.Assassinated)] == [(1, SORYO[0])]
    assert state.pile[0] == [41, SORYO[0], AKINDO[0]]
    assert state.inhabitant[1] == SAMURAI[0] and not state.revealed[1]
    assert view(state, 1)["seats"][1]["inhabitant"] == SAMURAI[0]
    assert view(state, 2)["seats"][1]["inhabitant"] is None


def test_r5_8_a_revealed_ninja_cannot_be_assassinated_but_a_face_down_one_can():
    """R5.8 ... Not allowed against a *revealed* Ninja (a face-down Ninja can be
    taken)."""
    state, _ = configured_game(4, [NINJA[0], NINJA[1], NINJA[2], NOFU[0]])
    assert (ActionKind.ASSASSINATION, 1) in _announceable(state, 0)
    announce_now(state, 0, ActionKind.ASSASSINATION, 1)
    pass_round(state)
    assert NINJA[1] in state.pile[0] and state.revealed[0]
    pass_turn(state, 1)
    options = _announceable(state, 2)
    assert (ActionKind.ASSASSINATION, 0) not in options
    assert {(ActionKind.ASSASSINATION, 1), (ActionKind.ASSASSINATION, 3), (ActionKind.ATTACK, 0)} <= options
    with pytest.raises(Rejected) as err:
        announce_now(state, 2, ActionKind.ASSASSINATION, 0)
    assert err.value.code == "announce/not_allowed"


# -- the rulebook's worked example ---------------------------------------------------------------

def test_example_shogun_attacks_maho_with_two_nofu_supporting_defender():
    """R6.5 Result. Each side's total is its inhabitant's value plus its
    supporters' values plus reinforcements. The higher total wins; a tie goes to
    the defender. R4.5 ... then the set-aside bonus cards go face up onto its
    score pile — even if the action failed (a lost attack)."""
    state, _ = configured_game(4, [SHOGUN, MAHO[0], NOFU[0], NOFU[1]], bonus=AKINDO[0],
                               draws=[SAMURAI[0]])
    ev = announce_now(state, 0, ActionKind.ATTACK, 1)
    assert not events_of(ev, E.PrivilegeRoundOpened)
    assert [(f.seat, f.bonus_set_aside) for f in events_of(ev, E.Fulfilled)] == [(0, 1)]
    assert events_of(ev, E.FightBegan)[0].asked == (2, 3)
    assert state.revealed[1]
    assert support(state, 3, Side.DEFENDER) == []  # sealed, early
    say_done(state, 0)
    say_done(state, 1)  # both fighters are done bargaining (R10.2b1)
    ev = support(state, 2, Side.DEFENDER)  # the last early answer closes the window
    assert events_of(ev, E.NegotiationClosed)
    assert [(s.seat, s.side) for s in events_of(ev, E.SupportDeclared)] == [(2, Side.DEFENDER), (3, Side.DEFENDER)]
    fight = events_of(ev, E.FightResolved)[0]
    assert (fight.attack_total, fight.defence_total) == (7, 5 + 1 + 1)
    assert fight.winner == 1 and fight.loser == 0 and fight.captured == SHOGUN
    assert not fight.shogun_defence
    assert state.pile[1] == [42, SHOGUN]
    assert state.pile[0] == [41, AKINDO[0]]
    assert state.inhabitant[0] == SAMURAI[0] and not state.revealed[0]
    assert state.inhabitant[1] == MAHO[0]
    assert state.inhabitant[2] == NOFU[0] and state.inhabitant[3] == NOFU[1]
    assert state.revealed[2] and state.revealed[3]
    assert state.disc == [False, True, False, False]
    assert decision(state).pivot == 1
