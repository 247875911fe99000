"""What a deal is worth to one seat, from that seat's view alone (R8).

Every figure is a change of expected final score (R9.3), weighed by the
utility of model.py: our own points fully, each opponent's by how close it
is to first place (R9.4). The pieces:

- **Cards** (`card_worth`): a score card's value, plus, for a Ninja, a step
  towards the three Ninjas that win at a season's end (R9.1) — a third Ninja
  is worth a game. Cards move atomically when a deal executes (R8.2).
- **Fights** (`fight_utility`, `support_gain`): the odds of a fight come from
  the public cards and the remaining deck (model.fight_odds: the
  fighters' known or possible inhabitants, Samurai reinforcements, each
  possible supporter's value) and its stake is what the winner captures and
  the loser redraws (R6.5-R6.7). A supporter's answer is certain once
  published; a seat that promised a side (the public ledger) supports it
  with the chance its record earns (reputation.trust); any other seat still
  to answer supports each side with a base rate.
- **Promises** (`promise_value`): a promise made to us is worth its benefit
  times the promiser's trust: a support promise, the shift it gives our
  side's odds; a no-attack promise, the harm that seat's attack would do us
  this season (`threat`); a pay promise, the cards, discounted by the seasons
  until they are due; a promise in words, FREE_PROMISE, weighed by its
  promiser's record like the others. A promise we make costs what keeping it costs: our
  best answer against the promised one (`support_cost`), our best attack on
  the seat we spare (`peace_cost`), the cards we would pay. Promises we
  could not check (free text) or not keep (a fight that is not ours to
  support) cost too much to make.
- **Time** (`seasons_left`): the seasons likely left before the Geisha
  ends the game (R2.5, R9.2), which prices future payments and our good
  name (characters.py).

`deal_value(reading, deal)` sums these for one proposal: accept it when it
is worth at least nothing to us. The same functions value our own offers
before we make them, so what we propose and what we accept are judged
alike; `partner_value(reading, deal, partner)` reads the same deal from
the partner's seat (its cards and weights, our record, a guess for its
hidden card), so that we offer what it may want. `backed_attack` values an
attack counting on the support we can buy for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from oriente.games.oriente.rules.cards import NINJAS, VALUE

from . import heuristic, reputation
from .characters import DEFAULT, Character, Record
from .model import Board, attacking, fight_deltas, fight_odds, read, utility, weights

SUPPORT_RATE = 0.3  # chance that an undecided seat supports each side (as in heuristic.py)
SPITE = 1.0
NINJA_STEP = (0.0, 0.5, 1.5, 10.0)  # extra worth of a pile's 1st, 2nd, 3rd Ninja (R9.1: three win)
PAY_DISCOUNT = 0.8  # a payment due one season later is worth this much of one due now
# Points: a promise in words made to us (free text: we cannot read it, the
# ledger cannot settle it) is worth this much times its promiser's trust,
# about what a card or a support is worth in a fight; so a seat with a good
# public record gets something for its word, one that breaks it, little.
FREE_PROMISE = 1.5
BACKERS = 2  # seats whose support we expect to buy for an attack, at most
BUY_RATE = 0.4  # chance that a seat takes a card for its support, before we know the table
ATTACK_RATE = 0.3  # chance that a seat attacks its best target this season, if that pays it
PEACE_OVERHEAD = 0.1  # points: a promise not to attack is never quite free to make
NEVER = float("-inf")

Probs = dict[int, tuple[float, float]]  # seat -> (P(supports the attacker), P(supports the defender))


# -- time and cards -------------------------------------------------------------------

def seasons_left(b: Board) -> float:
    """Seasons likely to begin after this one before the Geisha is drawn.

    The Geisha lies at depth 33..37 of the 41-card deck, uniformly (R2.5):
    35 on average. Cards above it still to draw: 35 minus those drawn from
    the top so far (cards put back go below it, R9.5). Each season so far
    drew cards at some rate (a bonus card at every season end, R3.5, plus
    Income, reinforcements and new inhabitants); we take that rate, with a
    prior of 2.5 cards a season for the first seasons."""
    drawn = 41 - b.deck_top
    since_setup = max(0, drawn - (b.n + 1))
    played = max(0, b.season - 1)
    per_season = (since_setup + 5.0) / (played + 2.0)
    return max(0.0, (35 - drawn) / max(1.0, per_season) - 0.5)


def card_worth(b: Board, seat: int, card: int, gaining: bool) -> float:
    """What `card` in `seat`'s score pile is worth to that seat: its value
    (R9.3), and for a Ninja, the step it makes towards three (R9.1)."""
    v = float(VALUE[card])
    if card in NINJAS:
        k = b.ninjas_in_pile(seat) + (1 if gaining else 0)
        v += NINJA_STEP[min(3, max(0, k))]
    return v


def transfer_deltas(b: Board, transfers: list[dict]) -> dict[int, float]:
    """Each seat's change of worth if these card transfers execute (R8.2)."""
    delta: dict[int, float] = {}
    for t in transfers:
        card, giver, receiver = t["card"], t["giver"], t["receiver"]
        delta[giver] = delta.get(giver, 0.0) - card_worth(b, giver, card, gaining=False)
        delta[receiver] = delta.get(receiver, 0.0) + card_worth(b, receiver, card, gaining=True)
    return delta


