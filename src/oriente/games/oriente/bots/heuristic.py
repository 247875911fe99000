"""The heuristic reference policy: plays Oriente the way a sensible person
would, from one seat's view and open decision only.

It reads the view into a picture of the table (model.py): the public cards,
the value distribution of a face-down inhabitant and of the next card off the
deck, and every seat's expected score. Every choice then compares expected
changes of score, weighed by a utility that counts this seat's own gain
fully and its opponents' gains by how close they are to first place
(the leaders most, the weights summing to one).

- **Announce or pass (R3.2).** Every legal announcement is valued: a
  Daimyo's Income (the mean unknown card) or Succession (+3 and the
  invincible Shogun, the target loses 3); a Soryo's Blessing (the bonus pile
  while unclaimed; since any first fulfilment takes the bonus too (R4.5), a
  Soryo blesses when its attacks are poor and attacks when one pays); a
  Ninja's Assassination (the target's inhabitant, known when revealed, and a
  step towards the three Ninjas of R9.1); an Akindo's Credit (the Nofu of the target's pile) or
  Trade (the target pile's mean card for our lowest card); a Maho-Tsukai's
  Transformation (the expected best of the other inhabitants, less its own
  5, so only when its card is weak compared to what is out there); a Nofu's
  Revolution (the expected loot of the likely victims, R7) or Incite; and
  attacks, with the chance of winning computed from the known and possible
  inhabitants, Samurai reinforcements and the seats that may still support
  either side (exactly for a few supporters, approximately for many); a
  lost attack costs the card but brings a new inhabitant, so weak cards
  attack more readily. The first fulfilment of a season adds the bonus pile
  (R4.5). The value is scaled by the chance that no seat able to outrank us
  claims privilege, and set against the value of keeping the disc for later
  in the season (a seat that keeps its disc is asked again, unless the
  Geisha ends the game first). It passes when nothing pays.
- **Privilege (R4.3).** Claims when its own best action (plus the bonus, if
  still unclaimed) is worth more than letting the announcement stand, for
  instance to stop a revolution that would loot it, a transformation that
  would take its good card, an attack that would make a leader richer, or to
  take the bonus away from the announcer. (The target of an announcement may
  not claim, item b of R4.3, so an attack or assassination against itself can only be
  pre-empted by others.) Equal-rank claims that would be void (R4.3c: not
  fewer score cards) are not sent.
- **Support (R6.2).** Supporting gives nothing and costs the disc, so it
  supports only when moving the fight's likely outcome is worth more than
  the disc (typically: stopping a leader from capturing a good card), and
  always when it promised to in a deal.
- **Revolution (R7).** Joins when its share of the pooled piles and loot is
  worth more than its own pile plus the disc.
- **Choose.** Transformation: keeps the highest card it saw (R5.3). Trade:
  gives its lowest card, a non-treasure first, keeping Ninjas when it
  collects them (R5.6). Reinforcement: takes the highest card, unless
  leaving a Ninja would hand the winner all three (R6.7, R9.1).
- **Deals (R8), kept simple.** In a negotiation window (R10.2b) an attacker
  or defender offers the seat of the support round whose support would help
  it most one low score card (value 2 at most, no Ninja) for a structured
  promise to support its side, when the help is worth more than the card,
  once per fight, never to a seat that has broken more
  promises than it kept. It accepts a deal when the cards it gets, less the
  cards it gives and the cost of its own promises (its disc for a support
  promise in the fight under way; promises it cannot check, such as free
  text or future payments, are refused), are worth at least nothing. It
  keeps its support promises and its promises not to attack; it never
  promises payments, so it never breaks one.

Public entry points: `choose(view, prompt, rng)` answers the seat's open
decision when the seat is the one waited on (never early: later seats know
more, R10.2), and first accepts or declines the deals offered to it when
they are listed in the prompt's legal commands; `offer(view, prompt, rng)`
may return a `ProposeDeal` during a negotiation window. Both return plain
commands (dicts) or None, read nothing but the view and the prompt, and are
deterministic (the rng is accepted for the common signature; the heuristic
needs no randomness).
"""

