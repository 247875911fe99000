"""The rules engine's public face: new_game, apply, pending, legal.

A pure state machine: no clock, no I/O, randomness from the state's own
streams. The same config and the same ordered commands give the same events.

Flow, in docs/rules.md terms (the phase table is drawn in state.Phase):
asking (R3.2) -> announcement (R4.1) -> privilege rounds (R4.4, R10.2a) ->
fulfilment (R4.5) -> the action (actions.py, possibly with its own
prompt or round) -> asking resumes at the fulfiller's left (R3.3) -> ...
-> season end (R3.5) -> next season, until the Geisha or a Ninja victory.
"""

from __future__ import annotations

from . import deals
from .actions import (
    finish_reinforcement,
    finish_trade,
    finish_transformation,
    resolve_fight,
    resolve_revolution,
    trade_default,
    transformation_default,
)
from .actions import (
    start as start_action,
)
from .board import GeishaEnd, draw_top, reveal, set_inhabitant
from .cards import GEISHA, KIND, NINJAS, SHOGUN, TREASURES, Kind
from .commands import (
    TABLE,
    AcceptDeal,
    Action,
    ActionKind,
    Announce,
    Choose,
    Claim,
    Command,
    DecisionCommand,
    DeclineDeal,
    Done,
    Join,
    Pass,
    ProposeDeal,
    SettlePromise,
    Side,
    Support,
    Timeout,
    WithdrawDeal,
)
from .config import GameConfig
from .decisions import RULE, Decision, DecisionKind, Timer, Topic
from .errors import Rejected
from .events import (
    Announced,
    BonusAwarded,
    Fulfilled,
    GameStarted,
    NegotiationClosed,
    NegotiationDone,
    Passed,
    PrivilegePassed,
    PrivilegeRoundOpened,
    RevolutionAnswered,
    SeasonBegan,
    SeasonEnded,
    SupportDeclared,
)
from .flow import current_decision_id, open_prompt, open_round
from .legality import (
    allowed_actions,
    check_action,
    claim_rank_ok,
    claim_valid_now,
    effective_rank,
    privilege_asked,
    why_not_asked,
)
from .rng import derive_streams
from .scoring import end_game, ninja_victor
from .state import GameState, Phase

__all__ = ["answers", "apply", "deal_options", "is_over", "legal", "new_game", "pending"]


# -- setup (R2) ----------------------------------------------------------------

def _build_deck(state: GameState) -> list[int]:
    """R2.5: returns the 41 inhabitants, top first."""
    rng = state.rng["deck"]
    special = {GEISHA, SHOGUN, *NINJAS}
    rest = [c for c in range(41) if c not in special]
    rng.shuffle(rest)
    p1, p2, p3 = rest[:4], rest[4:8], rest[8:]
    p1.append(GEISHA)
    rng.shuffle(p1)
    p3.extend((SHOGUN, *NINJAS))
    rng.shuffle(p3)
    return p3 + p1 + p2


def new_game(config: GameConfig) -> tuple[GameState, list]:
    """Set up a game (R2) and open the first season's first prompt."""
    state = GameState(config, derive_streams(config.seed))
    n = state.n
    if config.configured:
        top_first = list(config.deck or ())
        treasures = list(config.treasures or ())
        stone = config.stone_holder
        assert stone is not None
    else:
        top_first = _build_deck(state)
        pool = list(TREASURES)
        state.rng["treasures"].shuffle(pool)
        treasures = pool[:n]
        stone = state.rng["stone"].below(n)  # R2.1
    state.deck = top_first[::-1]
    for c in TREASURES:
        if c not in treasures:
            state.out_of_game.append(c)
    for s, t in enumerate(treasures):  # R2.3
        state.pile[s].append(t)
        state.knows[t] = state.all_mask
    state.stone = stone
    bonus = state.deck.pop()  # R2.6; never the Geisha (R2.5, R2.8)
    state.bonus.append(bonus)
    dealt = [state.deck.pop() for _ in range(n)]  # R2.7
    for s, card in enumerate(dealt):
        set_inhabitant(state, s, card, revealed=False)
    ev: list = [GameStarted(
        seats=n, stone_holder=stone, treasures=tuple(treasures),
        inhabitants=tuple(dealt), bonus_card=bonus, deck_size=len(state.deck),
        hut_used=state.hut_used,
    )]
    _begin_season(state, ev)
    return state, ev


