"""The negotiating reference policy: plays like the heuristic and bargains.

Its decisions (announce, privilege, support, revolution, the card choices)
are the heuristic's (heuristic.py), read from one seat's view and prompt,
with four differences: it weighs its own promises by an explicit rule
instead of always keeping them, it values an attack counting on the support
it can buy for it (valuation.backed_attack), it hands in its support
declaration early in a negotiation window, and it bargains.

- **Valuing an offer** (valuation.py): every proposal is priced in expected
  points of final score from what the seat can see — the odds of a fight
  from the public cards and the remaining deck, the points at stake, the
  season and the seasons likely left, and, for a promise made to it, the
  promiser's public record (reputation.trust). It accepts a deal worth at
  least nothing to it, declines the others with a reason (why.py, R8.8),
  and answers a declined offer with a counter-offer where a better price
  would do (bargain.counter).
- **Proposing** (bargain.py): support bought for a fight it is in, its own
  support sold, peace bought from a seat about to announce that threatens
  it, a card (a Ninja above all) bought with a promise not to attack, and
  payments it owes.
- **Keeping or breaking its word** (characters.py): a support promise, a
  promise not to attack and a payment are kept or broken by the rule of the
  character it plays — honest keeps every promise it can, shrewd weighs its
  public record (and breaks only in the last season or to win), ruthless
  breaks when breaking gains more than one break costs its record. The same
  rule prices the promises it is asked for: a promise costs it what keeping
  it costs, less the trust one more kept promise earns, or, when its rule
  would have it broken, the reputation it would lose.
- **Answering with reasons** (why.py, R8.8): every decline says why, from
  public facts; a counter-offer, when a better price would do, goes out
  before the decline; before a deal that buys its support can execute, its
  sealed answer already says that side.
- **Answering early** (R10.2): in a negotiation window, where it is asked,
  it hands in its best declaration at once, sealed, and seals again when a
  deal changes it; as a fighter it says done (R10.2b1) once it has no offer
  of its own open in the fight and none left to make. So a window whose
  other seats are bots closes as soon as the people in it are done. It
  does so whatever its hidden card, so its timing tells nothing (R10.2d).
  Elsewhere it answers when it is the pivot: later seats know more.
- **Talk**: `say(view, command)` puts what it sends in plain words for the
  chat (words.py).

**As a seat proxy** (`proxy_choose`, for an away seat, R10.3): it answers
only when the seat is the pivot, never early (R10.2d: the server never
answers for a seat ahead of time); it keeps the absent player's open
promises that its answers settle (support, no attack), whatever breaking
them would gain; it neither proposes nor accepts any deal in the player's
name (so a payment the player owes waits for the player).

Entry points, all pure and deterministic (the rng is accepted for the
common signature; this policy needs no randomness): `choose(view, prompt,
rng, memo)` returns one command of the prompt's `legal` list — an answer to
the decision, to a deal, a sealed early answer or `Done` — or None;
`offer(view, prompt, rng, memo)` returns a `ProposeDeal` or None. `memo` is
a dict the caller keeps for the seat for the whole game (like its rng): it
remembers the offers made, the counter-offers to make and how each seat
answered, so a declined offer is never repeated. Call `choose` until it returns None or a
decision answer, and `offer` until it returns None, whenever the seat gets
news.
"""

from __future__ import annotations

import random

from oriente.games.oriente.rules.cards import RANK

from . import bargain, reputation, why, words
from . import heuristic as H
from .characters import DEFAULT, Character, lifetime_record
from .model import Board
from .valuation import BUY_RATE, NEVER, Reading, backed_attack, deal_value, reading

ACCEPT_MARGIN = 0.0  # a deal worth at least this much to us is accepted
STALE = -0.05  # our own open proposal worth less than this to us now is withdrawn
SUPPORT_MARGIN = H.SUPPORT_MARGIN
DECISION_TYPES = H.DECISION_TYPES


def choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None, *,
           proxy: bool = False, character: Character = DEFAULT) -> dict | None:
    """One of the prompt's legal commands, or None to wait; our own promises
    are kept or broken by `character`'s rule (a proxy keeps them all)."""
    if not prompt:
        return None
    legal = prompt.get("legal") or []
    if not legal:
        return None
    if proxy and prompt.get("pivot") != view.get("viewer"):
        return None  # a proxy never answers ahead of the seat's turn (R10.2d)
    r = reading(view, prompt, character, lifetime_record(memo))
    b = r.b
    if memo is None:
        memo = {}
    if not proxy:
        bargain.observe(r, memo)
        answer = _answer_deals(r, legal, memo)
        if answer is not None:
            return answer
    if prompt.get("pivot") != b.me:
        return None if proxy else _early(r, prompt, legal, memo)
    options = [c for c in legal if c.get("type") in DECISION_TYPES]
    if not options:
        return None
    if not proxy and prompt.get("topic") == "support":
        withdraw = _withdraw_before_answer(r, legal)
        if withdraw is not None:
            return withdraw
    cmd = _decide(r, prompt, options, proxy, memo)
    if cmd is None or cmd not in options:
        passes = [c for c in options if c["type"] == "Pass"]
        cmd = passes[0] if passes else options[0]
    return cmd


def proxy_choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """`choose` for a seat whose player is away (R10.3): see the module doc."""
    return choose(view, prompt, rng, memo, proxy=True)


def offer(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None, *,
          character: Character = DEFAULT) -> dict | None:
    """A deal to propose now (a plain `ProposeDeal`), or None; or first the
    sealed answer that the deal's promise of our support needs (a `Support`
    of the prompt's `legal`), the deal then coming at the next call."""
    if memo is None or view.get("phase") == "over":
        return None
    r = reading(view, prompt, character, lifetime_record(memo))
    bargain.observe(r, memo)
    planned = memo.pop("deferred", None)
    if planned is not None and not bargain.still_good(r, planned, memo):
        planned = None
    if planned is None:
        planned = bargain.plan(r, memo)
    if planned is None or _torn(r, planned.deal):
        return None
    seal = _seal_first(r, planned.deal, (prompt or {}).get("legal") or [])
    if seal is not None:
        memo["deferred"] = planned  # the partner may take it at once: our sealed answer must say so first
        return seal
    bargain.remember(memo, planned, r)
    return planned.deal


def say(view: dict, command: dict) -> str | None:
    """What the seat says in the chat when it sends `command`, in plain
    words (words.py), or None when the command speaks for itself."""
    me = view.get("viewer")
    kind = command.get("type")
    if kind == "ProposeDeal" and isinstance(me, int):
        counter_to = command.get("counter_to")
        return words.offer_line(command, me, counter_to if isinstance(counter_to, int) else None)
    if kind == "DeclineDeal":
        return f"No to deal {command.get('deal')}."
    if kind == "Done":
        return "I am done bargaining in this fight."
    return None


# -- deals ----------------------------------------------------------------------------

def _answer_deals(r: Reading, legal: list[dict], memo: dict) -> dict | None:
    """Accept an offer worth it; answer the others with a counter-offer
    first where a better price would do (so that the proposer sees it
    before our decline, and answers it before it says done), then decline
    them with a reason (R8.8); withdraw our own offers that no longer pay."""
    b = r.b
    accepts = {c["deal"]: c for c in legal if c.get("type") == "AcceptDeal"}
    withdraws = {c["deal"]: c for c in legal if c.get("type") == "WithdrawDeal"}
    declines = {c["deal"]: c for c in legal if c.get("type") == "DeclineDeal"}
    values = {d["deal"]: deal_value(r, d) for d in b.deals if d["deal"] in accepts}
    # The best offer first: two offers for the same promise (both fighters
    # bidding for our support) are weighed against each other, not taken in
    # the order they came.
    for deal in sorted(b.deals, key=lambda d: -values.get(d["deal"], float("-inf"))):
        did = deal["deal"]
        if did in accepts:
            value = values[did]
            if value >= ACCEPT_MARGIN:
                return _conflicting(r, deal, legal) or _seal_first(r, deal, legal) or accepts[did]
            if did in declines:
                countered = memo.setdefault("countered", set())
                if did not in countered:
                    countered.add(did)
                    better = bargain.counter_offer(r, deal, memo)
                    if better is not None and not _torn(r, better.deal):
                        seal = _seal_first(r, better.deal, legal)
                        if seal is not None:
                            countered.discard(did)  # our sealed answer first, then the counter-offer
                            return seal
                        bargain.remember(memo, better, r)
                        return better.deal
                return {**declines[did], "why": why.decline(r, deal)}  # R8.8: every decline says why
        elif did in withdraws and deal["proposer"] == b.me and _stale(r, deal):
            return withdraws[did]
    return None


