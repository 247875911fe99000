"""The negotiator's offers: which deal to propose now, if any (R8).

`plan(reading, memo)` looks, in this order, for

1. **a payment we owe** (our open pay promises, R8.6), made at once when
   our character's rule (characters.py) says keep;
2. (a **counter-offer** to a proposal we are about to decline is made by
   the negotiator's `choose`, before the decline: `counter_offer`, the
   promises we would keep, for a card of the proposer's that makes the deal
   worth it to us);
3. **support bought** for a fight we are in (R6.2): one card of ours to the
   seat whose sure support helps us most, against its promise to support
   our side; after a refusal the next offer to that seat costs more, up to
   what its support is worth to us;
4. **support sold**: when our declaration is still open, our promise to
   support a side for a card of its fighter's that covers what the promise
   costs us (nothing at all when we would support that side anyway);
5. **peace bought**: when a seat that threatens us is about to announce,
   our cheapest card for its promise not to attack us this season;
6. **a card bought with a promise**: a card of another seat's pile (a
   Ninja above all, R9.1) against our promise not to attack it this season.

Every proposal is valued twice before it is made: with
valuation.deal_value, so that we only offer what we would accept ourselves,
and with valuation.partner_value, our reading of what it is worth to the
partner from its seat, so that we only offer what it may want (at most
PARTNER_SLACK below nothing: its hidden card is a guess). Its answers then
teach us more than our reading: `observe` settles what became of each of
our offers (taken, or refused, void or lapsed), `acceptance` turns them
into the chance that a seat takes a kind of offer (each seat's own answers
on top of everyone's), and a kind of offer a seat keeps refusing is not
made to it again (MIN_ACCEPT), while one it keeps taking may ask more of it
(`slack`). A refused price for support is raised once (3).

The memo (a dict the caller keeps for the seat, like its rng) holds the
keys of the offers made, the offers still unanswered and every seat's
answers, so a declined offer is never made twice, and how many we made:
at most MAX_PER_DECISION while one decision is open (a fight's window, an
announcement) and MAX_PER_SEASON a season, counter-offers included and
payments we owe left out, however often we are refused. The rules allow
40 a season (R8.7); a person reads every offer made to them.
"""

from __future__ import annotations

from dataclasses import dataclass

from oriente.games.oriente.rules.cards import NINJAS, VALUE

from . import reputation
from .valuation import (
    NEVER,
    SPITE,
    Reading,
    card_worth,
    deal_value,
    may_still_support,
    partner_value,
    promise_value,
    support_cost,
    support_gain,
    threat,
)

BUY_MARGIN = 0.2  # points a purchase must leave us, at least
SELL_MARGIN = 0.5  # points we ask above what a promise costs us
PEACE_MARGIN = 0.3
CARD_MARGIN = 0.5
MAX_OPEN = 3  # our open proposals at once, at most (the table may allow fewer, R8.6)
# Our proposals while one decision is open (a fight's window, an
# announcement) and in one season, payments of our promises aside: the
# rules allow 40 a season (R8.7), but a person at the table reads every one
# addressed to them, and a bot whose word is doubted could otherwise send a
# dozen in one window. Self-play seldom needs more (mixed tables: 90 % of a
# seat's decisions with a proposal had at most 2, none more than 6; no
# season more than 7).
MAX_PER_DECISION = 3
MAX_PER_SEASON = 10

PARTNER_SLACK = 1.0  # points: we offer what the partner, by our reading, values at no less than minus this
LEARNED_SLACK = 3.0  # ... plus this much times the share of such offers it took
MIN_ACCEPT = 0.2  # we stop offering a kind of deal to a seat that takes it less often than this
PRIOR_WEIGHT = 2.0  # how many answers everyone's answers count for, when judging one seat
BUY_TRIES = 2  # offers to one seat for its support in one fight: the cheapest price, then our best


@dataclass(frozen=True)
class Offer:
    """A proposal to make: its memo key (kind first), the plain ProposeDeal,
    the seat whose answer decides it, and the deal it counters, if any."""

    key: tuple
    deal: dict
    partner: int
    counter_to: int | None = None

    @property
    def kind(self) -> str:
        return str(self.key[0])


