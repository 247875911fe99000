"""Shared helpers for the rules tests: configured decks and driving decisions."""


# -- configured tables and driving decisions (R6-R10 tests) -------------------

from oriente.games.oriente.rules import TABLE as _TABLE
from oriente.games.oriente.rules import Action as _Action
from oriente.games.oriente.rules import Announce as _Announce
from oriente.games.oriente.rules import GameConfig as _GameConfig
from oriente.games.oriente.rules import Pass as _Pass
from oriente.games.oriente.rules import Timeout as _Timeout
from oriente.games.oriente.rules import Topic as _Topic
from oriente.games.oriente.rules import apply as _apply
from oriente.games.oriente.rules import new_game as _new_game
from oriente.games.oriente.rules import pending as _pending
from oriente.games.oriente.rules.cards import GEISHA as _GEISHA


def table_state(n, inhabitants, *, bonus=None, draws=(), piles=None, stone=0,
                treasures=None, seed=0, max_open_proposals=3, rules_revision=2):
    """A configured game (R2.8) whose seats hold `inhabitants` (face down),
    whose next draws from the deck are `draws` (top first), and whose score
    piles additionally hold the cards of `piles` ({seat: [card, ...]}),
    taken from the deck after setup. The Geisha lies at the very bottom
    unless it is named in `draws`. Returns (state, setup events)."""
    inhabitants = list(inhabitants)
    assert len(inhabitants) == n
    draws = list(draws)
    piles = {s: list(cs) for s, cs in (piles or {}).items()}
    in_piles = [c for cs in piles.values() for c in cs if c < 41]
    named = inhabitants + draws + ([bonus] if bonus is not None else [])
    assert len(set(named + in_piles)) == len(named) + len(in_piles), "a card is named twice"
    rest = [c for c in range(41) if c not in named and c not in in_piles and c != _GEISHA]
    if bonus is None:
        bonus = rest.pop(0)
    tail = rest + in_piles + ([] if _GEISHA in draws else [_GEISHA])
    deck = (bonus, *inhabitants, *draws, *tail)
    if treasures is None:
        treasures = tuple(range(41, 41 + n))
    cfg = _GameConfig(seats=n, seed=seed, deck=deck, treasures=tuple(treasures),
                      stone_holder=stone, max_open_proposals=max_open_proposals, rules_revision=rules_revision)
    state, events = _new_game(cfg)
    for seat, cards in piles.items():
        for c in cards:
            move_to_pile(state, seat, c)
    assert_cards_conserved(state)
    return state, events


def move_to_pile(state, seat, card):
    """Move one card from wherever it lies (deck, bonus, another pile, out
    of the game) onto `seat`'s score pile, face up."""
    if card in state.deck:
        index = state.deck.index(card)
        assert index >= state.known_bottom, "cannot take a card from the known bottom"
        state.deck.pop(index)
    elif card in state.bonus:
        state.bonus.remove(card)
    elif card in state.out_of_game:
        state.out_of_game.remove(card)
    else:
        for pile in state.pile:
            if card in pile:
                pile.remove(card)
                break
        else:
            raise AssertionError(f"card {card} is not in the deck, the bonus, a pile or out of the game")
    state.pile[seat].append(card)
    state.knows[card] = state.all_mask


def assert_cards_conserved(state):
    """R1.5: each of the 53 cards is in exactly one place."""
    assert sorted(c for _, c in state.card_places()) == list(range(53))


def decision(state):
    """The one open decision."""
    open_now = _pending(state)
    assert len(open_now) == 1, open_now
    return open_now[0]


def ask_until(state, seat):
    """Pass every asking prompt (R3.2) until `seat` is asked; returns the events."""
    events: list = []
    for _ in range(4 * state.n):
        d = decision(state)
        assert d.topic is _Topic.ANNOUNCE, d
        if d.pivot == seat:
            return events
        events += _apply(state, d.pivot, _Pass(decision=d.id))
    raise AssertionError(f"seat {seat} was never asked")


def announce(state, seat, kind, target=None):
    """Ask until `seat` is asked, then announce; returns the events of the announcement."""
    ask_until(state, seat)
    d = decision(state)
    return _apply(state, seat, _Announce(decision=d.id, action=_Action(kind=kind, target=target)))


def pass_privilege(state):
    """Every asked seat passes the open privilege round(s); returns the events."""
    events = []
    while _pending(state) and decision(state).topic is _Topic.PRIVILEGE:
        d = decision(state)
        events += _apply(state, d.pivot, _Pass(decision=d.id))
    return events


def fulfil(state, seat, kind, target=None):
    """Announce and let nobody claim privilege; returns all events."""
    return announce(state, seat, kind, target) + pass_privilege(state)


def close_window(state):
    """The table closes the negotiation window at its deadline (R10.2b)."""
    d = decision(state)
    assert d.topic is _Topic.NEGOTIATION, d
    return _apply(state, _TABLE, _Timeout(decision=d.id, pivot=None))


def answer_round(state, answers, topic):
    """Answer the open round of `topic` on each pivot's turn: `answers[seat]`
    makes a command from the decision id; seats not listed pass."""
    events = []
    while _pending(state) and decision(state).topic is topic:
        d = decision(state)
        make = answers.get(d.pivot)
        cmd = make(d.id) if make is not None else _Pass(decision=d.id)
        events += _apply(state, d.pivot, cmd)
    return events


def events_of(events, cls):
    return [e for e in events if isinstance(e, cls)]


