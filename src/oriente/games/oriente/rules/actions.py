"""Carrying out a fulfilled action (R5, R6, R7).

Each `start_*` runs an action as far as it can and returns True when the
action is complete, or False when it opened a prompt or round; the engine
calls the matching `finish_*` when that decision is answered. Every step
reads the state as it is when the step runs (R4.5a): deals may change piles
between the steps of an action.
"""

from __future__ import annotations

from .board import GeishaEnd, draw_top, remove_from_pile, reveal, set_inhabitant, take_inhabitant, to_bottom, to_pile
from .cards import GEISHA, KIND, NINJAS, SHOGUN, VALUE, Kind, is_treasure
from .commands import ActionKind, Side
from .decisions import Topic
from .events import (
    Assassinated,
    BonusAwarded,
    CreditTaken,
    FightBegan,
    FightResolved,
    GeishaDrawn,
    Incited,
    IncomeDrawn,
    InhabitantDrawn,
    ReinforcementTaken,
    ReinforcementTurned,
    RevolutionResolved,
    RevolutionRoundOpened,
    SuccessionDone,
    SupportersRevealed,
    TradeDone,
    TransformationBegan,
    TransformationDone,
)
from .flow import open_prompt, open_round, open_window_round
from .legality import revolution_asked
from .state import Fight, GameState, Phase


def start(state: GameState, ev: list) -> bool:
    """Carry out the fulfilled action of `state.fulfiller`."""
    act = state.action
    seat = state.fulfiller
    assert act is not None and seat is not None
    kind = act.kind
    if kind is ActionKind.ATTACK:
        return start_attack(state, ev, seat, act.target)
    if kind is ActionKind.BLESSING:
        blessing(state, ev, seat)
    elif kind is ActionKind.TRANSFORMATION:
        return start_transformation(state, ev, seat)
    elif kind is ActionKind.INCOME:
        card = draw_top(state, ev, "income", seat)
        to_pile(state, seat, card)
        ev.append(IncomeDrawn(seat=seat, card=card))
    elif kind is ActionKind.SUCCESSION:
        succession(state, ev, seat, act.target)
    elif kind is ActionKind.CREDIT:
        credit(state, ev, seat, act.target)
    elif kind is ActionKind.TRADE:
        return start_trade(state, ev, seat, act.target)
    elif kind is ActionKind.INCITE:
        incite(state, ev, seat)
    elif kind is ActionKind.REVOLUTION:
        return start_revolution(state, ev, seat)
    elif kind is ActionKind.ASSASSINATION:
        assassination(state, ev, seat, act.target)
    else:  # pragma: no cover - ActionKind is closed
        raise AssertionError(kind)
    return True


# -- abilities -------------------------------------------------------------

def blessing(state: GameState, ev: list, seat: int) -> None:
    """R5.2: the bonus pile, if not yet awarded this season."""
    if state.bonus_awarded:
        ev.append(BonusAwarded(seat=seat, cards=(), blessing=True))
        return
    state.bonus_awarded = True
    cards = tuple(state.bonus)
    state.bonus = []
    for c in cards:
        to_pile(state, seat, c)
    ev.append(BonusAwarded(seat=seat, cards=cards, blessing=True))


def succession(state: GameState, ev: list, seat: int, target: int | None) -> None:
    """R5.4: the Daimyo and the Shogun swap places; nothing if a deal moved
    the Shogun away in the meantime (R4.5a)."""
    assert target is not None
    daimyo = state.inhabitant[seat]
    assert daimyo is not None
    if state.inhabitant[target] == SHOGUN and state.revealed[target]:
        set_inhabitant(state, target, daimyo, revealed=True)
        set_inhabitant(state, seat, SHOGUN, revealed=True)
        ev.append(SuccessionDone(seat=seat, target=target, shogun=SHOGUN, daimyo=daimyo, from_pile=False, done=True))
    elif SHOGUN in state.pile[target]:
        pile = state.pile[target]
        pile[pile.index(SHOGUN)] = daimyo  # the Daimyo takes the Shogun's place
        state.knows[daimyo] = state.all_mask
        set_inhabitant(state, seat, SHOGUN, revealed=True)
        ev.append(SuccessionDone(seat=seat, target=target, shogun=SHOGUN, daimyo=daimyo, from_pile=True, done=True))
    else:
        ev.append(SuccessionDone(seat=seat, target=target, shogun=SHOGUN, daimyo=daimyo, from_pile=False, done=False))


