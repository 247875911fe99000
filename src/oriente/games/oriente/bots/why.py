"""Why the negotiator declines a deal, as a code with parameters (R8.8).

Every decline of the negotiator carries a reason a client words in its
reader's language. A reason states the bot's valuation in coarse words and
public facts only — the deal's own terms, the public ledger, who still
holds a disc and who has declared — never a face-down card nor anything
that follows from one (R10.2d): the code is chosen from the deal's terms
and the public record, and the valuation itself only ever shows as
`worth_less`.

In order: a promise in words asked of us (`words_only`: we make none the
ledger cannot settle); a structured promise asked of us that we could not
keep, from public facts (`too_late` once our declaration in the fight is
public, `cannot_keep` otherwise: a fight that is not under way, no disc,
not asked, already promised the other side, cards we do not hold); a deal that rests on the word of a
seat whose public record is poor (`record`, with that seat's counts); else
`worth_less`.
"""

from __future__ import annotations

from .valuation import Reading, may_still_support

POOR_RECORD = 0.5  # a record whose share of kept promises is at most this is poor


def _promise_keepable(r: Reading, p: dict) -> str | None:
    """Why we could not keep promise `p` of ours, from public facts; None if we could."""
    b = r.b
    kind = p.get("kind")
    if kind == "support":
        fight = b.fight
        if fight is None or (fight["attacker"], fight["defender"]) != (p.get("attacker"), p.get("defender")):
            return "cannot_keep"  # not the fight under way: nothing we can promise yet
        prompt = r.prompt or {}
        if any(s == b.me for s, _ in prompt.get("published") or ()):
            return "too_late"  # we have declared in this fight, for all to see
        if not may_still_support(r, fight["attacker"], fight["defender"]):
            return "cannot_keep"  # no disc, or not asked in this fight
        for e in b.ledger:
            if (e.get("status") == "open" and e.get("kind") == "support" and e.get("promiser") == b.me
                    and (e.get("attacker"), e.get("defender")) == (fight["attacker"], fight["defender"])
                    and e.get("side") != p.get("side")):
                return "cannot_keep"
    elif kind == "pay":
        if any(c not in b.pile[b.me] for c in p.get("cards") or ()):
            return "cannot_keep"
    elif kind == "no_attack":
        return None
    else:
        return "words_only"
    return None


def decline(r: Reading, deal: dict) -> dict:
    """The reason for declining `deal` (R8.8), from public facts."""
    b = r.b
    for p in deal.get("promises") or ():
        if p.get("promiser") == b.me:
            code = _promise_keepable(r, p)
            if code is not None:
                return {"code": code}
    for p in deal.get("promises") or ():
        seat = p.get("promiser")
        if p.get("promisee") == b.me and isinstance(seat, int) and 0 <= seat < b.n and seat != b.me:
            kept, broken = b.kept[seat], b.broken[seat]
            if broken and kept <= POOR_RECORD * (kept + broken):
                return {"code": "record", "seat": seat, "kept": kept, "broken": broken}
    return {"code": "worth_less"}


__all__ = ["decline"]
