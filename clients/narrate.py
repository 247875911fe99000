"""Projected events in plain English, for terminals, logs and replays.

The input is what a client receives: the plain dict `views.project(event,
viewer)` makes, where "type" is the event's class name and a card the viewer
may not see is None. Nothing here reads the game state, so a narration can
only say what the projection already told this viewer; hiding stays the
engine's job (R10.4), and a client far from the engine narrates the same.

Seats are numbered as the engine numbers them (0..n-1, R1.4), so that what
is read here matches commands, records and `--as SEAT`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from oriente.server.rules.cards import card_name

Viewer = int | str | None

__all__ = ["action_phrase", "describe_result", "narrate"]


# -- small words ------------------------------------------------------------------

def _seat(s: Any) -> str:
    return f"seat {s}"


def _Seat(s: Any) -> str:
    return f"Seat {s}"


def _is_you(seat: Any, viewer: Viewer) -> bool:
    return isinstance(viewer, int) and not isinstance(viewer, bool) and seat == viewer


def _name(card: int | None) -> str:
    return "a hidden card" if card is None else card_name(card)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _a(card: int | None) -> str:
    """'a Samurai', 'an Akindo', 'Treasure 3'."""
    if card is None:
        return "a hidden card"
    name = card_name(card)
    if name.startswith("Treasure"):
        return name
    return ("an " if name[0] in "AEIOU" else "a ") + name


def _list(items: Iterable[str]) -> str:
    items = list(items)
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _seats(seats: Iterable[Any]) -> str:
    seats = list(seats)
    if not seats:
        return "no seat"
    word = "seat" if len(seats) == 1 else "seats"
    return f"{word} {_list(str(s) for s in seats)}"


def _cards(cards: Iterable[int | None]) -> str:
    return _list(_name(c) for c in cards)


def _some(cards: Iterable[int | None]) -> str:
    """'a Nofu and an Akindo'."""
    return _list(_a(c) for c in cards)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _secret(card: int | None, seat: Any, viewer: Viewer) -> str:
    """A card only some viewers see: '(hidden)', '(you: Nofu)' or '(Nofu)'."""
    if card is None:
        return "(hidden)"
    if _is_you(seat, viewer):
        return f"(you: {card_name(card)})"
    return f"({card_name(card)})"


# -- actions (R5) ----------------------------------------------------------------

_ACTION_NOUNS: dict[str, Callable[[Any], str]] = {
    "attack": lambda t: f"an attack on {_seat(t)}",
    "blessing": lambda t: "a blessing",
    "transformation": lambda t: "a transformation",
    "income": lambda t: "income",
    "succession": lambda t: f"succession, taking {_seat(t)}'s Shogun",
    "credit": lambda t: f"credit against {_seat(t)}",
    "trade": lambda t: f"a trade with {_seat(t)}",
    "incite": lambda t: "incitement",
    "revolution": lambda t: "a revolution",
    "assassination": lambda t: f"the assassination of {_seat(t)}'s inhabitant",
}

_CLAIM_NOUNS: dict[str, Callable[[Any], str]] = {
    "attack": lambda t: f"attack on {_seat(t)}",
    "blessing": lambda t: "blessing",
    "transformation": lambda t: "transformation",
    "income": lambda t: "income",
    "succession": lambda t: f"succession, taking {_seat(t)}'s Shogun",
    "credit": lambda t: f"credit against {_seat(t)}",
    "trade": lambda t: f"trade with {_seat(t)}",
    "incite": lambda t: "incite",
    "revolution": lambda t: "revolution",
    "assassination": lambda t: f"assassination of {_seat(t)}'s inhabitant",
}


def action_phrase(action: dict | None, *, bare: bool = False) -> str:
    """An announced action as words: 'an attack on seat 4' (or, bare,
    'attack on seat 4', as after 'with a Daimyo:')."""
    if not action:
        return "no action"
    kind = action.get("kind")
    target = action.get("target")
    table = _CLAIM_NOUNS if bare else _ACTION_NOUNS
    fn = table.get(kind)  # type: ignore[arg-type]
    if fn is None:
        return f"{kind}" + (f" against {_seat(target)}" if target is not None else "")
    return fn(target)


# -- one function per event type ------------------------------------------------

def _game_started(e: dict, viewer: Viewer) -> str:
    n = e["seats"]
    lines = [f"A game for {n} seats begins; {_seat(e['stone_holder'])} holds the destiny stone."]
    treasures = e.get("treasures") or []
    if treasures:
        lines.append("Treasures: " + ", ".join(f"{_seat(s)} {card_name(t)}" for s, t in enumerate(treasures)) + ".")
    inhabitants = e.get("inhabitants") or []
    shown = [(s, c) for s, c in enumerate(inhabitants) if c is not None]
    text = "Every seat takes a face-down inhabitant"
    if len(shown) == len(inhabitants) and shown:
        text += ": " + ", ".join(f"{_seat(s)} {card_name(c)}" for s, c in shown)
    elif shown:
        text += " " + "; ".join(_secret(c, s, viewer) for s, c in shown)
    else:
        text += " (hidden)"
    bonus = e.get("bonus_card")
    text += (f". The bonus card lies face down {_secret(bonus, None, viewer)}; "
             f"{e['deck_size']} cards remain in the deck.")
    lines.append(text)
    lines.append("With 8 or more seats the hut is used." if e.get("hut_used") else "The hut is not used.")
    return "\n".join(lines)


def _season_began(e: dict, viewer: Viewer) -> str:
    size = e.get("bonus_size", 0)
    return (f"Season {e['season']} begins; {_seat(e['stone_holder'])} holds the destiny stone "
            f"(bonus pile: {_count(size, 'card')}).")


def _passed(e: dict, viewer: Viewer) -> str:
    return f"{_Seat(e['seat'])} passes."


def _announced(e: dict, viewer: Viewer) -> str:
    card = e.get("card")
    who = _Seat(e["seat"])
    if e.get("claim"):
        return (f"{who} claims privilege over {_seat(e.get('over'))} with {_a(card)}: "
                f"{action_phrase(e.get('action'), bare=True)}.")
    reveal = f" (revealing {_a(card)})" if card is not None else ""
    return f"{who} announces {action_phrase(e.get('action'))}{reveal}."


def _privilege_round_opened(e: dict, viewer: Viewer) -> str:
    asked = e.get("asked") or []
    return (f"Privilege round: {_seats(asked)} may claim over {_seat(e['announcer'])} "
            f"(rank to beat: {e['rank']}).")


def _privilege_passed(e: dict, viewer: Viewer) -> str:
    text = f"{_Seat(e['seat'])} does not claim privilege."
    if e.get("voided_claim"):
        text += " (Its equal-rank claim did not count: it did not hold fewer score cards.)"
    return text


def _fulfilled(e: dict, viewer: Viewer) -> str:
    text = f"{_Seat(e['seat'])} fulfils {action_phrase(e.get('action'))}"
    aside = e.get("bonus_set_aside", 0)
    if aside:
        text += f"; {_count(aside, 'bonus card')} {'is' if aside == 1 else 'are'} set aside for it"
    return text + "."


def _bonus_awarded(e: dict, viewer: Viewer) -> str:
    cards = e.get("cards") or []
    who = _Seat(e["seat"])
    if e.get("blessing"):
        if not cards:
            return f"{who}'s blessing finds no bonus left this season."
        return f"{who}'s blessing takes the bonus pile: {_cards(cards)}."
    return f"{who} takes the bonus: {_cards(cards)}."


def _income_drawn(e: dict, viewer: Viewer) -> str:
    return f"{_Seat(e['seat'])} draws {_a(e.get('card'))} as income onto its score pile."


def _succession_done(e: dict, viewer: Viewer) -> str:
    who, target = _Seat(e["seat"]), _seat(e["target"])
    if not e.get("done"):
        return f"{who}'s succession does nothing: {target} no longer has the Shogun."
    if e.get("from_pile"):
        return (f"{who}'s Daimyo takes the Shogun's place in {target}'s score pile; "
                f"the Shogun is now {who.lower()}'s inhabitant.")
    return f"{who}'s Daimyo and {target}'s Shogun swap places; the Shogun is now {who.lower()}'s inhabitant."


def _credit_taken(e: dict, viewer: Viewer) -> str:
    cards = e.get("cards") or []
    who, target = _Seat(e["seat"]), _seat(e["target"])
    if not cards:
        return f"{who} takes credit from {target}, but there is no Nofu in its score pile."
    return f"{who} takes credit: {len(cards)} Nofu from {target}'s score pile."


def _trade_done(e: dict, viewer: Viewer) -> str:
    who, target = _Seat(e["seat"]), _seat(e["target"])
    given, drawn = e.get("given"), e.get("drawn")
    give = f"gives {_name(given)} to {target}" if given is not None else f"has nothing to give {target}"
    draw = f"draws {_name(drawn)} from its score pile" if drawn is not None else "draws nothing"
    return f"{who} trades: {give} and {draw}."


def _incited(e: dict, viewer: Viewer) -> str:
    where = {"hut": "a worker goes into the hut", "square": "a worker moves onto the square"}.get(
        e.get("moved_to"), "no worker can move")  # type: ignore[arg-type]
    return (f"{_Seat(e['seat'])} incites: {where} "
            f"(supply {e.get('supply')}, hut {e.get('hut')}, square {e.get('square')}).")


def _assassinated(e: dict, viewer: Viewer) -> str:
    return (f"{_Seat(e['seat'])}'s Ninja assassinates {_seat(e['target'])}'s {_name(e.get('card'))}, "
            f"which goes onto {_seat(e['seat'])}'s score pile.")


def _inhabitant_drawn(e: dict, viewer: Viewer) -> str:
    return f"{_Seat(e['seat'])} draws a new inhabitant {_secret(e.get('card'), e['seat'], viewer)}."


def _transformation_began(e: dict, viewer: Viewer) -> str:
    who = _Seat(e["seat"])
    taken = e.get("taken") or []
    text = (f"{who}'s Maho-Tsukai goes to the bottom of the deck, and {who.lower()} takes every other "
            f"seat's inhabitant")
    seen = [(s, c) for s, c in taken if c is not None]
    if seen:
        mine = "you see" if _is_you(e["seat"], viewer) else "it sees"
        text += f" ({mine}: " + ", ".join(f"{_seat(s)} {card_name(c)}" for s, c in seen) + ")"
    return text + "."


def _transformation_done(e: dict, viewer: Viewer) -> str:
    who = _Seat(e["seat"])
    kept = e.get("kept")
    text = f"{who} keeps one of them face down"
    if kept is not None:
        text += f" {_secret(kept, e['seat'], viewer)}"
    drawn = e.get("drawn")
    text += ", draws a card unseen" + (f" ({card_name(drawn)})" if drawn is not None else "")
    text += ", shuffles and deals one face down to every other seat"
    dealt = [(s, c) for s, c in (e.get("dealt") or []) if c is not None]
    if dealt and all(not _is_you(s, viewer) for s, _ in dealt):
        text += ": " + ", ".join(f"{_seat(s)} {card_name(c)}" for s, c in dealt)
    elif dealt:
        text += " " + " ".join(_secret(c, s, viewer) for s, c in dealt)
    return text + "."


def _fight_began(e: dict, viewer: Viewer) -> str:
    card = e.get("defender_card")
    reveal = f"reveals {_a(card)}" if card is not None else "reveals its inhabitant"
    asked = e.get("asked") or []
    tail = (f"{_cap(_seats(asked))} may support a side after the negotiation." if asked
            else "Nobody can support; the fight is decided at once.")
    return f"{_Seat(e['defender'])} {reveal} to defend against {_seat(e['attacker'])}. {tail}"


def _negotiation_done(e: dict, viewer: Viewer) -> str:
    return f"{_Seat(e['seat'])} is done bargaining in this fight."


def _negotiation_closed(e: dict, viewer: Viewer) -> str:
    return "The negotiation closes; the support round begins."


def _support_declared(e: dict, viewer: Viewer) -> str:
    side = e.get("side")
    if side is None:
        return f"{_Seat(e['seat'])} supports neither side."
    return f"{_Seat(e['seat'])} supports the {side}."


def _supporters_revealed(e: dict, viewer: Viewer) -> str:
    return "Supporters reveal: " + ", ".join(
        f"{_seat(s)} {_name(c)} for the {side}" for s, c, side in e.get("supporters") or []) + "."


def _reinforcement_turned(e: dict, viewer: Viewer) -> str:
    return f"Reinforcement: {_seat(e['seat'])}'s Samurai turns up {_a(e.get('card'))}."


def _fight_resolved(e: dict, viewer: Viewer) -> str:
    lines = []
    result = f"Attack {e['attack_total']} against defence {e['defence_total']}"
    if e.get("shogun_defence"):
        result += " (an attacked Shogun always wins, R5.1)"
    captured = e.get("captured")
    lines.append(f"{result}: {_seat(e['winner'])} wins and captures {_seat(e['loser'])}'s "
                 f"{_name(captured)}.")
    return "\n".join(lines)


def _reinforcement_taken(e: dict, viewer: Viewer) -> str:
    text = f"{_Seat(e['seat'])} takes the {_name(e.get('card'))} as its new inhabitant, face up"
    bottom = e.get("to_bottom") or []
    winner = e.get("to_winner") or []
    if bottom:
        text += f"; {_some(bottom)} {'goes' if len(bottom) == 1 else 'go'} to the bottom of the deck"
    if winner:
        text += f"; {_some(winner)} {'goes' if len(winner) == 1 else 'go'} onto {_seat(e.get('winner'))}'s score pile"
    return text + "."


def _revolution_round_opened(e: dict, viewer: Viewer) -> str:
    return f"Revolution round: {_seats(e.get('asked') or [])} may join {_seat(e['announcer'])}."


def _revolution_answered(e: dict, viewer: Viewer) -> str:
    if e.get("joined"):
        card = e.get("card")
        return f"{_Seat(e['seat'])} joins the revolution" + (f", revealing {_a(card)}." if card is not None else ".")
    return f"{_Seat(e['seat'])} does not join the revolution."


def _revolution_resolved(e: dict, viewer: Viewer) -> str:
    lines = [f"The revolution of {_seats(e.get('revolters') or [])} has strength {e['strength']}."]
    inh = e.get("inhabitants") or []
    if inh:
        lines.append("Every inhabitant is revealed: " + ", ".join(f"{_seat(s)} {_name(c)}" for s, c in inh) + ".")
    victims = e.get("victims") or []
    loot = {s: cards for s, cards in (e.get("loot") or [])}
    if victims:
        lines.append("Victims: " + "; ".join(
            f"{_seat(s)} loses {_cards(loot.get(s) or [])}" for s in victims) + ".")
    else:
        lines.append("There are no victims.")
    dealt: dict[Any, list] = {}
    for s, c in e.get("dealt") or []:
        dealt.setdefault(s, []).append(c)
    if dealt:
        lines.append("Redistribution: " + "; ".join(f"{_seat(s)} gets {_cards(cs)}" for s, cs in dealt.items()) + ".")
    lines.append("Every worker returns to the supply.")
    return "\n".join(lines)


def _season_ended(e: dict, viewer: Viewer) -> str:
    card = e.get("bonus_card")
    extra = f" ({card_name(card)})" if card is not None else ""
    return (f"Season {e['season']} ends; every disc returns and a card is added face down to the "
            f"bonus pile{extra}.")


_PURPOSES = {
    "bonus": "for the bonus pile",
    "inhabitant": "as a new inhabitant",
    "income": "as income",
    "reinforcement": "as a reinforcement",
    "transformation": "in the transformation",
}


def _geisha_drawn(e: dict, viewer: Viewer) -> str:
    purpose = _PURPOSES.get(e.get("purpose"), f"({e.get('purpose')})")  # type: ignore[arg-type]
    by = f" for {_seat(e['seat'])}" if e.get("seat") is not None else ""
    return f"The Geisha is drawn ({purpose}{by}): the game ends at once."


_REASONS = {"geisha": "the Geisha was drawn", "ninja": "a seat holds all three Ninjas"}


def _game_ended(e: dict, viewer: Viewer) -> str:
    ranks = e.get("ranks") or []
    scores = e.get("scores") or []
    firsts = [s for s, r in enumerate(ranks) if r == 1]
    reason = _REASONS.get(e.get("reason"), str(e.get("reason")))  # type: ignore[arg-type]
    text = f"The game is over: {reason}."
    if e.get("ninja_victor") is not None:
        text += f" {_Seat(e['ninja_victor'])} wins by the Ninjas."
    elif firsts:
        pts = scores[firsts[0]] if firsts[0] < len(scores) else "?"
        verb = "wins" if len(firsts) == 1 else "share first place"
        text += f" {_cap(_seats(firsts))} {verb} with {pts} points."
    return text


def _transfer(t: dict) -> str:
    text = f"{_seat(t.get('giver'))} gives {_name(t.get('card'))} to {_seat(t.get('receiver'))}"
    if t.get("consideration"):
        text += f' (for "{t["consideration"]}")'
    return text


def _promise(p: dict) -> str:
    return f'{_seat(p.get("promiser"))} promises {_seat(p.get("promisee"))} "{p.get("text", "")}"'


def _deal_proposed(e: dict, viewer: Viewer) -> str:
    others = [s for s in e.get("parties") or [] if s != e.get("proposer")]
    parts = [_transfer(t) for t in e.get("transfers") or []] + [_promise(p) for p in e.get("promises") or []]
    text = f"{_Seat(e['proposer'])} proposes deal #{e['deal']} to {_seats(others)}: {_list(parts)}."
    if e.get("note"):
        text += f' Note: "{e["note"]}".'
    return text


def _deal_accepted(e: dict, viewer: Viewer) -> str:
    return f"{_Seat(e['seat'])} accepts deal #{e['deal']}."


def _deal_closed(e: dict, viewer: Viewer) -> str:
    reason = e.get("reason")
    who = _seat(e["seat"]) if e.get("seat") is not None else None
    if reason == "declined":
        return f"Deal #{e['deal']} is declined" + (f" by {who}." if who else ".")
    if reason == "withdrawn":
        return f"Deal #{e['deal']} is withdrawn" + (f" by {who}." if who else ".")
    if reason == "void":
        return f"Deal #{e['deal']} is void: a card is no longer where it said."
    if reason == "lapsed":
        return f"Deal #{e['deal']} lapses at the end of the season."
    return f"Deal #{e['deal']} is closed ({reason})."


def _deal_executed(e: dict, viewer: Viewer) -> str:
    transfers = [_transfer(t) for t in e.get("transfers") or []]
    text = f"Deal #{e['deal']} is carried out: {_list(transfers) if transfers else 'no cards move'}."
    ids = e.get("promise_ids") or []
    if ids:
        text += f" Promises entered in the ledger: {_list('#' + str(i) for i in ids)}."
    return text


def _promise_settled(e: dict, viewer: Viewer) -> str:
    by = f" by {_seat(e['by'])}" if e.get("by") is not None else ""
    status = e.get("status")
    if status == "released":
        return f"{_Seat(e['promiser'])}'s promise #{e['promise']} is released: the occasion never came."
    return f"{_Seat(e['promiser'])}'s promise #{e['promise']} is marked {status}{by}."


def narrate_table_event(e: dict, label: Callable[[Any], str] | None = None) -> str:
    """The table's own events around the game (PROTOCOL.md, table events).
    `label` names a seat ("seat 3 (bob)"); clients that know names pass one."""
    ref = label or _seat
    t = e["type"]
    seat = e.get("seat")
    if t == "TableOpened":
        return "The table is open."
    if t == "SeatTaken":
        return f"{e.get('name', '?')} takes seat {seat}."
    if t == "SeatLeft":
        return f"Seat {seat} is free again."
    if t == "TableStarted":
        return "Everyone is seated: the game begins."
    if t == "Chat":
        return f"[chat] {e.get('name') or ref(seat)} (seat {seat}): {e.get('text', '')}"
    who = _cap(ref(seat))
    if t == "SeatAway":
        return f"{who} is away: its silence now applies at once."
    if t == "SeatBack":
        return f"{who} is back."
    if t == "SeatPresence":
        return f"{who} {'reconnects' if e.get('connected') else 'disconnects'}."
    if t == "ProxyOn":
        return f"A bot now plays for {ref(seat)} until its player returns."
    if t == "ProxyOff":
        return f"{who}'s player takes the seat back."
    if t == "TableFailed":
        return "An error in the server ended this table; the game stops here, without a result."
    return ""  # TableFinished: the GameEnded line has said it all


def _table_event(e: dict, viewer: Viewer) -> str:
    return narrate_table_event(e)


TABLE_EVENTS = ("TableOpened", "SeatTaken", "SeatLeft", "TableStarted", "Chat", "SeatAway", "SeatBack",
                "SeatPresence", "ProxyOn", "ProxyOff", "TableFinished", "TableFailed")

_NARRATORS: dict[str, Callable[[dict, Viewer], str]] = {
    **{t: _table_event for t in TABLE_EVENTS},
    "GameStarted": _game_started,
    "SeasonBegan": _season_began,
    "Passed": _passed,
    "Announced": _announced,
    "PrivilegeRoundOpened": _privilege_round_opened,
    "PrivilegePassed": _privilege_passed,
    "Fulfilled": _fulfilled,
    "BonusAwarded": _bonus_awarded,
    "IncomeDrawn": _income_drawn,
    "SuccessionDone": _succession_done,
    "CreditTaken": _credit_taken,
    "TradeDone": _trade_done,
    "Incited": _incited,
    "Assassinated": _assassinated,
    "InhabitantDrawn": _inhabitant_drawn,
    "TransformationBegan": _transformation_began,
    "TransformationDone": _transformation_done,
    "FightBegan": _fight_began,
    "NegotiationDone": _negotiation_done,
    "NegotiationClosed": _negotiation_closed,
    "SupportDeclared": _support_declared,
    "SupportersRevealed": _supporters_revealed,
    "ReinforcementTurned": _reinforcement_turned,
    "FightResolved": _fight_resolved,
    "ReinforcementTaken": _reinforcement_taken,
    "RevolutionRoundOpened": _revolution_round_opened,
    "RevolutionAnswered": _revolution_answered,
    "RevolutionResolved": _revolution_resolved,
    "SeasonEnded": _season_ended,
    "GeishaDrawn": _geisha_drawn,
    "GameEnded": _game_ended,
    "DealProposed": _deal_proposed,
    "DealAccepted": _deal_accepted,
    "DealClosed": _deal_closed,
    "DealExecuted": _deal_executed,
    "PromiseSettled": _promise_settled,
}

KNOWN_TYPES = frozenset(_NARRATORS) - frozenset(TABLE_EVENTS)  # the game's own events


def _fallback(e: dict) -> str:
    fields = ", ".join(f"{k}={v!r}" for k, v in e.items() if k != "type")
    return f"Something happened ({e.get('type', 'unknown event')}" + (f": {fields})." if fields else ").")


def narrate(event: dict, viewer: Viewer = None) -> str:
    """One or a few lines for one projected event, worded for `viewer` (a
    seat number says "you"; SPECTATOR or EVERYONE do not). An event this
    version does not know, or one it cannot read, still gets a line: a
    newer server must not break an older client."""
    fn = _NARRATORS.get(event.get("type"))  # type: ignore[arg-type]
    if fn is None:
        return _fallback(event)
    try:
        return fn(event, viewer)
    except (KeyError, TypeError, ValueError, IndexError):
        return _fallback(event)


def describe_result(result: dict) -> str:
    """The final table of a plain GameEnded (Game.record()["result"]): one
    row per seat, best rank first, with the cards that broke ties (R9.4)."""
    scores = result.get("scores") or []
    ranks = result.get("ranks") or []
    inhabitants = result.get("inhabitants") or []
    tiebreaks = result.get("tiebreaks") or []
    reason = _REASONS.get(result.get("reason"), str(result.get("reason")))  # type: ignore[arg-type]
    lines = [f"Final result ({reason}):"]
    victor = result.get("ninja_victor")
    if victor is not None:
        lines[0] = lines[0][:-1] + f"; {_seat(victor)} wins by the Ninjas:"
    lines.append(f"{'rank':>4}  {'seat':>4}  {'score':>5}  {'inhabitant':<11}  card values, highest first")
    order = sorted(range(len(scores)), key=lambda s: (ranks[s] if s < len(ranks) else 0, s))
    for s in order:
        inh = inhabitants[s] if s < len(inhabitants) else None
        name = card_name(inh) if inh is not None else "-"
        values = " ".join(str(v) for v in (tiebreaks[s] if s < len(tiebreaks) else []))
        rank = ranks[s] if s < len(ranks) else "?"
        lines.append(f"{rank:>4}  {s:>4}  {scores[s]:>5}  {name:<11}  {values}")
    return "\n".join(lines)
