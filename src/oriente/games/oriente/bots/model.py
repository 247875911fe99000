"""What one seat can tell from its own view, as numbers a policy can weigh.

Everything here reads only `views.view(state, seat)` (a plain dict) and the
static card tables: which cards are public (score piles, revealed
inhabitants, the known bottom of the deck, face-up cards in play), which are
not, and from that the value distribution of a face-down inhabitant and of
the next card off the deck. On top of that: the odds of a fight (R6.4,
R6.5), with small probability distributions (dicts value -> probability),
exact for up to two possible supporters and a normal approximation beyond,
and a utility that weighs a change of scores by how much it helps this
seat rank first (R9.4).

Draws without replacement are treated as independent draws from the unknown
pool: a good enough approximation for decisions, and cheap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from oriente.games.oriente.rules.cards import GEISHA, INHABITANTS, KIND, NINJAS, RANK, SHOGUN, VALUE, Kind

Dist = dict[int, float]


def point(value: int) -> Dist:
    return {value: 1.0}


def convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


def negate(a: Dist) -> Dist:
    return {-x: p for x, p in a.items()}


def mix(parts: list[tuple[float, Dist]]) -> Dist:
    out: Dist = {}
    for w, d in parts:
        if w <= 0.0:
            continue
        for x, p in d.items():
            out[x] = out.get(x, 0.0) + w * p
    return out


def mean(a: Dist) -> float:
    return sum(x * p for x, p in a.items())


@dataclass
class Board:
    """One seat's picture of the table, built from its view alone."""

    me: int
    n: int
    card: list[int | None]  # visible inhabitants (own always; others when revealed)
    empty: list[bool]
    disc: list[bool]
    revealed: list[bool]
    pile: list[list[int]]
    kept: list[int]
    broken: list[int]
    season: int
    stone: int
    square: int
    hut: int
    supply: int
    hut_used: bool
    deck_size: int
    bonus_size: int
    bonus_awarded: bool
    bonus_set_aside: int
    announcer: int | None
    action: dict | None
    chain: list[int]
    fight: dict | None
    deals: list[dict]
    ledger: list[dict]
    seen: list[dict]
    unknown: list[int] = field(default_factory=list)  # inhabitant ids whose place this seat does not know
    hidden: Dist = field(default_factory=dict)  # value of a face-down inhabitant
    hidden_rank: Dist = field(default_factory=dict)
    p_geisha_next: float = 0.0
    deck_top: int = 0  # cards above the known bottom: the part still to draw before the Geisha
    deal_limit: int = 0  # open proposals a seat may have (R8.6); 0 when the view does not say
    m_hidden: float = 0.0
    m_deck: float = 0.0
    cache: dict = field(default_factory=dict)

    # -- derived facts ---------------------------------------------------------

    @property
    def mine(self) -> int | None:
        return self.card[self.me]

    def others(self) -> list[int]:
        return [s for s in range(self.n) if s != self.me]

    def pile_value(self, s: int) -> int:
        return sum(VALUE[c] for c in self.pile[s])

    def inhabitant_value(self, s: int) -> float:
        """Known value, or the mean of a face-down one."""
        c = self.card[s]
        if c is not None:
            return float(VALUE[c]) if c != GEISHA else 0.0
        return 0.0 if self.empty[s] else self.m_hidden

    def value_dist(self, s: int) -> Dist:
        c = self.card[s]
        if c is not None:
            return point(VALUE[c])
        return self.hidden if not self.empty[s] else point(0)

    def rank_dist(self, s: int) -> Dist:
        c = self.card[s]
        if c is not None:
            return point(RANK[c])
        return self.hidden_rank if not self.empty[s] else point(-1)

    def kind(self, s: int) -> Kind | None:
        c = self.card[s]
        return None if c is None else KIND[c]

    def score(self, s: int) -> float:
        """Expected final score if the game ended now (R9.3)."""
        return self.pile_value(s) + self.inhabitant_value(s)

    def ninjas_in_pile(self, s: int) -> int:
        return sum(1 for c in self.pile[s] if c in NINJAS)

    def shogun_place(self) -> int | None:
        """The seat holding the Shogun as revealed inhabitant or score card."""
        for s in range(self.n):
            if self.card[s] == SHOGUN and (self.revealed[s] or s == self.me):
                return s
            if SHOGUN in self.pile[s]:
                return s
        return None