# -- fights ---------------------------------------------------------------------------

def supporter_probs(b: Board, attacker: int, defender: int, prompt: dict | None) -> Probs:
    """How each seat that may still declare in this fight will, as far as we
    can tell: published answers are certain; a seat that promised a side
    keeps its word with the chance its record earns; others at a base rate.
    We ourselves are left out (the caller adds its own answer)."""
    probs: Probs = {}
    published: dict[int, object] = {}
    asked: list[int] = []
    if prompt and prompt.get("topic") in ("negotiation", "support"):
        published = {s: a for s, a in prompt.get("published") or ()}
        asked = list(prompt.get("asked") or ())
    else:
        asked = [s for s in range(b.n) if s not in (attacker, defender) and b.disc[s]]
    for s in asked:
        if s == b.me:
            continue
        if s in published:
            side = published[s]
            probs[s] = (1.0, 0.0) if side == "attacker" else (0.0, 1.0) if side == "defender" else (0.0, 0.0)
            continue
        promised = reputation.promised_support_of(b, s, attacker, defender)
        if promised is None:
            probs[s] = (SUPPORT_RATE, SUPPORT_RATE)
        else:
            t = reputation.trust(b, s)
            rest = (1.0 - t) * SUPPORT_RATE
            probs[s] = (t + rest, rest) if promised == "attacker" else (rest, t + rest)
    return probs


def fight_utility(b: Board, attacker: int, defender: int, probs: Probs, w: list[float],
                  seat: int | None = None) -> float:
    """Our utility (or `seat`'s, with its weights `w`) of the fight's
    expected outcome (R6.5-R6.7) given each possible supporter's chances."""
    may = [(s, pa, pd) for s, (pa, pd) in probs.items()]
    odds = fight_odds(b, attacker, defender, may)
    return utility(b, fight_deltas(b, attacker, defender, odds), w, SPITE, seat)


def p_attacker_wins(b: Board, attacker: int, defender: int, probs: Probs) -> float:
    return fight_odds(b, attacker, defender, [(s, pa, pd) for s, (pa, pd) in probs.items()]).p_attacker


def support_gain(b: Board, attacker: int, defender: int, seat: int, side: str, probs: Probs,
                 w: list[float]) -> float:
    """What it is worth to us that `seat` surely supports `side`, against
    the chances it had (R6.2, R6.3)."""
    sure = dict(probs)
    sure[seat] = (1.0, 0.0) if side == "attacker" else (0.0, 1.0)
    return fight_utility(b, attacker, defender, sure, w) - fight_utility(b, attacker, defender, probs, w)


def support_options(b: Board, attacker: int, defender: int, probs: Probs, w: list[float],
                    disc_value: float) -> dict[str, float]:
    """Our utility of each answer in the support round: pass (keeping the
    disc, worth `disc_value`), or support either side (spending it, R6.2)."""
    out = {"pass": fight_utility(b, attacker, defender, probs, w) + disc_value}
    for side, pair in (("attacker", (1.0, 0.0)), ("defender", (0.0, 1.0))):
        out[side] = fight_utility(b, attacker, defender, {**probs, b.me: pair}, w)
    return out