from __future__ import annotations

import random

from oriente.games.oriente.rules.cards import GEISHA, KIND, NINJAS, RANK, SHOGUN, VALUE, Kind, is_treasure
from oriente.games.oriente.rules.commands import DECISION_COMMAND_TYPES

from .model import Board, attacking, fight_deltas, fight_odds, read, utility, weights

DECISION_TYPES = DECISION_COMMAND_TYPES  # the commands that answer a decision; deal commands are not chosen here

# Beliefs about the other seats (they fit random players and sensible ones).
CLAIM_RATE = 0.8  # chance that an opponent able to outrank an announcement claims
SUPPORT_RATE = 0.3  # chance that an undecided seat supports each side of a fight
# What a kept disc is worth, as a share of its best use now: a seat that
# keeps its disc is asked again later in the season (R3.3), so passing an
# announcement costs little, while supporting or joining spends the disc.
KEEP_ANNOUNCE = 0.8
KEEP_CLAIM = 0.8
KEEP_SUPPORT = 0.8
KEEP_OTHER = 0.8
SHOGUN_EDGE = 1.5  # the Shogun's invincible defence (R5.1), in points
END_RISK = 2.0  # draws, roughly, before a seat that passes is asked again
INCITE_VALUE = 0.3  # a worker on the square for a later revolution (R5.7)
SPITE = 1.0  # weight of the opponents' (leader-weighted) gains against our own
TEMPERATURE = 2.5  # points: how sharply the leaders' gains count more
ANNOUNCE_MARGIN = 0.05  # minimum expected gain, in points, to act
CLAIM_MARGIN = 0.05
SUPPORT_MARGIN = 0.05


# -- entry points ------------------------------------------------------------

def choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """One of the prompt's legal commands, or None to wait."""
    if not prompt:
        return None
    legal = prompt.get("legal") or []
    if not legal:
        return None
    b = read(view)
    deal_answer = _answer_deals(b, legal)
    if deal_answer is not None:
        return deal_answer
    if prompt.get("kind") == "window":
        return _done(b, view, prompt, legal, memo)
    if prompt.get("pivot") != b.me:
        return None  # answer when waited on: later seats know more (R10.2)
    options = [c for c in legal if c.get("type") in DECISION_TYPES]
    if not options:
        return None
    topic = prompt.get("topic")
    w = weights(b, TEMPERATURE)
    if topic == "announce":
        cmd = _announce(b, options, w)
    elif topic == "privilege":
        cmd = _privilege(b, prompt, options, w)
    elif topic == "support":
        cmd = _support(b, prompt, options, w)
    elif topic == "revolution":
        cmd = _revolution(b, prompt, options, w)
    elif topic == "trade":
        cmd = _choose_trade(b, options)
    elif topic == "transformation":
        cmd = _choose_transformation(b, options)
    elif topic == "reinforcement":
        cmd = _choose_reinforcement(b, options)
    else:
        cmd = None
    if cmd is None or cmd not in options:
        passes = [c for c in options if c["type"] == "Pass"]
        cmd = passes[0] if passes else options[0]
    return cmd


def _done(b: Board, view: dict, prompt: dict, legal: list[dict], memo: dict | None) -> dict | None:
    """A fighter's Done (R10.2b1) once it has nothing more to bargain in
    this window: its one offer for the fight made and answered, or none to
    make. Without it every window would wait out its whole time."""
    done = next((c for c in legal if c.get("type") == "Done"), None)
    if done is None or b.fight is None:
        return None
    att, dfn = b.fight["attacker"], b.fight["defender"]
    for d in b.deals:
        if d["proposer"] == b.me and any((p.get("attacker"), p.get("defender")) == (att, dfn) for p in d["promises"]):
            return None  # our offer for this fight still awaits its answer
    if offer(view, prompt, random.Random(0), dict(memo) if memo is not None else None) is not None:
        return None  # the offer goes out first (the port asks for it when choose says nothing)
    return done


