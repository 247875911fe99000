"""The negotiating policy (server/policies/negotiator.py and its modules).

Checked here: whole games at every seat count with only legal, accepted
commands, deals proposed, executed and settled; the same seed gives the
same game; deals are valued consistently (a better card is never worth
less, card transfers are zero-sum, our reading of a partner's interest is
the partner's own reading when nothing is hidden); promises are kept or
broken by the rule of reputation.py, on a configured fight where the rule
says keep and the same fight in the last season where it says break; the
seat proxy never answers early, never deals, and keeps its promises; early
answers and done close windows of bots; offers, counter-offers and the
words said for them.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oriente.server.policies import POLICIES, bargain, characters, negotiator, reputation, valuation
from oriente.server.policies.model import attacking, read
from oriente.server.policies.selfplay import play
from oriente.server.rules import (
    TABLE,
    AcceptDeal,
    Action,
    ActionKind,
    Announce,
    GameConfig,
    Pass,
    Promise,
    PromiseKind,
    ProposeDeal,
    Side,
    Timeout,
    Topic,
    Transfer,
    apply,
    command_from_plain,
    new_game,
    pending,
    view,
)
from oriente.server.rules.cards import NINJAS, VALUE
from oriente.server.rules.views import decision_view
from tests.rules.helpers import (
    AKINDO,
    DAIMYO,
    GEISHA,
    MAHO,
    NINJA,
    NOFU,
    SAMURAI,
    SORYO,
    configured_game,
    decision,
    move_to_pile,
)

NEGOTIATOR = POLICIES["negotiator"]
HEURISTIC = POLICIES["heuristic"]
RANDOM = POLICIES["random"]


def _ask(state, seat, memo=None, *, proxy=False, character=characters.DEFAULT):
    """The negotiator's answer for `seat`, checked to be legal."""
    v, p = view(state, seat), decision_view(state, seat)
    if proxy:
        cmd = negotiator.proxy_choose(v, p, random.Random(0), {} if memo is None else memo)
    else:
        cmd = negotiator.choose(v, p, random.Random(0), {} if memo is None else memo, character=character)
    if cmd is not None and cmd["type"] == "DeclineDeal":  # every decline says why (R8.8)
        assert cmd["why"]["code"] in ("worth_less", "record", "cannot_keep", "words_only", "too_late"), cmd
        cmd = {k: v for k, v in cmd.items() if k != "why"}
    assert cmd is None or cmd in p["legal"], cmd
    return cmd


# -- whole games -------------------------------------------------------------------------

def _whole_games(seat_counts: list[int], seed: int) -> None:
    cycle = [NEGOTIATOR, HEURISTIC, RANDOM]
    proposed = executed = settled = 0
    for i, n in enumerate(seat_counts):
        policies = [cycle[(s + i) % 3] for s in range(n)]
        played = play(GameConfig(seats=n, seed=seed + i), policies, seed + i)
        assert played.result is not None
        t = played.tally
        negotiators = [s for s in range(n) if policies[s] is NEGOTIATOR]
        proposed += sum(t.proposed[s] for s in negotiators)
        executed += sum(t.executed[s] for s in negotiators)
        settled += sum(t.kept[s] + t.broken[s] for s in negotiators)
    assert proposed > 0 and executed > 0 and settled > 0


def test_negotiator_plays_whole_games_with_only_legal_commands_and_deals():
    """Negotiators next to heuristic and random seats, 4 to 12 seats: every
    command is legal and accepted (selfplay raises otherwise), every game
    ends (R9.5), and deals are proposed, executed and their promises settled."""
    _whole_games([4, 12, 5, 9, 6, 7, 8], 300)


@pytest.mark.slow
def test_negotiator_plays_many_whole_games_with_only_legal_commands_and_deals():
    """The same over 120 games of random seat counts."""
    rng = random.Random(4)
    _whole_games([rng.randint(4, 12) for _ in range(120)], 1000)


