"""Deals for bot authors: build them, read them, value them (R8; the maps
are those of PROTOCOL.md section 7).

Building: `give`, `support`, `no_attack`, `pay` and `free` make the
transfer and promise maps, `proposal` the `ProposeDeal` command to send with
`seat.act()` (or `seat.propose_deal(**...)`). Every map is in the canonical
form `legal` and the events use, every field present.

Reading, from a view (`turn.view`, `update.view`): `offers_to(view, me)`
lists the open proposals waiting for our answer, `mine(view, me)` ours,
`cards_to`/`cards_from` what a deal moves to or from a seat, `promises_of`
what a seat promises in it, `record(view, seat)` a seat's public kept/broken
count, `open_promises(view, ...)` the public ledger's open entries, and
`describe(deal, speaker)` says a deal in plain words.

Reasons and counter-offers (R8.8): `reason(code, **params)` makes the
reason a decline or a proposal may carry, `decline(deal, code, ...)` the
DeclineDeal with it, `counter(deal, transfers, promises)` a counter-offer
naming the deal it answers; `why_of(event)` and `counters(event)` read them
from the deal events and the view's open deals, `reason_words(why, lang)`
says a reason in words.

Valuing: `value(view, deal, prompt)` is what a deal is worth to the viewing
seat if it executes, in expected points of final score (positive: take it),
and `partner_value(view, deal, partner, prompt)` what it is worth to
another seat as far as we can tell — the same functions the reference
negotiator uses (games/oriente/bots/valuation.py: fight odds from the public
cards and the deck, what is at stake, the seasons likely left, the
promiser's record): the games' pure code, never the server's. `trust(view, seat)` is the chance that a seat keeps its
next promise, read from its record.
"""

from __future__ import annotations

from typing import Any

from oriente.games.oriente.bots import reputation, valuation
from oriente.games.oriente.bots.model import read
from oriente.games.oriente.bots.words import deal_words
from oriente.games.oriente.narrate import OrienteNarrator

Deal = dict[str, Any]
SIDES = ("attacker", "defender")
# Card id -> value (PROTOCOL.md, "Cards"): 0 Shogun 7, 1-2 Soryo 6, 3-6 Maho-Tsukai 5, 7-11 Daimyo 4,
# 12-17 Samurai 3, 18-24 Akindo 2, 25-36 Nofu 1, 37-39 Ninja 0, 40 Geisha, 41-52 treasures 2, 3, 4.
VALUES = ((7,) + (6,) * 2 + (5,) * 4 + (4,) * 5 + (3,) * 6 + (2,) * 7 + (1,) * 12 + (0,) * 4
          + (2,) * 4 + (3,) * 4 + (4,) * 4)


def card_value(card: int) -> int:
    """A card's score value (R9.3)."""
    return VALUES[card]


# -- building ---------------------------------------------------------------------------------

def give(card: int, giver: int, receiver: int, why: str) -> dict[str, Any]:
    """A score card from `giver` to `receiver`; `why` is the consideration
    every transfer must state (R8.3: no gifts)."""
    return {"type": "Transfer", "card": card, "giver": giver, "receiver": receiver, "consideration": why}


def _promise(promiser: int, promisee: int, text: str, kind: str, **fields: Any) -> dict[str, Any]:
    out = {"type": "Promise", "promiser": promiser, "promisee": promisee, "text": text, "kind": kind,
           "attacker": None, "defender": None, "side": None, "cards": [], "by_season": None, "seat": None}
    out.update(fields)
    return out


def support(promiser: int, promisee: int, attacker: int, defender: int, side: str, text: str = "") -> dict[str, Any]:
    """`promiser` will support `side` in this season's fight of `attacker`
    against `defender`; the server settles it from the support round."""
    if side not in SIDES:
        raise ValueError(f"side is 'attacker' or 'defender', not {side!r}")
    fighter = attacker if side == "attacker" else defender
    text = text or f"I will support the {side}, seat {fighter}, in the fight of seat {attacker} against seat {defender}"
    return _promise(promiser, promisee, text, "support", attacker=attacker, defender=defender, side=side)


