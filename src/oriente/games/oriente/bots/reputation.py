"""Reading the public promise ledger (R8.6): how far a seat's word goes, and
what breaking our own word would cost.

Every seat's kept/broken record is public (R8.6), so it is the one thing a
policy can learn about another seat's honesty. Two numbers come out of it:

- **trust(seat)**: the chance that the seat keeps its next promise, a Beta
  estimate with three kept and one broken promise imagined up front
  ((kept + 3) / (kept + broken + 4)): a stranger's word is worth three
  quarters (most promises the ledger settles are kept), a record of keeping
  earns more, a broken promise costs a lot while the record is short. A
  promise made to us is worth its benefit times the promiser's trust.
- **reputation_cost(board)**: what one more broken promise on our own record
  costs us, in points. Breaking lowers our trust by `trust_drop`; every
  later deal we make is then worth that much less to our partners, and so to
  us: we price it as `trust_drop * DEAL_SURPLUS * (1 + seasons_left)`, the
  surplus our deals bring per season times this season and the seasons
  likely left (valuation.seasons_left).

**The ruthless character's rule for its own promises** (`keep`,
characters.py has the others): keep a promise unless breaking it gains
more than the reputation it costs: break when `gain > reputation_cost +
BREAK_MARGIN`. Early in the game a good name is worth
more than most single gains; in the last season it is worth almost nothing,
so a promise is broken when breaking pays — which is exactly why the others
read our record before they trust us.
"""

from __future__ import annotations

from .model import Board

DEAL_SURPLUS = 1.2  # points a season that our deals bring us, roughly (bench/bots.py measures it)
BREAK_MARGIN = 0.5  # points: breaking must clearly pay, not just by rounding
PRIOR_KEPT = 3.0
PRIOR_BROKEN = 1.0


def trust(b: Board, seat: int) -> float:
    """The chance that `seat` keeps its next promise, from its public record."""
    kept, broken = b.kept[seat], b.broken[seat]
    return (kept + PRIOR_KEPT) / (kept + broken + PRIOR_KEPT + PRIOR_BROKEN)


def trust_drop(b: Board, seat: int) -> float:
    """How much one more broken promise lowers `seat`'s trust."""
    kept, broken = b.kept[seat], b.broken[seat]
    after = (kept + PRIOR_KEPT) / (kept + broken + 1 + PRIOR_KEPT + PRIOR_BROKEN)
    return trust(b, seat) - after


def trust_rise(b: Board, seat: int) -> float:
    """How much one more kept promise raises `seat`'s trust."""
    kept, broken = b.kept[seat], b.broken[seat]
    after = (kept + 1 + PRIOR_KEPT) / (kept + broken + 1 + PRIOR_KEPT + PRIOR_BROKEN)
    return after - trust(b, seat)


def reputation_cost(b: Board, seasons_left: float) -> float:
    """What breaking one promise now costs this seat, in points: the trust it
    loses times the deals it may still make, this season and the next ones."""
    return trust_drop(b, b.me) * DEAL_SURPLUS * (1.0 + max(0.0, seasons_left))


def keep(b: Board, gain_if_broken: float, seasons_left: float) -> bool:
    """The rule: keep our promise unless breaking it gains more than the
    reputation it costs (plus a margin)."""
    return gain_if_broken <= reputation_cost(b, seasons_left) + BREAK_MARGIN


def promise_cost(b: Board, keeping: float, seasons_left: float) -> float:
    """What a promise of ours costs by the rule: keeping it costs `keeping`;
    when that is more than the rule lets us bear, we will break it, which
    costs our reputation instead."""
    return min(keeping, reputation_cost(b, seasons_left) + BREAK_MARGIN)


def my_open_promises(b: Board, kind: str) -> list[dict]:
    """Our own open promises of one kind, from the public ledger."""
    return [e for e in b.ledger if e.get("status") == "open" and e.get("promiser") == b.me and e.get("kind") == kind]


def promised_support(b: Board, attacker: int, defender: int) -> str | None:
    """The side we promised to support in this season's fight of attacker
    against defender, if we did (R8.6: a support promise names the fight)."""
    for e in my_open_promises(b, "support"):
        if e.get("attacker") == attacker and e.get("defender") == defender and e.get("season") == b.season:
            side = e.get("side")
            return side if isinstance(side, str) else None
    return None


def promised_peace(b: Board, target: int) -> bool:
    """Whether we promised not to attack `target` this season."""
    return any(e.get("seat") == target and e.get("season") == b.season for e in my_open_promises(b, "no_attack"))


def promised_peace_of(b: Board, seat: int, target: int) -> bool:
    """Whether `seat` promised (open, this season) not to attack `target`."""
    return any(e.get("status") == "open" and e.get("kind") == "no_attack" and e.get("promiser") == seat
               and e.get("seat") == target and e.get("season") == b.season for e in b.ledger)


def promised_support_of(b: Board, seat: int, attacker: int, defender: int) -> str | None:
    """The side `seat` promised (open, this season) in the fight of attacker
    against defender, if any: the ledger is public."""
    for e in b.ledger:
        if (e.get("status") == "open" and e.get("kind") == "support" and e.get("promiser") == seat
                and e.get("attacker") == attacker and e.get("defender") == defender
                and e.get("season") == b.season):
            side = e.get("side")
            return side if isinstance(side, str) else None
    return None


__all__ = [
    "keep",
    "my_open_promises",
    "promise_cost",
    "promised_peace",
    "promised_peace_of",
    "promised_support",
    "promised_support_of",
    "reputation_cost",
    "trust",
    "trust_drop",
    "trust_rise",
]
