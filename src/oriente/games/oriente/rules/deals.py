"""Deals and the promise ledger (R8).

The server enforces only the exchange of score cards (R8.2): atomically,
once every party accepted, and only if every card is still where the deal
says. Promises are not binding (R8.1); the ledger records whether they were
kept, settling the structured forms itself (R8.6).
"""

from __future__ import annotations

from collections.abc import Mapping

from . import reasons
from .cards import ALL_CARDS
from .commands import (
    AcceptDeal,
    DeclineDeal,
    Promise,
    PromiseKind,
    ProposeDeal,
    SettlePromise,
    Side,
    Transfer,
    WithdrawDeal,
)
from .errors import Rejected
from .events import DealAccepted, DealClosed, DealExecuted, DealProposed, PromiseSettled
from .state import Deal, GameState, LedgerEntry

MAX_TEXT = 500  # characters in a consideration or a promise
MAX_PARTS = 40  # transfers and promises in one proposal
MAX_PROPOSALS_PER_SEASON = 40  # a seat's proposals in one season (R8.7, revision 3)
MAX_PROPOSAL_TEXT = 2000  # characters of all the texts of one proposal together (R8.7, revision 3)


def open_proposals(state: GameState, seat: int) -> int:
    """How many of `seat`'s own proposals are open (R8.6 caps them)."""
    return sum(1 for d in state.deals.values() if d.proposer == seat)


def capability(state: GameState, seat: int) -> dict:
    """What `seat` may propose now (R8): whether it may, and how many of its
    proposals are open against the table's cap. `ProposeDeal` is open-ended,
    so `legal()` cannot list it; a prompt carries this instead, in every
    frame, so it holds only what changes (a proposal's fixed limits,
    MAX_PARTS and MAX_TEXT, are in PROTOCOL.md 7)."""
    own, cap = open_proposals(state, seat), state.config.max_open_proposals
    if state.config.rules_revision < 3:
        return {"propose": own < cap, "open": own, "max_open": cap}
    left = max(0, MAX_PROPOSALS_PER_SEASON - state.proposed[seat])
    return {"propose": own < cap and left > 0, "open": own, "max_open": cap, "season_left": left}


def _seat_ok(state: GameState, s: object) -> bool:
    return isinstance(s, int) and not isinstance(s, bool) and 0 <= s < state.n


def _check_text(text: object, what: str) -> None:
    if not isinstance(text, str) or not text.strip():
        if what == "consideration":
            raise Rejected("deal/no_consideration", "every transfer says in its 'consideration' what the card "
                                                    f"is for, 1 to {MAX_TEXT} characters (R8.3: no gifts)")
        raise Rejected("deal/bad_promise", f"every promise says in its 'text' what is promised, 1 to {MAX_TEXT} "
                                           "characters (R8.6)")
    if len(text) > MAX_TEXT:
        raise Rejected("deal/too_long", f"a {what} is at most {MAX_TEXT} characters, not {len(text)} (R8.6)")


def _check_transfer(state: GameState, t: Transfer, seen: set[int]) -> None:
    if not isinstance(t, Transfer):
        raise Rejected("command/invalid", "a transfer names card, giver, receiver and consideration")
    if not _seat_ok(state, t.giver) or not _seat_ok(state, t.receiver):
        raise Rejected("deal/bad_seat", f"giver and receiver are seats 0..{state.n - 1} (R8.3)")
    if t.giver == t.receiver:
        raise Rejected("deal/self_transfer", "a seat cannot give a card to itself (R8.3)")
    if not isinstance(t.card, int) or t.card not in ALL_CARDS:
        raise Rejected("deal/unknown_card", f"card {t.card!r} does not exist: cards are 0..52 (R1.5)")
    if t.card in seen:
        raise Rejected("deal/duplicate_card", "each card goes to exactly one seat (R8.3)")
    seen.add(t.card)
    if t.card not in state.pile[t.giver]:
        raise Rejected(
            "deal/card_not_owned",
            f"card {t.card} is not in seat {t.giver}'s score pile; only score cards can be dealt,"
            " never an inhabitant (R8.3)",
        )
    _check_text(t.consideration, "consideration")


