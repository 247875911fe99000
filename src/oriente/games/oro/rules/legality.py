"""Every command a seat may send now, structured (for bots and prompts).

The list is exact: each command in it is accepted by `apply`, and every
other command is refused (the property tests check both). Cards are named
by island, so a hand of two ALOA cards yields one build per connection,
not two.
"""

from __future__ import annotations

from . import turn as T
from .commands import (
    Build,
    Command,
    Discard,
    Draw,
    EndTurn,
    GiveBack,
    GiveUp,
    Pass,
    Remove,
    Replace,
    Take,
    UseKu,
    UseLono,
    UsePele,
)
from .engine import may_pass
from .state import OroState, Phase


def legal(state: OroState, seat: int) -> list[Command]:
    phase = state.phase
    did = state.decision
    if phase is Phase.OVER:
        return []
    if phase is Phase.GIVE_UP:
        if seat in state.asked[state.pos:]:
            return [GiveUp(decision=did, island=i) for i in sorted(set(state.hands[seat]))]
        return []
    if seat != state.active:
        return []
    if phase is Phase.REMOVE:
        return [Remove(decision=did, connection=c) for c in state.remove_options]
    if phase is Phase.KU:
        assert state.ku_target is not None
        return [Take(decision=did, island=i) for i in sorted(set(state.hands[state.ku_target]))]
    if phase is Phase.PELE:
        return [GiveBack(decision=did, island=i) for i in sorted(set(state.hands[seat]))]
    return _turn(state, seat, did)


def _turn(state: OroState, seat: int, did: int) -> list[Command]:
    board = state.board
    hand = state.hands[seat]
    have: dict[int, int] = {}
    for c in hand:
        have[c] = have.get(c, 0) + 1
    out: list[Command] = []
    if state.final and may_pass(state, seat):
        out.append(Pass(decision=did))
    kanaloa = state.held[seat]["kanaloa"] if T.gods_usable(state) else 0
    cards = T.plays_allowed(state, seat)  # O3.4: no card after a face-down discard (O7.9 aside)
    # O7.4: at revision 2 a Kanaloa stone alone is no card: it may be used
    # at any time of the turn, also after a face-down discard.
    stones = cards or T.revised(state)
    if cards or (stones and kanaloa):
        bridges = state.bridges
        incident = board.incident
        ends = board.ends
        rivals: set[int] = set()  # opponents' bridges a card in hand (or Kanaloa) matches
        if cards:
            for i in sorted(have):  # O3.2
                for c in incident[i]:
                    owner = bridges[c]
                    if owner is None:
                        out.append(Build(decision=did, connection=c, island=i))
                    elif owner != seat:
                        rivals.add(c)
        if kanaloa:  # O7.5: any free connection, any opponent's bridge
            out += [Build(decision=did, connection=c, kanaloa=True) for c, o in enumerate(bridges) if o is None]
            rivals.update(c for c, o in enumerate(bridges) if o is not None and o != seat)
        for c in sorted(rivals):
            a, b = ends[c]
            if a > b:
                a, b = b, a
            ka, kb = (have.get(a, 0), have.get(b, 0)) if cards else (0, 0)
            if ka >= 2:  # O3.3: AA, AB, BB
                out.append(Replace(decision=did, connection=c, islands=(a, a)))
            if ka and kb:
                out.append(Replace(decision=did, connection=c, islands=(a, b)))
            if kb >= 2:
                out.append(Replace(decision=did, connection=c, islands=(b, b)))
            if kanaloa:
                if ka:
                    out.append(Replace(decision=did, connection=c, islands=(a,), kanaloa=1))
                if kb:
                    out.append(Replace(decision=did, connection=c, islands=(b,), kanaloa=1))
                if kanaloa >= 2:
                    out.append(Replace(decision=did, connection=c, kanaloa=2))
    if T.can_discard(state, seat):  # O3.4
        out.extend(Discard(decision=did, island=i) for i in sorted(have))
    if T.can_draw_any(state):
        if len(hand) <= T.HAND_LIMIT - 1:  # O3.5, O3.6
            if state.deck:
                out.append(Draw(decision=did))
            out.extend(Draw(decision=did, island=i) for i in sorted(set(state.display)))
    elif len(hand) <= T.HAND_LIMIT:
        out.append(EndTurn(decision=did))  # O3.7, O5.6
    if T.gods_usable(state):
        held = state.held[seat]
        if held["ku"]:
            out.extend(UseKu(decision=did, target=t) for t in range(state.n) if t != seat and state.hands[t])
        if held["pele"] and any(state.hands[t] for t in range(state.n) if t != seat):
            out.append(UsePele(decision=did))
        if held["lono"]:
            if state.deck:
                out.append(UseLono(decision=did))
            out.extend(UseLono(decision=did, island=i) for i in sorted(set(state.display)))
    return out