# -- seasons and asking (R3) -----------------------------------------------------

def _begin_season(state: GameState, ev: list) -> None:
    state.season += 1
    state.bonus_awarded = False
    state.passes = 0
    ev.append(SeasonBegan(season=state.season, stone_holder=state.stone, bonus_size=len(state.bonus)))
    _ask(state, ev, state.stone)


def _ask(state: GameState, ev: list, seat: int) -> None:
    """Ask `seat`, or the next seat clockwise that holds its disc; a seat
    without one passes automatically (R3.2). After n passes in a row the
    season ends (R3.4)."""
    n = state.n
    while state.passes < n:
        if state.disc[seat]:
            open_prompt(state, Phase.ASKING, Topic.ANNOUNCE, seat)
            return
        state.passes += 1
        seat = (seat + 1) % n
    _end_season(state, ev)


def _end_season(state: GameState, ev: list) -> None:
    """R3.5, in its order."""
    victor = ninja_victor(state)  # 1. R9.1
    if victor is not None:
        end_game(state, ev, "ninja", victor)
        return
    deals.on_season_end(state, ev)  # proposals lapse (R8.6)
    state.disc = [True] * state.n  # 2.
    state.prompt = None
    card = draw_top(state, ev, "bonus", None)  # 3. (the Geisha ends the game, R9.2)
    state.bonus.append(card)
    state.knows[card] = 0
    ev.append(SeasonEnded(season=state.season, bonus_card=card))
    _begin_season(state, ev)  # 4.


# -- announcing, privilege and fulfilment (R4) ----------------------------------

def _announce(state: GameState, ev: list, seat: int, act: Action, *, over: int | None) -> None:
    """R4.1 / R4.4: take the stone, reveal, and open the privilege round."""
    state.stone = seat
    card = reveal(state, seat)
    state.announcer = seat
    state.action = act
    state.chain_mask |= 1 << seat
    ev.append(Announced(seat=seat, card=card, action=act, claim=over is not None, over=over))
    asked = privilege_asked(state)
    if not asked:
        _fulfil(state, ev)
        return
    rnd = open_round(state, Phase.PRIVILEGE, Topic.PRIVILEGE, asked)
    ev.append(PrivilegeRoundOpened(decision=rnd.decision, announcer=seat, rank=effective_rank(state),
                                   asked=tuple(asked)))


def _fulfil(state: GameState, ev: list) -> None:
    """R4.5: discard the disc, set the bonus aside if first, carry out."""
    seat, act = state.announcer, state.action
    assert seat is not None and act is not None
    state.disc[seat] = False
    state.fulfiller = seat
    state.round = None
    state.prompt = None
    if not state.bonus_awarded and act.kind is not ActionKind.BLESSING:
        state.bonus_awarded = True
        state.set_aside, state.bonus = state.bonus, []
    ev.append(Fulfilled(seat=seat, action=act, bonus_set_aside=len(state.set_aside)))
    if act.kind is ActionKind.ATTACK:
        assert act.target is not None, "an attack has a target (R6)"
        deals.on_attack_fulfilled(state, seat, act.target, ev)
    if start_action(state, ev):
        _finish_action(state, ev)


def _finish_action(state: GameState, ev: list) -> None:
    """The set-aside bonus goes face up, even after a lost attack (R4.5);
    asking resumes with the fulfiller's left neighbour (R3.3)."""
    seat = state.fulfiller
    assert seat is not None
    if state.set_aside:
        cards = tuple(state.set_aside)
        state.set_aside = []
        for c in cards:
            state.pile[seat].append(c)
            state.knows[c] = state.all_mask
        ev.append(BonusAwarded(seat=seat, cards=cards, blessing=False))
    if state.ledger:
        deals.settle_payments(state, ev)
    state.fight = None
    state.announcer = None
    state.action = None
    state.chain_mask = 0
    state.fulfiller = None
    state.passes = 0
    _ask(state, ev, (seat + 1) % state.n)