def test_windows_of_negotiators_close_when_the_fighters_are_done():
    """R10.2b1 with bots only: every asked negotiator hands in its answer
    early and both fighters say done, so the windows close without their
    clock (zero-wait or not, a table of bots never waits for a window)."""
    played = play(GameConfig(seats=6, seed=21), [NEGOTIATOR] * 6, 21)
    assert played.windows > 3
    assert played.windows_timed_out <= played.windows // 5


def test_same_seed_same_game_and_same_deals():
    policies = [NEGOTIATOR, HEURISTIC, NEGOTIATOR, RANDOM, NEGOTIATOR, HEURISTIC]
    one = play(GameConfig(seats=6, seed=8), policies, 8, talk=True)
    two = play(GameConfig(seats=6, seed=8), policies, 8, talk=True)
    assert one.commands == two.commands and one.result == two.result
    assert one.tally.proposed == two.tally.proposed and one.said == two.said


def test_same_inputs_same_answer_and_inputs_untouched():
    """choose and offer are functions of (view, prompt, memo): deep copies
    give the same commands; the view and prompt are left as they were."""
    state, _ = new_game(GameConfig(seats=6, seed=5))
    rng = random.Random(5)
    checked = 0
    while pending(state) and checked < 60:
        d = pending(state)[0]
        if d.pivot is None:
            apply(state, TABLE, Timeout(decision=d.id, pivot=None))
            continue
        for seat in range(state.n):
            v, p = view(state, seat), decision_view(state, seat)
            before = copy.deepcopy((v, p))
            memo: dict = {}
            a = negotiator.choose(v, p, random.Random(1), memo)
            b = negotiator.choose(copy.deepcopy(v), copy.deepcopy(p), random.Random(2), copy.deepcopy(memo))
            assert a == b and (v, p) == before
            assert negotiator.offer(v, p, random.Random(1), {}) == negotiator.offer(v, p, random.Random(2), {})
            checked += 1
        cmd = RANDOM(view(state, d.pivot), decision_view(state, d.pivot), rng)
        apply(state, d.pivot, command_from_plain(cmd))


# -- valuation -------------------------------------------------------------------------------

def _mid_game(seed: int, steps: int):
    """A state reached by random play, and the seat the game waits on."""
    state, _ = new_game(GameConfig(seats=5, seed=seed))
    rng = random.Random(seed)
    for _ in range(steps):
        d = pending(state)[0]
        if d.pivot is None:
            apply(state, TABLE, Timeout(decision=d.id, pivot=None))
            continue
        cmd = RANDOM(view(state, d.pivot), decision_view(state, d.pivot), rng)
        apply(state, d.pivot, command_from_plain(cmd))
        if not pending(state):
            break
    return state


def _gift(card: int, giver: int, receiver: int) -> dict:
    return {"transfers": [{"card": card, "giver": giver, "receiver": receiver, "consideration": "x"}],
            "promises": []}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), pick=st.randoms(use_true_random=False))
def test_a_better_card_is_never_worth_less(seed, steps, pick):
    """Monotone: receiving a card of higher value (R9.3) is never worth less
    to us than one of lower value from the same seat, giving one never
    costs less; and card transfers are zero-sum in points."""
    state = _mid_game(seed, steps)
    if not pending(state):
        return
    me = pick.randrange(state.n)
    r = valuation.reading(view(state, me), decision_view(state, me))
    for other in range(state.n):
        if other == me:
            continue
        theirs = [c for c in state.pile[other] if c not in NINJAS]
        for a in theirs:
            for b in theirs:
                if VALUE[a] > VALUE[b]:
                    assert valuation.deal_value(r, _gift(a, other, me)) > valuation.deal_value(r, _gift(b, other, me))
        mine = [c for c in state.pile[me] if c not in NINJAS]
        for a in mine:
            for b in mine:
                if VALUE[a] > VALUE[b]:
                    assert valuation.deal_value(r, _gift(a, me, other)) < valuation.deal_value(r, _gift(b, me, other))
            deltas = valuation.transfer_deltas(r.b, _gift(a, me, other)["transfers"])
            assert sum(deltas.values()) == pytest.approx(0.0)