def one_event(events, cls):
    found = events_of(events, cls)
    assert len(found) == 1, (cls.__name__, events)
    return found[0]


# -- configured decks by card, and answering decisions one by one (R1-R5 tests) ----

import oriente.games.oriente.rules as _rules  # noqa: E402
from oriente.games.oriente.rules import decks as _decks  # noqa: E402

SHOGUN = 0
SORYO = (1, 2)
MAHO = (3, 4, 5, 6)
DAIMYO = (7, 8, 9, 10, 11)
SAMURAI = (12, 13, 14, 15, 16, 17)
AKINDO = (18, 19, 20, 21, 22, 23, 24)
NOFU = tuple(range(25, 37))
NINJA = (37, 38, 39)
GEISHA = 40

# Configured deals by card: the package's builder (server/rules/decks.py).
build_deck = _decks.build_deck


def configured(seats, inhabitants=None, **kwargs):
    """A GameConfig for a configured deal (R2.8): `decks.configured_deal`;
    treasures default to 41, 42, ... (seat s gets 41 + s)."""
    return _decks.configured_deal(seats, inhabitants, **kwargs)


def configured_game(seats, inhabitants=None, **kwargs):
    """new_game on `configured(...)`; returns (state, setup events)."""
    return _rules.new_game(configured(seats, inhabitants, **kwargs))


def make_action(kind, target=None):
    return _rules.Action(kind=kind, target=target)


def announce_now(state, seat, kind, target=None):
    """Announce when asked: the open decision must be `seat`'s announce prompt."""
    d = _rules.pending(state)[0]
    assert d.topic is _rules.Topic.ANNOUNCE and d.pivot == seat, f"seat {seat} is not asked: {d}"
    return _rules.apply(state, seat, _rules.Announce(decision=d.id, action=make_action(kind, target)))


def pass_turn(state, seat=None):
    """The asked seat passes (R3.2); with `seat`, it must be the one asked."""
    d = _rules.pending(state)[0]
    assert d.topic is _rules.Topic.ANNOUNCE, d
    if seat is not None:
        assert d.pivot == seat, f"seat {seat} is not asked: {d}"
    assert d.pivot is not None
    return _rules.apply(state, d.pivot, _rules.Pass(decision=d.id))


def claim(state, seat, kind, target=None):
    """Claim privilege in the open privilege round (early, or as the pivot)."""
    d = _rules.pending(state)[0]
    return _rules.apply(state, seat, _rules.Claim(decision=d.id, action=make_action(kind, target)))


def answer_pass(state, seat):
    """Pass in the open round (early, or as the pivot)."""
    d = _rules.pending(state)[0]
    return _rules.apply(state, seat, _rules.Pass(decision=d.id))


def support(state, seat, side):
    d = _rules.pending(state)[0]
    return _rules.apply(state, seat, _rules.Support(decision=d.id, side=side))


def join(state, seat):
    d = _rules.pending(state)[0]
    return _rules.apply(state, seat, _rules.Join(decision=d.id))


def choose(state, seat, card):
    d = _rules.pending(state)[0]
    return _rules.apply(state, seat, _rules.Choose(decision=d.id, card=card))


def say_done(state, seat):
    """A fighter says done in the open negotiation window (R10.2b1)."""
    d = _rules.pending(state)[0]
    return _rules.apply(state, seat, _rules.Done(decision=d.id))


def timeout(state):
    """The table's clock runs out on the open decision (its pivot, or a window)."""
    d = _rules.pending(state)[0]
    return _rules.apply(state, _rules.TABLE, _rules.Timeout(decision=d.id, pivot=d.pivot))


def pass_round(state):
    """Every seat of the open round passes on its turn until the round closes."""
    d = _rules.pending(state)[0]
    assert d.kind is _rules.DecisionKind.ROUND, d
    events: list = []
    while _rules.pending(state) and _rules.pending(state)[0].id == d.id:
        pivot = _rules.pending(state)[0].pivot
        assert pivot is not None
        events += _rules.apply(state, pivot, _rules.Pass(decision=d.id))
    return events


def settle(state, limit=500):
    """Silence decides every open round, window and prompt until a seat is
    asked to announce, or the game ends; returns the events."""
    events: list = []
    for _ in range(limit):
        open_now = _rules.pending(state)
        if not open_now:
            return events
        d = open_now[0]
        if d.topic is _rules.Topic.ANNOUNCE:
            return events
        if d.kind is _rules.DecisionKind.ROUND:
            assert d.pivot is not None  # a round always asks someone
            events += _rules.apply(state, d.pivot, _rules.Pass(decision=d.id))
        else:
            events += _rules.apply(state, _rules.TABLE, _rules.Timeout(decision=d.id, pivot=d.pivot))
    raise AssertionError("the game did not settle")


def give(state, card, giver, receiver, why="for services rendered"):
    """A one-card deal (R8): proposed by the giver, accepted by the receiver."""
    events = _rules.apply(state, giver, _rules.ProposeDeal(transfers=(
        _rules.Transfer(card=card, giver=giver, receiver=receiver, consideration=why),)))
    return events + _rules.apply(state, receiver, _rules.AcceptDeal(deal=events[-1].deal))


def pass_season(state):
    """Everyone passes until the season ends (or the game does); returns the events."""
    from oriente.games.oriente.rules import Pass, Topic, apply, pending
    season = state.season
    events = []
    while state.season == season and pending(state):
        d = decision(state)
        assert d.topic is Topic.ANNOUNCE
        events += apply(state, d.pivot, Pass(decision=d.id))
    return events
