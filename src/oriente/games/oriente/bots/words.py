"""Deals and promises in plain words: the one place their phrasing lives.

A bot that bargains says in the chat what it offers (R8.4: talk is public),
and a narrator tells the table what was agreed; both want the same
sentences. Everything here is a pure function of plain data (a deal or
promise map as the view and the events carry them, PROTOCOL.md 7), so it
serves a policy, a client and a replay alike.

`speaker` is the seat talking, if any: it becomes "I" and its cards "my";
the others are "seat N".
"""

from __future__ import annotations

from oriente.games.oriente.rules.cards import VALUE, card_name


def _seat(seat: object, speaker: int | None) -> str:
    return "I" if seat == speaker else f"seat {seat}"


def _obj(seat: object, speaker: int | None) -> str:
    return "me" if seat == speaker else f"seat {seat}"


def card_words(card: int) -> str:
    """'a Nofu (1)', 'a Treasure 3': a card as people name it."""
    name = card_name(card)
    if name.startswith("Treasure"):
        return f"a {name}"
    article = "an" if name[0] in "AEIOU" else "a"
    return f"{article} {name} ({VALUE[card]})"


def _cards(cards: list[int]) -> str:
    words = [card_words(c) for c in cards]
    if len(words) <= 1:
        return "".join(words) or "nothing"
    return ", ".join(words[:-1]) + " and " + words[-1]


def promise_words(p: dict, speaker: int | None = None) -> str:
    """One promise, as its promiser would say it (free text: its own text)."""
    who = _seat(p.get("promiser"), speaker)
    to = _obj(p.get("promisee"), speaker)
    kind = p.get("kind", "free")
    if kind == "support":
        side = p.get("side")
        fighter = p.get("attacker") if side == "attacker" else p.get("defender")
        return (f"{who} will support the {side}, {_obj(fighter, speaker)}, in the fight of seat "
                f"{p.get('attacker')} against seat {p.get('defender')}")
    if kind == "no_attack":
        return f"{who} will not attack {_obj(p.get('seat'), speaker)} this season"
    if kind == "pay":
        return f"{who} will pay {to} {_cards(list(p.get('cards') or ()))} by the end of season {p.get('by_season')}"
    return f"{who} promise{'' if who == 'I' else 's'} {to}: \u201c{p.get('text', '')}\u201d"


def transfer_words(t: dict, speaker: int | None = None) -> str:
    giver, receiver = t.get("giver"), t.get("receiver")
    verb = "give" if giver == speaker else "gives"
    return f"{_seat(giver, speaker)} {verb} {_obj(receiver, speaker)} {card_words(t['card'])}"


def deal_words(deal: dict, speaker: int | None = None) -> str:
    """A whole proposal in one sentence: every card that moves and every
    promise, e.g. 'I give seat 4 a Nofu (1); seat 4 will support the
    defender, me, in the fight of seat 0 against seat 2.'"""
    parts = [transfer_words(t, speaker) for t in deal.get("transfers") or ()]
    parts += [promise_words(p, speaker) for p in deal.get("promises") or ()]
    return "; ".join(parts) + "." if parts else "an empty deal."


def offer_line(deal: dict, speaker: int, counter_to: int | None = None) -> str:
    """What a seat says in the chat when it proposes `deal`."""
    head = f"Counter-offer to deal {counter_to}: " if counter_to is not None else "I offer: "
    return head + deal_words(deal, speaker)


__all__ = ["card_words", "deal_words", "offer_line", "promise_words", "transfer_words"]
