"""What the person types, read into intents; deal proposals built from a
short sentence. Pure: no I/O, so every form is unit-tested.

At the table:

    3                                   answer with choice 3 of the open decision
    /say TEXT        (or: say TEXT)     public chat (R8.4)
    /deal give CARD to SEAT for REASON  propose a deal (R8.3: every card states its reason)
    /deal ask CARD from SEAT for REASON   ... asking for a card instead
    /deal promise SEAT TEXT               ... a free-text promise of yours
                                        (join parts with ';' for one deal of several parts)
    /accept N  /decline N  /withdraw N  answer or withdraw deal #N
    /kept N  /broken N                  settle free promise #N made to you
    /auto privilege|support|revolution|off   pass every such round, whatever the cards (R10.2d)
    /back                               you are here again after being marked away (also sent for you
                                        before anything else you send while away)
    /help  /lobby  /quit
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from oriente.server.rules.cards import card_name

__all__ = [
    "AUTO_TOPICS",
    "TABLE_HELP",
    "DealError",
    "Intent",
    "build_deal",
    "parse_lobby_input",
    "parse_table_input",
    "resolve_card",
    "resolve_seat",
]

AUTO_TOPICS = ("privilege", "support", "revolution")

TABLE_HELP = (
    "NUMBER: answer the open decision with that choice | /say TEXT: chat | "
    "/deal give CARD to SEAT for REASON "
    "(also: ask CARD from SEAT for REASON; promise SEAT TEXT; join parts with ';') | "
    "/accept N, /decline N, /withdraw N: deal #N | /kept N, /broken N: settle promise #N made to you | "
    "/auto privilege|support|revolution|off: pass every such round, whatever your card | "
    "/back: you are here again after being marked away | /lobby | /quit"
)


@dataclass(frozen=True)
class Intent:
    """One typed line, understood: `verb` and its argument."""

    verb: str
    arg: Any = None


_WORDS = {"help", "lobby", "quit", "exit", "say", "deal", "accept", "decline", "withdraw", "kept", "broken", "auto",
          "back"}


def parse_table_input(line: str) -> Intent:
    """Read one line typed at the table. Unknown input becomes an 'error'
    intent whose argument is a sentence for the person."""
    text = line.strip()
    if not text:
        return Intent("none")
    if text.isdigit():
        return Intent("choose", int(text))
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    slash = word.startswith("/")
    verb = word.lstrip("/").lower()
    if not slash and verb not in _WORDS:
        return Intent("error", f"Not understood: {text!r}. Type a number to answer, /say TEXT to chat, /help for more.")
    if verb in ("quit", "exit", "q"):
        return Intent("quit")
    if verb in ("help", "h", "?"):
        return Intent("help")
    if verb in ("lobby", "leave"):
        return Intent("lobby")
    if verb == "back":
        return Intent("back")
    if verb == "say":
        return Intent("say", rest) if rest else Intent("error", "Say what? /say TEXT")
    if verb == "deal":
        return Intent("deal", rest) if rest else Intent("error", "Usage: /deal give CARD to SEAT for REASON")
    if verb in ("accept", "decline", "withdraw", "kept", "broken"):
        number = rest.lstrip("#")
        if not number.isdigit():
            what = "promise" if verb in ("kept", "broken") else "deal"
            return Intent("error", f"Usage: /{verb} N (the number of the {what})")
        return Intent(verb, int(number))
    if verb == "auto":
        what = rest.lower() or "status"
        if what in ("off", "none", "status"):
            return Intent("auto", what)
        if what == "all":
            return Intent("auto", "all")
        if what in AUTO_TOPICS:
            return Intent("auto", what)
        return Intent("error", "Usage: /auto privilege | support | revolution | all | off")
    return Intent("error", f"Unknown command /{verb}. /help lists them.")


def parse_lobby_input(line: str) -> Intent:
    """Read one line typed in the lobby."""
    text = line.strip()
    if not text:
        return Intent("none")
    parts = text.split()
    verb = parts[0].lstrip("/").lower()
    args = parts[1:]
    if verb.isdigit() and not args:
        return Intent("join", (verb, None))
    if verb in ("q", "quit", "exit"):
        return Intent("quit")
    if verb in ("r", "refresh", "list", "ls", "l"):
        return Intent("refresh")
    if verb in ("h", "help", "?"):
        return Intent("help")
    if verb in ("j", "join", "sit"):
        if not args or len(args) > 2 or (len(args) == 2 and not args[1].isdigit()):
            return Intent("error", "Usage: join N [SEAT]")
        return Intent("join", (args[0], int(args[1]) if len(args) == 2 else None))
    if verb in ("w", "watch", "spectate"):
        if len(args) != 1:
            return Intent("error", "Usage: watch N")
        return Intent("watch", args[0])
    if verb in ("c", "create", "new"):
        if not args or not args[0].isdigit():
            return Intent("error", "Usage: create SEATS [people|quick] [NAME]  (SEATS: 4 to 12)")
        seats = int(args[0])
        preset = "people"
        rest = args[1:]
        if rest and rest[0].lower() in ("people", "quick"):
            preset = rest[0].lower()
            rest = rest[1:]
        return Intent("create", (seats, preset, " ".join(rest)))
    if verb in ("n", "name"):
        new = " ".join(args).strip()
        if not new or len(new) > 32:
            return Intent("error", "Usage: name NEW-NAME (1 to 32 characters)")
        return Intent("name", new)
    return Intent("error", f"Not understood: {text!r}. Try: join 1, watch 1, create 4 people, refresh, quit.")


# -- deals --------------------------------------------------------------------------

class DealError(ValueError):
    """A deal sentence that cannot be turned into a proposal; the message says why."""


def resolve_seat(text: str, seats: int, names: dict[int, str] | None = None) -> int:
    """'3', 'seat 3', or a player's name (or the unique start of one)."""
    t = text.strip().lower()
    if t.startswith("seat"):
        t = t[4:].strip()
    if t.isdigit():
        seat = int(t)
        if 0 <= seat < seats:
            return seat
        raise DealError(f"There is no seat {seat}; seats are 0 to {seats - 1}.")
    names = names or {}
    exact = [s for s, n in names.items() if n.lower() == t]
    if len(exact) == 1:
        return exact[0]
    starts = [s for s, n in names.items() if n.lower().startswith(t)]
    if len(starts) == 1:
        return starts[0]
    raise DealError(f"Which seat is {text!r}? Give its number.")