def made(memo: dict) -> set:
    out = memo.get("made")
    if out is None:
        out = memo["made"] = set()
    return out


def open_limit(r: Reading) -> int:
    limit = r.b.deal_limit if r.b.deal_limit else MAX_OPEN
    return min(MAX_OPEN, limit)


def may_propose(r: Reading, memo: dict | None = None) -> bool:
    """Whether one more proposal may go out now: fewer open than the cap,
    and, where the prompt says so, proposals left this season (R8.7; the
    prompt's `deal` capability, absent from old frames); and, given our
    memo, fewer of ours in this decision and this season than our own caps
    (MAX_PER_DECISION, MAX_PER_SEASON), which a payment we owe ignores."""
    if len(my_open(r)) >= open_limit(r):
        return False
    capability = (r.prompt or {}).get("deal")
    if isinstance(capability, dict) and capability.get("propose", True) is False:
        return False
    if memo is None:
        return True
    in_season, in_decision = sent(r, memo)
    return in_season < MAX_PER_SEASON and in_decision < MAX_PER_DECISION


def _decision_key(r: Reading) -> tuple:
    return r.b.season, (r.prompt or {}).get("id")


def sent(r: Reading, memo: dict) -> tuple[int, int]:
    """How many proposals we made (payments aside) this season, and while
    the decision now open is open."""
    counts = memo.get("sent") or {}
    season, _ = key = _decision_key(r)
    return counts.get(("season", season), 0), counts.get(key, 0)


def my_open(r: Reading) -> list[dict]:
    return [d for d in r.b.deals if d["proposer"] == r.b.me]


def _transfer(card: int, giver: int, receiver: int, why: str) -> dict:
    return {"type": "Transfer", "card": card, "giver": giver, "receiver": receiver, "consideration": why}


def _promise(promiser: int, promisee: int, text: str, kind: str, **fields: object) -> dict:
    p: dict = {"type": "Promise", "promiser": promiser, "promisee": promisee, "text": text, "kind": kind,
               "attacker": None, "defender": None, "side": None, "cards": [], "by_season": None, "seat": None}
    p.update(fields)
    return p


def proposal(transfers: list[dict], promises: list[dict], note: str, why: dict | None = None,
             counter_to: int | None = None) -> dict:
    """A plain ProposeDeal; `why` says what it is for and `counter_to` names
    the deal it answers (R8.8), each left out when None."""
    out: dict = {"type": "ProposeDeal", "transfers": transfers, "promises": promises, "note": note}
    if why is not None:
        out["why"] = why
    if counter_to is not None:
        out["counter_to"] = counter_to
    return out


def support_promise(promiser: int, promisee: int, attacker: int, defender: int, side: str) -> dict:
    fighter = attacker if side == "attacker" else defender
    text = f"I will support the {side}, seat {fighter}, in the fight of seat {attacker} against seat {defender}"
    return _promise(promiser, promisee, text, "support", attacker=attacker, defender=defender, side=side)


def peace_promise(promiser: int, promisee: int) -> dict:
    return _promise(promiser, promisee, f"I will not attack seat {promisee} this season", "no_attack",
                    seat=promisee)


def _signature(deal: dict) -> tuple:
    transfers = tuple(sorted((t["card"], t["giver"], t["receiver"]) for t in deal.get("transfers") or ()))
    promises = tuple(sorted((p.get("promiser"), p.get("promisee"), p.get("kind"), p.get("attacker"),
                             p.get("defender"), p.get("side"), p.get("seat")) for p in deal.get("promises") or ()))
    return transfers, promises


def remember(memo: dict, offer: Offer, r: Reading | None = None) -> None:
    """Note an offer just made, to learn later whether its partner took it,
    and count it against our caps (`may_propose`; a payment is not counted)."""
    made(memo).add(offer.key)
    if r is not None and offer.kind != "pay":
        counts = memo.setdefault("sent", {})
        key = _decision_key(r)
        counts[key] = counts.get(key, 0) + 1
        counts[("season", key[0])] = counts.get(("season", key[0]), 0) + 1
    memo.setdefault("pending", {})[offer.key] = {"sig": _signature(offer.deal), "id": None, "kind": offer.kind,
                                                 "partner": offer.partner}


