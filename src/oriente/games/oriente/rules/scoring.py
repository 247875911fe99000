"""The end of the game: Ninja victory, Geisha, scores and ranking (R9)."""

from __future__ import annotations

from .cards import GEISHA, NINJAS, VALUE
from .events import BonusAwarded, GameEnded
from .state import GameState, Phase


def ninja_victor(state: GameState) -> int | None:
    """R9.1: a seat with all three Ninjas in its score pile (not as inhabitant)."""
    for s in range(state.n):
        pile = state.pile[s]
        if all(ninja in pile for ninja in NINJAS):
            return s
    return None


def scored_cards(state: GameState, seat: int) -> list[int]:
    """R9.3: the score pile plus the inhabitant; the Geisha is never scored."""
    cards = list(state.pile[seat])
    inh = state.inhabitant[seat]
    if inh is not None and inh != GEISHA:
        cards.append(inh)
    return cards


def rank_seats(scores: list[int], tiebreaks: list[tuple[int, ...]], victor: int | None) -> list[int]:
    """R9.4: rank by total, then by card values highest first (a list that
    runs out first loses); identical keys share a rank; a Ninja victor is
    first. Ranks are 1-based, competition style (1, 2, 2, 4)."""
    n = len(scores)
    keys = {s: (scores[s], tiebreaks[s]) for s in range(n) if s != victor}
    order = sorted(keys, key=lambda s: keys[s], reverse=True)
    ranks = [0] * n
    base = 1
    if victor is not None:
        ranks[victor] = 1
        base = 2
    for i, s in enumerate(order):
        if i and keys[order[i - 1]] == keys[s]:
            ranks[s] = ranks[order[i - 1]]
        else:
            ranks[s] = base + i
    return ranks


def end_game(state: GameState, ev: list, reason: str, victor: int | None = None) -> None:
    """Score and rank the game, reveal everything, and stop (R9.2-R9.4).

    After a Geisha, a bonus already set aside is the fulfilling seat's and
    is scored (R9.2); cards in play (reinforcements, loot) are not.
    """
    if state.set_aside:
        seat = state.fulfiller
        assert seat is not None
        cards = tuple(state.set_aside)
        state.pile[seat].extend(cards)
        for c in cards:
            state.knows[c] = state.all_mask
        state.set_aside = []
        ev.append(BonusAwarded(seat=seat, cards=cards, blessing=False))
    if victor is None and reason == "geisha":
        victor = ninja_victor(state)  # R9.2a
    n = state.n
    scores, tiebreaks = [], []
    for s in range(n):
        values = sorted((VALUE[c] for c in scored_cards(state, s)), reverse=True)
        scores.append(sum(values))
        tiebreaks.append(tuple(values))
    ranks = rank_seats(scores, tiebreaks, victor)
    state.phase = Phase.OVER
    state.over_reason = reason
    state.round = None
    state.prompt = None
    for c in range(len(state.knows)):
        state.knows[c] = state.all_mask  # R10.4: everything is revealed after the game
    state.result = GameEnded(
        reason=reason,
        ninja_victor=victor,
        inhabitants=tuple(state.inhabitant),
        scores=tuple(scores),
        ranks=tuple(ranks),
        tiebreaks=tuple(tiebreaks),
    )
    ev.append(state.result)