def _check_promise(state: GameState, p: Promise) -> None:
    if not isinstance(p, Promise):
        raise Rejected("command/invalid", "a promise names promiser, promisee and text")
    if not _seat_ok(state, p.promiser) or not _seat_ok(state, p.promisee):
        raise Rejected("deal/bad_seat", f"promiser and promisee are seats 0..{state.n - 1} (R8.6)")
    if p.promiser == p.promisee:
        raise Rejected("deal/bad_promise", "a seat cannot promise something to itself (R8.6)")
    _check_text(p.text, "promise")
    kind = p.kind
    if kind is PromiseKind.SUPPORT:
        if not (_seat_ok(state, p.attacker) and _seat_ok(state, p.defender)
                and p.attacker != p.defender and isinstance(p.side, Side)):
            raise Rejected("deal/bad_promise", "a support promise names attacker, defender and side (R8.6)")
        if p.promiser in (p.attacker, p.defender):
            raise Rejected("deal/bad_promise", "attacker and defender cannot support in their own fight (R6.2)")
    elif kind is PromiseKind.PAY:
        if not p.cards or any(not isinstance(c, int) or c not in ALL_CARDS for c in p.cards):
            raise Rejected("deal/bad_promise", "a pay promise names the cards (0..52) (R8.6)")
        if not isinstance(p.by_season, int) or p.by_season < state.season:
            raise Rejected("deal/bad_promise", "a pay promise's 'by_season' is the season by whose end the cards "
                                               f"are due: this season ({state.season}) or a later one, not "
                                               f"{p.by_season!r} (R8.6)")
    elif kind is PromiseKind.NO_ATTACK:
        if not _seat_ok(state, p.seat) or p.seat == p.promiser:
            raise Rejected("deal/bad_promise", "a no-attack promise names another seat (R8.6)")
    elif kind is not PromiseKind.FREE:
        raise Rejected("deal/bad_promise", f"unknown promise kind {kind!r} (R8.6)")


def propose(state: GameState, seat: int, cmd: ProposeDeal, ev: list) -> None:
    transfers, promises = cmd.transfers, cmd.promises
    if not transfers and not promises:
        raise Rejected("deal/empty", "a deal lists at least one card transfer or promise (R8.6)")
    if len(transfers) + len(promises) > MAX_PARTS:
        raise Rejected("deal/too_large", f"a deal lists at most {MAX_PARTS} transfers and promises (R8.6)")
    seen: set[int] = set()
    for t in transfers:
        _check_transfer(state, t, seen)
    for p in promises:
        _check_promise(state, p)
    if not isinstance(cmd.note, str) or len(cmd.note) > MAX_TEXT:
        raise Rejected("deal/too_long", f"a note is at most {MAX_TEXT} characters (R8.6)")
    parties: set[int] = set()
    for t in transfers:
        parties.update((t.giver, t.receiver))
    for p in promises:
        parties.update((p.promiser, p.promisee))
    if seat not in parties:
        raise Rejected("deal/not_party", "you can only propose a deal you are a party to (R8.6)")
    why = reasons.check(cmd.why, reasons.PROPOSE, state.n, "proposal")
    counter_to = cmd.counter_to
    if counter_to is not None and not 1 <= counter_to < state.next_deal:
        raise Rejected("deal/bad_counter", f"'counter_to' names a deal proposed earlier in this game, 1 to "
                                           f"{state.next_deal - 1}, not {counter_to} (R8.8)")
    open_own = open_proposals(state, seat)
    if open_own >= state.config.max_open_proposals:
        raise Rejected(
            "deal/too_many_open",
            f"you have {open_own} open proposals, the table's limit; withdraw one first (R8.6)",
        )
    if state.config.rules_revision >= 3:
        _check_budget(state, seat, cmd)
    deal = Deal(
        id=state.next_deal, proposer=seat, parties=tuple(sorted(parties)),
        transfers=tuple(transfers), promises=tuple(promises), accepted={seat}, counter_to=counter_to, why=why,
    )
    state.next_deal += 1
    state.deals[deal.id] = deal
    state.proposed[seat] += 1
    ev.append(DealProposed(deal=deal.id, proposer=seat, parties=deal.parties,
                           transfers=deal.transfers, promises=deal.promises, note=cmd.note,
                           counter_to=counter_to, why=why))