def observe(r: Reading, memo: dict) -> None:
    """Settle what became of our offers since the last call: still open,
    executed (its promises are in the ledger) or not (declined, void or
    lapsed), and count it for its partner (`acceptance`)."""
    pending = memo.get("pending")
    if not pending:
        return
    b = r.b
    open_ids = {_signature(d): d["deal"] for d in my_open(r)}
    ledger_deals = {e.get("deal") for e in b.ledger}
    stats = memo.setdefault("answers", {})
    for key, entry in list(pending.items()):
        did = open_ids.get(entry["sig"])
        if did is not None:
            entry["id"] = did
            continue
        if entry["id"] is None:
            _, promises = entry["sig"]
            took = any((e.get("promiser"), e.get("promisee"), e.get("kind"), e.get("attacker"), e.get("defender"),
                        e.get("side"), e.get("seat")) in promises and e.get("season") == b.season for e in b.ledger)
        else:
            took = entry["id"] in ledger_deals
        yes, no = stats.get((entry["kind"], entry["partner"]), (0, 0))
        stats[(entry["kind"], entry["partner"])] = (yes + 1, no) if took else (yes, no + 1)
        del pending[key]


def acceptance(memo: dict, kind: str, partner: int) -> float:
    """The chance that `partner` takes our next offer of this kind: its own
    answers so far, on top of everyone's answers to that kind of offer (one
    taken and one refused imagined up front), which count as two answers."""
    answers = memo.get("answers") or {}
    all_yes = sum(y for (k, _), (y, _n) in answers.items() if k == kind)
    all_no = sum(n for (k, _), (_y, n) in answers.items() if k == kind)
    prior = (all_yes + 1.0) / (all_yes + all_no + 2.0)
    yes, no = answers.get((kind, partner), (0, 0))
    return (yes + PRIOR_WEIGHT * prior) / (yes + no + PRIOR_WEIGHT)


def slack(memo: dict, kind: str, partner: int) -> float:
    """How far below nothing, by our reading, a deal may be for `partner`
    and still be offered: PARTNER_SLACK, widened by the share of such offers
    it has taken so far. Our reading of its interests is a guess; its
    answers are facts."""
    yes, no = (memo.get("answers") or {}).get((kind, partner), (0, 0))
    return PARTNER_SLACK + (LEARNED_SLACK * yes / (yes + no) if yes else 0.0)


def plan(r: Reading, memo: dict) -> Offer | None:
    """The next proposal to make, or None (nothing pays, or too many open):
    a payment we owe first, whatever our own caps; then, within them, the
    rest."""
    if not may_propose(r):
        return None
    paying = _payment(r, memo)
    if paying is not None:
        return paying
    if not may_propose(r, memo):
        return None
    for step in (_buy_support, _sell_support, _peace, _buy_card):
        got = step(r, memo)
        if got is not None:
            return got
    return None


def still_good(r: Reading, offer: Offer, memo: dict | None = None) -> bool:
    """Whether an offer planned at an earlier call may still be made: every
    card where it says, and worth making to us now."""
    deal = offer.deal
    if any(t["card"] not in r.b.pile[t["giver"]] for t in deal.get("transfers") or ()):
        return False
    if not may_propose(r, None if offer.kind == "pay" else memo):
        return False
    value = deal_value(r, deal)
    return value != NEVER and value >= 0.0


def fight_business(r: Reading, memo: dict) -> bool:
    """Whether we still have a proposal of ours open in this fight, or one
    more to make: a fighter says done (R10.2b1) only when neither holds."""
    fight = r.b.fight
    if fight is None:
        return False
    key = (fight["attacker"], fight["defender"])
    for d in my_open(r):
        if any(p.get("kind") == "support" and (p.get("attacker"), p.get("defender")) == key for p in d["promises"]):
            return True
    return may_propose(r, memo) and _buy_support(r, memo) is not None


