"""Who knows which cards of which hand (O8.6).

The rulebook's online notes ask that each card in a hand show which
opponents know it. Cards of one island are identical (O1.3), so what an
observer can be *certain* of is a multiset: "seat s holds at least these
cards". `state.known[o][s][i]` is how many cards of island i observer o
is certain seat s holds; observers are the seats and the public (index n:
what spectators know), and the public's knowledge is part of every seat's.

Two operations keep it exact:

- a card of island i joins hand s in front of witnesses W: every witness
  knows one more i there;
- a card of island i leaves hand s: a witness knows one i fewer; an
  observer that did not see which card left can only be sure of one card
  fewer of *every* island it knew (any of them may be the one that left).
"""

from __future__ import annotations

from .state import OroState


def everyone(state: OroState) -> int:
    """The witness mask of a public event: every seat and the public."""
    return (1 << (state.n + 1)) - 1


def only(*seats: int) -> int:
    mask = 0
    for s in seats:
        mask |= 1 << s
    return mask


def gain(state: OroState, owner: int, island: int, witnesses: int) -> None:
    """A card of `island` joined `owner`'s hand, seen by `witnesses`."""
    known = state.known
    for o in range(state.n + 1):
        if o != owner and witnesses >> o & 1:
            known[o][owner][island] += 1


def lose(state: OroState, owner: int, island: int, witnesses: int) -> None:
    """A card of `island` left `owner`'s hand, seen by `witnesses`."""
    known = state.known
    for o in range(state.n + 1):
        if o == owner:
            continue
        row = known[o][owner]
        if witnesses >> o & 1:
            if row[island]:
                row[island] -= 1
        else:
            for i, k in enumerate(row):
                if k:
                    row[i] = k - 1


def show_hand(state: OroState, owner: int, observer: int) -> None:
    """`observer` saw `owner`'s whole hand (Ku, O7.6)."""
    row = state.known[observer][owner]
    for i in range(len(row)):
        row[i] = 0
    for c in state.hands[owner]:
        row[c] += 1


def known_cards(state: OroState, observer: int, owner: int) -> list[int]:
    """The cards (islands, sorted) `observer` is certain `owner` holds."""
    out: list[int] = []
    for i, k in enumerate(state.known[observer][owner]):
        out.extend([i] * k)
    return out


def known_to(state: OroState, owner: int) -> list[list[int]]:
    """For each card of `owner`'s hand (sorted by island), the other seats
    that know it: of the copies of one island, the first k are known to a
    seat that is certain of k of them."""
    out: list[list[int]] = []
    seen: dict[int, int] = {}
    for c in sorted(state.hands[owner]):
        j = seen.get(c, 0)
        seen[c] = j + 1
        out.append([o for o in range(state.n) if o != owner and state.known[o][owner][c] > j])
    return out