def no_attack(promiser: int, promisee: int, seat: int | None = None, text: str = "") -> dict[str, Any]:
    """`promiser` will not attack `seat` (the promisee by default) this season."""
    target = promisee if seat is None else seat
    return _promise(promiser, promisee, text or f"I will not attack seat {target} this season", "no_attack",
                    seat=target)


def pay(promiser: int, promisee: int, cards: list[int], by_season: int, text: str = "") -> dict[str, Any]:
    """`cards` will lie in the promisee's pile by the end of season `by_season`."""
    return _promise(promiser, promisee, text or f"I will pay you cards {list(cards)} by the end of season {by_season}",
                    "pay", cards=list(cards), by_season=by_season)


def free(promiser: int, promisee: int, text: str) -> dict[str, Any]:
    """Anything in words; the promisee settles it (SettlePromise)."""
    return _promise(promiser, promisee, text, "free")


def proposal(transfers: list[dict[str, Any]] = (), promises: list[dict[str, Any]] = (),  # type: ignore[assignment]
             note: str = "", *, why: dict[str, Any] | None = None, counter_to: int | None = None) -> dict[str, Any]:
    """The ProposeDeal command: send it with `seat.act(...)`. `why` says what
    it is for (`reason(...)`), `counter_to` names the deal it answers (R8.8)."""
    out: dict[str, Any] = {"type": "ProposeDeal", "transfers": list(transfers), "promises": list(promises),
                           "note": note}
    if why is not None:
        out["why"] = why
    if counter_to is not None:
        out["counter_to"] = counter_to
    return out


# -- reasons and counter-offers (R8.8) --------------------------------------------------------

# The codes a reason may carry, with their parameters (PROTOCOL.md 7, "Reasons and
# counter-offers"; the rules' own catalogue is games/oriente/rules/reasons.py).
DECLINE_REASONS: dict[str, tuple[str, ...]] = {
    "worth_less": (), "record": ("seat", "kept", "broken"), "cannot_keep": (), "words_only": (), "too_late": (),
}
PROPOSE_REASONS: dict[str, tuple[str, ...]] = {
    "buy_support": ("attacker", "defender", "side"), "sell_support": ("attacker", "defender", "side"),
    "peace": ("seat",), "buy_card": ("seat",), "payment": ("promise",), "counter": ("deal",),
}


def reason(code: str, /, **params: Any) -> dict[str, Any]:
    """A reason as the server takes it: `reason("record", seat=2, kept=1,
    broken=3)`. ValueError for a code or parameters the catalogue lacks."""
    names = DECLINE_REASONS.get(code, PROPOSE_REASONS.get(code))
    if names is None:
        raise ValueError(f"no reason {code!r}; codes: {', '.join([*DECLINE_REASONS, *PROPOSE_REASONS])}")
    if set(params) != set(names):
        raise ValueError(f"reason {code!r} takes {', '.join(names) or 'no parameters'}, not {', '.join(params)}")
    return {"code": code, **params}


def decline(deal: int, code: str = "worth_less", /, **params: Any) -> dict[str, Any]:
    """The DeclineDeal command with its reason (R8.8)."""
    if code not in DECLINE_REASONS:
        raise ValueError(f"a decline's reason is one of {', '.join(DECLINE_REASONS)}, not {code!r}")
    return {"type": "DeclineDeal", "deal": deal, "why": reason(code, **params)}


def counter(deal: Deal, transfers: list[dict[str, Any]] = (), promises: list[dict[str, Any]] = (),  # type: ignore[assignment]
            note: str = "") -> dict[str, Any]:
    """A counter-offer to `deal` (an open deal, or a DealProposed event):
    the ProposeDeal of these terms, naming the deal it answers. It closes
    nothing: decline the deal too if you mean no."""
    return proposal(transfers, promises, note, why=reason("counter", deal=deal["deal"]), counter_to=deal["deal"])


def why_of(item: dict[str, Any]) -> dict[str, Any] | None:
    """The reason a deal event (`DealClosed`, `DealProposed`) or an open
    deal of the view carries, or None."""
    why = item.get("why")
    return why if isinstance(why, dict) else None