def credit(state: GameState, ev: list, seat: int, target: int | None) -> None:
    """R5.6 Credit: every Nofu of the target's score pile."""
    assert target is not None
    nofus = tuple(c for c in state.pile[target] if KIND[c] is Kind.NOFU)
    for c in nofus:
        remove_from_pile(state, target, c)
        to_pile(state, seat, c)
    ev.append(CreditTaken(seat=seat, target=target, cards=nofus))


def trade_default(state: GameState, seat: int) -> int | None:
    """R10.1: silence gives the lowest-value card; among equals a
    non-treasure before a treasure, then the card longest in the pile."""
    pile = state.pile[seat]
    if not pile:
        return None
    best = min(range(len(pile)), key=lambda i: (VALUE[pile[i]], is_treasure(pile[i]), i))
    return pile[best]


def start_trade(state: GameState, ev: list, seat: int, target: int | None) -> bool:
    assert target is not None
    if len(state.pile[seat]) >= 2:
        open_prompt(state, Phase.TRADE, Topic.TRADE, seat)
        return False
    finish_trade(state, ev, state.pile[seat][0] if state.pile[seat] else None)
    return True


def finish_trade(state: GameState, ev: list, given: int | None) -> None:
    """R5.6 Trade: give first, then draw at random from the target's pile,
    not counting the card just given."""
    seat = state.fulfiller
    assert seat is not None and state.action is not None
    target = state.action.target
    assert target is not None
    if given is not None:
        remove_from_pile(state, seat, given)
        to_pile(state, target, given)
    candidates = [c for c in state.pile[target] if c != given]
    drawn = None
    if candidates:
        drawn = candidates[state.rng["trade"].below(len(candidates))]
        remove_from_pile(state, target, drawn)
        to_pile(state, seat, drawn)
    ev.append(TradeDone(seat=seat, target=target, given=given, drawn=drawn))


def incite(state: GameState, ev: list, seat: int) -> None:
    """R5.7 Incite; the hut is used with 8-12 seats only."""
    moved = None
    if state.hut_used:
        if state.hut:
            state.hut -= 1
            state.square += 1
            moved = "square"
        elif state.supply:
            state.supply -= 1
            state.hut += 1
            moved = "hut"
    elif state.supply:
        state.supply -= 1
        state.square += 1
        moved = "square"
    ev.append(Incited(seat=seat, moved_to=moved, supply=state.supply, hut=state.hut, square=state.square))


def assassination(state: GameState, ev: list, seat: int, target: int | None) -> None:
    """R5.8: the target's inhabitant to the Ninja's pile; the target draws."""
    assert target is not None
    card = take_inhabitant(state, target)
    to_pile(state, seat, card)
    ev.append(Assassinated(seat=seat, target=target, card=card))
    new = draw_top(state, ev, "inhabitant", target)
    set_inhabitant(state, target, new, revealed=False)
    ev.append(InhabitantDrawn(seat=target, card=new))


# -- Transformation (R5.3) ---------------------------------------------------

def start_transformation(state: GameState, ev: list, seat: int) -> bool:
    maho = take_inhabitant(state, seat)
    to_bottom(state, maho)  # step 1: everyone saw it go (R10.4)
    taken = []
    for i in range(1, state.n):
        s = (seat + i) % state.n
        card = take_inhabitant(state, s)
        state.in_play.append(card)
        state.knows[card] = 1 << seat  # step 2: the transforming seat looks at them
        taken.append((s, card))
    state.seen[seat].append((state.season, tuple(c for _, c in taken)))
    ev.append(TransformationBegan(seat=seat, maho=maho, taken=tuple(taken)))
    open_prompt(state, Phase.TRANSFORMATION, Topic.TRANSFORMATION, seat)
    return False