def resolve_card(text: str, pile: list[int]) -> int:
    """A card of `pile` by name ('Treasure 3', 'treasure', 'nofu') or id ('#41')."""
    t = " ".join(text.strip().lower().split())
    if t.startswith("#") and t[1:].isdigit():
        card = int(t[1:])
        if card in pile:
            return card
        raise DealError(f"Card #{card} is not in that score pile.")
    for c in pile:
        if card_name(c).lower() == t:
            return c
    for c in pile:
        if card_name(c).lower().startswith(t):
            return c
    have = ", ".join(card_name(c) for c in pile) or "nothing"
    raise DealError(f"No {text!r} in that score pile (it holds: {have}).")


_GIVE = re.compile(r"^give\s+(?P<card>.+?)\s+to\s+(?P<seat>.+?)\s+for\s+(?P<why>.+)$", re.I)
_ASK = re.compile(r"^(?:ask|ask for|take|get)\s+(?P<card>.+?)\s+from\s+(?P<seat>.+?)\s+for\s+(?P<why>.+)$", re.I)
_PROMISE = re.compile(r"^promise\s+(?:to\s+)?(?P<seat>(?:seat\s+)?\S+)\s*:?\s+(?P<text>.+)$", re.I)


def build_deal(spec: str, view: dict, you: int, names: dict[int, str] | None = None) -> dict:
    """A ProposeDeal command from a sentence such as
    'give Treasure 3 to seat 2 for your support'. Parts joined by ';' make
    one deal. The server checks the rest (R8.3, R8.6)."""
    seats = view.get("seats") or []
    n = len(seats)
    transfers: list[dict] = []
    promises: list[dict] = []
    for part in [p.strip() for p in spec.split(";") if p.strip()]:
        if m := _GIVE.match(part):
            other = resolve_seat(m["seat"], n, names)
            card = resolve_card(m["card"], list(seats[you].get("pile") or []))
            transfers.append({"type": "Transfer", "card": card, "giver": you, "receiver": other,
                              "consideration": m["why"].strip()})
        elif m := _ASK.match(part):
            other = resolve_seat(m["seat"], n, names)
            card = resolve_card(m["card"], list(seats[other].get("pile") or []))
            transfers.append({"type": "Transfer", "card": card, "giver": other, "receiver": you,
                              "consideration": m["why"].strip()})
        elif m := _PROMISE.match(part):
            other = resolve_seat(m["seat"], n, names)
            promises.append({"type": "Promise", "promiser": you, "promisee": other, "text": m["text"].strip(),
                             "kind": "free"})
        else:
            raise DealError(f"Not understood: {part!r}. Try: give CARD to SEAT for REASON; "
                            "ask CARD from SEAT for REASON; promise SEAT TEXT")
    if not transfers and not promises:
        raise DealError("An empty deal. Try: /deal give CARD to SEAT for REASON")
    for t in transfers:
        if t["giver"] == t["receiver"]:
            raise DealError("A card cannot go from a seat to itself.")
    for p in promises:
        if p["promisee"] == you:
            raise DealError("A promise to yourself is not a deal.")
    return {"type": "ProposeDeal", "transfers": transfers, "promises": promises, "note": ""}