def _willing(memo: dict, kind: str, partner: int) -> bool:
    return acceptance(memo, kind, partner) >= MIN_ACCEPT


# -- 1. payments -------------------------------------------------------------------------

def _payment(r: Reading, memo: dict) -> Offer | None:
    b = r.b
    for e in reputation.my_open_promises(b, "pay"):
        key = ("pay", e["promise"])
        if key in made(memo):
            continue
        to = e["promisee"]
        cards = [c for c in e.get("cards") or () if c in b.pile[b.me]]
        if not cards or not all(c in b.pile[b.me] or c in b.pile[to] for c in e.get("cards") or ()):
            continue
        gain = sum(card_worth(b, b.me, c, gaining=False) for c in cards)
        if not r.keep(gain):
            continue  # the rule says break: the promise lapses unpaid at its season's end
        why = f"as promised (promise {e['promise']})"
        deal = proposal([_transfer(c, b.me, to, why) for c in cards], [], f"paying promise {e['promise']}",
                        {"code": "payment", "promise": e["promise"]})
        return Offer(key, deal, to)
    return None


# -- 2. counter-offers -----------------------------------------------------------------

def counter(r: Reading, deal: dict) -> dict | None:
    """A counter-offer to `deal` (proposed to us, declined), or None: what
    was asked of us that we would give (the promises we can keep; if only
    cards are asked of us, our cheapest one instead), what the proposer
    promised us, and of the proposer's cards the ones it offered plus, if
    that is not enough, the one that makes the deal worth it to us at the
    least cost to it. Only for two-seat deals that ask something of us."""
    b = r.b
    proposer = deal["proposer"]
    if proposer == b.me or set(deal.get("parties") or ()) != {b.me, proposer}:
        return None
    transfers = list(deal.get("transfers") or ())
    promises = list(deal.get("promises") or ())
    if not _fight_still_open(r, promises):
        return None  # support in a fight whose window and support round are over: nothing to counter
    ours = [p for p in promises if p.get("promiser") == b.me]
    given = [t for t in transfers if t["giver"] == b.me]
    if not ours and not given:
        return None
    kept = [p for p in ours if promise_value(r, p) != NEVER]
    if len(kept) < len(ours) and not given:
        return None  # what we are asked to promise we could not keep: nothing to counter with
    theirs = [p for p in promises if p.get("promiser") != b.me]
    why = "for what I promise in this deal" if kept else "for my card"
    gets = [_transfer(t["card"], proposer, b.me, why) for t in transfers
            if t["giver"] == proposer and t["card"] in b.pile[proposer]]
    ask = {t["card"] for t in gets}
    cheapest = min(b.pile[b.me], key=lambda c: (_pays(r, c, proposer), c), default=None)
    gives: list[dict] = []
    if given and not kept and cheapest is not None:  # only cards asked of us: our cheapest one instead
        gives = [_transfer(cheapest, b.me, proposer, "for what you give me in this deal")]
    if not kept and not gives:
        return None
    note = f"counter-offer to deal {deal['deal']}"
    tag = {"code": "counter", "deal": deal["deal"]}
    options = [gets] if gets else []
    cards = sorted(b.pile[proposer], key=lambda c: (card_worth(b, proposer, c, gaining=False), c))
    options += [[_transfer(c, proposer, b.me, why)] for c in cards if c not in ask]  # that card instead
    options += [[*gets, _transfer(c, proposer, b.me, why)] for c in cards if c not in ask] if gets else []
    for wanted in options:
        offer = proposal(gives + wanted, kept + theirs, note, tag, deal["deal"])
        if offer["transfers"] and _signature(offer) != _signature(deal) and deal_value(r, offer) >= CARD_MARGIN:
            return offer  # the proposer asked for this: our price is the card dearest to us it least minds
    return None