def transformation_default(state: GameState) -> int:
    """R10.1: silence keeps a card picked at random from the seed."""
    pool = state.in_play
    return pool[state.rng["silence"].below(len(pool))]


def finish_transformation(state: GameState, ev: list, kept: int) -> None:
    """Steps 2-4; a Geisha drawn unseen ends the game after the deal."""
    seat = state.fulfiller
    assert seat is not None
    pool = state.in_play
    pool.remove(kept)
    set_inhabitant(state, seat, kept, revealed=False)
    drawn = state.deck.pop()  # step 3: unseen, so not through draw_top
    state.knows[drawn] = 0
    pool.append(drawn)
    state.rng["transformation"].shuffle(pool)
    dealt = []
    for i in range(1, state.n):
        s = (seat + i) % state.n
        card = pool.pop(0)
        set_inhabitant(state, s, card, revealed=False)
        dealt.append((s, card))
    assert not pool
    ev.append(TransformationDone(seat=seat, kept=kept, drawn=drawn, dealt=tuple(dealt)))
    if drawn == GEISHA:
        ev.append(GeishaDrawn(purpose="transformation", seat=None))
        raise GeishaEnd


# -- Fights (R6) -------------------------------------------------------------

def start_attack(state: GameState, ev: list, seat: int, target: int | None) -> bool:
    assert target is not None
    state.fight = Fight(attacker=seat, defender=target)
    card = reveal(state, target)  # R6.1
    n = state.n
    stone = state.stone
    asked = [s for s in ((stone + i) % n for i in range(1, n))
             if s not in (seat, target) and state.disc[s]]
    if not asked:
        ev.append(FightBegan(decision=None, attacker=seat, defender=target, defender_card=card, asked=()))
        return resolve_fight(state, ev)
    rnd = open_window_round(state, asked)
    ev.append(FightBegan(decision=rnd.decision, attacker=seat, defender=target, defender_card=card,
                         asked=tuple(asked)))
    return False


def resolve_fight(state: GameState, ev: list) -> bool:
    """R6.3-R6.6, then R6.7 (which may prompt the loser)."""
    fight = state.fight
    assert fight is not None
    att, dfn = fight.attacker, fight.defender
    state.round = None
    supporters = []
    att_card, dfn_card = state.inhabitant[att], state.inhabitant[dfn]
    assert att_card is not None and dfn_card is not None, "both sides of a fight have an inhabitant (R6.1)"
    totals = {Side.ATTACKER: VALUE[att_card], Side.DEFENDER: VALUE[dfn_card]}
    for s, side in fight.supporters:
        card = reveal(state, s)  # R6.3
        supporters.append((s, card, side))
        totals[side] += VALUE[card]
    if supporters:
        ev.append(SupportersRevealed(supporters=tuple(supporters)))
    # R6.4: attacker, defender, then supporters clockwise from the stone holder's left.
    participants = [(att, Side.ATTACKER), (dfn, Side.DEFENDER), *list(fight.supporters)]
    for s, side in participants:
        inhabitant = state.inhabitant[s]
        if inhabitant is not None and KIND[inhabitant] is Kind.SAMURAI:
            card = draw_top(state, ev, "reinforcement", s)
            state.in_play.append(card)
            state.knows[card] = state.all_mask
            fight.reinforcements.append((s, card))
            ev.append(ReinforcementTurned(seat=s, card=card))
            totals[side] += VALUE[card]
    shogun = state.inhabitant[dfn] == SHOGUN  # R5.1
    if shogun or totals[Side.ATTACKER] <= totals[Side.DEFENDER]:
        winner, loser = dfn, att  # R6.5: a tie goes to the defender
    else:
        winner, loser = att, dfn
    fight.winner, fight.loser = winner, loser
    captured = take_inhabitant(state, loser)
    to_pile(state, winner, captured)  # R6.6
    ev.append(FightResolved(
        attacker=att, defender=dfn, supporters=tuple(supporters),
        reinforcements=tuple(fight.reinforcements),
        attack_total=totals[Side.ATTACKER], defence_total=totals[Side.DEFENDER],
        shogun_defence=shogun, winner=winner, loser=loser, captured=captured,
    ))
    if not fight.reinforcements:  # R6.7
        new = draw_top(state, ev, "inhabitant", loser)
        set_inhabitant(state, loser, new, revealed=False)
        ev.append(InhabitantDrawn(seat=loser, card=new))
        return True
    if len(fight.reinforcements) == 1:
        finish_reinforcement(state, ev, fight.reinforcements[0][1])
        return True
    open_prompt(state, Phase.REINFORCEMENT, Topic.REINFORCEMENT, loser)
    return False