def _check_budget(state: GameState, seat: int, cmd: ProposeDeal) -> None:
    """R8.7: a seat's proposals per season, and one proposal's text, are
    bounded, so that talk cannot grow a table's log without end (a proposal
    withdrawn at once still counts)."""
    if state.proposed[seat] >= MAX_PROPOSALS_PER_SEASON:
        raise Rejected("deal/season_limit", f"a seat makes at most {MAX_PROPOSALS_PER_SEASON} proposals in a "
                                            "season; you have made them all this season (R8.7)")
    text = len(cmd.note) + sum(len(t.consideration) for t in cmd.transfers if isinstance(t.consideration, str)) \
        + sum(len(p.text) for p in cmd.promises if isinstance(p.text, str))
    if text > MAX_PROPOSAL_TEXT:
        raise Rejected("deal/too_long", f"the texts of one proposal (considerations, promises, note) hold at most "
                                        f"{MAX_PROPOSAL_TEXT} characters together, not {text} (R8.7)")


def _open_deal(state: GameState, seat: int, deal_id: object) -> Deal:
    deal = state.deals.get(deal_id) if isinstance(deal_id, int) else None
    if deal is None:
        raise Rejected("deal/unknown",
                       f"there is no open deal {deal_id!r}: it may have executed, closed or lapsed (R8.6)")
    if seat not in deal.parties:
        raise Rejected("deal/not_party", f"you are not a party to deal {deal.id} (R8.6)")
    return deal


def accept(state: GameState, seat: int, cmd: AcceptDeal, ev: list) -> None:
    deal = _open_deal(state, seat, cmd.deal)
    if seat in deal.accepted:
        raise Rejected("deal/already_accepted", f"you have already accepted deal {deal.id} (R8.6)")
    deal.accepted.add(seat)
    ev.append(DealAccepted(deal=deal.id, seat=seat))
    if len(deal.accepted) == len(deal.parties):
        _execute(state, deal, ev)


def decline(state: GameState, seat: int, cmd: DeclineDeal, ev: list) -> None:
    deal = _open_deal(state, seat, cmd.deal)
    if seat in deal.accepted:
        raise Rejected("deal/already_accepted", f"you accepted deal {deal.id}; withdraw it instead (R8.6)")
    why = reasons.check(cmd.why, reasons.DECLINE, state.n, "decline")
    del state.deals[deal.id]
    ev.append(DealClosed(deal=deal.id, seat=seat, reason="declined", why=why))


def withdraw(state: GameState, seat: int, cmd: WithdrawDeal, ev: list) -> None:
    deal = _open_deal(state, seat, cmd.deal)
    if seat not in deal.accepted:
        raise Rejected("deal/not_accepted", f"you have not accepted deal {deal.id}; decline it instead (R8.6)")
    del state.deals[deal.id]
    ev.append(DealClosed(deal=deal.id, seat=seat, reason="withdrawn"))


def _execute(state: GameState, deal: Deal, ev: list) -> None:
    """R8.2: all cards move at once, or none (the deal is void, R8.6)."""
    del state.deals[deal.id]
    for t in deal.transfers:
        if t.card not in state.pile[t.giver]:
            ev.append(DealClosed(deal=deal.id, seat=None, reason="void"))
            return
    for t in deal.transfers:
        state.pile[t.giver].remove(t.card)
        state.pile[t.receiver].append(t.card)
    ids = []
    for p in deal.promises:
        entry = LedgerEntry(id=state.next_promise, deal=deal.id, promise=p, season=state.season)
        state.next_promise += 1
        state.ledger[entry.id] = entry
        ids.append(entry.id)
    ev.append(DealExecuted(deal=deal.id, transfers=deal.transfers, promise_ids=tuple(ids)))
    settle_payments(state, ev)