# -- rounds (R10.2) ----------------------------------------------------------------

def _run_round(state: GameState, ev: list) -> None:
    """Use sealed answers as their seats become the pivot; stop at a pivot
    with no answer yet, or close the round."""
    rnd = state.round
    assert rnd is not None
    while rnd.pos < len(rnd.asked):
        seat = rnd.asked[rnd.pos]
        cmd = rnd.sealed.pop(seat, None)
        if cmd is None:
            return
        if _FINAL[rnd.topic](state, ev, seat, cmd):
            return  # a claim won: the round was replaced
        rnd.pos += 1
    _COMPLETE[rnd.topic](state, ev)


def _privilege_final(state: GameState, ev: list, seat: int, cmd: Command) -> bool:
    rnd = state.round
    assert rnd is not None
    if isinstance(cmd, Claim):
        if claim_valid_now(state, seat) and cmd.action in allowed_actions(state, seat):
            # The first valid claim wins at once (R10.2a); later answers are
            # discarded unseen with the round.
            _announce(state, ev, seat, cmd.action, over=state.announcer)
            return True
        rnd.published.append((seat, None))
        ev.append(PrivilegePassed(seat=seat, decision=rnd.decision, voided_claim=True))
        return False
    rnd.published.append((seat, None))
    ev.append(PrivilegePassed(seat=seat, decision=rnd.decision, voided_claim=False))
    return False


def _support_final(state: GameState, ev: list, seat: int, cmd: Command) -> bool:
    rnd, fight = state.round, state.fight
    assert rnd is not None and fight is not None
    side = cmd.side if isinstance(cmd, Support) else None
    if side is not None:
        state.disc[seat] = False  # R6.2: a supporter discards its disc
        fight.supporters.append((seat, side))
    rnd.published.append((seat, side))
    ev.append(SupportDeclared(seat=seat, decision=rnd.decision, side=side))
    return False


def _revolution_final(state: GameState, ev: list, seat: int, cmd: Command) -> bool:
    rnd = state.round
    assert rnd is not None
    if isinstance(cmd, Join):
        state.disc[seat] = False  # R7.1
        card = reveal(state, seat)
        rnd.published.append((seat, True))
        ev.append(RevolutionAnswered(seat=seat, decision=rnd.decision, joined=True, card=card))
    else:
        rnd.published.append((seat, None))
        ev.append(RevolutionAnswered(seat=seat, decision=rnd.decision, joined=False, card=None))
    return False


def _privilege_complete(state: GameState, ev: list) -> None:
    _fulfil(state, ev)


def _support_complete(state: GameState, ev: list) -> None:
    fight, rnd = state.fight, state.round
    assert fight is not None and rnd is not None
    deals.on_support_round(state, fight.attacker, fight.defender, dict(rnd.published), ev)
    if resolve_fight(state, ev):
        _finish_action(state, ev)


def _revolution_complete(state: GameState, ev: list) -> None:
    rnd = state.round
    assert rnd is not None
    resolve_revolution(state, ev, [s for s, joined in rnd.published if joined])
    _finish_action(state, ev)


_FINAL = {Topic.PRIVILEGE: _privilege_final, Topic.SUPPORT: _support_final, Topic.REVOLUTION: _revolution_final}
_COMPLETE = {Topic.PRIVILEGE: _privilege_complete, Topic.SUPPORT: _support_complete,
             Topic.REVOLUTION: _revolution_complete}


def _window_settled(state: GameState) -> bool:
    """R10.2b1: both fighters said done and every asked seat answered early.
    A game of rules revision 1 knows no done: every asked seat answered
    (R10.2b3)."""
    rnd = state.round
    assert rnd is not None
    everyone = len(rnd.sealed) == len(rnd.asked)
    return everyone if state.config.rules_revision < 2 else everyone and len(rnd.done) == 2