def test_our_reading_of_a_partner_is_its_own_when_nothing_is_hidden():
    """Symmetric: with every inhabitant revealed, what we reckon a card deal
    is worth to our partner is what the partner itself reckons."""
    state, _ = configured_game(5, [DAIMYO[0], SAMURAI[0], MAHO[0], NOFU[0], AKINDO[0]], stone=0)
    for s in range(5):
        state.revealed[s] = True
        state.knows[state.inhabitant[s]] = state.all_mask
    move_to_pile(state, 0, SORYO[0])
    move_to_pile(state, 1, NOFU[5])
    deal = {"transfers": [{"card": SORYO[0], "giver": 0, "receiver": 1, "consideration": "x"},
                          {"card": NOFU[5], "giver": 1, "receiver": 0, "consideration": "x"}], "promises": []}
    r0 = valuation.reading(view(state, 0), decision_view(state, 0))
    r1 = valuation.reading(view(state, 1), decision_view(state, 1))
    assert valuation.partner_value(r0, deal, 1) == pytest.approx(valuation.deal_value(r1, deal))
    assert valuation.partner_value(r1, deal, 0) == pytest.approx(valuation.deal_value(r0, deal))
    assert valuation.deal_value(r0, deal) < 0 < valuation.deal_value(r1, deal)


def test_a_promise_is_worth_the_promisers_record():
    """A promise made to us is worth its benefit times the promiser's trust:
    the same promise from a seat that broke its word is worth less."""
    state = _fight_with_promise(late=False, side=None)
    v, p = view(state, 1), decision_view(state, 1)
    offer = {"transfers": [], "promises": [bargain.support_promise(2, 1, 0, 1, "defender")]}
    honest = valuation.deal_value(valuation.reading(v, p), offer)
    v["seats"][2]["broken"] = 3
    liar = valuation.deal_value(valuation.reading(v, p), offer)
    assert honest > liar > 0.0


# -- keeping and breaking promises ---------------------------------------------------------

FIGHT = [NOFU[0], MAHO[0], SORYO[0], NOFU[1], AKINDO[0]]  # seat 0's Nofu attacks seat 1's Maho-Tsukai


def _fight_with_promise(late: bool, side: str | None = "defender"):
    """Seat 0 attacks seat 1; seat 2 (a Soryo, first to declare) took seat
    1's treasure for its promise to support `side`. `late`: the Geisha is
    the third card from the top and every other card of the deck has gone
    to its known bottom, so the game is in its last season."""
    if late:
        state, _ = configured_game(5, FIGHT, stone=0, draws=[NOFU[5], NOFU[6], GEISHA])
        state.known_bottom = len(state.deck) - 3
    else:
        state, _ = configured_game(5, FIGHT, stone=0)
    apply(state, 0, Announce(decision=decision(state).id, action=Action(kind=ActionKind.ATTACK, target=1)))
    while decision(state).topic is Topic.PRIVILEGE:
        d = decision(state)
        apply(state, d.pivot, Pass(decision=d.id))
    assert decision(state).topic is Topic.NEGOTIATION
    if side is not None:
        apply(state, 1, ProposeDeal(
            transfers=(Transfer(card=state.pile[1][0], giver=1, receiver=2, consideration="for your support"),),
            promises=(Promise(promiser=2, promisee=1, text="I support the defender", kind=PromiseKind.SUPPORT,
                              attacker=0, defender=1, side=Side(side)),)))
        apply(state, 2, AcceptDeal(deal=1))
    return state


def _gain_and_cost(state):
    r = valuation.reading(view(state, 2), decision_view(state, 2))
    options = r.support_options(0, 1)
    gain = max(options.values()) - options["defender"]
    return gain, reputation.reputation_cost(r.b, r.seasons_left) + reputation.BREAK_MARGIN, options