def _fight_still_open(r: Reading, promises: list[dict]) -> bool:
    """Whether every support promise among `promises` is for the fight whose
    window or support round is open now (a deal needs none)."""
    fights = {(p.get("attacker"), p.get("defender")) for p in promises if p.get("kind") == "support"}
    if not fights:
        return True
    fight = r.b.fight
    if fight is None or (r.prompt or {}).get("topic") not in ("negotiation", "support"):
        return False
    return fights == {(fight["attacker"], fight["defender"])}


def counter_offer(r: Reading, deal: dict, memo: dict) -> Offer | None:
    """The counter-offer to make to `deal` before we decline it, if any:
    `counter`'s, when its proposer still takes our counters (MIN_ACCEPT) and
    we may open one more proposal."""
    partner = deal["proposer"]
    key = ("counter", deal["deal"])
    if key in made(memo) or not _willing(memo, "counter", partner) or not may_propose(r, memo):
        return None
    better = counter(r, deal)
    return None if better is None else Offer(key, better, partner, deal["deal"])


# -- 3. and 4. support -------------------------------------------------------------------

def _undeclared(r: Reading) -> list[int]:
    prompt = r.prompt or {}
    if prompt.get("topic") not in ("negotiation", "support"):
        return []
    published = {s for s, _ in prompt.get("published") or ()}
    return [s for s in prompt.get("asked") or () if s not in published and s != r.b.me and r.b.disc[s]]


def _pays(r: Reading, card: int, to: int) -> float:
    """What giving `card` to `to` costs us, in utility."""
    b = r.b
    return card_worth(b, b.me, card, gaining=False) + SPITE * r.w[to] * card_worth(b, to, card, gaining=True)


def _in_talks(r: Reading, seat: int, attacker: int, defender: int) -> bool:
    for d in my_open(r):
        if seat in d["parties"] and any(p.get("kind") == "support" and p.get("attacker") == attacker
                                        and p.get("defender") == defender for p in d["promises"]):
            return True
    return False


def _buy_support(r: Reading, memo: dict) -> Offer | None:
    b = r.b
    fight = b.fight
    if fight is None or b.me not in (fight["attacker"], fight["defender"]):
        return None
    att, dfn = fight["attacker"], fight["defender"]
    side = "attacker" if b.me == att else "defender"
    probs = r.probs(att, dfn)
    best: tuple[float, int, int, int] | None = None
    for s in _undeclared(r):
        if reputation.promised_support_of(b, s, att, dfn) is not None or _in_talks(r, s, att, dfn):
            continue
        tried = sum(1 for k in made(memo) if k[:5] == ("buy", b.season, att, dfn, s))
        if tried >= BUY_TRIES:
            continue
        gain = reputation.trust(b, s) * support_gain(b, att, dfn, s, side, probs, r.w)
        prices = sorted((_pays(r, c, s), c) for c in b.pile[b.me] if c not in NINJAS)
        within = [(cost, c) for cost, c in prices if gain - cost > BUY_MARGIN]
        if not within:
            continue
        promise = support_promise(s, b.me, att, dfn, side)
        fair = [(cost, c) for cost, c in within
                if partner_value(r, proposal([_transfer(c, b.me, s, "")], [promise], ""), s) >= -slack(memo, "buy", s)]
        if tried == 0:
            cost, card = fair[0] if fair else within[-1]
        else:
            cost, card = within[-1]
            if cost <= min(x for x, _ in (fair or within)):
                continue  # nothing dearer left to offer than what was refused
        net = gain - cost
        if best is None or net > best[0]:
            best = (net, s, card, tried)
    if best is None:
        return None
    _, s, card, tried = best
    deal = proposal([_transfer(card, b.me, s, f"for your support of me, the {side}, in this fight")],
                    [support_promise(s, b.me, att, dfn, side)], "a card for your support",
                    {"code": "buy_support", "attacker": att, "defender": dfn, "side": side})
    return Offer(("buy", b.season, att, dfn, s, tried), deal, s)


