"""Rules R1 (components), R2 (setup) and R3 (seasons and asking) of docs/rules.md."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from oriente.server.rules import (
    TABLE,
    AcceptDeal,
    ActionKind,
    ConfigError,
    DecisionKind,
    GameConfig,
    Pass,
    Phase,
    ProposeDeal,
    Rejected,
    Side,
    Timeout,
    Topic,
    Transfer,
    apply,
    legal,
    new_game,
    pending,
    project,
    view,
)
from oriente.server.rules import events as E
from oriente.server.rules.cards import KIND, RANK, VALUE, Kind
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
    assert_cards_conserved,
    build_deck,
    choose,
    close_window,
    configured,
    configured_game,
    decision,
    events_of,
    pass_round,
    pass_turn,
    settle,
    support,
    timeout,
)

# -- a seeded random player, for the invariants that must hold at every moment ----------

def _random_step(state, rng: random.Random) -> list:
    """One random but legal command: an answer to the open decision (by its
    pivot, or early by a later seat), or now and then a one-card deal."""
    d = pending(state)[0]
    if rng.random() < 0.05:
        holders = [s for s in range(state.n) if state.pile[s]]
        if holders:
            giver = rng.choice(holders)
            receiver = rng.choice([s for s in range(state.n) if s != giver])
            card = rng.choice(state.pile[giver])
            ev = apply(state, giver, ProposeDeal(transfers=(
                Transfer(card=card, giver=giver, receiver=receiver, consideration="a promise"),)))
            return ev + apply(state, receiver, AcceptDeal(deal=ev[-1].deal))
    if d.kind is DecisionKind.WINDOW:
        if rng.random() < 0.5:
            return apply(state, TABLE, Timeout(decision=d.id, pivot=None))
        seat = rng.choice(d.asked)
    elif d.early and rng.random() < 0.3:
        seat = rng.choice(d.early)
    else:
        seat = d.pivot
    options = [c for c in legal(state, seat) if getattr(c, "decision", None) == d.id]
    if d.topic is Topic.ANNOUNCE and rng.random() < 0.4:
        options = options[:1]  # the pass
    return apply(state, seat, rng.choice(options))


def _play(state, rng: random.Random, steps: int, check=None) -> list:
    events: list = []
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        events += _random_step(state, rng)
        if check is not None:
            check(state)
    return events


def _top_first(state) -> list[int]:
    """The 41 inhabitants as they lay in the built deck, top first (R2.6, R2.7)."""
    return list(state.bonus) + list(state.inhabitant) + state.deck[::-1]


# -- R1 Components ------------------------------------------------------------------------

def test_r1_1_inhabitant_deck_has_41_cards_with_printed_counts_and_values():
    """R1.1 Inhabitant deck (41 cards). rank/value, name, count:
    7 Shogun ×1 · 6 Soryo (priest) ×2 · 5 Maho-Tsukai (sorcerer) ×4 ·
    4 Daimyo (noble) ×5 · 3 Samurai ×6 · 2 Akindo (merchant) ×7 ·
    1 Nofu (peasant) ×12 · 0 Ninja ×3 · Geisha ×1 (no value, no rank).
    An inhabitant's number is at once its rank, its fighting strength and its
    score value."""
    printed = {
        Kind.SHOGUN: (7, 1), Kind.SORYO: (6, 2), Kind.MAHO_TSUKAI: (5, 4), Kind.DAIMYO: (4, 5),
        Kind.SAMURAI: (3, 6), Kind.AKINDO: (2, 7), Kind.NOFU: (1, 12), Kind.NINJA: (0, 3),
    }
    for seed, seats in ((1, 4), (2, 7), (3, 12)):
        state, _ = new_game(GameConfig(seats=seats, seed=seed))
        cards = _top_first(state)
        assert len(cards) == 41 and sorted(cards) == list(range(41))
        counts = Counter(KIND[c] for c in cards)
        assert counts == Counter({k: n for k, (_, n) in printed.items()} | {Kind.GEISHA: 1})
    for card in range(40):
        number, _ = printed[KIND[card]]
        assert VALUE[card] == number and RANK[card] == number
    assert KIND[GEISHA] is Kind.GEISHA and RANK[GEISHA] < 0
    # the number is the score value: an Income card scores its number at the end
    state, _ = configured_game(4, {0: DAIMYO[0]}, draws=[SAMURAI[0]])
    announce_now(state, 0, ActionKind.INCOME)
    settle(state)
    assert SAMURAI[0] in state.pile[0] and VALUE[SAMURAI[0]] == 3


def test_r1_2_treasures_four_each_of_2_3_4_one_per_seat_rest_out_of_game():
    """R1.2 Treasures (12 cards): four each of value 2, 3 and 4. Only one per
    seat is used; the rest stay out of the game."""
    assert sorted(VALUE[c] for c in range(41, 53)) == [2] * 4 + [3] * 4 + [4] * 4
    assert all(KIND[c] is Kind.TREASURE for c in range(41, 53))
    for seats in (4, 9, 12):
        state, _ = new_game(GameConfig(seats=seats, seed=seats))
        dealt = [c for s in range(seats) for c in state.pile[s]]
        assert all(len(state.pile[s]) == 1 for s in range(seats))
        assert len(set(dealt)) == seats and all(41 <= c <= 52 for c in dealt)
        assert sorted(state.out_of_game) == sorted(set(range(41, 53)) - set(dealt))
        assert len(state.out_of_game) == 12 - seats


def test_r1_3_one_disc_per_seat_six_workers_one_stone():
    """R1.3 One action disc per seat, 6 workers, the square card with its hut,
    one destiny stone."""
    for seats in (4, 8):
        state, _ = new_game(GameConfig(seats=seats, seed=5))
        v = view(state, 0)
        assert [s["disc"] for s in v["seats"]] == [True] * seats
        w = v["workers"]
        assert w["supply"] + w["hut"] + w["square"] == 6
        assert v["stone_holder"] in range(seats)
        assert state.hut_used is (seats >= 8)


def test_r1_4_four_to_twelve_seats_numbered_clockwise():
    """R1.4 Players: 4 to 12. Seats are numbered 0..n-1; *clockwise* means
    increasing seat number, wrapping around; a seat's *left neighbour* is the
    next seat clockwise."""
    for bad in (0, 3, 13):
        with pytest.raises(ConfigError):
            GameConfig(seats=bad)
    for good in (4, 12):
        state, _ = new_game(GameConfig(seats=good))
        assert len(state.inhabitant) == good
    # clockwise wraps from the last seat to seat 0
    state, _ = configured_game(6, stone=5)
    order = []
    for _ in range(6):
        order.append(decision(state).pivot)
        pass_turn(state)
    assert order == [5, 0, 1, 2, 3, 4]


@pytest.mark.parametrize("seed", range(12))
def test_r1_5_every_card_is_in_exactly_one_place_at_every_moment(seed):
    """R1.5 Every card is one object. Cards are never created or destroyed; at
    every moment each of the 53 cards is in exactly one place: the deck, the
    bonus pile, the bonus set aside for a fulfilling seat (R4.5), a seat's
    inhabitant slot, a seat's score pile, out of the game (unused treasures),
    or a transient place named by the rule that puts it there (reinforcements,
    the Transformation pool, loot). A Geisha drawn at the end lies face up
    beside the deck."""
    rng = random.Random(seed)
    state, _ = new_game(GameConfig(seats=4 + seed % 9, seed=seed))
    assert_cards_conserved(state)
    _play(state, rng, 4000, check=assert_cards_conserved)
    assert state.phase is Phase.OVER
    if state.over_reason == "geisha":
        assert state.geisha_out == GEISHA
        assert GEISHA not in state.deck
        assert view(state, 0)["geisha"] == GEISHA  # face up, for everyone


# -- R2 Setup -----------------------------------------------------------------------------

def test_r2_1_stone_holder_from_the_seed_or_the_configuration():
    """R2.1 The destiny stone goes to a seat chosen at random (or given by the
    table's configuration)."""
    for stone in (0, 2, 4):
        state, _ = configured_game(5, stone=stone)
        assert state.stone == stone
        assert decision(state).pivot == stone
    holders = {new_game(GameConfig(seats=6, seed=seed))[0].stone for seed in range(40)}
    assert len(holders) > 1 and holders <= set(range(6))
    assert new_game(GameConfig(seats=6, seed=17))[0].stone == new_game(GameConfig(seats=6, seed=17))[0].stone


def test_r2_2_every_seat_starts_with_its_disc():
    """R2.2 Every seat gets its action disc."""
    for cfg in (GameConfig(seats=7, seed=3), configured(5, stone=1)):
        state, _ = new_game(cfg)
        assert state.disc == [True] * cfg.seats
    # and every seat can use it: each is asked in the first season
    state, _ = configured_game(5, stone=1)
    asked = []
    for _ in range(5):
        asked.append(decision(state).pivot)
        pass_turn(state)
    assert sorted(asked) == list(range(5))


def test_r2_3_each_seat_gets_one_treasure_face_up_as_first_score_card():
    """R2.3 Shuffle the treasures; each seat gets one, face up, as its first
    score card. The rest are out of the game."""
    treasures = (45, 50, 41, 52)
    state, _ = configured_game(4, treasures=treasures)
    assert [list(p) for p in state.pile] == [[t] for t in treasures]
    assert sorted(state.out_of_game) == sorted(set(range(41, 53)) - set(treasures))
    for viewer in (1, "spectator"):
        assert [s["pile"] for s in view(state, viewer)["seats"]] == [[t] for t in treasures]
    # unconfigured: the treasures come from the seed, one per seat
    dealt = {tuple(c for p in new_game(GameConfig(seats=4, seed=s))[0].pile for c in p) for s in range(20)}
    assert len(dealt) > 1


def test_r2_4_all_six_workers_start_in_the_supply():
    """R2.4 All 6 workers are in the supply; none on the square or in the hut."""
    for seats in (4, 8, 12):
        state, _ = new_game(GameConfig(seats=seats, seed=seats))
        assert view(state, "spectator")["workers"] | {"hut_used": None} == {
            "supply": 6, "hut": 0, "square": 0, "hut_used": None}


@pytest.mark.parametrize("seed", range(40))
def test_r2_5_deck_build_puts_geisha_at_depth_33_to_37(seed):
    """R2.5 Deck build. Set aside Geisha, Shogun and the 3 Ninjas. Shuffle the
    other 36. Count off two packets of 4 cards (P1, P2); the remaining 28 are
    P3. Shuffle the Geisha into P1 (5 cards) and put P1 on top of P2 (9 cards).
    Shuffle Shogun and the 3 Ninjas into P3 (32 cards) and put that on top.
    Result, top to bottom: 32 cards (Shogun and all Ninjas among them), then 5
    cards with the Geisha among them, then 4 cards. So the Geisha lies at depth
    33 to 37 from the top."""
    state, _ = new_game(GameConfig(seats=4 + seed % 9, seed=seed))
    deck = _top_first(state)
    assert sorted(deck) == list(range(41))
    assert 33 <= deck.index(GEISHA) + 1 <= 37
    for special in (SHOGUN, *NINJA):
        assert deck.index(special) < 32


def test_r2_5_deck_build_is_shuffled():
    """R2.5 ... Shuffle the other 36. ... Shuffle the Geisha into P1 (5 cards)
    ... Shuffle Shogun and the 3 Ninjas into P3 (32 cards) and put that on top."""
    decks = [_top_first(new_game(GameConfig(seats=4, seed=s))[0]) for s in range(30)]
    assert len({tuple(d) for d in decks}) == 30
    assert len({d.index(GEISHA) for d in decks}) >= 3
    assert len({d.index(SHOGUN) for d in decks}) >= 5
    # the last 4 cards (P2) are not fixed either
    assert len({tuple(d[-4:]) for d in decks}) > 1


def test_r2_6_top_card_becomes_the_face_down_bonus_card():
    """R2.6 The top card of the deck becomes the bonus card, face down."""
    state, events = configured_game(4, bonus=SORYO[1])
    assert state.bonus == [SORYO[1]]
    started = events_of(events, E.GameStarted)[0]
    assert started.bonus_card == SORYO[1]
    for viewer in (0, 1, 2, 3, "spectator"):
        v = view(state, viewer)
        assert v["bonus_size"] == 1
        assert "bonus" not in v
        assert SORYO[1] not in [s["inhabitant"] for s in v["seats"]]
        assert project(started, viewer)["bonus_card"] is None


def test_r2_7_seats_take_the_next_cards_in_seat_order_face_down():
    """R2.7 Then each seat, in seat order from seat 0, takes the next card as
    its inhabitant, face down. The owner may look at it at any time."""
    cards = [MAHO[0], NINJA[0], SHOGUN, AKINDO[0], DAIMYO[0]]
    cfg = configured(5, cards, bonus=SAMURAI[0], draws=[SORYO[0]])
    assert cfg.deck[0] == SAMURAI[0] and list(cfg.deck[1:6]) == cards
    state, _ = new_game(cfg)
    assert state.inhabitant == cards
    assert state.revealed == [False] * 5
    for viewer in range(5):
        seen = [s["inhabitant"] for s in view(state, viewer)["seats"]]
        assert seen == [c if s == viewer else None for s, c in enumerate(cards)]
    # the rest stays the deck, in order: the next card drawn is deck[n + 1]
    assert state.deck[-1] == SORYO[0]


def test_r2_8_same_seed_same_game():
    """R2.8 Every table has a seed; all randomness of setup and play comes from
    it, deterministically, with one independent stream per kind of random
    event (deck build, treasures, stone, Trade draw, loot, redistribution,
    Transformation shuffle, silence defaults), so that two tables with the
    same seed stay as alike as their play allows (duplicate tournaments)."""
    runs = []
    for _ in range(2):
        state, events = new_game(GameConfig(seats=6, seed=1234))
        events += _play(state, random.Random(99), 3000)
        runs.append((events, [list(p) for p in state.pile], state.result))
    assert runs[0] == runs[1]
    assert runs[0][2] is not None  # the game ran to its end
    setups = {
        (tuple(_top_first(st)), st.stone, tuple(tuple(p) for p in st.pile))
        for st in (new_game(GameConfig(seats=6, seed=s))[0] for s in range(5))
    }
    assert len(setups) == 5


def test_r2_8_each_kind_of_random_event_has_its_own_stream():
    """R2.8 ... all randomness of setup and play comes from it,
    deterministically, with one independent stream per kind of random event
    (deck build, treasures, stone, Trade draw, loot, redistribution,
    Transformation shuffle, silence defaults), so that two tables with the
    same seed stay as alike as their play allows (duplicate tournaments)."""
    for seed in (7, 4242):
        cfg = configured(8, {0: MAHO[0]}, seed=seed)
        # table A lets the clock pick the kept card (a silence default) ...
        a, _ = new_game(cfg)
        announce_now(a, 0, ActionKind.TRANSFORMATION)
        pass_round(a)
        done_a = events_of(timeout(a), E.TransformationDone)[0]
        # ... table B picks the same card by hand: its shuffle must not differ
        b, _ = new_game(cfg)
        announce_now(b, 0, ActionKind.TRANSFORMATION)
        pass_round(b)
        done_b = events_of(choose(b, 0, done_a.kept), E.TransformationDone)[0]
        assert done_b.dealt == done_a.dealt
        assert b.inhabitant == a.inhabitant


def test_r2_8_configured_deal_is_used_as_given_whatever_the_seed():
    """R2.8 A table may instead be created from an explicit deck order,
    treasure assignment and stone holder (for duplicate tournaments, puzzles
    and reproducing bugs); setup then uses them as given and still applies
    R2.6 and R2.7."""
    deck = build_deck(4, [SHOGUN, NOFU[0], MAHO[0], NINJA[0]], bonus=DAIMYO[0], draws=[SORYO[0]])
    cfg = {"seats": 4, "deck": deck, "treasures": (52, 41, 47, 44), "stone_holder": 2}
    for seed in (0, 1, 77):
        state, _ = new_game(GameConfig(seed=seed, **cfg))
        assert state.bonus == [DAIMYO[0]]
        assert state.inhabitant == [SHOGUN, NOFU[0], MAHO[0], NINJA[0]]
        assert state.deck[::-1] == list(deck[5:])
        assert [p[0] for p in state.pile] == [52, 41, 47, 44]
        assert state.stone == 2


def _deck_with_geisha_at(index: int, seats: int) -> tuple[int, ...]:
    deck = [c for c in build_deck(seats) if c != GEISHA]
    deck.insert(index, GEISHA)
    return tuple(deck)


@pytest.mark.parametrize("case", [
    "missing card", "duplicate card", "not an inhabitant", "geisha is bonus", "geisha dealt to last seat",
    "too few treasures", "too many treasures", "duplicate treasure", "inhabitant as treasure",
    "stone off the table", "deck without treasures", "treasures without deck",
])
def test_r2_8_invalid_configured_deal_is_refused(case):
    """R2.8 A configured deck must list all 41 inhabitants exactly once with the
    Geisha not among the first n+1 cards, and n distinct treasures; otherwise
    the table is refused with a clear error."""
    n = 5
    deck = list(build_deck(n))
    treasures = (41, 42, 43, 44, 45)
    stone = 0
    if case == "missing card":
        deck = deck[:-2] + deck[-1:]
    elif case == "duplicate card":
        deck[7] = deck[8]
    elif case == "not an inhabitant":
        deck[7] = 41
    elif case == "geisha is bonus":
        deck = list(_deck_with_geisha_at(0, n))
    elif case == "geisha dealt to last seat":
        deck = list(_deck_with_geisha_at(n, n))
    elif case == "too few treasures":
        treasures = treasures[:-1]
    elif case == "too many treasures":
        treasures = (*treasures, 46)
    elif case == "duplicate treasure":
        treasures = (41, 42, 43, 44, 44)
    elif case == "inhabitant as treasure":
        treasures = (41, 42, 43, 44, 3)
    elif case == "stone off the table":
        stone = n
    kwargs = {"deck": tuple(deck), "treasures": treasures, "stone_holder": stone}
    if case == "deck without treasures":
        kwargs["treasures"] = None
    elif case == "treasures without deck":
        kwargs["deck"] = None
    with pytest.raises(ConfigError) as err:
        GameConfig(seats=n, **kwargs)
    assert "R2.8" in str(err.value)


@pytest.mark.parametrize("case", [
    "a string card id",
    "a missing card id (None)",
    "float card ids",
    "a float treasure id",
])
def test_r2_8_malformed_configured_deal_is_refused_with_a_clear_error(case):
    """R2.8 A configured deck must list all 41 inhabitants exactly once with the
    Geisha not among the first n+1 cards, and n distinct treasures; otherwise
    the table is refused with a clear error."""
    deck = list(build_deck(4))
    treasures = (41, 42, 43, 44)
    if case == "a string card id":
        deck[-1] = str(deck[-1])
    elif case == "a missing card id (None)":
        deck[-1] = None
    elif case == "float card ids":
        deck = [float(c) for c in deck]
    elif case == "a float treasure id":
        treasures = (41.0, 42, 43, 44)
    with pytest.raises(ConfigError):
        cfg = GameConfig(seats=4, deck=tuple(deck), treasures=treasures, stone_holder=0)
        new_game(cfg)  # a table accepted here must be playable


def test_r2_8_geisha_just_below_the_first_n_plus_1_cards_is_accepted():
    """R2.8 A configured deck must list all 41 inhabitants exactly once with the
    Geisha not among the first n+1 cards ... setup then uses them as given and
    still applies R2.6 and R2.7."""
    n = 5
    cfg = GameConfig(seats=n, deck=_deck_with_geisha_at(n + 1, n), treasures=(41, 42, 43, 44, 45),
                     stone_holder=0)
    state, _ = new_game(cfg)
    assert GEISHA not in state.inhabitant and GEISHA not in state.bonus
    assert state.deck[-1] == GEISHA  # the very next card drawn


# -- R3 Seasons and asking ----------------------------------------------------------------

def test_r3_1_each_seat_uses_its_disc_once_per_season():
    """R3.1 The game is played in seasons. In a season each seat may use its
    action disc once: to fulfil an action, to support in a fight, or to join a
    revolution. Using it means discarding it until the next season."""
    state, _ = configured_game(4, [DAIMYO[0], AKINDO[0], NOFU[0], NOFU[1]])
    announce_now(state, 0, ActionKind.INCOME)
    pass_round(state)
    assert state.disc == [False, True, True, True]
    # seat 1 attacks seat 2: seat 0, without its disc, is not asked to support
    announce_now(state, 1, ActionKind.ATTACK, 2)
    pass_round(state)
    assert decision(state).asked == (3,)
    close_window(state)
    support(state, 3, Side.ATTACKER)
    assert state.disc == [False, False, True, False]
    # only seat 2 still has its disc: it alone is asked, then the season ends
    assert decision(state).topic is Topic.ANNOUNCE and decision(state).pivot == 2
    ev = pass_turn(state, 2)
    assert events_of(ev, E.SeasonEnded) and state.season == 2
    assert state.disc == [True] * 4


def test_r3_2_asking_starts_with_stone_holder_clockwise_discless_seats_pass():
    """R3.2 Asking. Starting with the stone holder and going clockwise, each
    seat is asked in turn to *announce* or *pass*. A seat without its disc
    passes automatically."""
    state, _ = configured_game(5, {3: DAIMYO[0]}, stone=3)
    order = []
    for _ in range(5):
        d = decision(state)
        assert d.topic is Topic.ANNOUNCE and d.kind is DecisionKind.PROMPT
        order.append(d.pivot)
        pass_turn(state)
    assert order == [3, 4, 0, 1, 2]
    assert state.season == 2 and decision(state).pivot == 3
    # only the seat asked may answer
    for seat in (4, 0):
        with pytest.raises(Rejected) as err:
            apply(state, seat, Pass(decision=decision(state).id))
        assert err.value.code == "decision/not_yours"
    # seat 3 fulfils; when the asking comes round again it passes automatically
    announce_now(state, 3, ActionKind.INCOME)
    pass_round(state)
    order, passed = [], []
    for _ in range(4):
        order.append(decision(state).pivot)
        passed += events_of(pass_turn(state), E.Passed)
    assert order == [4, 0, 1, 2]
    assert [p.seat for p in passed] == [4, 0, 1, 2]
    assert state.season == 3


def test_r3_3_asking_resumes_left_of_fulfiller_and_a_seat_that_passed_may_announce():
    """R3.3 After a fulfilment (R4.5) asking resumes with the left neighbour of
    the seat that fulfilled. A seat that passed earlier in the season but still
    holds its disc may announce when asked again."""
    state, _ = configured_game(4, [SAMURAI[0], NOFU[0], DAIMYO[0], NOFU[1]])
    pass_turn(state, 0)
    pass_turn(state, 1)
    announce_now(state, 2, ActionKind.INCOME)
    pass_round(state)
    assert decision(state).topic is Topic.ANNOUNCE and decision(state).pivot == 3
    pass_turn(state, 3)
    assert decision(state).pivot == 0 and state.season == 1
    ev = announce_now(state, 0, ActionKind.ATTACK, 1)
    assert [(a.seat, a.action.kind) for a in events_of(ev, E.Announced)] == [(0, ActionKind.ATTACK)]


def test_r3_4_season_ends_when_all_asked_since_last_fulfilment_passed():
    """R3.4 Season end. The season ends when every seat has been asked once
    since the last fulfilment (or since the season began) and all of them
    passed"""
    state, _ = configured_game(4, {2: DAIMYO[0]})
    for seat in (0, 1, 2):
        pass_turn(state, seat)
    assert state.season == 1
    ev = pass_turn(state, 3)
    assert events_of(ev, E.SeasonEnded) and state.season == 2
    # season 2: passes before a fulfilment no longer count after it
    pass_turn(state, 0)
    pass_turn(state, 1)
    announce_now(state, 2, ActionKind.INCOME)
    pass_round(state)
    pass_turn(state, 3)
    pass_turn(state, 0)
    assert state.season == 2 and decision(state).pivot == 1
    ev = pass_turn(state, 1)  # seat 2 has no disc: it passes automatically
    assert events_of(ev, E.SeasonEnded) and state.season == 3


def test_r3_4_season_ends_as_soon_as_no_seat_holds_its_disc():
    """R3.4 ... or as soon as the current action is complete and no seat holds
    its disc any more."""
    state, _ = configured_game(4, list(DAIMYO[:4]))
    for seat in range(3):
        announce_now(state, seat, ActionKind.INCOME)
        pass_round(state)
    ev = announce_now(state, 3, ActionKind.INCOME)  # nobody left to claim: fulfils at once
    assert events_of(ev, E.IncomeDrawn)
    assert not events_of(ev, E.Passed)
    assert events_of(ev, E.SeasonEnded) and state.season == 2
    assert decision(state).pivot == 3  # the stone holder opens the new season


def test_r3_4a_revealed_inhabitants_stay_revealed_into_the_next_season():
    """R3.4a Revealed inhabitants stay revealed — through the season and into
    the next — until a rule hides them (only the Transformation deal, R5.3)."""
    state, _ = configured_game(4, [DAIMYO[0], NOFU[0], NOFU[1], MAHO[0]])
    announce_now(state, 0, ActionKind.INCOME)
    pass_round(state)
    for seat in (1, 2, 3):
        pass_turn(state, seat)
    assert state.season == 2
    assert state.revealed[0]
    for viewer in (1, 2, 3, "spectator"):
        assert view(state, viewer)["seats"][0]["inhabitant"] == DAIMYO[0]
    pass_turn(state, 0)
    pass_turn(state, 1)
    pass_turn(state, 2)
    assert state.revealed[0]
    announce_now(state, 3, ActionKind.TRANSFORMATION)
    pass_round(state)
    settle(state)  # silence keeps a random card
    assert not any(state.revealed)
    assert view(state, "spectator")["seats"][0]["inhabitant"] is None


def test_r3_5_unclaimed_bonus_stays_and_the_first_fulfiller_gets_it_all():
    """R3.5 End of season, in this order: ... 3. The top card of the deck is
    added face down to the bonus pile (a Geisha ends the game, R9.2). If the
    bonus pile still holds the cards of a season in which nobody fulfilled,
    they stay; the first to fulfil gets them all."""
    state, _ = configured_game(4, {0: DAIMYO[0]}, bonus=SAMURAI[0], draws=[SORYO[0], AKINDO[0]])
    for _ in range(4):
        ev = pass_turn(state)
    ended = events_of(ev, E.SeasonEnded)[0]
    assert ended.bonus_card == SORYO[0]
    assert state.bonus == [SAMURAI[0], SORYO[0]]
    for viewer in (0, 1, "spectator"):
        assert view(state, viewer)["bonus_size"] == 2
        assert project(ended, viewer)["bonus_card"] is None
    announce_now(state, 0, ActionKind.INCOME)
    pass_round(state)
    assert sorted(state.pile[0]) == sorted([41, AKINDO[0], SAMURAI[0], SORYO[0]])
    assert state.bonus == []


def test_r3_5_discs_return_and_next_season_begins_with_the_stone_holder():
    """R3.5 End of season, in this order: ... 2. Every seat gets its disc back.
    ... 4. The next season begins with the stone holder (R3.2). The stone
    stays with the seat that last took it."""
    state, _ = configured_game(5, {1: DAIMYO[0], 3: DAIMYO[1]}, stone=0)
    pass_turn(state, 0)
    announce_now(state, 1, ActionKind.INCOME)
    pass_round(state)
    pass_turn(state, 2)
    announce_now(state, 3, ActionKind.INCOME)
    pass_round(state)
    assert state.stone == 3
    for seat in (4, 0, 2):
        pass_turn(state, seat)
    assert state.season == 2
    assert state.disc == [True] * 5
    assert state.stone == 3 and view(state, 0)["stone_holder"] == 3
    assert decision(state).pivot == 3
    assert len(state.bonus) == 1  # the card added at the end of season 1
