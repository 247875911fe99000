"""Bot characters (server/policies/characters.py) and how the negotiator
deals with a seat that is about to take its word: the honest one keeps
every promise it can, the shrewd one weighs its record (and breaks only in
the last season or to win), the ruthless one breaks when breaking pays; a
promise's price counts what keeping it earns; before a deal that buys its
support can execute, its sealed answer already says so; it never has two
offers open that promise both sides of one fight; the old name maps to the
default character."""

from __future__ import annotations

import copy
import random

from oriente.server.policies import ALIASES, POLICIES, characters, negotiator, resolve
from oriente.server.policies.characters import DEFAULT, HONEST, RUTHLESS, SHREWD, Record
from oriente.server.policies.model import read
from oriente.server.rules import (
    TABLE,
    Promise,
    PromiseKind,
    ProposeDeal,
    Side,
    Timeout,
    Transfer,
    apply,
    command_from_plain,
    view,
)
from oriente.server.rules.views import decision_view
from tests.policies.test_negotiator import _fight_with_promise, _gain_and_cost, _high_stakes
from tests.rules.helpers import decision


def _support_answer(state, seat, character):
    """The character's answer as the pivot of the support round."""
    window = decision(state)
    apply(state, TABLE, Timeout(decision=window.id, pivot=None))
    v, p = view(state, seat), decision_view(state, seat)
    assert p["pivot"] == seat
    return negotiator.choose(v, p, random.Random(0), {}, character=character)


def test_the_old_name_plays_the_default_character_which_keeps_its_paid_word():
    """`negotiator` (add_bots, stored seats, POLICIES) maps to the default
    character, the one for tables where people sit."""
    assert {"negotiator": DEFAULT.name} == ALIASES and resolve("negotiator") == "shrewd"
    assert POLICIES["negotiator"] is POLICIES[DEFAULT.name] and POLICIES["shrewd"].character is SHREWD
    assert set(characters.CHARACTERS) == {"honest", "shrewd", "ruthless"}
    assert DEFAULT.word == "weighs" and HONEST.word == "keeps" and RUTHLESS.word == "breaks"


def test_in_the_last_season_the_shrewd_and_the_ruthless_break_a_paid_promise_the_honest_keeps():
    """The scenario where breaking pays (the last season): ruthless and
    shrewd support their best side, the honest one the side it was paid
    for."""
    state = _fight_with_promise(late=True)
    gain, _, options = _gain_and_cost(state)
    best = max(options, key=options.get)
    assert best != "defender" and gain > 0
    for character, side in ((HONEST, "defender"), (SHREWD, best), (RUTHLESS, best)):
        answer = _support_answer(copy.deepcopy(state), 2, character)
        assert answer["side"] == side, (character.name, answer)


def test_early_in_the_game_the_shrewd_keeps_what_the_ruthless_breaks():
    """Before the last season the shrewd character weighs its record at
    least DECISIVE points, so it keeps a promise whose break would gain a
    fight; the ruthless one breaks when the gain beats one break's cost."""
    b = read(view(_fight_with_promise(late=False), 2))
    gain = characters.DECISIVE - 0.5
    assert SHREWD.keep(b, gain, 6.0) and HONEST.keep(b, 1e9, 6.0)
    assert not RUTHLESS.keep(b, gain, 6.0)
    assert not SHREWD.keep(b, gain, 0.5)  # the last season: little left to lose
    assert not SHREWD.keep(b, 1e9, 6.0)  # a gain that decides the game


def test_the_shrewd_weighs_its_account_record_across_games():
    """Where the bot plays under an account (its caller gives the record in
    the memo), one more break also costs that record's trust: a young
    account's record more than an old one's."""
    b = read(view(_fight_with_promise(late=True), 2))
    young, old = Record(kept=1, broken=0), Record(kept=200, broken=3)
    assert SHREWD.break_cost(b, 0.5, young) > SHREWD.break_cost(b, 0.5, old) > SHREWD.break_cost(b, 0.5)
    assert characters.lifetime_record({"lifetime": {"kept": 4, "broken": 1}}) == Record(4, 1)
    assert characters.lifetime_record({"lifetime": {"kept": -1}}) is None


def test_a_promise_kept_earns_trust_so_it_costs_a_keeper_less_than_keeping_it():
    """The valuation counts what keeping earns: a character that keeps its
    word prices a promise at what keeping costs less the trust one more kept
    promise earns (never below MIN_PROMISE_COST); the ruthless one counts no
    such gain."""
    b = read(view(_fight_with_promise(late=False), 2))
    gain = HONEST.keep_gain(b, 6.0)
    assert gain > 0.2 and RUTHLESS.keep_gain(b, 6.0) == 0.0
    assert HONEST.promise_cost(b, 3.0, 6.0) == 3.0 - gain
    assert HONEST.promise_cost(b, 0.2, 6.0) == characters.MIN_PROMISE_COST
    assert HONEST.keep_gain(b, 0.0) < gain  # the last season: the record buys little more