def read(view: dict) -> Board:
    """Build a Board from a seat's view (views.view(state, seat))."""
    seats = view["seats"]
    n = len(seats)
    me = view["viewer"]
    workers = view["workers"]
    b = Board(
        me=me, n=n,
        card=[s["inhabitant"] for s in seats],
        empty=[bool(s.get("empty")) for s in seats],
        disc=[bool(s["disc"]) for s in seats],
        revealed=[bool(s["revealed"]) for s in seats],
        pile=[list(s["pile"]) for s in seats],
        kept=[s.get("kept", 0) for s in seats],
        broken=[s.get("broken", 0) for s in seats],
        season=view["season"], stone=view["stone_holder"],
        square=workers["square"], hut=workers["hut"], supply=workers["supply"], hut_used=workers["hut_used"],
        deck_size=view["deck_size"], bonus_size=view["bonus_size"], bonus_awarded=view["bonus_awarded"],
        bonus_set_aside=view.get("bonus_set_aside", 0),
        announcer=view.get("announcer"), action=view.get("action"), chain=list(view.get("chain") or ()),
        fight=view.get("fight"), deals=list(view.get("deals") or ()), ledger=list(view.get("ledger") or ()),
        seen=list(view.get("seen") or ()),
    )
    public: set[int] = set()
    for s in range(n):
        public.update(c for c in b.pile[s] if c is not None)
        card = b.card[s]
        if card is not None:
            public.add(card)
    public.update(c for c in view.get("deck_bottom") or () if c is not None)
    public.update(c for c in view.get("in_play") or () if c is not None)
    if view.get("geisha") is not None:
        public.add(GEISHA)
    b.unknown = [c for c in INHABITANTS if c not in public]
    faces = [c for c in b.unknown if c != GEISHA]
    if faces:
        w = 1.0 / len(faces)
        for c in faces:
            b.hidden[VALUE[c]] = b.hidden.get(VALUE[c], 0.0) + w
            b.hidden_rank[RANK[c]] = b.hidden_rank.get(RANK[c], 0.0) + w
    else:
        b.hidden = point(2)
        b.hidden_rank = point(2)
    b.m_hidden = mean(b.hidden)
    # The next card off the deck is, like a face-down inhabitant, one of the
    # unknown cards (the Geisha aside: it ends the game, p_geisha_next).
    b.m_deck = b.m_hidden
    geisha_unknown = GEISHA in b.unknown
    top_part = b.deck_size - len(view.get("deck_bottom") or ())
    b.deck_top = top_part
    b.deal_limit = int(view.get("max_open_proposals") or 0)
    b.p_geisha_next = geisha_chance(top_part) if geisha_unknown else 0.0
    return b


def geisha_chance(top_part: int) -> float:
    """The chance that the next card off the deck is the Geisha (R2.5): the
    Geisha lies at depth 33..37 of the full 41-card deck, uniformly; cards
    put back go below it and never count (R9.5)."""
    drawn = 41 - top_part  # cards taken from the top so far; P1 (5 cards,
    if drawn < 32:  # the Geisha among them) lies at depths 33..37
        return 0.0
    left_in_p1 = 37 - drawn
    return 1.0 / left_in_p1 if left_in_p1 > 0 else 1.0


def weights(b: Board, temperature: float = 2.5, seat: int | None = None) -> list[float]:
    """How much each opponent's gains hurt this seat (or `seat`, as far as
    this seat can tell): the leaders most, so that the weights sum to 1 over
    the opponents (R9.4: only first place wins)."""
    me = b.me if seat is None else seat
    scores = [b.score(s) for s in range(b.n)]
    others = [s for s in range(b.n) if s != me]
    top = max(scores[o] for o in others)
    raw = [0.0] * b.n
    for o in others:
        raw[o] = math.exp((scores[o] - top) / temperature)
    total = sum(raw)
    return [r / total for r in raw]


def utility(b: Board, delta: dict[int, float], w: list[float], spite: float = 1.0, seat: int | None = None) -> float:
    """A change of expected scores, as seen by this seat (or by `seat`, with
    its weights `w`): its own gain minus the weighted gains of its opponents."""
    me = b.me if seat is None else seat
    u = 0.0
    for s, d in delta.items():
        if s == me:
            u += d
        else:
            u -= spite * w[s] * d
    return u


# -- fights (R6) ---------------------------------------------------------------
#
# Fight arithmetic depends on the board only through the distribution of a
# face-down card (which is also that of the next card off the deck), so the
# pure helpers below are memoised on it: `hkey` is that distribution as a
# sorted tuple, a value key is a card value, HIDDEN or NONE.

HIDDEN = -1  # a face-down inhabitant
NONE = -2  # an empty slot


def _dist_of(hkey: tuple, vkey: int) -> Dist:
    if vkey == HIDDEN:
        return dict(hkey)
    return point(0 if vkey == NONE else vkey)


@lru_cache(maxsize=4096)
def _contribution(hkey: tuple, vkey: int) -> Dist:
    """A participant's strength: its value, plus a reinforcement card if it
    is a Samurai (R6.4)."""
    value = _dist_of(hkey, vkey)
    p3 = value.get(3, 0.0)
    if p3 <= 0.0:
        return value
    rest = {v: p for v, p in value.items() if v != 3}
    return mix([(1.0, rest), (p3, convolve(point(3), dict(hkey)))])


@lru_cache(maxsize=4096)
def _noise(hkey: tuple, parts: tuple) -> Dist:
    """Strength added to attacker minus defender by supporters, each given
    as (value key, P(attacker), P(defender))."""
    out = point(0)
    for vkey, pa, pd in parts:
        c = _contribution(hkey, vkey)
        d = mix([(pa, c), (pd, negate(c)), (1.0 - pa - pd, point(0))])
        out = {x: p for x, p in convolve(out, d).items() if p > 1e-7}
    return out


