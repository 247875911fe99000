"""Which actions an inhabitant may announce (R5), and the public-information
tests that decide who is asked in a round (R10.2a, R10.2c).

Two kinds of knowledge meet here and must not mix: what a seat may do given
its own hidden card (used to accept or reject its commands), and what
everyone can tell from public information alone (used to decide who is
asked, R10.2d). The second kind never reads a face-down card.
"""

from __future__ import annotations

from .cards import GEISHA, INHABITANTS, KIND, NOFUS, RANK, SHOGUN, Kind
from .commands import Action, ActionKind
from .decisions import Topic
from .errors import Rejected
from .state import GameState

_ACTIONS: dict[tuple[ActionKind, int | None], Action] = {}


def action(kind: ActionKind, target: int | None = None) -> Action:
    """Interned Action values: legal() builds many, and equal ones compare equal anyway."""
    key = (kind, target)
    a = _ACTIONS.get(key)
    if a is None:
        a = _ACTIONS[key] = Action(kind=kind, target=target)
    return a


_ATTACKS: dict[tuple[int, int], tuple[Action, ...]] = {}


def _attacks(n: int, seat: int) -> tuple[Action, ...]:
    """Every inhabitant may attack any other seat (R5); the list depends
    only on the seat count, so build it once."""
    key = (n, seat)
    out = _ATTACKS.get(key)
    if out is None:
        out = _ATTACKS[key] = tuple(action(ActionKind.ATTACK, t) for t in range(n) if t != seat)
    return out


def _revealed_kind(state: GameState, seat: int) -> Kind | None:
    card = state.inhabitant[seat]
    if card is None or not state.revealed[seat]:
        return None
    return KIND[card]


def succession_target(state: GameState, seat: int) -> int | None:
    """The seat whose Shogun a Daimyo could take (R5.4): another seat's
    revealed inhabitant, or a card in another seat's score pile."""
    for other in range(state.n):
        if other == seat:
            continue
        if state.inhabitant[other] == SHOGUN and state.revealed[other]:
            return other
        if SHOGUN in state.pile[other]:
            return other
    return None


def allowed_actions(state: GameState, seat: int) -> list[Action]:
    """Every action `seat`'s inhabitant may announce now (R5, R6)."""
    card = state.inhabitant[seat]
    if card is None:
        return []
    kind = KIND[card]
    n = state.n
    out = list(_attacks(n, seat))
    if kind in (Kind.SHOGUN, Kind.SAMURAI):
        return out
    others = [t for t in range(n) if t != seat]
    if kind is Kind.SORYO:
        out.append(action(ActionKind.BLESSING))
    elif kind is Kind.MAHO_TSUKAI:
        if not any(_revealed_kind(state, t) is Kind.MAHO_TSUKAI for t in others):
            out.append(action(ActionKind.TRANSFORMATION))
    elif kind is Kind.DAIMYO:
        out.append(action(ActionKind.INCOME))
        t = succession_target(state, seat)
        if t is not None:
            out.append(action(ActionKind.SUCCESSION, t))
    elif kind is Kind.AKINDO:
        for t in others:
            if _revealed_kind(state, t) is not Kind.AKINDO:
                out.append(action(ActionKind.CREDIT, t))
                out.append(action(ActionKind.TRADE, t))
    elif kind is Kind.NOFU:
        out.append(action(ActionKind.INCITE))
        out.append(action(ActionKind.REVOLUTION))
    elif kind is Kind.NINJA:
        for t in others:
            if _revealed_kind(state, t) is not Kind.NINJA:
                out.append(action(ActionKind.ASSASSINATION, t))
    return out


def check_action(state: GameState, seat: int, act: Action) -> None:
    """Reject an action `seat` may not announce, saying why (R4.1, R4.2, R5)."""
    if not isinstance(act, Action) or not isinstance(act.kind, ActionKind):
        raise Rejected("command/invalid", "an announcement needs an action kind")
    t = act.target
    if (act.kind is ActionKind.ATTACK and type(t) is int and 0 <= t < state.n and t != seat
            and state.inhabitant[seat] is not None):
        return  # every inhabitant may attack any other seat (R5): no list needed
    if act in allowed_actions(state, seat):
        return
    kind = act.kind
    if kind in (ActionKind.ATTACK, ActionKind.SUCCESSION, ActionKind.CREDIT,
                ActionKind.TRADE, ActionKind.ASSASSINATION):
        t = act.target
        if not isinstance(t, int) or not 0 <= t < state.n:
            raise Rejected("announce/bad_target", f"{kind.value} needs a target seat 0..{state.n - 1} (R4.2)")
        if t == seat:
            raise Rejected("announce/bad_target", "the target is always another seat (R4.2)")
    elif act.target is not None:
        raise Rejected("announce/bad_target", f"{kind.value} has no target (R4.2)")
    raise Rejected(
        "announce/not_allowed",
        f"your inhabitant may not announce {kind.value}"
        + (f" against seat {act.target}" if act.target is not None else "")
        + " now (R5)",
    )