def _sell_support(r: Reading, memo: dict) -> Offer | None:
    b = r.b
    fight = b.fight
    if fight is None or (r.prompt or {}).get("topic") not in ("negotiation", "support"):
        return None  # support is sold while the fight's window or support round is open, not after
    att, dfn = fight["attacker"], fight["defender"]
    key = ("sell", b.season, att, dfn)
    if key in made(memo) or not may_still_support(r, att, dfn) or reputation.promised_support(b, att, dfn):
        return None
    best: tuple[float, dict, int] | None = None
    for side, fighter in (("attacker", att), ("defender", dfn)):
        if _in_talks(r, fighter, att, dfn) or not _willing(memo, "sell", fighter):
            continue
        if support_cost(r, att, dfn, side) == -NEVER:
            continue
        promise = support_promise(b.me, fighter, att, dfn, side)
        for card in sorted(b.pile[fighter], key=lambda c: (card_worth(b, fighter, c, gaining=False), c)):
            deal = proposal([_transfer(card, fighter, b.me, "for my support in this fight")], [promise],
                            "my support for a card", {"code": "sell_support", "attacker": att, "defender": dfn,
                                                      "side": side})
            value = deal_value(r, deal)
            if value >= SELL_MARGIN and partner_value(r, deal, fighter) >= -slack(memo, "sell", fighter):
                if best is None or value > best[0]:
                    best = (value, deal, fighter)
                break
    if best is None:
        return None
    return Offer(key, best[1], best[2])


# -- 5. and 6. peace -----------------------------------------------------------------------

def _peace(r: Reading, memo: dict) -> Offer | None:
    b = r.b
    prompt = r.prompt or {}
    seat = prompt.get("pivot")
    if prompt.get("topic") != "announce" or not isinstance(seat, int) or seat == b.me:
        return None
    key = ("peace", b.season, seat)
    if key in made(memo) or reputation.promised_peace_of(b, seat, b.me) or not _willing(memo, "peace", seat):
        return None
    danger = reputation.trust(b, seat) * threat(b, seat, r.w)
    if danger <= PEACE_MARGIN:
        return None
    cheapest = min((c for c in b.pile[b.me] if c not in NINJAS), key=lambda c: (_pays(r, c, seat), c), default=None)
    if cheapest is None or danger - _pays(r, cheapest, seat) <= PEACE_MARGIN:
        return None
    deal = proposal([_transfer(cheapest, b.me, seat, "for your promise to leave me alone this season")],
                    [peace_promise(seat, b.me)], "peace for a card", {"code": "peace", "seat": seat})
    if partner_value(r, deal, seat) < -slack(memo, "peace", seat):
        return None
    return Offer(key, deal, seat)


def _buy_card(r: Reading, memo: dict) -> Offer | None:
    """A card for our promise not to attack its owner this season: the card
    worth most to us among those its owner could part with at the least cost
    (one offer per owner and season)."""
    b = r.b
    prompt = r.prompt or {}
    if prompt.get("topic") != "announce":
        return None
    best: tuple[float, Offer] | None = None
    for seat in range(b.n):
        if seat == b.me or not b.pile[seat]:
            continue
        if reputation.promised_peace(b, seat):
            continue
        for card in sorted(set(b.pile[seat]), key=lambda c: (-card_worth(b, b.me, c, gaining=True), c)):
            kind = "card" if VALUE[card] else "card0"  # a card its owner scores nothing for is easier to get
            if (kind, b.season, seat) in made(memo) or not _willing(memo, kind, seat):
                continue
            deal = proposal([_transfer(card, seat, b.me, "for my promise not to attack you this season")],
                            [peace_promise(b.me, seat)], "my peace for a card", {"code": "buy_card", "seat": seat})
            value = deal_value(r, deal)
            if value < CARD_MARGIN or partner_value(r, deal, seat) < -slack(memo, kind, seat):
                continue
            if best is None or value > best[0]:
                best = (value, Offer((kind, b.season, seat), deal, seat))
            break
    return None if best is None else best[1]


__all__ = [
    "Offer",
    "acceptance",
    "counter",
    "counter_offer",
    "fight_business",
    "made",
    "observe",
    "peace_promise",
    "plan",
    "proposal",
    "remember",
    "still_good",
    "support_promise",
]