def offer(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """A deal to propose now, or None: during a negotiation window, a low
    card for a promise of support in a close fight (R8, R10.2b)."""
    if not prompt or prompt.get("topic") != "negotiation" or prompt.get("pivot") is not None:
        return None
    capability = prompt.get("deal")
    if isinstance(capability, dict) and capability.get("propose") is False:  # R8.6, R8.7
        return None
    b = read(view)
    fight = b.fight
    if fight is None:
        return None
    att, dfn = fight["attacker"], fight["defender"]
    if b.me not in (att, dfn):
        return None
    side = "attacker" if b.me == att else "defender"
    mine = [d for d in b.deals if d["proposer"] == b.me]
    if len(mine) >= 2:
        return None
    for d in mine:
        for p in d["promises"]:
            if p.get("attacker") == att and p.get("defender") == dfn:
                return None  # one offer per fight
    key = ("offered", b.season, att, dfn)
    if memo is not None and key in memo:
        return None  # one offer per fight, also once it was declined
    pay = _cheapest_card(b, limit=2)
    if pay is None:
        return None
    asked = [s for s in prompt.get("asked") or () if b.disc[s] and b.broken[s] <= b.kept[s]]
    if not asked:
        return None
    w = weights(b, TEMPERATURE)
    base = _support_outcomes(b, att, dfn, {}, asked, w)
    best, best_gain = None, 0.0
    for s in asked:
        sure = {s: side}
        rest = [x for x in asked if x != s]
        u = _support_outcomes(b, att, dfn, sure, rest, w)
        gain = u - base - VALUE[pay] * (1.0 + w[s])
        if gain > best_gain:
            best, best_gain = s, gain
    if best is None:
        return None
    text = f"support the {side} in the fight of seat {att} against seat {dfn}"
    if memo is not None:
        memo[key] = True
    return {
        "type": "ProposeDeal",
        "transfers": [{"type": "Transfer", "card": pay, "giver": b.me, "receiver": best,
                       "consideration": f"for your promise to {text}"}],
        "promises": [{"type": "Promise", "promiser": best, "promisee": b.me, "text": f"I will {text}",
                      "kind": "support", "attacker": att, "defender": dfn, "side": side,
                      "cards": [], "by_season": None, "seat": None}],
        "note": "a card for your support",
    }


def _u(b: Board, delta: dict[int, float], w: list[float]) -> float:
    return utility(b, delta, w, SPITE)


# -- action values -----------------------------------------------------------------

def _bonus(b: Board) -> float:
    """The bonus pile, for the season's first fulfilment (R4.5, R5.2)."""
    if b.bonus_awarded or b.bonus_set_aside:
        return 0.0
    return b.bonus_size * b.m_deck


def _lowest_card(b: Board, s: int) -> int | None:
    pile = b.pile[s]
    if not pile:
        return None
    return min(pile, key=lambda c: (VALUE[c], is_treasure(c)))


def _max_dist_mean(known: list[int], hidden_count: int, b: Board) -> float:
    """Expected best value among known values and face-down inhabitants."""
    cdf = {}
    acc = 0.0
    for v in range(0, 8):
        acc += b.hidden.get(v, 0.0)
        cdf[v] = acc
    exp = 0.0
    prev = 0.0
    for v in range(0, 8):
        p_le = (1.0 if all(k <= v for k in known) else 0.0) * (cdf[v] ** hidden_count)
        exp += v * (p_le - prev)
        prev = p_le
    return exp


def _revolution_delta(b: Board, revolters: list[int]) -> dict[int, float]:
    """Expected changes of a revolution with these revolters (R7.2-R7.5)."""
    strength = b.square + len(revolters)
    delta: dict[int, float] = {}
    pool = 0.0
    for s in revolters:
        pool += b.pile_value(s)
    for o in range(b.n):
        if o in revolters or not b.pile[o]:
            continue
        dist = b.value_dist(o)
        p_victim = sum(p for v, p in dist.items() if 2 <= v <= strength)
        if p_victim <= 0.0:
            continue
        k = len(b.pile[o]) // 2
        loot = k * b.pile_value(o) / len(b.pile[o])
        delta[o] = -p_victim * loot
        pool += p_victim * loot
    share = pool / len(revolters)
    for s in revolters:
        delta[s] = delta.get(s, 0.0) + share - b.pile_value(s)
    return delta


def effect(b: Board, actor: int, act: dict) -> dict[int, float]:
    """Expected change of scores if `actor` fulfils `act`, bonus aside."""
    key = ("effect", actor, act["kind"], act.get("target"))
    out = b.cache.get(key)
    if out is None:
        out = b.cache[key] = _effect(b, actor, act)
    return out


def _effect(b: Board, actor: int, act: dict) -> dict[int, float]:
    kind = act["kind"]
    target = act.get("target")
    t: int = -1 if target is None else target  # -1: an untargeted action, which never reads it
    if kind == "attack":
        may = [(s, SUPPORT_RATE, SUPPORT_RATE) for s in range(b.n) if s not in (actor, t) and b.disc[s]]
        odds = fight_odds(b, actor, t, may)
        return fight_deltas(b, actor, t, odds)
    if kind == "assassination":
        v = b.inhabitant_value(t)
        out = {actor: v, t: b.m_hidden - v}
        if b.card[t] is None and actor == b.me:
            have = b.ninjas_in_pile(actor)
            ninjas_unknown = sum(1 for c in NINJAS if c in b.unknown)
            if ninjas_unknown:
                p_ninja = b.hidden.get(0, 0.0)
                out[actor] += p_ninja * (1.0 + 2.0 * have)
        return out
    if kind == "income":
        return {actor: b.m_deck * (1.0 - b.p_geisha_next)}
    if kind == "succession":
        return {actor: 3.0 + SHOGUN_EDGE, t: -3.0}
    if kind == "credit":
        k = sum(1 for c in b.pile[t] if KIND[c] is Kind.NOFU)
        return {actor: float(k), t: -float(k)}
    if kind == "trade":
        give = _lowest_card(b, actor)
        low = VALUE[give] if give is not None else 0
        cands = list(b.pile[t])
        draw = sum(VALUE[c] for c in cands) / len(cands) if cands else 0.0
        return {actor: draw - low, t: low - draw}
    if kind == "transformation":
        known, hidden = [], 0
        for s in range(b.n):
            if s == actor:
                continue
            c = b.card[s]
            if c is not None:
                known.append(VALUE[c])
            elif not b.empty[s]:
                hidden += 1
        best = _max_dist_mean(known, hidden, b)
        own = b.inhabitant_value(actor)
        total = sum(known) + hidden * b.m_hidden
        left = (total - best + b.m_deck) / max(1, b.n - 1)
        out = {actor: best - own}
        for s in range(b.n):
            if s != actor:
                out[s] = left - b.inhabitant_value(s)
        return out
    if kind == "revolution":
        return _revolution_delta(b, [actor])
    if kind == "incite":
        return {actor: INCITE_VALUE} if actor == b.me else {}
    return {}  # blessing: the bonus only


def _claim_chance(b: Board, s: int, rank: int, announcer: int) -> float:
    """Chance that seat s may outrank an announcement of `rank` (R4.3c)."""
    dist = b.rank_dist(s)
    p = sum(q for r, q in dist.items() if r > rank)
    if len(b.pile[s]) < len(b.pile[announcer]):
        p += dist.get(rank, 0.0)
    return p


def _survival(b: Board, rank: int, target: int | None, chain: list[int], announcer: int,
              seats: list[int] | None = None) -> float:
    """Chance that nobody claims over an announcement (R4.3, R4.4)."""
    p = 1.0
    if seats is None:
        seats = [(announcer + i) % b.n for i in range(1, b.n)]
    for s in seats:
        if s in (announcer, target) or s in chain or not b.disc[s]:
            continue
        p *= 1.0 - CLAIM_RATE * _claim_chance(b, s, rank, announcer)
    return p


def _announce_rank(b: Board, act: dict) -> int:
    if act["kind"] == "revolution":
        return 1 + b.square
    mine = b.mine
    return RANK[mine] if mine is not None else -1


def _disc_value(b: Board, actions: list[dict], w: list[float], share: float = -1.0) -> float:
    """What keeping the disc is worth: its best use later this season."""
    best = 0.0
    for act in actions:
        u = _u(b, effect(b, b.me, act), w)
        if u > best:
            best = u
    # the Geisha may end the game before we are asked again (R9.2)
    late = max(0.0, 1.0 - END_RISK * b.p_geisha_next)
    return (KEEP_OTHER if share < 0 else share) * best * late


def disc_value(b: Board, w: list[float], share: float = KEEP_OTHER) -> float:
    """What our disc is worth kept: a share of its best use later this season."""
    return _disc_value(b, _my_actions(b), w, share)


# -- decisions -----------------------------------------------------------------

def _forbidden(b: Board, act: dict) -> bool:
    """Actions ruled out by our own kept promises (no attack on a seat)."""
    if act["kind"] != "attack":
        return False
    for e in b.ledger:
        if (e.get("status") == "open" and e.get("kind") == "no_attack" and e.get("promiser") == b.me
                and e.get("seat") == act.get("target") and e.get("season") == b.season):
            return True
    return False


def _announce(b: Board, options: list[dict], w: list[float]) -> dict | None:
    acts = [c["action"] for c in options if c["type"] == "Announce" and not _forbidden(b, c["action"])]
    keep = _disc_value(b, acts, w, KEEP_ANNOUNCE)
    bonus = _bonus(b)
    best, best_score = None, ANNOUNCE_MARGIN
    for c in options:
        if c["type"] != "Announce" or _forbidden(b, c["action"]):
            continue
        act = c["action"]
        u = _u(b, effect(b, b.me, act), w) + bonus
        pf = _survival(b, _announce_rank(b, act), act.get("target"), [], b.me)
        score = pf * (u - keep)
        if score > best_score:
            best, best_score = c, score
    return best


def _privilege(b: Board, prompt: dict, options: list[dict], w: list[float]) -> dict | None:
    claims = [c for c in options if c["type"] == "Claim" and not _forbidden(b, c["action"])]
    passes = [c for c in options if c["type"] == "Pass"]
    if not claims or b.announcer is None or b.action is None:
        return passes[0] if passes else None
    announcer, theirs = b.announcer, b.action
    their_rank = _announce_rank_of(b, announcer, theirs)
    my_rank = RANK[b.mine] if b.mine is not None else -1
    if my_rank < their_rank or (my_rank == their_rank and len(b.pile[b.me]) >= len(b.pile[announcer])):
        return passes[0] if passes else None  # a claim would be void (R4.3c)
    bonus = _bonus(b)
    asked = list(prompt.get("asked") or ())
    after = asked[asked.index(b.me) + 1:] if b.me in asked else []
    p_stand = _survival(b, their_rank, theirs.get("target"), [*b.chain, b.me], announcer, after)
    stand = _u(b, effect(b, announcer, theirs), w)
    if bonus:
        stand -= w[announcer] * bonus
    keep = _disc_value(b, [c["action"] for c in claims], w, KEEP_CLAIM)
    ev_pass = p_stand * stand + keep
    best, best_ev = None, ev_pass
    chain = [*b.chain, b.me]
    for c in claims:
        act = c["action"]
        u = _u(b, effect(b, b.me, act), w) + bonus
        pf = _survival(b, _announce_rank(b, act), act.get("target"), chain, b.me)
        ev = pf * u + (1.0 - pf) * keep
        if ev > best_ev + CLAIM_MARGIN:
            best, best_ev = c, ev
    return best if best is not None else (passes[0] if passes else None)


def _announce_rank_of(b: Board, seat: int, act: dict) -> int:
    if act["kind"] == "revolution":
        return 1 + b.square
    c = b.card[seat]
    return RANK[c] if c is not None else 7


def _support_outcomes(b: Board, att: int, dfn: int, sure: dict[int, str], undecided: list[int],
                      w: list[float]) -> float:
    """Expected utility of a fight given the seats whose side is known and
    those still undecided (R6.2-R6.6)."""
    may = []
    for s, side in sure.items():
        may.append((s, 1.0, 0.0) if side == "attacker" else (s, 0.0, 1.0))
    for s in undecided:
        if s not in sure:
            may.append((s, SUPPORT_RATE, SUPPORT_RATE))
    odds = fight_odds(b, att, dfn, may)
    win = fight_deltas(b, att, dfn, odds)
    return _u(b, win, w)


def _promised_side(b: Board, att: int, dfn: int) -> str | None:
    for e in b.ledger:
        if (e.get("status") == "open" and e.get("kind") == "support" and e.get("promiser") == b.me
                and e.get("attacker") == att and e.get("defender") == dfn and e.get("season") == b.season):
            return e.get("side")
    return None


def _support(b: Board, prompt: dict, options: list[dict], w: list[float]) -> dict | None:
    fight = b.fight
    passes = [c for c in options if c["type"] == "Pass"]
    if fight is None:
        return passes[0] if passes else None
    att, dfn = fight["attacker"], fight["defender"]
    by_side = {c["side"]: c for c in options if c["type"] == "Support"}
    promised = _promised_side(b, att, dfn)
    if promised in by_side:
        return by_side[promised]
    sure: dict[int, str] = {}
    for s, side in prompt.get("published") or ():
        if side in ("attacker", "defender"):
            sure[s] = side
    asked = list(prompt.get("asked") or ())
    after = asked[asked.index(b.me) + 1:] if b.me in asked else []
    keep = _disc_value(b, _my_actions(b), w, KEEP_SUPPORT)
    best = passes[0] if passes else None
    best_u = _support_outcomes(b, att, dfn, sure, after, w) + keep
    for side, c in by_side.items():
        u = _support_outcomes(b, att, dfn, {**sure, b.me: side}, after, w)
        if u > best_u + SUPPORT_MARGIN:
            best, best_u = c, u
    return best


def _my_actions(b: Board) -> list[dict]:
    """The actions our inhabitant could announce (R5), for valuing the disc."""
    mine = b.mine
    if mine is None or mine == GEISHA:
        return []
    kind = KIND[mine]
    others = b.others()
    acts = [{"kind": "attack", "target": t} for t in others]
    if kind is Kind.SORYO:
        acts.append({"kind": "blessing", "target": None})
    elif kind is Kind.MAHO_TSUKAI:
        if not any(b.revealed[t] and b.kind(t) is Kind.MAHO_TSUKAI for t in others):
            acts.append({"kind": "transformation", "target": None})
    elif kind is Kind.DAIMYO:
        acts.append({"kind": "income", "target": None})
        place = b.shogun_place()
        if place is not None and place != b.me:
            acts.append({"kind": "succession", "target": place})
    elif kind is Kind.AKINDO:
        for t in others:
            if not (b.revealed[t] and b.kind(t) is Kind.AKINDO):
                acts.append({"kind": "credit", "target": t})
                acts.append({"kind": "trade", "target": t})
    elif kind is Kind.NOFU:
        acts.append({"kind": "incite", "target": None})
        acts.append({"kind": "revolution", "target": None})
    elif kind is Kind.NINJA:
        for t in others:
            if not (b.revealed[t] and b.kind(t) is Kind.NINJA):
                acts.append({"kind": "assassination", "target": t})
    return acts


def _revolution(b: Board, prompt: dict, options: list[dict], w: list[float]) -> dict | None:
    passes = [c for c in options if c["type"] == "Pass"]
    joins = [c for c in options if c["type"] == "Join"]
    if not joins or b.announcer is None:
        return passes[0] if passes else None
    revolters = [b.announcer] + [s for s, a in prompt.get("published") or () if a is True]
    without = _u(b, _revolution_delta(b, revolters), w)
    with_me = _u(b, _revolution_delta(b, [*revolters, b.me]), w)
    keep = _disc_value(b, _my_actions(b), w)
    if with_me - keep > without + ANNOUNCE_MARGIN:
        return joins[0]
    return passes[0] if passes else None


def _choose_trade(b: Board, options: list[dict]) -> dict | None:
    collecting = b.ninjas_in_pile(b.me) >= 2

    def key(c: dict) -> tuple:
        card = c["card"]
        return (collecting and card in NINJAS, VALUE[card], is_treasure(card))
    return min(options, key=key) if options else None


def _choose_transformation(b: Board, options: list[dict]) -> dict | None:
    def key(c: dict) -> tuple:
        card = c["card"]
        return (VALUE[card] if card != GEISHA else -1, card == SHOGUN)
    return max(options, key=key) if options else None


def _choose_reinforcement(b: Board, options: list[dict]) -> dict | None:
    fight = b.fight
    if fight is not None:
        winner = fight["attacker"] if fight["defender"] == b.me else fight["defender"]
        ninjas = [c for c in options if c["card"] in NINJAS]
        if ninjas and b.ninjas_in_pile(winner) + len(ninjas) >= 3:
            return ninjas[0]  # keep the winner from its third Ninja (R9.1)
    return _choose_transformation(b, options)


# -- deals (R8) ---------------------------------------------------------------

def _cheapest_card(b: Board, limit: int) -> int | None:
    cands = [c for c in b.pile[b.me] if VALUE[c] <= limit and c not in NINJAS]
    if not cands:
        return None
    return min(cands, key=lambda c: (VALUE[c], is_treasure(c)))


def _deal_value(b: Board, deal: dict, w: list[float]) -> float:
    """What accepting `deal` is worth to us; -inf for promises we would not
    or could not keep."""
    delta: dict[int, float] = {}
    for t in deal.get("transfers") or ():
        v = VALUE[t["card"]]
        delta[t["giver"]] = delta.get(t["giver"], 0.0) - v
        delta[t["receiver"]] = delta.get(t["receiver"], 0.0) + v
    value = _u(b, delta, w)
    for p in deal.get("promises") or ():
        kind = p.get("kind")
        if p.get("promiser") == b.me:
            if kind == "support":
                fight = b.fight
                if (fight is None or fight["attacker"] != p.get("attacker")
                        or fight["defender"] != p.get("defender") or not b.disc[b.me]
                        or _promised_side(b, fight["attacker"], fight["defender"]) is not None):
                    return float("-inf")  # not this fight, no disc, or already promised
                value -= _disc_value(b, _my_actions(b), w) + 0.5
            elif kind == "no_attack":
                if attacking(b, p.get("seat")):
                    return float("-inf")  # our announced attack on that seat would break it at once
                value -= 0.5
            else:
                return float("-inf")  # free text or payments: not promises we make
        elif p.get("promisee") == b.me:
            value += 0.3
    return value


def _answer_deals(b: Board, legal: list[dict]) -> dict | None:
    answerable = {c["deal"]: c for c in legal if c.get("type") == "AcceptDeal"}
    if not answerable:
        return None
    declines = {c["deal"]: c for c in legal if c.get("type") == "DeclineDeal"}
    w = weights(b, TEMPERATURE)
    for deal in b.deals:
        did = deal["deal"]
        if did not in answerable:
            continue
        if _deal_value(b, deal, w) >= 0.0:
            return answerable[did]
        if did in declines:
            return declines[did]
    return None


__all__ = ["choose", "disc_value", "effect", "offer"]