def effective_rank(state: GameState) -> int:
    """The rank a claim must beat (R4.3c): the announcer's, or against a
    Revolution, 1 + the workers on the square."""
    assert state.announcer is not None and state.action is not None
    if state.action.kind is ActionKind.REVOLUTION:
        return 1 + state.square
    card = state.inhabitant[state.announcer]
    assert card is not None
    return RANK[card]


def public_cards(state: GameState) -> set[int]:
    """Inhabitant cards whose place everyone knows (R10.2a): in score piles,
    revealed in a slot, or in the known bottom of the deck."""
    out: set[int] = set()
    for s in range(state.n):
        out.update(state.pile[s])
        c = state.inhabitant[s]
        if c is not None and state.revealed[s]:
            out.add(c)
    out.update(state.deck[: state.known_bottom])
    out.update(state.in_play)  # face-up reinforcements are in sight
    return out


def max_hidden_rank(state: GameState) -> int:
    """The highest rank a face-down inhabitant could have, from public
    information alone. The Geisha never counts."""
    public = public_cards(state)
    best = -1
    for c in INHABITANTS:
        if c != GEISHA and c not in public and RANK[c] > best:
            best = RANK[c]
    return best


def privilege_asked(state: GameState) -> list[int]:
    """R10.2a: who is asked in a privilege round, from public information."""
    n = state.n
    announcer = state.announcer
    assert announcer is not None and state.action is not None
    target = state.action.target
    rank = effective_rank(state)
    hidden_best: int | None = None
    asked = []
    for i in range(1, n):
        s = (announcer + i) % n
        if not state.disc[s] or s == target or state.chain_mask >> s & 1:
            continue
        if state.revealed[s]:
            card = state.inhabitant[s]
            if card is None or RANK[card] < rank:
                continue
        else:
            if hidden_best is None:
                hidden_best = max_hidden_rank(state)
            if hidden_best < rank:
                continue
        asked.append(s)
    return asked


def revolution_asked(state: GameState, announcer: int) -> list[int]:
    """R10.2c: the revolution round skips seats that public information
    shows cannot join."""
    n = state.n
    public = public_cards(state)
    all_nofu_public = all(c in public for c in NOFUS)
    asked = []
    for i in range(1, n):
        s = (announcer + i) % n
        if not state.disc[s]:
            continue
        if state.revealed[s]:
            card = state.inhabitant[s]
            if card is None or KIND[card] is not Kind.NOFU:
                continue
        elif all_nofu_public:
            continue
        asked.append(s)
    return asked


def claim_rank_ok(state: GameState, seat: int) -> bool:
    """R4.3c, first part: a claimant's rank must reach the effective rank.
    Equal rank is judged again, with card counts, when the claim is final."""
    card = state.inhabitant[seat]
    return card is not None and RANK[card] >= effective_rank(state)


def claim_valid_now(state: GameState, seat: int) -> bool:
    """R4.3c in full, judged when the claim becomes decisive: higher rank,
    or equal rank and strictly fewer score cards than the announcer."""
    card = state.inhabitant[seat]
    if card is None:
        return False
    rank, beat = RANK[card], effective_rank(state)
    if rank > beat:
        return True
    assert state.announcer is not None
    return rank == beat and len(state.pile[seat]) < len(state.pile[state.announcer])


def why_not_asked(state: GameState, seat: int) -> str:
    """Why `seat` is not among the asked seats of the open round, from the
    same public information that decided who is asked, with the rule."""
    rnd = state.round
    assert rnd is not None
    did = rnd.decision
    fight = state.fight
    if rnd.topic is Topic.SUPPORT and fight is not None:
        if seat in (fight.attacker, fight.defender):
            return f"seat {seat} fights in decision {did}: attacker and defender do not support (R6.2)"
        return f"seat {seat} has no action disc left, and only a seat with its disc supports (R6.2)"
    if seat == state.announcer:
        return f"seat {seat} announced: the other seats are asked in decision {did} (R4.4, R7.1)"
    if not state.disc[seat]:
        return f"seat {seat} has no action disc left: a seat without it is not asked (R10.2a, R10.2c)"
    if rnd.topic is Topic.REVOLUTION:
        return (f"public information shows seat {seat} holds no Nofu, so it is not asked to join "
                f"decision {did} (R10.2c)")
    if state.action is not None and seat == state.action.target:
        return f"seat {seat} is the target of the announcement: a target is never asked to claim (R10.2a)"
    if state.chain_mask >> seat & 1:
        return f"seat {seat} announced in this chain and is not asked again (R4.4a, R10.2a)"
    return (f"public information shows seat {seat} cannot outrank the announcer's rank "
            f"{effective_rank(state)}, so it is not asked (R10.2a)")