def _our_support(r: Reading, deal: dict) -> str | None:
    """The side the deal has us promise to support in the fight under way."""
    fight = r.b.fight
    if fight is None:
        return None
    for p in deal.get("promises") or ():
        if (p.get("promiser") == r.b.me and p.get("kind") == "support"
                and (p.get("attacker"), p.get("defender")) == (fight["attacker"], fight["defender"])):
            side = p.get("side")
            return side if isinstance(side, str) else None
    return None


def _offered_side(r: Reading, memo: dict) -> str | None:
    """The side our own open (or about to be made) proposal promises in the
    fight under way: any moment its partner may take it, so our sealed
    answer says so already. None when no such offer stands or our promised
    side is settled by the ledger."""
    fight = r.b.fight
    if fight is None or reputation.promised_support(r.b, fight["attacker"], fight["defender"]) is not None:
        return None
    deferred = memo.get("deferred")
    if deferred is not None and _our_support(r, deferred.deal):
        return _our_support(r, deferred.deal)
    for d in r.b.deals:
        if d["proposer"] == r.b.me:
            side = _our_support(r, d)
            if side is not None:
                return side
    return None


def _torn(r: Reading, deal: dict) -> bool:
    """Whether `deal` would have us promise one side of the fight under way
    while an open proposal of ours promises the other: whichever the
    partners took, one promise would be broken."""
    side = _our_support(r, deal)
    return side is not None and any(
        d["proposer"] == r.b.me and _our_support(r, d) not in (None, side) for d in r.b.deals)


def _conflicting(r: Reading, deal: dict, legal: list[dict]) -> dict | None:
    """Before we take a deal promising our support of one side, we withdraw
    our own open proposals that promise the other side in the same fight:
    their partners could take them a moment later, and one of the two
    promises would be broken whatever we did."""
    side = _our_support(r, deal)
    if side is None:
        return None
    for d in r.b.deals:
        other = _our_support(r, d) if d["proposer"] == r.b.me and d["deal"] != deal["deal"] else None
        if other is not None and other != side:
            cmd = {"type": "WithdrawDeal", "deal": d["deal"]}
            if cmd in legal:
                return cmd
    return None


def _seal_first(r: Reading, deal: dict, legal: list[dict]) -> dict | None:
    """Before we take a deal that buys our support in the fight under way,
    our sealed answer becomes that support (R10.2): the window may close the
    moment the deal executes (the fighters have said done), and a sealed
    answer that still said otherwise would then be final, breaking the word
    we were paid for."""
    b, prompt = r.b, r.prompt or {}
    side = _our_support(r, deal)
    if side is None or b.me not in (prompt.get("early") or ()) or prompt.get("pivot") == b.me:
        return None
    cmd = {"type": "Support", "decision": prompt.get("id"), "side": side}
    return cmd if cmd != prompt.get("sealed") and cmd in legal else None


def _withdraw_before_answer(r: Reading, legal: list[dict]) -> dict | None:
    """On our turn in the support round, before our answer goes public: our
    own open proposals promising another side in this fight are withdrawn
    first. Their partners could still take them once our answer is public,
    and the promise would be broken whatever we did (a person answers an
    offer when they see it, which may be after the window has closed)."""
    side = _support_answer(r)
    for d in r.b.deals:
        if d["proposer"] == r.b.me and _our_support(r, d) not in (None, side):
            cmd = {"type": "WithdrawDeal", "deal": d["deal"]}
            if cmd in legal:
                return cmd
    return None


def _stale(r: Reading, deal: dict) -> bool:
    """Our own proposal is no longer worth making: withdraw it, so that it
    cannot execute against us and frees a place (R8.6)."""
    value = deal_value(r, deal)
    return value == NEVER or value < STALE


# -- early answers and done (R10.2, R10.2b1) -------------------------------------------------