def backed_attack(b: Board, target: int, w: list[float], buy_rate: float) -> float:
    """Our utility of attacking `target` when we mean to buy support in the
    negotiation window (bargain.py): up to BACKERS seats, the ones whose sure
    support helps most, each on our side with the chance `buy_rate` that it
    takes our cheapest card (which we then pay), the others at the base
    rate (R6.2-R6.7)."""
    others = [s for s in range(b.n) if s not in (b.me, target) and b.disc[s]]
    probs: Probs = {s: (SUPPORT_RATE, SUPPORT_RATE) for s in others}
    u = fight_utility(b, b.me, target, probs, w)
    cards = [c for c in b.pile[b.me] if c not in NINJAS]
    if not cards or not others:
        return u
    card = min(cards, key=lambda c: (VALUE[c], c))
    rest = (1.0 - buy_rate) * SUPPORT_RATE
    for _ in range(BACKERS):
        best: tuple[float, int] | None = None
        for s in others:
            if probs[s][0] > SUPPORT_RATE:
                continue
            price = card_worth(b, b.me, card, gaining=False) + SPITE * w[s] * card_worth(b, s, card, gaining=True)
            gain = fight_utility(b, b.me, target, {**probs, s: (buy_rate + rest, rest)}, w) - u - buy_rate * price
            if gain > 0.0 and (best is None or gain > best[0]):
                best = (gain, s)
        if best is None:
            break
        u += best[0]
        probs[best[1]] = (buy_rate + rest, rest)
    return u


# -- promises -------------------------------------------------------------------------

def threat(b: Board, seat: int, w: list[float], victim: int | None = None) -> float:
    """The harm `seat` attacking us (or `victim`, weighed with its weights
    `w`) would do this season, times the chance that it does (it must hold
    its disc, and attacking us must be its best attack and pay it): what its
    promise not to attack is worth."""
    me = b.me if victim is None else victim
    if seat == me or not b.disc[seat] or (b.card[seat] is None and b.empty[seat]):
        return 0.0
    best_target, best_gain, harm = None, 0.0, 0.0
    for t in range(b.n):
        if t == seat:
            continue
        may = [(s, SUPPORT_RATE, SUPPORT_RATE) for s in range(b.n) if s not in (seat, t) and b.disc[s]]
        deltas = fight_deltas(b, seat, t, fight_odds(b, seat, t, may))
        if deltas[seat] > best_gain:
            best_target, best_gain = t, deltas[seat]
            if t == me:
                harm = -utility(b, deltas, w, SPITE, me)
    if best_target != me or harm <= 0.0:
        return 0.0
    return ATTACK_RATE * harm


def peace_cost(b: Board, target: int, w: list[float], attack_value: float) -> float:
    """What promising not to attack `target` this season costs us: the
    attack we give up (`attack_value`, our utility of attacking it, if that
    pays), when we still hold the disc to make it (R3.1)."""
    if not b.disc[b.me]:
        return PEACE_OVERHEAD
    return PEACE_OVERHEAD + max(0.0, attack_value) * 0.7


def pay_worth(b: Board, p: dict, to: int) -> float:
    """The cards of a pay promise in the promisee's pile, discounted by the
    seasons until they are due."""
    cards = [c for c in p.get("cards") or () if isinstance(c, int) and 0 <= c < len(VALUE)]
    due = p.get("by_season")
    wait = max(0, due - b.season) if isinstance(due, int) else 0
    held = [c for c in cards if c in b.pile[p["promiser"]]]
    worth = sum(card_worth(b, to, c, gaining=True) for c in held)
    return worth * PAY_DISCOUNT ** wait


__all__ = [
    "NEVER",
    "Probs",
    "backed_attack",
    "card_worth",
    "fight_utility",
    "p_attacker_wins",
    "pay_worth",
    "peace_cost",
    "seasons_left",
    "support_gain",
    "support_options",
    "supporter_probs",
    "threat",
    "transfer_deltas",
]


# -- a deal as a whole ------------------------------------------------------------------

