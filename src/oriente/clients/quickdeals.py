"""The common deals of a fight, pre-filled from a seat's view, for a deal in
seconds (R6.2, R8.6); the terminal client's counterpart of the page's
games/oriente/quick.js, and the same rules:

    buy_support   a fighter's card for an asked seat's support of its side
    sell_support  an asked seat's support of a fighter, for that fighter's card
    peace         my card for a seat's promise not to attack me this season

Each is one ProposeDeal per chosen seat, with its purpose as a reason of
R8.8 (`why`), which every client words in its reader's language. Pure: no
I/O, so every case is unit-tested. `words(key, **args)` gives the texts a
deal must carry (a transfer's consideration, a promise's words, R8.3).

`deals_of(events, you)` tells what became of this seat's deals: who has
accepted, who declined and why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from oriente.games.oriente.rules.cards import VALUE

Words = Callable[..., str]


def cheapest_card(pile: Iterable[int]) -> int | None:
    """The card a quick deal offers by default: the cheapest worth something
    (a Ninja counts towards a Ninja victory, R9.1: never by default)."""
    worth = [c for c in pile if VALUE[c] > 0]
    return min(worth, key=lambda c: VALUE[c]) if worth else None


@dataclass(frozen=True)
class QuickOption:
    """One quick deal: what it is, whose cards it may pay with, the default
    card, the seats it may go to and those chosen by default."""

    kind: str
    giver: int
    cards: tuple[int, ...]
    card: int
    seats: tuple[int, ...]
    chosen: tuple[int, ...]
    side: str | None = None
    fighter: int | None = None


def _fight(view: dict) -> dict | None:
    f = view.get("fight")
    return f if f and isinstance(f.get("attacker"), int) and isinstance(f.get("defender"), int) else None


def _supporters(prompt: dict | None, view: dict) -> list[int]:
    """The seats of the coming support round that have not declared in public."""
    if not prompt or prompt.get("topic") not in ("negotiation", "support"):
        return []
    declared = {s for s, _ in prompt.get("published") or []}
    seats = view.get("seats") or []
    return [s for s in prompt.get("asked") or [] if s not in declared and 0 <= s < len(seats) and seats[s].get("disc")]


def quick_options(view: dict | None, prompt: dict | None, you: Any) -> list[QuickOption]:
    """What seat `you` may propose now, quickly (nothing for a spectator,
    or while the seat has as many proposals open as the table allows)."""
    if not view or not isinstance(you, int) or isinstance(you, bool) or not 0 <= you < len(view.get("seats") or []):
        return []
    if prompt and (prompt.get("deal") or {}).get("propose") is False:
        return []
    seats = view["seats"]
    mine = tuple(seats[you].get("pile") or ())
    out: list[QuickOption] = []
    fight = _fight(view)
    if fight:
        asked = _supporters(prompt, view)
        side = "attacker" if fight["attacker"] == you else "defender" if fight["defender"] == you else None
        others = tuple(s for s in asked if s != you)
        card = cheapest_card(mine)
        if side and others and card is not None:
            out.append(QuickOption("buy_support", you, mine, card, others, others[:1], side=side, fighter=you))
        if side is None and you in asked:
            for s in ("attacker", "defender"):
                fighter = fight[s]
                theirs = tuple(seats[fighter].get("pile") or ())
                card = cheapest_card(theirs)
                if card is not None:
                    out.append(QuickOption("sell_support", fighter, theirs, card, (fighter,), (fighter,), side=s,
                                           fighter=fighter))
    attackers = tuple(x["seat"] for x in seats if x["seat"] != you and x.get("disc"))
    card = cheapest_card(mine)
    if attackers and card is not None:
        first = fight["attacker"] if fight and fight["attacker"] != you and fight["attacker"] in attackers \
            else attackers[0]
        out.append(QuickOption("peace", you, mine, card, attackers, (first,)))
    return out


def _promise(**fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "Promise", "attacker": None, "defender": None, "side": None, "cards": [],
                           "by_season": None, "seat": None}
    out.update(fields)
    return out


def quick_commands(option: QuickOption, card: int, seats: Iterable[int], view: dict, you: int, words: Words,
                   name: Callable[[int], str]) -> list[dict[str, Any]]:
    """The ProposeDeal commands of one quick deal, one per seat (a card goes
    to one seat, R8.3; offered to several, the first to accept has it and
    the other offers become void, R8.6)."""
    fight = _fight(view) or {}
    out = []
    for to in seats:
        if option.kind in ("buy_support", "sell_support"):
            side = option.side
            assert side is not None
            fighter = you if option.kind == "buy_support" else option.fighter
            assert fighter is not None
            args = {"side": words(f"side.{side}"), "name": name(fighter)}
            giver, receiver, promiser, promisee = (you, to, to, you) if option.kind == "buy_support" \
                else (fighter, you, you, fighter)
            out.append({
                "type": "ProposeDeal", "note": "",
                "transfers": [{"type": "Transfer", "card": card, "giver": giver, "receiver": receiver,
                               "consideration": words("quick.for_support", **args)}],
                "promises": [_promise(promiser=promiser, promisee=promisee, kind="support", attacker=fight["attacker"],
                                      defender=fight["defender"], side=side,
                                      text=words("quick.promise_support", **args))],
                "why": {"code": option.kind, "attacker": fight["attacker"], "defender": fight["defender"],
                        "side": side},
            })
        else:
            args = {"name": name(you)}
            out.append({
                "type": "ProposeDeal", "note": "",
                "transfers": [{"type": "Transfer", "card": card, "giver": you, "receiver": to,
                               "consideration": words("quick.for_peace", **args)}],
                "promises": [_promise(promiser=to, promisee=you, kind="no_attack", seat=you,
                                      text=words("quick.promise_peace", **args))],
                "why": {"code": "peace", "seat": to},
            })
    return out


@dataclass
class DealFate:
    """One deal this seat is a party to, as its events tell it (R8.6, R8.8)."""

    deal: int
    proposer: int
    parties: list[int]
    accepted: list[int]
    season: int
    counter_to: int | None = None
    status: str = "open"  # open, executed, declined, withdrawn, void, lapsed
    by: int | None = None
    why: dict[str, Any] | None = field(default=None)


def deals_of(events: Iterable[dict], you: int) -> list[DealFate]:
    """Every deal `you` is a party to: the open ones and those closed this
    season, oldest first."""
    deals: dict[int, DealFate] = {}
    season = 0
    for e in events:
        kind = e.get("type")
        if kind == "SeasonBegan":
            season = e.get("season", season)
        elif kind == "DealProposed":
            deals[e["deal"]] = DealFate(e["deal"], e["proposer"], list(e.get("parties") or []), [e["proposer"]], season,
                                        e.get("counter_to"))
        elif e.get("deal") in deals:
            d = deals[e["deal"]]
            if kind == "DealAccepted" and e.get("seat") not in d.accepted:
                d.accepted.append(e["seat"])
            elif kind == "DealExecuted":
                d.status = "executed"
            elif kind == "DealClosed":
                d.status, d.by, d.why = e.get("reason", "closed"), e.get("seat"), e.get("why")
    return [d for d in deals.values() if you in d.parties and (d.status == "open" or d.season == season)]


__all__ = ["DealFate", "QuickOption", "cheapest_card", "deals_of", "quick_commands", "quick_options"]