def _close_window(state: GameState, ev: list) -> None:
    """R10.2b: the negotiation window closes; the support round begins. The
    declarations sealed in a window of its own now name the round (R10.2b2)."""
    rnd = state.round
    assert rnd is not None
    state.phase = Phase.SUPPORT
    ev.append(NegotiationClosed(decision=rnd.window if rnd.window is not None else rnd.decision))
    if rnd.window is not None:
        rnd.sealed = {s: _naming(c, rnd.decision) for s, c in rnd.sealed.items()}
    _run_round(state, ev)


def _naming(cmd: Command, decision: int) -> Support | Pass:
    """The same answer, naming `decision`."""
    return Support(decision=decision, side=cmd.side) if isinstance(cmd, Support) else Pass(decision=decision)


def _late_for_window(state: GameState, did: object) -> bool:
    """R10.2b2: a declaration naming a window that has closed, while its
    support round is open: it answers that round."""
    rnd = state.round
    return (rnd is not None and rnd.window is not None and did == rnd.window and state.phase is Phase.SUPPORT
            and state.prompt is None)


# -- commands ------------------------------------------------------------------

def _check_seat(state: GameState, seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise Rejected("seat/unknown", f"there is no seat {seat!r} at this table (R1.4)")
    return seat


def _check_decision(state: GameState, did: object) -> None:
    current = current_decision_id(state)
    if not isinstance(did, int) or isinstance(did, bool):
        raise Rejected("command/invalid", "decision must be an integer id")
    if did == current:
        return
    if 0 < did < state.next_decision:
        raise Rejected("decision/closed", f"decision {did} is already closed (R10)")
    now = f"the open one is {current}" if current is not None else "none is open"
    raise Rejected("decision/unknown", f"there is no decision {did}; {now} (R10)")


def _answer_prompt(state: GameState, seat: int, cmd: DecisionCommand, ev: list) -> None:
    if seat != state.prompt_seat:
        raise Rejected("decision/not_yours", f"decision {state.prompt} is seat {state.prompt_seat}'s alone (R10.1)")
    topic = state.prompt_topic
    assert topic is not None, "an open prompt has a topic"
    if topic is Topic.ANNOUNCE:
        if isinstance(cmd, Pass):
            ev.append(Passed(seat=seat, decision=cmd.decision))
            state.passes += 1
            _ask(state, ev, (seat + 1) % state.n)
            return
        if isinstance(cmd, Announce):
            check_action(state, seat, cmd.action)
            state.chain_mask = 0
            _announce(state, ev, seat, cmd.action, over=None)
            return
        raise Rejected("decision/wrong_answer", "when asked, announce an action or pass (R3.2)")
    if not isinstance(cmd, Choose):
        raise Rejected("decision/wrong_answer",
                       f"this decision ({topic.value}) is answered by choosing a card ({RULE[topic]})")
    options = _choose_options(state)
    if cmd.card not in options:
        raise Rejected("choose/not_an_option", f"card {cmd.card!r} is not one of the cards to choose from "
                                               f"({RULE[topic]}); `legal` lists them")
    _apply_choice(state, ev, topic, cmd.card)


def _choose_options(state: GameState) -> list[int]:
    topic = state.prompt_topic
    if topic is Topic.TRADE:
        assert state.prompt_seat is not None
        return list(state.pile[state.prompt_seat])
    if topic is Topic.TRANSFORMATION:
        return list(state.in_play)
    if topic is Topic.REINFORCEMENT:
        assert state.fight is not None
        return [c for _, c in state.fight.reinforcements]
    return []


def _apply_choice(state: GameState, ev: list, topic: Topic | None, card: int | None) -> None:
    state.prompt = None
    if topic is Topic.TRADE:
        finish_trade(state, ev, card)
    elif topic is Topic.TRANSFORMATION:
        assert card is not None, "a Transformation always keeps a card (R5.3)"
        finish_transformation(state, ev, card)
    elif topic is Topic.REINFORCEMENT:
        assert card is not None, "the loser always takes a reinforcement card (R6.7)"
        finish_reinforcement(state, ev, card)
    _finish_action(state, ev)


def _check_round_answer(state: GameState, seat: int, cmd: DecisionCommand) -> None:
    rnd = state.round
    assert rnd is not None
    topic = rnd.topic
    if topic is Topic.PRIVILEGE:
        if isinstance(cmd, Claim):
            if not claim_rank_ok(state, seat):
                raise Rejected("privilege/rank_too_low",
                               "your inhabitant's rank is lower than the announcer's: you may only pass (R4.3c)")
            check_action(state, seat, cmd.action)
            return
        if isinstance(cmd, Pass):
            return
        raise Rejected("decision/wrong_answer", "in a privilege round, claim or pass (R10.2a)")
    if topic is Topic.SUPPORT:
        if isinstance(cmd, Support):
            if not isinstance(cmd.side, Side):
                raise Rejected("support/bad_side", "support the attacker or the defender (R6.2)")
            return
        if isinstance(cmd, Pass):
            return
        raise Rejected("decision/wrong_answer", "in a support round, support a side or pass (R6.2)")
    if isinstance(cmd, Join):
        card = state.inhabitant[seat]
        if card is None or KIND[card] is not Kind.NOFU:
            raise Rejected("revolution/not_nofu", "only a Nofu may join a revolution: you may only pass (R7.1)")
        return
    if isinstance(cmd, Pass):
        return
    raise Rejected("decision/wrong_answer", "in a revolution round, join or pass (R7.1)")


def _answer_round(state: GameState, seat: int, cmd: DecisionCommand, ev: list) -> None:
    rnd = state.round
    assert rnd is not None
    if seat not in rnd.asked:
        raise Rejected("decision/not_asked", why_not_asked(state, seat))
    index = rnd.asked.index(seat)
    if index < rnd.pos:
        raise Rejected("decision/answered", f"your answer in decision {rnd.decision} is already final (R10.2)")
    _check_round_answer(state, seat, cmd)
    rnd.sealed[seat] = cmd  # sealed until the seat is the pivot (R10.2)
    if state.phase is Phase.NEGOTIATION:
        if _window_settled(state):
            _close_window(state, ev)
    elif index == rnd.pos:
        _run_round(state, ev)


def _answer(state: GameState, seat: int, cmd: DecisionCommand, ev: list) -> None:
    seat = _check_seat(state, seat)
    if _late_for_window(state, cmd.decision):
        rnd = state.round
        assert rnd is not None
        cmd = _naming(cmd, rnd.decision) if isinstance(cmd, (Support, Pass)) else cmd
    _check_decision(state, cmd.decision)
    if state.prompt is not None:
        _answer_prompt(state, seat, cmd, ev)
    else:
        _answer_round(state, seat, cmd, ev)


def _done(state: GameState, seat: int, cmd: Done, ev: list) -> None:
    """R10.2b1: a fighter says it is done bargaining; the window closes once
    both fighters have and every asked seat has answered early."""
    seat = _check_seat(state, seat)
    _check_decision(state, cmd.decision)
    rnd, fight = state.round, state.fight
    if state.phase is not Phase.NEGOTIATION or rnd is None or fight is None:
        if state.phase is Phase.SUPPORT:
            raise Rejected("decision/closed", f"the negotiation window of decision {cmd.decision} has closed (R10.2b)")
        raise Rejected("decision/wrong_answer", "only a negotiation window is answered with done (R10.2b1)")
    if state.config.rules_revision < 2:
        raise Rejected("decision/wrong_answer", "this table plays the rules before R10.2b1, without done (R10.2b3)")
    if seat not in (fight.attacker, fight.defender):
        raise Rejected("window/not_fighter", "only the attacker and the defender say done (R10.2b1)")
    if seat in rnd.done:
        raise Rejected("decision/answered", "you have already said done in this window (R10.2b1)")
    rnd.done.append(seat)
    ev.append(NegotiationDone(seat=seat, decision=rnd.window if rnd.window is not None else rnd.decision))
    if _window_settled(state):
        _close_window(state, ev)


def _timeout(state: GameState, seat: int, cmd: Timeout, ev: list) -> None:
    """The table's clock ran out: silence means what its rule says (R10.1, R10.2)."""
    if seat != TABLE:
        raise Rejected("timeout/not_table", "only the table's clock sends timeouts (R10.3)")
    _check_decision(state, cmd.decision)
    if state.prompt is not None:
        if cmd.pivot != state.prompt_seat:
            raise Rejected("decision/closed", f"decision {cmd.decision} no longer waits on seat {cmd.pivot} (R10)")
        topic, pivot = state.prompt_topic, state.prompt_seat
        assert pivot is not None
        if topic is Topic.ANNOUNCE:
            _answer_prompt(state, pivot, Pass(decision=cmd.decision), ev)
        elif topic is Topic.TRADE:
            _apply_choice(state, ev, topic, trade_default(state, pivot))
        elif topic is Topic.TRANSFORMATION:
            _apply_choice(state, ev, topic, transformation_default(state))
        else:
            assert state.fight is not None
            _apply_choice(state, ev, topic, state.fight.reinforcements[0][1])
        return
    rnd = state.round
    assert rnd is not None
    if state.phase is Phase.NEGOTIATION:
        if cmd.pivot is not None:
            raise Rejected("decision/closed", "the negotiation window waits on no seat (R10.2b)")
        _close_window(state, ev)
        return
    pivot = rnd.pivot
    if cmd.pivot != pivot or pivot is None:
        raise Rejected("decision/closed", f"decision {cmd.decision} no longer waits on seat {cmd.pivot} (R10)")
    rnd.sealed[pivot] = Pass(decision=rnd.decision)
    _run_round(state, ev)


def _after_deal(state: GameState, ev: list) -> None:
    if state.phase is Phase.TRADE and state.prompt_seat is not None and not state.pile[state.prompt_seat]:
        # R4.5a, R5.6: a deal emptied the Akindo's pile while it was to
        # choose a card to give; it has nothing to give and still draws.
        _apply_choice(state, ev, Topic.TRADE, None)


def apply(state: GameState, seat: int, cmd: Command) -> list:
    """Apply one command from `seat` (or TABLE for a timeout); return the
    events, full detail. Raises `Rejected`, leaving the state untouched."""
    if state.phase is Phase.OVER:
        raise Rejected("game/over", "the game is over (R9)")
    ev: list = []
    try:
        match cmd:
            case Announce() | Pass() | Claim() | Support() | Join() | Choose():
                _answer(state, seat, cmd, ev)
            case Done():
                _done(state, seat, cmd, ev)
            case Timeout():
                _timeout(state, seat, cmd, ev)
            case ProposeDeal():
                deals.propose(state, _check_seat(state, seat), cmd, ev)
                _after_deal(state, ev)
            case AcceptDeal():
                deals.accept(state, _check_seat(state, seat), cmd, ev)
                _after_deal(state, ev)
            case DeclineDeal():
                deals.decline(state, _check_seat(state, seat), cmd, ev)
                _after_deal(state, ev)
            case WithdrawDeal():
                deals.withdraw(state, _check_seat(state, seat), cmd, ev)
                _after_deal(state, ev)
            case SettlePromise():
                deals.settle(state, _check_seat(state, seat), cmd, ev)
                _after_deal(state, ev)
            case _:
                raise Rejected("command/unknown", f"unknown command {type(cmd).__name__}")
    except GeishaEnd:
        end_game(state, ev, "geisha")
    return ev


def is_over(state: GameState) -> bool:
    return state.phase is Phase.OVER


# -- what is open, and what each seat may do -----------------------------------------

def pending(state: GameState) -> list[Decision]:
    """The open decisions (at most one in Oriente): who is waited on, who may
    answer early, which timer applies (R10)."""
    if state.phase is Phase.OVER:
        return []
    if state.prompt is not None:
        seat = state.prompt_seat
        assert seat is not None and state.prompt_topic is not None
        return [Decision(id=state.prompt, kind=DecisionKind.PROMPT, topic=state.prompt_topic,
                         asked=(seat,), pivot=seat, early=(), timer=Timer.PROMPT)]
    rnd = state.round
    assert rnd is not None
    asked = tuple(rnd.asked)
    if state.phase is Phase.NEGOTIATION:
        did = rnd.window if rnd.window is not None else rnd.decision  # R10.2b2
        return [Decision(id=did, kind=DecisionKind.WINDOW, topic=Topic.NEGOTIATION,
                         asked=asked, pivot=None, early=asked, timer=Timer.WINDOW)]
    return [Decision(id=rnd.decision, kind=DecisionKind.ROUND, topic=rnd.topic, asked=asked,
                     pivot=rnd.pivot, early=asked[rnd.pos + 1:], timer=Timer.PROMPT)]


def legal(state: GameState, seat: int) -> list[Command]:
    """Every command `seat` may send now, structured: its `answers` to the
    open decision, then its `deal_options` (deal proposals are open-ended
    and not listed: `deals.capability` describes them)."""
    return answers(state, seat) + deal_options(state, seat)


def answers(state: GameState, seat: int) -> list[Command]:
    """The commands that answer the open decision for `seat` (each names its
    `decision`); empty when the decision does not wait on or ask `seat`."""
    out: list[Command] = []
    if state.phase is Phase.OVER:
        return out
    if state.prompt is not None:
        if seat == state.prompt_seat:
            did = state.prompt
            if state.prompt_topic is Topic.ANNOUNCE:
                out.append(Pass(decision=did))
                out.extend(Announce(decision=did, action=a) for a in allowed_actions(state, seat))
            else:
                out.extend(Choose(decision=did, card=c) for c in _choose_options(state))
    else:
        rnd = state.round
        if rnd is not None and seat in rnd.asked and rnd.asked.index(seat) >= rnd.pos:
            in_window = rnd.window is not None and state.phase is Phase.NEGOTIATION
            did = rnd.window if in_window and rnd.window is not None else rnd.decision  # R10.2b2
            out.append(Pass(decision=did))
            if rnd.topic is Topic.PRIVILEGE:
                if claim_rank_ok(state, seat):
                    out.extend(Claim(decision=did, action=a) for a in allowed_actions(state, seat))
            elif rnd.topic is Topic.SUPPORT:
                out.append(Support(decision=did, side=Side.ATTACKER))
                out.append(Support(decision=did, side=Side.DEFENDER))
            else:
                card = state.inhabitant[seat]
                if card is not None and KIND[card] is Kind.NOFU:
                    out.append(Join(decision=did))
        elif (rnd is not None and state.phase is Phase.NEGOTIATION and state.fight is not None
              and seat in (state.fight.attacker, state.fight.defender) and seat not in rnd.done
              and state.config.rules_revision >= 2):
            out.append(Done(decision=rnd.window if rnd.window is not None else rnd.decision))  # R10.2b1, R10.2b2
    return out


def deal_options(state: GameState, seat: int) -> list[Command]:
    """`seat`'s answers to open deals and its free promises to settle (R8.6):
    accept or decline what it has not accepted, withdraw what it has."""
    out: list[Command] = []
    if state.phase is Phase.OVER:
        return out
    if state.deals:
        for deal in state.deals.values():
            if seat in deal.parties:
                if seat in deal.accepted:
                    out.append(WithdrawDeal(deal=deal.id))
                else:
                    out.append(AcceptDeal(deal=deal.id))
                    out.append(DeclineDeal(deal=deal.id))
    if state.ledger:
        for entry in state.ledger.values():
            if entry.status == "open" and entry.promise.promisee == seat and entry.promise.kind.value == "free":
                out.append(SettlePromise(promise=entry.id, kept=True))
                out.append(SettlePromise(promise=entry.id, kept=False))
    return out