def test_rule_keep_or_break_weighs_reputation_against_gain():
    """reputation.keep: keep unless breaking gains more than one more broken
    promise costs; that cost falls as the seasons left run out, and is
    larger for a seat whose short record one break would spoil."""
    b = read(view(configured_game(5, FIGHT, stone=0)[0], 2))
    assert reputation.keep(b, 0.1, 10.0) and not reputation.keep(b, 50.0, 10.0)
    assert reputation.reputation_cost(b, 10.0) > reputation.reputation_cost(b, 1.0) > reputation.reputation_cost(b, 0.0)
    veteran = copy.deepcopy(b)
    veteran.kept[2] = 20
    assert reputation.reputation_cost(veteran, 5.0) < reputation.reputation_cost(b, 5.0)
    assert reputation.trust(veteran, 2) > reputation.trust(b, 2) == 0.75


def test_support_promise_kept_when_the_rule_says_keep():
    """Early in the game breaking the promise would gain less than our name
    is worth: seat 2 supports the defender as promised, sealed at once in
    the window (R10.2) and again as the pivot of the support round."""
    state = _fight_with_promise(late=False)
    gain, cost, options = _gain_and_cost(state)
    assert max(options, key=options.get) != "defender", "the scenario needs a promise that costs something"
    assert 0.0 < gain <= cost
    window = decision(state)
    assert _ask(state, 2) == {"type": "Support", "decision": window.id, "side": "defender"}
    apply(state, TABLE, Timeout(decision=window.id, pivot=None))
    support = decision(state)  # an id of its own (R10.2b2)
    assert support.pivot == 2
    assert _ask(state, 2) == {"type": "Support", "decision": support.id, "side": "defender"}


def test_support_promise_broken_when_the_rule_says_break():
    """In the last season our good name is worth little: the same promise,
    whose breaking now gains more than it costs, is broken — and the proxy
    of an away seat keeps it all the same (it never breaks a promise in the
    player's name)."""
    state = _fight_with_promise(late=True)
    gain, cost, options = _gain_and_cost(state)
    assert gain > cost
    window = decision(state)
    apply(state, TABLE, Timeout(decision=window.id, pivot=None))
    support = decision(state)  # an id of its own (R10.2b2)
    assert support.pivot == 2
    best = max(options, key=options.get)
    answer = _ask(state, 2)
    assert answer == {"type": "Support", "decision": support.id, "side": best} and best != "defender"
    assert _ask(state, 2, proxy=True) == {"type": "Support", "decision": support.id, "side": "defender"}
    apply(state, 2, command_from_plain(answer))
    while state.round is not None and decision(state).id == support.id:
        apply(state, decision(state).pivot, Pass(decision=support.id))
    assert (state.kept[2], state.broken[2]) == (0, 1)  # the ledger settles it when the round closes (R8.6)


# -- the seat proxy (R10.3) --------------------------------------------------------------------

def test_proxy_never_answers_early_and_never_deals():
    """R10.2d: as a proxy it waits for the seat's turn (no sealed answer in
    the window, none in the round ahead of its turn); it accepts no deal in
    the player's name, even one the negotiator itself takes at once."""
    state = _fight_with_promise(late=False, side=None)
    window = decision(state)
    for seat in window.asked:
        assert _ask(state, seat, proxy=True) is None
    assert _ask(state, 2) is not None  # the negotiator itself seals early
    apply(state, 4, ProposeDeal(transfers=(Transfer(card=state.pile[4][0], giver=4, receiver=3,
                                                    consideration="for your kind words"),)))
    assert _ask(state, 3)["type"] == "AcceptDeal"
    assert _ask(state, 3, proxy=True) is None  # not its turn, and no deals
    apply(state, TABLE, Timeout(decision=window.id, pivot=None))
    assert decision(state).pivot == 2
    assert _ask(state, 3, proxy=True) is None  # seat 3 is asked after seat 2
    apply(state, 2, Pass(decision=window.id))
    assert decision(state).pivot == 3
    assert _ask(state, 3, proxy=True)["type"] in ("Pass", "Support")
    assert NEGOTIATOR.proxy is negotiator.proxy_choose


# -- bargaining ---------------------------------------------------------------------------------

STAKES = [MAHO[0], DAIMYO[0], SORYO[0], NOFU[1], AKINDO[1]]  # seat 0's Maho-Tsukai attacks seat 1's Daimyo