def counters(item: dict[str, Any]) -> int | None:
    """The deal a proposal (`DealProposed`, or an open deal of the view)
    answers, or None when it is no counter-offer."""
    answered = item.get("counter_to")
    return answered if isinstance(answered, int) else None


def reason_words(why: dict[str, Any], lang: str = "en") -> str:
    """A reason in words, in `lang` (en, de, fr), as the clients say it
    (the narrator's catalogue); a code it has no words for comes back as is."""
    return OrienteNarrator(lang).why(why)


# -- reading ----------------------------------------------------------------------------------

def offers_to(view: dict[str, Any], me: int) -> list[Deal]:
    """Open proposals we are a party to and have not accepted yet."""
    return [d for d in view.get("deals") or () if me in d["parties"] and me not in d["accepted"]]


def mine(view: dict[str, Any], me: int) -> list[Deal]:
    """Our own open proposals."""
    return [d for d in view.get("deals") or () if d["proposer"] == me]


def cards_to(deal: Deal, seat: int) -> list[int]:
    return [t["card"] for t in deal.get("transfers") or () if t["receiver"] == seat]


def cards_from(deal: Deal, seat: int) -> list[int]:
    return [t["card"] for t in deal.get("transfers") or () if t["giver"] == seat]


def promises_of(deal: Deal, seat: int) -> list[dict[str, Any]]:
    """What `seat` promises in the deal."""
    return [p for p in deal.get("promises") or () if p.get("promiser") == seat]


def record(view: dict[str, Any], seat: int) -> tuple[int, int]:
    """(kept, broken): the seat's public record of promises (R8.6)."""
    s = view["seats"][seat]
    return s.get("kept", 0), s.get("broken", 0)


def open_promises(view: dict[str, Any], promiser: int | None = None, kind: str | None = None) -> list[dict[str, Any]]:
    """Open entries of the public ledger, by promiser and kind if given."""
    return [e for e in view.get("ledger") or () if e.get("status") == "open"
            and (promiser is None or e.get("promiser") == promiser) and (kind is None or e.get("kind") == kind)]


def promised_side(view: dict[str, Any], me: int) -> str | None:
    """The side we promised to support in the fight under way, if we did."""
    fight = view.get("fight")
    if not fight:
        return None
    for e in open_promises(view, me, "support"):
        if (e.get("attacker"), e.get("defender")) == (fight["attacker"], fight["defender"]) \
                and e.get("season") == view.get("season"):
            return e.get("side")
    return None


def describe(deal: Deal, speaker: int | None = None) -> str:
    """The deal in plain words; `speaker` becomes "I"."""
    return deal_words(deal, speaker)


# -- valuing ----------------------------------------------------------------------------------

def value(view: dict[str, Any], deal: Deal, prompt: dict[str, Any] | None = None) -> float:
    """What `deal` is worth to the viewing seat if it executes, in expected
    points (-inf for a promise of ours it could not keep). Pass the prompt
    (`turn.prompt`, `update.prompt`) when a fight is under way: who has
    declared is in it."""
    return valuation.deal_value(valuation.reading(view, prompt if prompt is not None else view.get("decision")),
                                deal)


def partner_value(view: dict[str, Any], deal: Deal, partner: int, prompt: dict[str, Any] | None = None) -> float:
    """What `deal` is worth to `partner`, as far as the viewing seat can
    tell (its hidden card is guessed): offer what it may want."""
    r = valuation.reading(view, prompt if prompt is not None else view.get("decision"))
    return valuation.partner_value(r, deal, partner)


def trust(view: dict[str, Any], seat: int) -> float:
    """The chance that `seat` keeps its next promise, from its record."""
    return reputation.trust(read(view), seat)


__all__ = [
    "card_value",
    "cards_from",
    "cards_to",
    "describe",
    "free",
    "give",
    "mine",
    "no_attack",
    "offers_to",
    "open_promises",
    "partner_value",
    "pay",
    "promised_side",
    "promises_of",
    "proposal",
    "record",
    "support",
    "trust",
    "value",
]