@dataclass
class Reading:
    """What valuing deals needs beyond the board: the opponents' weights
    (model.weights), the open decision, the seasons likely left, what our
    disc is worth kept (its best use later this season) and what attacking
    each seat is worth to us now (for the cost of sparing it)."""

    b: Board
    w: list[float]
    prompt: dict | None
    seasons_left: float
    disc_value: float
    character: Character = DEFAULT
    lifetime: Record | None = None  # our account's record across games, when we play under one
    attack_values: dict[int, float] = field(default_factory=dict)

    def keep(self, gain_if_broken: float) -> bool:
        """Our character's rule: keep our promise when breaking gains this much?"""
        return self.character.keep(self.b, gain_if_broken, self.seasons_left, self.lifetime)

    def promise_cost(self, keeping: float) -> float:
        """What a promise of ours costs by our character's rule."""
        return self.character.promise_cost(self.b, keeping, self.seasons_left, self.lifetime)

    def attack_value(self, target: int) -> float:
        """Our utility of fulfilling an attack on `target` now (heuristic.effect)."""
        v = self.attack_values.get(target)
        if v is None:
            act = {"kind": "attack", "target": target}
            v = self.attack_values[target] = utility(self.b, heuristic.effect(self.b, self.b.me, act), self.w, SPITE)
        return v

    def weights_of(self, seat: int) -> list[float]:
        """`seat`'s weights for its opponents, as far as we can tell."""
        if seat == self.b.me:
            return self.w
        key = ("weights", seat)
        out = self.b.cache.get(key)
        if out is None:
            out = self.b.cache[key] = weights(self.b, heuristic.TEMPERATURE, seat)
        return out

    def probs(self, attacker: int, defender: int) -> Probs:
        key = ("probs", attacker, defender)
        out = self.b.cache.get(key)
        if out is None:
            out = self.b.cache[key] = supporter_probs(self.b, attacker, defender, self.prompt)
        return out

    def support_options(self, attacker: int, defender: int) -> dict[str, float]:
        key = ("options", attacker, defender)
        out = self.b.cache.get(key)
        if out is None:
            out = self.b.cache[key] = support_options(self.b, attacker, defender, self.probs(attacker, defender),
                                                      self.w, self.disc_value)
        return out


def reading(view: dict, prompt: dict | None, character: Character = DEFAULT,
            lifetime: Record | None = None) -> Reading:
    """Everything deal valuation needs, read from one seat's view and prompt;
    our own promises are priced by `character` (characters.py)."""
    b = read(view)
    w = weights(b, heuristic.TEMPERATURE)
    disc = heuristic.disc_value(b, w, heuristic.KEEP_SUPPORT) if b.disc[b.me] else 0.0
    return Reading(b=b, w=w, prompt=prompt, seasons_left=seasons_left(b), disc_value=disc, character=character,
                   lifetime=lifetime)


def may_still_support(r: Reading, attacker: int, defender: int) -> bool:
    """Whether our declaration in this fight is still open: the fight is
    under way, we hold our disc and are asked, and our answer is not final."""
    b, prompt = r.b, r.prompt
    fight = b.fight
    if fight is None or fight["attacker"] != attacker or fight["defender"] != defender or not b.disc[b.me]:
        return False
    if not prompt or prompt.get("topic") not in ("negotiation", "support") or b.me not in (prompt.get("asked") or ()):
        return False
    return all(s != b.me for s, _ in prompt.get("published") or ())


def support_cost(r: Reading, attacker: int, defender: int, side: str) -> float:
    """What promising to support `side` costs us: our best answer's utility
    against that side's, or NEVER when we cannot keep it (R8.6)."""
    if not may_still_support(r, attacker, defender):
        return -NEVER
    promised = reputation.promised_support(r.b, attacker, defender)
    if promised is not None and promised != side:
        return -NEVER
    options = r.support_options(attacker, defender)
    return r.promise_cost(max(options.values()) - options[side])