def finish_reinforcement(state: GameState, ev: list, card: int) -> None:
    """R6.7: the loser's pick becomes its revealed inhabitant; the others go to
    the bottom in turned order, Ninjas to the winner's score pile."""
    fight = state.fight
    assert fight is not None
    to_bottom_cards, to_winner = [], []
    for _, c in fight.reinforcements:
        state.in_play.remove(c)
        if c == card:
            continue
        if c in NINJAS:
            to_pile(state, fight.winner, c)
            to_winner.append(c)
        else:
            to_bottom(state, c)
            to_bottom_cards.append(c)
    set_inhabitant(state, fight.loser, card, revealed=True)
    ev.append(ReinforcementTaken(seat=fight.loser, card=card, to_bottom=tuple(to_bottom_cards),
                                 to_winner=tuple(to_winner), winner=fight.winner))


# -- Revolution (R7) ---------------------------------------------------------

def start_revolution(state: GameState, ev: list, seat: int) -> bool:
    asked = revolution_asked(state, seat)
    if not asked:
        resolve_revolution(state, ev, [])
        return True
    rnd = open_round(state, Phase.REVOLUTION, Topic.REVOLUTION, asked)
    ev.append(RevolutionRoundOpened(decision=rnd.decision, announcer=seat, asked=tuple(asked)))
    return False


def resolve_revolution(state: GameState, ev: list, joined: list[int]) -> None:
    seat = state.fulfiller
    assert seat is not None
    n = state.n
    state.round = None
    revolters = [seat, *joined]  # joined are already clockwise from seat's left
    strength = state.square + len(revolters)  # R7.2
    inhabitants = []
    for s in range(n):
        inhabitants.append((s, reveal(state, s)))  # R7.3
    victims = []
    for i in range(1, n):
        s = (seat + i) % n
        card = state.inhabitant[s]
        assert card is not None
        kind = KIND[card]
        if kind in (Kind.NINJA, Kind.NOFU) or s in revolters:
            continue
        if VALUE[card] <= strength:
            victims.append(s)
    loot_rng = state.rng["loot"]
    loot = []
    pool: list[int] = []
    for s in victims:  # R7.4, clockwise from the announcer's left
        pile = state.pile[s]
        k = len(pile) // 2
        taken = [pile[i] for i in loot_rng.sample_indices(len(pile), k)]
        for c in taken:
            pile.remove(c)
        loot.append((s, tuple(taken)))
        pool.extend(taken)
    for s in revolters:  # R7.5
        pool.extend(state.pile[s])
        state.pile[s] = []
    state.in_play.extend(pool)
    state.rng["redistribution"].shuffle(pool)
    dealt = []
    for i, c in enumerate(pool):
        s = revolters[i % len(revolters)]
        state.in_play.remove(c)
        to_pile(state, s, c)
        dealt.append((s, c))
    state.supply, state.hut, state.square = 6, 0, 0  # R7.6
    ev.append(RevolutionResolved(
        seat=seat, strength=strength, revolters=tuple(revolters), inhabitants=tuple(inhabitants),
        victims=tuple(victims), loot=tuple(loot), dealt=tuple(dealt),
    ))