def _early(r: Reading, prompt: dict, legal: list[dict], memo: dict) -> dict | None:
    b = r.b
    did = prompt.get("id")
    kinds = {c.get("type") for c in legal}
    if prompt.get("kind") == "window" and "Done" in kinds:
        if not bargain.fight_business(r, memo):
            return next(c for c in legal if c.get("type") == "Done")
        return None
    early = prompt.get("early") or ()
    if prompt.get("topic") not in ("negotiation", "support") or b.me not in early or b.fight is None:
        return None
    if prompt.get("kind") != "window" and "sealed" not in prompt:
        return None  # in the support round, wait for our turn unless we already spoke in the window
    side = _offered_side(r, memo) or _support_answer(r)
    cmd = {"type": "Pass", "decision": did} if side == "pass" else {"type": "Support", "decision": did, "side": side}
    if cmd == prompt.get("sealed") or cmd not in legal:
        return None
    return cmd


# -- decisions --------------------------------------------------------------------------------

def _decide(r: Reading, prompt: dict, options: list[dict], proxy: bool, memo: dict) -> dict | None:
    b, w = r.b, r.w
    topic = prompt.get("topic")
    if topic == "announce":
        return _announce(r, options, proxy, memo)
    if topic == "privilege":
        return H._privilege(b, prompt, options, w)
    if topic == "support":
        side = _support_answer(r, proxy)
        if side == "pass":
            return next((c for c in options if c["type"] == "Pass"), None)
        return next((c for c in options if c["type"] == "Support" and c["side"] == side), None)
    if topic == "revolution":
        return H._revolution(b, prompt, options, w)
    if topic == "trade":
        return H._choose_trade(b, options)
    if topic == "transformation":
        return H._choose_transformation(b, options)
    if topic == "reinforcement":
        return H._choose_reinforcement(b, options)
    return None


def _support_answer(r: Reading, proxy: bool = False) -> str:
    """'pass', 'attacker' or 'defender': the best answer, or the promised
    side when the rule says keep (always, for a proxy)."""
    b = r.b
    fight = b.fight
    assert fight is not None
    att, dfn = fight["attacker"], fight["defender"]
    options = r.support_options(att, dfn)
    best = "pass"
    for side in ("attacker", "defender"):
        if options[side] > options[best] + (SUPPORT_MARGIN if best == "pass" else 0.0):
            best = side
    promised = reputation.promised_support(b, att, dfn)
    if promised is not None and promised != best and (
            proxy or r.keep(options[best] - options[promised])):
        return promised
    return best


def _announce(r: Reading, options: list[dict], proxy: bool, memo: dict | None) -> dict | None:
    """The heuristic's announcement (R3.2), except that an attack on a seat
    we promised peace is weighed by the keep-or-break rule."""
    b, w = r.b, r.w
    acts = [c for c in options if c["type"] == "Announce"]
    spared = {c["action"]["target"] for c in acts
              if c["action"]["kind"] == "attack" and reputation.promised_peace(b, c["action"]["target"])}
    keep = H._disc_value(b, [c["action"] for c in acts if c["action"].get("target") not in spared], w,
                         H.KEEP_ANNOUNCE)
    bonus = H._bonus(b)
    best, best_score = None, H.ANNOUNCE_MARGIN
    breaking: list[tuple[float, dict]] = []
    buy_rate = bargain.acceptance(memo, "buy", -1) if memo is not None else BUY_RATE
    for c in acts:
        act = c["action"]
        u = H._u(b, H.effect(b, b.me, act), w)
        if act["kind"] == "attack" and not proxy:
            u = max(u, backed_attack(b, act["target"], w, buy_rate))
        u += bonus
        pf = H._survival(b, _rank(b, act), act.get("target"), [], b.me)
        score = pf * (u - keep)
        if act["kind"] == "attack" and act.get("target") in spared:
            breaking.append((score, c))
        elif score > best_score:
            best, best_score = c, score
    if not proxy:
        for score, c in sorted(breaking, key=lambda x: -x[0]):
            if score > best_score and not r.keep(score - max(best_score, 0.0)):
                return c
    return best


def _rank(b: Board, act: dict) -> int:
    if act["kind"] == "revolution":
        return 1 + b.square
    return RANK[b.mine] if b.mine is not None else -1


__all__ = ["choose", "offer", "proxy_choose", "say"]
