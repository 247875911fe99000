"""What the person types, read into intents; deal proposals built from a
short sentence. Pure: no I/O, so every form is unit-tested.

At the table:

    3                                   answer with choice 3 of the open decision
    /say TEXT        (or: say TEXT)     public chat (R8.4)
    /deal PART; PART ...                propose one deal of these parts (DEAL_HELP lists them):
                                        cards given either way (R8.3: each with its reason), and
                                        promises of support, no attack, payment or in words,
                                        made by you or asked of others (R8.6)
    /offer N [to SEAT[, SEAT]] [card CARD]   propose quick deal N as listed during a fight, pre-filled
                                        from it (to the listed seat with the listed card unless told)
    /accept N  /decline N [REASON]  /withdraw N   answer or withdraw deal #N; a decline may say why (R8.8):
                                        worth_less, record, cannot_keep, words_only or too_late
    /counter N [PARTS]                  a counter-offer to deal #N (R8.8): without PARTS, the offer's own
                                        terms are put on the input line to change
    /kept N  /broken N                  settle free promise #N made to you
    /done                               a fighter is done bargaining in this window (R10.2b1)
    /deals /ledger /piles /cards        open deals, the promise ledger, score piles, the cards
    /auto privilege|support|revolution|off   pass every such round, whatever the cards (R10.2d)
    /back                               you are here again after being marked away (also sent for you
                                        before anything else you send while away)
    /save [PATH]                        the finished game's record
    /bots [COUNT] [KIND]                before the start: the server's bots take the free seats
                                        (KIND: shrewd, honest, ruthless, heuristic, random; /bots ?
                                        says what each is)
    /help  /lobby  /quit
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from oriente.games.oriente.rules.cards import card_name
from oriente.protocol.presets import ALIASES, DEFAULT_PRESET, TIMER_PRESETS, TURN_PRESETS

__all__ = [
    "AUTO_TOPICS",
    "DEAL_HELP",
    "DECLINE_REASONS",
    "ORIENTE_ONLY",
    "TABLE_HELP",
    "DealError",
    "Intent",
    "build_deal",
    "deal_sentence",
    "parse_game_input",
    "parse_lobby_input",
    "parse_table_input",
    "resolve_card",
    "resolve_seat",
]

AUTO_TOPICS = ("privilege", "support", "revolution")
# Oriente's own words at the table: the other games have no deals, piles or auto-pass.
ORIENTE_ONLY = frozenset({"deal", "accept", "decline", "withdraw", "kept", "broken", "done", "deals", "ledger",
                          "piles", "cards", "auto", "offer", "counter"})
# The reasons a person may give for declining (R8.8).
DECLINE_REASONS = ("worth_less", "record", "cannot_keep", "words_only", "too_late")

TABLE_HELP = (
    "NUMBER: answer the open decision | /say TEXT: chat | /deal PARTS: propose a deal (/deal alone: the forms) | "
    "/offer N [to SEATS] [card CARD]: quick deal N of the fight, pre-filled | "
    "/accept N, /decline N [REASON], /withdraw N: deal #N | /counter N [PARTS]: a counter-offer | "
    "/kept N, /broken N: settle promise #N made to you | "
    "/done: a fighter is done bargaining (R10.2b1) | /deals, /ledger, /piles, /cards: tell them in the story | "
    "/auto privilege|support|revolution|off: pass every such round, whatever your card | "
    "/save [PATH]: the game's record, once it is over | /bots [N] [KIND]: bots fill the free seats (? says who) | "
    "/back: you are here again after being marked away | /bell on|off: ring when a decision awaits you | "
    "PgUp/PgDn: the story so far | /lobby | /quit"
)


@dataclass(frozen=True)
class Intent:
    """One typed line, understood: `verb` and its argument."""

    verb: str
    arg: Any = None


_WORDS = {"help", "lobby", "quit", "exit", "say", "deal", "accept", "decline", "withdraw", "kept", "broken", "auto",
          "done", "deals", "ledger", "piles", "cards", "save", "back", "bots", "offer", "counter", "bell"}
_OFFER = re.compile(r"^#?(?P<n>\d+)(?:\s+to\s+(?P<to>.+?))?(?:\s+card\s+(?P<card>.+))?$", re.I)


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
        return Intent("deal", rest) if rest else Intent("error", DEAL_HELP)
    if verb in ("done", "deals", "ledger", "piles", "cards"):
        return Intent(verb)
    if verb == "save":
        return Intent("save", rest)
    if verb == "bots":
        words = rest.split()
        if words == ["?"]:
            return Intent("bots", "?")
        count = int(words.pop(0)) if words and words[0].isdigit() else None
        if len(words) > 1 or (words and not words[0].isidentifier()):
            return Intent("error", "Usage: /bots [COUNT] [KIND]: the server's bots of KIND (its default: none "
                                   "given) take the free seats (all, or COUNT); /bots ? lists the kinds")
        return Intent("bots", (count, words[0]) if words else count)
    if verb == "offer":
        m = _OFFER.match(rest)
        if m is None:
            return Intent("error", "Usage: /offer N [to SEAT, SEAT] [card CARD]: quick deal N of those listed")
        return Intent("offer", (int(m["n"]), m["to"], m["card"]))
    if verb == "counter":
        number, _, parts = rest.partition(" ")
        if not number.lstrip("#").isdigit():
            return Intent("error", "Usage: /counter N [PARTS]: a counter-offer to deal #N (without PARTS, its terms "
                                   "are put on the input line to change)")
        return Intent("counter", (int(number.lstrip("#")), parts.strip()))
    if verb == "decline" and " " in rest:
        number, _, why = rest.partition(" ")
        why = why.strip().lower().replace(" ", "_")
        if not number.lstrip("#").isdigit() or why not in DECLINE_REASONS:
            return Intent("error", f"Usage: /decline N [REASON]; a reason is one of {', '.join(DECLINE_REASONS)}")
        return Intent("decline", (int(number.lstrip("#")), why))
    if verb in ("accept", "decline", "withdraw", "kept", "broken"):
        number = rest.lstrip("#")
        if not number.isdigit():
            what = "promise" if verb in ("kept", "broken") else "deal"
            return Intent("error", f"Usage: /{verb} N (the number of the {what})")
        return Intent(verb, int(number))
    if verb == "bell":
        return parse_bell(rest)
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


def parse_bell(arg: str) -> Intent:
    """`bell [on|off]`: whether the terminal rings when a decision awaits
    one of your seats (the page's "Sound" and "Notify me"); alone, says
    which."""
    what = arg.strip().lower() or "status"
    if what in ("on", "off", "status"):
        return Intent("bell", what)
    return Intent("error", "Usage: bell on | off")


def parse_email(arg: str) -> Intent:
    """`email [ADDRESS | off]`: the account's address for the turn-based
    tables' mails (PROTOCOL.md 3, set_email); alone, says how it stands."""
    what = arg.strip()
    if not what:
        return Intent("email", None)
    if what.lower() in ("off", "none", "remove", "-"):
        return Intent("email", "")
    if " " in what or "@" not in what or len(what) > 254:
        return Intent("error", "Usage: email ADDRESS (to be mailed when a turn-based table awaits you) | email off")
    return Intent("email", what)


def parse_game_input(line: str, tells: Iterable[str], choosing: bool) -> Intent | None:
    """What is typed at a table a game's own screen draws, before the common words
    (`parse_table_input`): the game's /words that tell something
    (`/board`, `/map`), `/moves [WORDS]`, several numbers at a `choose`
    prompt (five tiles of a hand, say), and words that find a move
    (`build aloa bafi`). None: read it as at any table."""
    text = line.strip()
    word, _, rest = text.partition(" ")
    verb = word.lstrip("/").lower()
    if verb in tells:
        return Intent("tell", verb)
    if verb in ("moves", "m"):
        return Intent("moves", rest.strip())
    numbers = text.replace(",", " ").split()
    if choosing and numbers and all(n.isdigit() for n in numbers):
        return Intent("pick", [int(n) for n in numbers])
    if text and not word.startswith("/") and not text.isdigit() and verb not in _WORDS:
        return Intent("match", text)
    return None


def parse_lobby_input(line: str, games: Sequence[str] = ()) -> Intent:
    """Read one line typed in the lobby. `games`: the games the server plays
    (`create GAME SEATS`); a table created without one plays the game a
    table that names none plays (the server's default)."""
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
    if verb in ("m", "mine", "my"):
        return Intent("mine")
    if verb in ("email", "mail", "e-mail"):
        return parse_email(" ".join(args))
    if verb == "bell":
        return parse_bell(" ".join(args))
    if verb in ("j", "join", "sit"):
        if not args or len(args) > 2 or (len(args) == 2 and not args[1].isdigit()):
            return Intent("error", "Usage: join N [SEAT]")
        return Intent("join", (args[0], int(args[1]) if len(args) == 2 else None))
    if verb in ("w", "watch", "spectate"):
        if len(args) != 1:
            return Intent("error", "Usage: watch N")
        return Intent("watch", args[0])
    if verb in ("c", "create", "new"):
        game: str | None = None
        if args and args[0].lower() in games:
            game, args = args[0].lower(), args[1:]
        if not args or not args[0].isdigit():
            which = " or ".join(games) or "the server's own"
            return Intent("error", f"Usage: create [GAME] SEATS [{'|'.join([*TIMER_PRESETS, *TURN_PRESETS])}] [NAME]  "
                                   f"(GAME: {which}; help lists their seats)")
        seats = int(args[0])
        preset = DEFAULT_PRESET
        rest = args[1:]
        words = (*TIMER_PRESETS, *TURN_PRESETS, *ALIASES)
        if rest and rest[0].lower() in words:
            preset = rest[0].lower()
            rest = rest[1:]
        elif rest:  # a name must follow the timers, so that a mistyped timer word is not taken for a name
            prefix = "" if game is None else f"{game} "
            return Intent("error", f"Timers are {', '.join(repr(w) for w in [*TIMER_PRESETS, *TURN_PRESETS])}, "
                                   f"not {rest[0]!r}. "
                                   f"To name the table: create {prefix}{seats} {DEFAULT_PRESET} {' '.join(rest)}")
        return Intent("create", (seats, preset, " ".join(rest), game))
    if verb in ("b", "bots"):
        return Intent("error", "Bots fill the free seats of your own table: create or join one, then type /bots.")
    if verb in ("n", "name"):
        new = " ".join(args).strip()
        if not new or len(new) > 32:
            return Intent("error", "Usage: name NEW-NAME (1 to 32 characters)")
        return Intent("name", new)
    return Intent("error", f"Not understood: {text!r}. Try: join 1, watch 1, create 4 normal, refresh, quit.")


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


_ASK = re.compile(r"^(?:ask|ask for|take|get)\s+(?P<card>.+?)\s+from\s+(?P<seat>.+?)\s+for\s+(?P<why>.+)$", re.I)
_VERBS = r"(?P<verb>gives?|supports?|spares?|pays?|promises?)\s+(?P<rest>.+)$"
_VERB_FIRST = re.compile(r"^" + _VERBS, re.I)  # "give ...": the subject is you
_PART = re.compile(r"^(?P<who>.+?)\s+" + _VERBS, re.I)  # "seat 2 supports ..."
_GIVE = re.compile(r"^(?P<card>.+?)\s+to\s+(?P<seat>.+?)\s+for\s+(?P<why>.+)$", re.I)
_SUPPORT = re.compile(r"^(?:the\s+)?(?P<side>attacker|defender)(?:\s+for\s+(?P<seat>.+))?$", re.I)
_PAY = re.compile(r"^(?P<seat>.+?)\s+(?P<cards>.+?)\s+by\s+(?:the\s+end\s+of\s+)?season\s+(?P<season>\d+)$", re.I)
_PROMISE = re.compile(r"^(?:to\s+)?(?P<seat>(?:seat\s+)?\S+)\s*:?\s+(?P<text>.+)$", re.I)
_ME = ("i", "me", "myself", "you")

DEAL_HELP = (
    "/deal PART; PART; ... (one deal; the server carries out the cards once every party accepts, R8.6). PARTS: "
    "give CARD to SEAT for REASON | ask CARD from SEAT for REASON | support attacker|defender [for SEAT] | "
    "SEAT supports attacker|defender | spare SEAT (no attack this season) | SEAT spares me | "
    "pay SEAT CARD[, CARD] by season N | SEAT pays me CARD by season N | promise SEAT TEXT | note TEXT. "
    "SEAT: a number, 'seat 3' or a name."
)


def _who(text: str | None, you: int, seats: int, names: dict[int, str] | None) -> int:
    if text is None or text.strip().lower() in _ME:
        return you
    return resolve_seat(text, seats, names)


def _promise(promiser: int, promisee: int, kind: str, text: str, **fields: Any) -> dict:
    """A promise map in the canonical form of PROTOCOL.md 7 (every field present)."""
    out = {"type": "Promise", "promiser": promiser, "promisee": promisee, "text": text, "kind": kind,
           "attacker": None, "defender": None, "side": None, "cards": [], "by_season": None, "seat": None}
    out.update(fields)
    return out


def _part(part: str, view: dict, you: int, names: dict[int, str] | None) -> tuple[str, dict]:
    """One part of a deal sentence: ('transfer' | 'promise' | 'note', map)."""
    seats = view.get("seats") or []
    n = len(seats)

    def pile(seat: int) -> list[int]:
        return list(seats[seat].get("pile") or [])

    if part.lower().startswith("note "):
        return "note", {"text": part[5:].strip()}
    if m := _ASK.match(part):
        other = resolve_seat(m["seat"], n, names)
        card = resolve_card(m["card"], pile(other))
        return "transfer", {"type": "Transfer", "card": card, "giver": other, "receiver": you,
                            "consideration": m["why"].strip()}
    m = _VERB_FIRST.match(part) or _PART.match(part)
    if m is None:
        raise DealError(f"Not understood: {part!r}. /deal alone lists the forms a part takes.")
    who = _who(m.groupdict().get("who"), you, n, names)
    verb, rest = m["verb"].lower().rstrip("s"), m["rest"].strip()
    if verb == "give":
        g = _GIVE.match(rest)
        if g is None:
            raise DealError(f"Not understood: {part!r}. Try: give CARD to SEAT for REASON")
        return "transfer", {"type": "Transfer", "card": resolve_card(g["card"], pile(who)), "giver": who,
                            "receiver": _who(g["seat"], you, n, names), "consideration": g["why"].strip()}
    if verb == "support":
        g = _SUPPORT.match(rest)
        fight = view.get("fight")
        if g is None:
            raise DealError(f"Not understood: {part!r}. Try: support attacker [for SEAT], or: SEAT supports defender")
        if not fight:
            raise DealError("A support promise is about the fight under way, and there is none now (R8.6).")
        side = g["side"].lower()
        fighter = fight["attacker"] if side == "attacker" else fight["defender"]
        promisee = _who(g["seat"], you, n, names) if g["seat"] else (fighter if who == you else you)
        return "promise", _promise(who, promisee, "support",
                                   f"I will support the {side}, seat {fighter}, in the fight of seat "
                                   f"{fight['attacker']} against seat {fight['defender']}",
                                   attacker=fight["attacker"], defender=fight["defender"], side=side)
    if verb == "spare":
        target = _who(rest, you, n, names)
        return "promise", _promise(who, target, "no_attack", f"I will not attack seat {target} this season",
                                   seat=target)
    if verb == "pay":
        g = _PAY.match(rest)
        if g is None:
            raise DealError(f"Not understood: {part!r}. Try: pay SEAT CARD, CARD by season N")
        to = _who(g["seat"], you, n, names)
        cards = [resolve_card(c, pile(who)) for c in re.split(r"\s*(?:,|\band\b)\s*", g["cards"]) if c.strip()]
        return "promise", _promise(who, to, "pay", f"I will pay you {', '.join(card_name(c) for c in cards)} "
                                   f"by the end of season {g['season']}", cards=cards, by_season=int(g["season"]))
    g = _PROMISE.match(rest)  # promise SEAT TEXT
    if g is None:
        raise DealError(f"Not understood: {part!r}. Try: promise SEAT TEXT")
    return "promise", _promise(who, _who(g["seat"], you, n, names), "free", g["text"].strip())


def build_deal(spec: str, view: dict, you: int, names: dict[int, str] | None = None) -> dict:
    """A ProposeDeal command from a sentence such as 'give Treasure 3 to
    seat 2 for your support; 2 supports defender'. Parts joined by ';'
    make one deal, with any number of parties (DEAL_HELP lists the forms).
    The server checks the rest (R8.3, R8.6)."""
    transfers: list[dict] = []
    promises: list[dict] = []
    note = ""
    for part in [p.strip() for p in spec.split(";") if p.strip()]:
        kind, item = _part(part, view, you, names)
        if kind == "note":
            note = item["text"]
        else:
            (transfers if kind == "transfer" else promises).append(item)
    if not transfers and not promises:
        raise DealError("An empty deal. " + DEAL_HELP)
    for t in transfers:
        if t["giver"] == t["receiver"]:
            raise DealError("A card cannot go from a seat to itself.")
    for p in promises:
        if p["promisee"] == p["promiser"]:
            raise DealError("A promise to oneself is not a deal.")
    parties = {t["giver"] for t in transfers} | {t["receiver"] for t in transfers} | {
        p["promiser"] for p in promises} | {p["promisee"] for p in promises}
    if you not in parties:
        raise DealError("You may only propose a deal you are a party to (ruling D3).")
    return {"type": "ProposeDeal", "transfers": transfers, "promises": promises, "note": note}


def _ref(seat: int, you: int) -> str:
    return "me" if seat == you else f"seat {seat}"


def _said(text: str) -> str:
    """Free text as a part of a deal sentence: parts are split at ';'."""
    return " ".join(str(text).replace(";", ",").split()) or "-"


def deal_sentence(deal: dict, you: int) -> str:
    """A deal's terms as the parts of a /deal sentence that `build_deal`
    reads back (a counter-offer starts from the offer's own terms)."""
    parts: list[str] = []
    for t in deal.get("transfers") or []:
        card, why = card_name(t["card"]), _said(t.get("consideration", ""))
        if t["giver"] == you:
            parts.append(f"give {card} to {_ref(t['receiver'], you)} for {why}")
        elif t["receiver"] == you:
            parts.append(f"ask {card} from {_ref(t['giver'], you)} for {why}")
        else:
            parts.append(f"{_ref(t['giver'], you)} gives {card} to {_ref(t['receiver'], you)} for {why}")
    for p in deal.get("promises") or []:
        who, to, kind = p["promiser"], p["promisee"], p.get("kind", "free")
        subject = "" if who == you else f"{_ref(who, you)} "
        if kind == "support":
            verb = "support" if who == you else "supports"
            fighter = p["attacker"] if p["side"] == "attacker" else p["defender"]
            aim = "" if to == (fighter if who == you else you) else f" for {_ref(to, you)}"
            parts.append(f"{subject}{verb} {p['side']}{aim}")
        elif kind == "no_attack":
            parts.append(f"{subject}{'spare' if who == you else 'spares'} {_ref(p['seat'], you)}")
        elif kind == "pay":
            cards = ", ".join(card_name(c) for c in p.get("cards") or [])
            verb = "pay" if who == you else "pays"
            parts.append(f"{subject}{verb} {_ref(to, you)} {cards} by season {p['by_season']}")
        else:
            verb = "promise" if who == you else "promises"
            parts.append(f"{subject}{verb} {_ref(to, you)} {_said(p.get('text', ''))}")
    if deal.get("note"):
        parts.append(f"note {_said(deal['note'])}")
    return "; ".join(parts)