def _high_stakes():
    """A fight worth bargaining over: seat 0 (Maho-Tsukai, 5) attacks seat 1
    (Daimyo, 4); each fighter holds a Nofu among its score cards, seat 0 a
    Daimyo too; seats 2 (a Soryo), 3 and 4 are asked."""
    state, _ = configured_game(5, STAKES, stone=0)
    move_to_pile(state, 0, DAIMYO[1])
    move_to_pile(state, 0, NINJA[0])
    move_to_pile(state, 1, NOFU[8])
    apply(state, 0, Announce(decision=decision(state).id, action=Action(kind=ActionKind.ATTACK, target=1)))
    while decision(state).topic is Topic.PRIVILEGE:
        d = decision(state)
        apply(state, d.pivot, Pass(decision=d.id))
    assert decision(state).topic is Topic.NEGOTIATION
    return state


def test_fighter_buys_support_then_says_done():
    """As the defender of a close fight, the negotiator offers one of its
    score cards to an undecided seat for its promise to support it; with
    that offer open it is not done; once it has nothing more to offer it
    says done (R10.2b1)."""
    state = _high_stakes()
    memo: dict = {}
    v = view(state, 1)
    deal = negotiator.offer(v, v["decision"], random.Random(0), memo)
    assert deal is not None and deal["type"] == "ProposeDeal"
    (t,), (p,) = deal["transfers"], deal["promises"]
    assert t["giver"] == 1 and t["card"] in state.pile[1] and t["receiver"] == p["promiser"]
    assert (p["kind"], p["attacker"], p["defender"], p["side"], p["promisee"]) == ("support", 0, 1, "defender", 1)
    assert p["promiser"] in decision(state).asked
    apply(state, 1, command_from_plain(deal))
    assert _ask(state, 1, memo) is None  # its offer is open: not done yet
    apply(state, p["promiser"], AcceptDeal(deal=state.next_deal - 1))
    for _ in range(10):
        extra = negotiator.offer(view(state, 1), decision_view(state, 1), random.Random(0), memo)
        if extra is None:
            break
        apply(state, 1, command_from_plain(extra))
        for d in list(state.deals.values()):
            apply(state, next(s for s in d.parties if s not in d.accepted), AcceptDeal(deal=d.id))
    assert _ask(state, 1, memo) == {"type": "Done", "decision": decision(state).id}


def test_a_lowball_offer_is_declined_with_a_counter_offer():
    """Asked to promise its support for a card worth less than the promise
    costs it, the (ruthless) negotiator offers the same promise for a better
    card of the proposer's, then declines, with a reason (R8.8); the counter
    is said in plain words."""
    ruthless = characters.RUTHLESS
    state = _high_stakes()
    apply(state, 0, ProposeDeal(
        transfers=(Transfer(card=NINJA[0], giver=0, receiver=2, consideration="for your support"),),
        promises=(Promise(promiser=2, promisee=0, text="I support the attacker", kind=PromiseKind.SUPPORT,
                          attacker=0, defender=1, side=Side.ATTACKER),)))
    memo: dict = {}
    v = view(state, 2)
    counter = negotiator.choose(v, v["decision"], random.Random(0), memo, character=ruthless)
    if counter is not None and counter["type"] == "Support":  # its sealed answer says so first
        apply(state, 2, command_from_plain(counter))
        v = view(state, 2)
        counter = negotiator.choose(v, v["decision"], random.Random(0), memo, character=ruthless)
    assert counter is not None and counter["counter_to"] == 1 and counter["why"] == {"code": "counter", "deal": 1}
    apply(state, 2, command_from_plain(counter))
    assert _ask(state, 2, memo, character=ruthless) == {"type": "DeclineDeal", "deal": 1}  # then the decline
    (t,) = counter["transfers"]
    assert (t["giver"], t["receiver"]) == (0, 2) and VALUE[t["card"]] > VALUE[NINJA[0]]
    assert [p["side"] for p in counter["promises"]] == ["attacker"]
    line = negotiator.say(v, counter)
    assert line.startswith("Counter-offer to deal 1: seat 0 gives me a") and "I will support the attacker" in line
    assert negotiator.offer(v, v["decision"], random.Random(0), memo, character=ruthless) != counter  # never twice