EXACT_PARTS = 3  # beyond this many possible supporters, a normal approximation


@lru_cache(maxsize=8192)
def _tail(hkey: tuple, vkey: int, parts: tuple) -> tuple[int, tuple[float, ...]]:
    """P(attacker's total > y) for integer y from `lo` on: (lo, probs)."""
    own = _contribution(hkey, vkey)
    if len(parts) <= EXACT_PARTS:
        total = convolve(own, _noise(hkey, parts))
        lo, hi = min(total), max(total)
        probs = []
        acc = 0.0
        for y in range(hi, lo - 1, -1):
            probs.append(acc)  # P(X > y)
            acc += total.get(y, 0.0)
        probs.reverse()
        return lo, tuple(probs)
    # Many independent supporters: their sum is close to normal.
    mu = var = 0.0
    for vkey2, pa, pd in parts:
        c = _contribution(hkey, vkey2)
        m1 = sum(x * p for x, p in c.items())
        m2 = sum(x * x * p for x, p in c.items())
        mu += (pa - pd) * m1
        var += (pa + pd) * m2 - ((pa - pd) * m1) ** 2
    sd = math.sqrt(max(var, 1e-9))
    lo, hi = -1, 11  # a defender's strength is 0..10 (a Samurai may add a Shogun, R6.4)
    probs = []
    for y in range(lo, hi + 1):
        # P(own + N > y) with N integer: N >= y - own + 1, continuity-corrected
        probs.append(sum(p * 0.5 * math.erfc((y - x + 0.5 - mu) / (sd * math.sqrt(2.0))) for x, p in own.items()))
    return lo, tuple(probs)


def _p_above(tail: tuple[int, tuple[float, ...]], y: int) -> float:
    lo, probs = tail
    if y < lo:
        return 1.0
    i = y - lo
    return probs[i] if i < len(probs) else 0.0


def value_key(b: Board, s: int) -> int:
    c = b.card[s]
    if c is not None:
        return VALUE[c]
    return NONE if b.empty[s] else HIDDEN


def hidden_key(b: Board) -> tuple:
    key = b.cache.get("hkey")
    if key is None:
        key = b.cache["hkey"] = tuple(sorted(b.hidden.items()))
    return key


def noise_parts(b: Board, supporters: list[tuple[int, float, float]]) -> tuple:
    """Seats that may support, as (value key, P(attacker), P(defender))."""
    parts = [(value_key(b, s), pa, pd) for s, pa, pd in supporters if pa > 0.0 or pd > 0.0]
    parts.sort()
    return tuple(parts)


@dataclass
class FightOdds:
    p_attacker: float  # chance the attacker wins (R6.5)
    gain_if_win: float  # expected defender value captured, given an attacker win
    p_defender_shogun: float


def fight_odds(b: Board, attacker: int, defender: int, supporters: list[tuple[int, float, float]]) -> FightOdds:
    """The attacker's chance and expected capture, summed over the
    defender's possible inhabitants (an attacked Shogun always wins, R5.1)."""
    hkey = hidden_key(b)
    tail = _tail(hkey, value_key(b, attacker), noise_parts(b, supporters))
    dc = b.card[defender]
    cases = [(1.0, VALUE[dc], dc == SHOGUN)] if dc is not None else [(p, v, v == 7) for v, p in b.hidden.items()]
    p_win = 0.0
    captured = 0.0
    p_shogun = 0.0
    for p, v, shogun in cases:
        if shogun:
            p_shogun += p
            continue
        # the attacker wins when its total exceeds the defender's: a tie defends (R6.5)
        q = 0.0
        for y, py in _contribution(hkey, v).items():
            q += py * _p_above(tail, y)
        p_win += p * q
        captured += p * q * v
    return FightOdds(p_win, captured / p_win if p_win > 0 else 0.0, p_shogun)


def fight_deltas(b: Board, attacker: int, defender: int, odds: FightOdds) -> dict[int, float]:
    """Expected change of both fighters' scores. The loser's inhabitant goes
    to the winner's pile and the loser draws a new one (R6.6, R6.7)."""
    pa = odds.p_attacker
    a_val = b.inhabitant_value(attacker)
    m = b.m_hidden
    delta = {attacker: 0.0, defender: 0.0}
    # attacker wins: captures the defender's card, the defender redraws
    delta[attacker] += pa * odds.gain_if_win
    delta[defender] += pa * (m - odds.gain_if_win)
    # defender wins: captures the attacker's card, the attacker redraws
    pl = 1.0 - pa
    delta[attacker] += pl * (m - a_val)
    delta[defender] += pl * a_val
    return delta


def attacking(b: Board, target: int) -> bool:
    """Whether we attack `target` this season already: our announced or
    claimed attack on it is open (it becomes final unless somebody claims
    over it: R10.2a), or we fight it now. A promise not to attack it could
    not be kept (it is broken when the attack is fulfilled, R8.6)."""
    fight = b.fight
    if fight is not None and fight.get("attacker") == b.me and fight.get("defender") == target:
        return True
    action = b.action or {}
    return b.announcer == b.me and action.get("kind") == "attack" and action.get("target") == target