def settle(state: GameState, seat: int, cmd: SettlePromise, ev: list) -> None:
    entry = state.ledger.get(cmd.promise) if isinstance(cmd.promise, int) else None
    if entry is None:
        raise Rejected("promise/unknown", f"there is no promise {cmd.promise!r} (R8.6)")
    if entry.promise.promisee != seat:
        raise Rejected("promise/not_promisee", "only the promisee settles a promise (R8.6)")
    if entry.promise.kind is not PromiseKind.FREE:
        raise Rejected("promise/structured", "the server settles structured promises itself (R8.6)")
    if entry.status != "open":
        raise Rejected("promise/settled", f"promise {entry.id} is already {entry.status} (R8.6)")
    if not isinstance(cmd.kept, bool):
        raise Rejected("command/invalid", "kept is true or false")
    _mark(state, entry, "kept" if cmd.kept else "broken", seat, ev)


def _mark(state: GameState, entry: LedgerEntry, status: str, by: int | None, ev: list) -> None:
    entry.status = status
    who = entry.promise.promiser
    if status == "kept":
        state.kept[who] += 1
    elif status == "broken":
        state.broken[who] += 1
    ev.append(PromiseSettled(promise=entry.id, promiser=who, status=status, by=by))


def _open_entries(state: GameState, kind: PromiseKind) -> list[LedgerEntry]:
    return [e for e in state.ledger.values() if e.status == "open" and e.promise.kind is kind]


def settle_payments(state: GameState, ev: list) -> None:
    """A pay promise is kept as soon as all its cards lie in the promisee's
    pile, however they got there: a deal, a Trade's gift, a redistribution
    (R8.6: settled "from what happens"). Checked after every deal and action."""
    for e in _open_entries(state, PromiseKind.PAY):
        pile = state.pile[e.promise.promisee]
        if all(c in pile for c in e.promise.cards):
            _mark(state, e, "kept", None, ev)


def on_attack_fulfilled(state: GameState, attacker: int, target: int, ev: list) -> None:
    """A no-attack promise is broken by fulfilling the attack it ruled out."""
    for e in _open_entries(state, PromiseKind.NO_ATTACK):
        p = e.promise
        if p.promiser == attacker and p.seat == target and e.season == state.season:
            _mark(state, e, "broken", None, ev)


def on_support_round(state: GameState, attacker: int, defender: int,
                     declared: Mapping[int, object], ev: list) -> None:
    """Support promises for this fight are kept or broken by the declarations."""
    for e in _open_entries(state, PromiseKind.SUPPORT):
        p = e.promise
        if p.attacker == attacker and p.defender == defender and e.season == state.season:
            _mark(state, e, "kept" if declared.get(p.promiser) is p.side else "broken", None, ev)


def on_season_end(state: GameState, ev: list) -> None:
    """R8.6: open proposals lapse; season-bound promises are settled. R8.7:
    every seat's count of proposals starts again."""
    state.proposed = [0] * state.n
    settle_payments(state, ev)
    for deal_id in list(state.deals):
        del state.deals[deal_id]
        ev.append(DealClosed(deal=deal_id, seat=None, reason="lapsed"))
    for e in list(state.ledger.values()):
        if e.status != "open":
            continue
        kind = e.promise.kind
        if kind is PromiseKind.NO_ATTACK and e.season == state.season:
            _mark(state, e, "kept", None, ev)
        elif kind is PromiseKind.SUPPORT and e.season == state.season:
            _mark(state, e, "released", None, ev)
        elif kind is PromiseKind.PAY and e.promise.by_season is not None and e.promise.by_season <= state.season:
            _mark(state, e, "broken", None, ev)