def promise_value(r: Reading, p: dict) -> float:
    """What one promise inside a deal is worth to us: positive when it is
    made to us (its benefit times the promiser's trust), negative when we
    make it (what keeping it costs), NEVER for promises we cannot keep."""
    b = r.b
    kind, promiser, promisee = p.get("kind"), p.get("promiser"), p.get("promisee")
    if promiser == b.me:
        if kind == "support":
            return -support_cost(r, p["attacker"], p["defender"], p["side"])
        if kind == "no_attack":
            if attacking(b, p["seat"]):
                return NEVER  # our attack on that seat is announced: the promise would break itself
            cost = peace_cost(b, p["seat"], r.w, r.attack_value(p["seat"]))
            return -r.promise_cost(cost)
        if kind == "pay":
            cards = list(p.get("cards") or ())
            if not cards or any(c not in b.pile[b.me] for c in cards):
                return NEVER
            return -sum(card_worth(b, b.me, c, gaining=False) for c in cards)
        return NEVER  # free text: nothing the ledger could settle, nothing we promise
    if not isinstance(promiser, int) or not 0 <= promiser < b.n:
        return 0.0
    t = reputation.trust(b, promiser)
    if kind == "support":
        fight = b.fight
        if fight is None or fight["attacker"] != p.get("attacker") or fight["defender"] != p.get("defender"):
            return 0.0  # a fight that is not under way: nothing we can count on
        return t * support_gain(b, fight["attacker"], fight["defender"], promiser, p["side"],
                                r.probs(fight["attacker"], fight["defender"]), r.w)
    if promisee != b.me:
        return 0.0
    if kind == "no_attack":
        return t * threat(b, promiser, r.w) if p.get("seat") == b.me else 0.0
    if kind == "pay":
        return t * pay_worth(b, p, b.me)
    return t * FREE_PROMISE


def deal_value(r: Reading, deal: dict) -> float:
    """What a proposal is worth to us if it executes: its card transfers
    (R8.2) and its promises (R8.6), in utility points."""
    value = utility(r.b, transfer_deltas(r.b, list(deal.get("transfers") or ())), r.w, SPITE)
    for p in deal.get("promises") or ():
        v = promise_value(r, p)
        if v == NEVER:
            return NEVER
        value += v
    return value


PARTNER_DISC = 1.0  # what a seat's disc is worth to it, as we guess it (its card may be hidden from us)


def partner_value(r: Reading, deal: dict, partner: int) -> float:
    """What `deal` is worth to `partner`, as far as we can tell from our
    own view: the same reading as ours (`deal_value`), from its seat — its
    cards, its weights, our record as it sees it — with guesses where its
    hidden card would matter. We only offer deals it may want."""
    b = r.b
    w = r.weights_of(partner)
    value = utility(b, transfer_deltas(b, list(deal.get("transfers") or ())), w, SPITE, partner)
    for p in deal.get("promises") or ():
        kind, promiser = p.get("kind"), p.get("promiser")
        if promiser == partner:  # what keeping its promise costs it
            if kind == "support":
                value -= PARTNER_DISC
            elif kind == "no_attack":
                may = [(s, SUPPORT_RATE, SUPPORT_RATE) for s in range(b.n) if s not in (partner, p["seat"])
                       and b.disc[s]]
                deltas = fight_deltas(b, partner, p["seat"], fight_odds(b, partner, p["seat"], may))
                value -= PEACE_OVERHEAD + 0.7 * max(0.0, utility(b, deltas, w, SPITE, partner))
            elif kind == "pay":
                value -= sum(card_worth(b, partner, c, gaining=False) for c in p.get("cards") or ())
            continue
        if p.get("promisee") != partner or not isinstance(promiser, int):
            continue
        t = reputation.trust(b, promiser)
        fight = b.fight
        if kind == "support" and fight is not None and (fight["attacker"], fight["defender"]) == (
                p.get("attacker"), p.get("defender")):
            probs = dict(r.probs(fight["attacker"], fight["defender"]))
            probs.setdefault(promiser, (SUPPORT_RATE, SUPPORT_RATE))
            side = (1.0, 0.0) if p["side"] == "attacker" else (0.0, 1.0)
            sure = {**probs, promiser: side}
            value += t * (fight_utility(b, fight["attacker"], fight["defender"], sure, w, partner)
                          - fight_utility(b, fight["attacker"], fight["defender"], probs, w, partner))
        elif kind == "no_attack" and p.get("seat") == partner:
            value += t * threat(b, promiser, w, partner)
        elif kind == "pay":
            value += t * pay_worth(b, p, partner)
    return value


__all__ += [
    "Reading",
    "deal_value",
    "may_still_support",
    "partner_value",
    "promise_value",
    "reading",
    "support_cost",
]