def test_before_taking_a_deal_that_buys_its_support_it_seals_that_side():
    """A window closes the moment both fighters are done and every asked
    seat has sealed (R10.2b1): the deal that buys our support may execute
    and the window close at once. So the negotiator first seals the side it
    is paid for, then accepts."""
    state = _high_stakes()
    seat = decision(state).asked[0]
    memo: dict = {}
    v, p = view(state, seat), decision_view(state, seat)
    sealed = negotiator.choose(v, p, random.Random(0), memo, character=HONEST)
    apply(state, seat, command_from_plain(sealed))  # its own best answer, sealed early
    apply(state, 0, ProposeDeal(  # everything the attacker has, for the seat's support
        transfers=tuple(Transfer(card=c, giver=0, receiver=seat, consideration="for your support")
                        for c in state.pile[0]),
        promises=(Promise(promiser=seat, promisee=0, text="I support the attacker", kind=PromiseKind.SUPPORT,
                          attacker=0, defender=1, side=Side.ATTACKER),)))
    v, p = view(state, seat), decision_view(state, seat)
    wanted = {"type": "Support", "decision": p["id"], "side": "attacker"}
    assert p["sealed"] != wanted, "the scenario needs a change of answer"
    first = negotiator.choose(v, p, random.Random(0), memo, character=HONEST)
    assert first == wanted
    apply(state, seat, command_from_plain(first))
    v, p = view(state, seat), decision_view(state, seat)
    then = negotiator.choose(v, p, random.Random(0), memo, character=HONEST)
    assert then == {"type": "AcceptDeal", "deal": state.next_deal - 1}


def test_it_never_keeps_two_offers_open_that_promise_both_sides_of_a_fight():
    """With its own offer open that sells its support of one side, it
    neither counters nor proposes a deal promising the other side: whichever
    the partners took, one promise would be broken."""
    state = _high_stakes()
    seat = decision(state).asked[0]
    sell = ProposeDeal(
        transfers=(Transfer(card=state.pile[0][0], giver=0, receiver=seat, consideration="for my support"),),
        promises=(Promise(promiser=seat, promisee=0, text="I support the attacker", kind=PromiseKind.SUPPORT,
                          attacker=0, defender=1, side=Side.ATTACKER),))
    apply(state, seat, sell)
    r = negotiator.reading(view(state, seat), decision_view(state, seat), HONEST)
    other = {"transfers": [], "promises": [{"promiser": seat, "kind": "support", "attacker": 0, "defender": 1,
                                            "side": "defender"}]}
    same = {"transfers": [], "promises": [{"promiser": seat, "kind": "support", "attacker": 0, "defender": 1,
                                           "side": "attacker"}]}
    assert negotiator._torn(r, other) and not negotiator._torn(r, same)


def test_the_honest_character_keeps_every_promise_it_can_over_whole_games():
    """Whole six-seat games of honest bots and heuristic seats, in one
    process: no honest seat ever breaks a promise."""
    from oriente.server.policies.selfplay import play
    from oriente.server.rules import GameConfig

    for seed in range(3):
        policies = [POLICIES["honest"] if s % 2 else POLICIES["heuristic"] for s in range(6)]
        played = play(GameConfig(seats=6, seed=seed), policies, seed)
        assert all(played.tally.broken[s] == 0 for s in range(1, 6, 2)), played.tally.broken


def test_every_character_is_described_in_the_welcome() -> None:
    """welcome.bot_about describes each bot the server offers (the port's
    `policy_about`), the characters with how they treat their word."""
    from oriente.server.games.oriente import OrientePort

    port = OrientePort()
    assert set(port.policy_about) == set(port.policies)
    for name in characters.CHARACTERS:
        about = port.policy_about[name]
        assert about["character"] and about["deals"] and about["word"] == characters.CHARACTERS[name].word
        assert about["about"].startswith("Bargains")
    assert port.policy_aliases == {"negotiator": "shrewd"} and port.policies[0] == "shrewd"


def test_before_its_answer_goes_public_a_bot_withdraws_its_offer_for_the_other_side():
    """A bot's own offer of its support for one side may still stand when
    its turn in the support round comes (a person answers an offer when
    they see it, which may be after the window closed). Taken after the
    bot's answer for another side is public, the promise would be broken
    whatever the bot did; so every character withdraws it first."""
    for character in (HONEST, SHREWD, RUTHLESS):
        state = _fight_with_promise(late=False, side=None)
        r = negotiator.reading(view(state, 2), decision_view(state, 2), character)
        options = r.support_options(0, 1)
        best = max(options, key=options.get)
        other = "defender" if best != "defender" else "attacker"
        fighter = 0 if other == "attacker" else 1
        apply(state, 2, ProposeDeal(
            transfers=(Transfer(card=state.pile[fighter][0], giver=fighter, receiver=2, consideration="my support"),),
            promises=(Promise(promiser=2, promisee=fighter, text=f"I support the {other}", kind=PromiseKind.SUPPORT,
                              attacker=0, defender=1, side=Side(other)),)))
        window = decision(state)
        apply(state, TABLE, Timeout(decision=window.id, pivot=None))
        v, p = view(state, 2), decision_view(state, 2)
        assert p["pivot"] == 2 and p["topic"] == "support"
        first = negotiator.choose(v, p, random.Random(0), {}, character=character)
        assert first == {"type": "WithdrawDeal", "deal": 1}, (character.name, first)
        apply(state, 2, command_from_plain(first))
        v, p = view(state, 2), decision_view(state, 2)
        answer = negotiator.choose(v, p, random.Random(0), {}, character=character)
        assert answer["type"] in ("Support", "Pass") and answer.get("side") != other, (character.name, answer)
