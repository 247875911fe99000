"""Why a seat declines or proposes a deal, as a code with parameters (R8.8).

Talk is free (R8.5), but a reason in words is in one language only. A
decline (`DeclineDeal.why`) and a proposal (`ProposeDeal.why`) may carry a
reason from this catalogue instead: a code and its parameters, which every
client words in its reader's language. The server checks only the form
(a known code, each parameter present with its type, nothing else), never
whether the reason is true: a reason binds no one, like any talk.

A reason is a plain map, flat: `{"code": "record", "seat": 3, "kept": 1,
"broken": 3}`. Parameters are public facts (seats, counts from the ledger,
a fight's sides, a deal or promise id); none can carry a card's identity.
"""

from __future__ import annotations

from typing import Any

from .errors import Rejected

SEAT, COUNT, SIDE, ID = "seat", "count", "side", "id"

# Declining: why the deal is refused.
DECLINE: dict[str, dict[str, str]] = {
    "worth_less": {},  # what the deal gives me is worth less to me than what it asks of me
    "record": {"seat": SEAT, "kept": COUNT, "broken": COUNT},  # seat's public record of promises (R8.6)
    "cannot_keep": {},  # I could not keep what the deal asks me to promise
    "words_only": {},  # I make no promise the ledger cannot settle (a free-text promise, R8.6)
    "too_late": {},  # the fight or the season the deal is about is over
}
# Proposing: what the deal is for.
PROPOSE: dict[str, dict[str, str]] = {
    "buy_support": {"attacker": SEAT, "defender": SEAT, "side": SIDE},  # a card for your support of my side
    "sell_support": {"attacker": SEAT, "defender": SEAT, "side": SIDE},  # my support for a card of yours
    "peace": {"seat": SEAT},  # a card for seat's promise not to attack me this season
    "buy_card": {"seat": SEAT},  # my promise not to attack seat this season, for one of its cards
    "payment": {"promise": ID},  # paying what promise N promised
    "counter": {"deal": ID},  # the price at which deal N would do for me
}
SIDES = ("attacker", "defender")
MAX_FIELDS = 8


def check(why: Any, catalogue: dict[str, dict[str, str]], seats: int, what: str) -> dict[str, Any] | None:
    """A reason's plain form, checked against `catalogue`; None stays None.
    Raises Rejected('deal/bad_reason') with what is wrong."""
    if why is None:
        return None
    if not isinstance(why, dict) or len(why) > MAX_FIELDS:
        raise Rejected("deal/bad_reason", "'why' is a map with 'code' and the code's parameters (R8.8)")
    code = why.get("code")
    params = catalogue.get(code) if isinstance(code, str) else None
    if params is None:
        raise Rejected("deal/bad_reason",
                       f"a {what}'s 'why.code' is one of {', '.join(catalogue)}, not {code!r} (R8.8)")
    extra = sorted(k for k in why if k != "code" and k not in params)
    if extra:
        raise Rejected("deal/bad_reason", f"reason {code!r} has no parameter {extra[0]!r} (R8.8)")
    out: dict[str, Any] = {"code": code}
    for name, kind in params.items():
        value: Any = why.get(name)
        number = isinstance(value, int) and not isinstance(value, bool)
        if kind == SEAT:
            ok = number and 0 <= value < seats
        elif kind in (COUNT, ID):
            ok = number and 0 <= value < 1 << 31
        else:
            ok = value in SIDES
        if not ok:
            expected = {SEAT: f"a seat 0..{seats - 1}", COUNT: "a count", ID: "an id", SIDE: "attacker or defender"}
            raise Rejected("deal/bad_reason", f"reason {code!r} needs '{name}': {expected[kind]} (R8.8)")
        out[name] = value
    return out


__all__ = ["DECLINE", "PROPOSE", "check"]