def _ninjas(mine: int):
    state, _ = configured_game(5, [SAMURAI[0], NOFU[0], AKINDO[0], NOFU[1], NOFU[2]], stone=1)
    for c in NINJA[:mine]:
        move_to_pile(state, 0, c)
    move_to_pile(state, 3, NINJA[2])
    return view(state, 0)


def test_a_ninja_is_bought_with_a_promise_of_peace():
    """R9.1: three Ninjas win. A seat holding one Ninja asks another for
    its own, which scores it nothing, against a promise not to attack it
    this season."""
    v = _ninjas(1)
    deal = negotiator.offer(v, v["decision"], random.Random(0), {})
    assert deal is not None
    assert deal["transfers"] == [{"type": "Transfer", "card": NINJA[2], "giver": 3, "receiver": 0,
                                  "consideration": "for my promise not to attack you this season"}]
    assert [(p["kind"], p["promiser"], p["seat"]) for p in deal["promises"]] == [("no_attack", 0, 3)]


def test_the_third_ninja_is_asked_only_of_a_seat_that_gives_ninjas_away():
    """By our reading no seat gives up the Ninja that would win us the game
    (R9.1), so we do not ask — unless that seat's answers so far say
    otherwise: it took such offers before (the memo's record of answers)."""
    v = _ninjas(2)
    assert negotiator.offer(v, v["decision"], random.Random(0), {}) is None
    memo: dict = {"answers": {("card0", 3): (1, 0)}}
    deal = negotiator.offer(v, v["decision"], random.Random(0), memo)
    assert deal is not None and deal["transfers"][0]["card"] == NINJA[2]


def test_words_say_a_deal_plainly():
    deal = {"transfers": [{"card": NOFU[0], "giver": 1, "receiver": 4, "consideration": "x"}],
            "promises": [bargain.support_promise(4, 1, 0, 1, "defender"), bargain.peace_promise(3, 1)]}
    from oriente.server.policies import words
    assert words.deal_words(deal, speaker=1) == (
        "I give seat 4 a Nofu (1); seat 4 will support the defender, me, in the fight of seat 0 against seat 1; "
        "seat 3 will not attack me this season.")
    assert words.deal_words(deal) == (
        "seat 1 gives seat 4 a Nofu (1); seat 4 will support the defender, seat 1, in the fight of seat 0 against "
        "seat 1; seat 3 will not attack seat 1 this season.")


def test_a_promise_of_peace_is_never_taken_while_our_attack_is_announced():
    """Seat 0 has announced its attack on seat 1; seat 1 offers its card
    for seat 0's promise not to attack it this season. The attack becomes
    final unless somebody claims over it (R10.2a), and its fulfilment
    breaks the promise (R8.6): the bot cannot keep it, so it is worth
    NEVER and the offer is declined, not taken and broken at once."""
    state, _ = configured_game(5, FIGHT, stone=0)
    apply(state, 0, Announce(decision=decision(state).id, action=Action(kind=ActionKind.ATTACK, target=1)))
    assert decision(state).topic is Topic.PRIVILEGE
    apply(state, 1, ProposeDeal(
        transfers=(Transfer(card=state.pile[1][0], giver=1, receiver=0, consideration="for your peace"),),
        promises=(Promise(promiser=0, promisee=1, text="I will not attack you", kind=PromiseKind.NO_ATTACK,
                          seat=1),)))
    v, p = view(state, 0), decision_view(state, 0)
    offer = v["deals"][0]
    assert attacking(valuation.reading(v, p).b, 1)
    assert valuation.deal_value(valuation.reading(v, p), offer) == valuation.NEVER
    for character in characters.CHARACTERS.values():
        v, p = view(state, 0), decision_view(state, 0)
        answers = [negotiator.choose(v, p, random.Random(0), {}, character=character)]
        assert not any(a is not None and a["type"] == "AcceptDeal" for a in answers), (character, answers)
    v, p = view(state, 0), decision_view(state, 0)
    answer = HEURISTIC.choose(v, p, random.Random(0), {})
    assert answer is None or answer["type"] != "AcceptDeal", answer
