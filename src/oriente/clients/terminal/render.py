"""What the terminal shows, as plain text: pure functions from the dicts the
server sends (a view, a prompt, table information) to lines.

Nothing here does I/O or reads a clock: the caller passes the time left on
a deadline, the terminal width and the feed. So every screen can be checked
in a unit test from a hand-written view and prompt.

The view is the viewer's own (PROTOCOL.md §10): a hidden card is None, and
nothing here can show more than the server told this viewer (R10.4).
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from oriente.clients.deals import open_promises, promised_side
from oriente.clients.narrate import TABLE_EVENTS, catalogue, describe_result, narrate, narrate_table_event
from oriente.clients.quickdeals import DealFate, QuickOption, quick_options
from oriente.clients.timerwords import preset_of, preset_text, timers_text
from oriente.games.oriente.narrate import OrienteNarrator
from oriente.games.oriente.rules.cards import RANK, VALUE, card_name
from oriente.games.oriente.rules.commands import DECISION_COMMAND_TYPES
from oriente.games.oriente.rules.reference import reference
from oriente.protocol.messages import DEFAULT_GAME
from oriente.protocol.presets import DEFAULT_PRESET, TIMER_PRESETS, TURN_PRESETS

__all__ = [
    "DECISION_TYPES",
    "Names",
    "action_label",
    "choice_label",
    "decision_choices",
    "format_seconds",
    "narrate_update_event",
    "pile_total",
    "render_board",
    "render_deals",
    "render_lobby",
    "render_negotiation",
    "render_offers",
    "render_prompt",
    "render_quick",
    "render_result",
    "render_seats",
    "render_table",
    "seat_ref",
    "ui_words",
    "wants_answer",
]

# Commands that answer a decision; the deal commands in `legal` are shown
# with the deals instead (PROTOCOL.md §6).
DECISION_TYPES = DECISION_COMMAND_TYPES  # the rules' one definition of a decision's answers

Names = dict[int, str]

_TOPIC_TITLES = {
    "announce": "announce an action or pass",
    "privilege": "privilege round: claim privilege or pass",
    "negotiation": "negotiation before the support round",
    "support": "support round: support a side or pass",
    "revolution": "revolution round: join or pass",
    "trade": "trade: choose the score card to give",
    "transformation": "transformation: choose the inhabitant to keep",
    "reinforcement": "you lost the fight: choose your new inhabitant",
}

# Below 110 columns, a title that would wrap the decision's first line.
_SHORT_TITLES = {"negotiation": "negotiation window"}

_PASS_LABELS = {
    "announce": "pass",
    "privilege": "pass (do not claim privilege)",
    "negotiation": "pass (support neither side)",
    "support": "pass (support neither side)",
    "revolution": "pass (do not join)",
}


# -- small words ------------------------------------------------------------------

def seat_ref(seat: Any, names: Names | None = None, you: Any = None) -> str:
    """'seat 3 (bob)', or 'seat 3 (you)'."""
    if seat is None:
        return "nobody"
    if you is not None and seat == you and not isinstance(you, str):
        return f"seat {seat} (you)"
    name = (names or {}).get(seat)
    return f"seat {seat} ({name})" if name else f"seat {seat}"


def _card(card: int | None) -> str:
    return "a hidden card" if card is None else card_name(card)


def pile_total(pile: Iterable[int]) -> int:
    """The score pile's value (R9.3: a treasure its value, an inhabitant its number)."""
    return sum(VALUE[c] for c in pile)


def format_seconds(seconds: float | None) -> str:
    """'42 s', '2 min 05 s', '23 h 59 min', '3 d 4 h', 'time is up' (a
    turn-based table's decision lasts hours and its bank days)."""
    if seconds is None:
        return ""
    if seconds <= 0:
        return "time is up"
    whole = int(seconds + 0.999)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    if whole < 86400:
        return f"{whole // 3600} h {whole % 3600 // 60} min"
    return f"{whole // 86400} d {whole % 86400 // 3600} h"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    if width <= 10 or len(text) <= width:
        return [text]
    return textwrap.wrap(text, width=width, subsequent_indent=indent, break_on_hyphens=False) or [""]


# -- decisions and their choices ------------------------------------------------

def action_label(action: dict | None, names: Names | None = None, you: Any = None) -> str:
    """An action map as a choice: 'attack seat 3 (bob)', 'income'."""
    if not action:
        return "no action"
    kind = action.get("kind")
    t = action.get("target")
    ref = seat_ref(t, names, you)
    labels = {
        "attack": f"attack {ref}",
        "blessing": "blessing (take the bonus pile)",
        "transformation": "transformation (swap the inhabitants around)",
        "income": "income (draw a card onto your score pile)",
        "succession": f"succession: take the Shogun of {ref}",
        "credit": f"credit: take every Nofu from {ref}'s score pile",
        "trade": f"trade with {ref}",
        "incite": "incite (move a worker)",
        "revolution": "revolution",
        "assassination": f"assassinate the inhabitant of {ref}",
    }
    if kind in labels:
        return labels[kind]
    return str(kind) + (f" {ref}" if t is not None else "")


def promise_mark(cmd: dict, view: dict | None, you: Any) -> str:
    """What answering `cmd` does to the seat's word (R8.6), said before it
    is chosen: ' (promised)' for the side it promised to support in the
    fight under way, ' (breaks promise)' for any other answer there, or for
    an attack on a seat it promised peace this season; '' otherwise."""
    if not view or not isinstance(you, int) or isinstance(you, bool):
        return ""
    kind = cmd.get("type")
    if kind in ("Support", "Pass") and view.get("fight"):
        side = promised_side(view, you)
        if side is not None:
            return " (promised)" if kind == "Support" and cmd.get("side") == side else " (breaks promise)"
    action = cmd.get("action") or {}
    if kind in ("Announce", "Claim") and action.get("kind") == "attack" and any(
            e.get("seat") == action.get("target") and e.get("season", view.get("season")) == view.get("season")
            for e in open_promises(view, you, "no_attack")):
        return " (breaks promise)"
    return ""


def choice_label(cmd: dict, topic: str | None = None, names: Names | None = None, view: dict | None = None,
                 you: Any = None) -> str:
    """One legal command in words, as the person picks it, with what it
    does to a promise of the seat's (`promise_mark`)."""
    return _choice_words(cmd, topic, names, view, you) + promise_mark(cmd, view, you)


def _choice_words(cmd: dict, topic: str | None, names: Names | None, view: dict | None, you: Any) -> str:
    kind = cmd.get("type")
    if kind == "Pass":
        return _PASS_LABELS.get(topic or "", "pass")
    if kind == "Announce":
        return action_label(cmd.get("action"), names, you)
    if kind == "Claim":
        return "claim privilege, then: " + action_label(cmd.get("action"), names, you)
    if kind == "Support":
        side = cmd.get("side")
        fight = (view or {}).get("fight") or {}
        seat = fight.get("attacker") if side == "attacker" else fight.get("defender") if side == "defender" else None
        return f"support the {side}" + (f", {seat_ref(seat, names, you)}" if seat is not None else "")
    if kind == "Join":
        return "join the revolution (reveals your Nofu)"
    if kind == "Choose":
        card = cmd.get("card")
        name = card_name(card) if isinstance(card, int) and 0 <= card < len(VALUE) else str(card)
        if topic == "trade":
            return f"give {name}"
        if topic == "transformation":
            return f"keep {name}"
        if topic == "reinforcement":
            return f"take {name} as your new inhabitant"
        return f"choose {name}"
    return json.dumps(cmd, sort_keys=True)


def decision_choices(prompt: dict | None) -> list[dict]:
    """The decision commands of `legal`, in the server's order."""
    if not prompt:
        return []
    return [c for c in prompt.get("legal") or [] if c.get("type") in DECISION_TYPES]


def wants_answer(prompt: dict | None, you: Any) -> bool:
    """May this seat answer the open decision now: it is the pivot, or it may
    answer early (R10.2). A seat whose hidden card allows only a pass is
    asked all the same and gets the same controls (R10.2d)."""
    if not prompt or not isinstance(you, int) or isinstance(you, bool):
        return False
    if not decision_choices(prompt):
        return False
    return prompt.get("pivot") == you or you in (prompt.get("early") or [])


def _columns(labels: Sequence[str], width: int) -> list[str]:
    """Numbered choices: on one line when they fit, one per line up to
    eight, in columns beyond."""
    items = [f"{i:>2}) {label}" for i, label in enumerate(labels, 1)]
    one_line = "  " + "   ".join(items)
    if len(items) <= 4 and len(one_line) <= width:
        return [one_line]
    if len(items) <= 8:
        return ["  " + it for it in items]
    colw = max(len(it) for it in items) + 3
    ncols = max(1, min(4, (width - 2) // colw))
    nrows = -(-len(items) // ncols)
    lines = []
    for r in range(nrows):
        row = [items[c * nrows + r] for c in range(ncols) if c * nrows + r < len(items)]
        lines.append("  " + "".join(it.ljust(colw) for it in row).rstrip())
    return lines


# Rounds in which a seat's hidden card may leave it nothing but a pass
# (R10.2a, R10.2c), and the /auto word that passes them unconditionally.
_ONLY_PASS_AUTO = {"privilege": "privilege", "revolution": "revolution"}


def hopeless_claim(view: dict | None, prompt: dict | None, you: Any) -> tuple[int, int, int] | None:
    """(mine, theirs, announcer) when this seat's claim could not count as
    things stand (R4.3c): its rank only equals the one to beat (the prompt's
    public `rank`) and it holds no fewer score cards than the announcer.
    From the seat's own view and the public piles only, as the page does
    (web/src/games/oriente/claims.js); None when it counts or cannot be told."""
    if not view or not prompt or prompt.get("topic") != "privilege" or not isinstance(prompt.get("rank"), int):
        return None
    seats = view.get("seats") or []
    announcer = view.get("announcer")
    if not isinstance(you, int) or not 0 <= you < len(seats) or not isinstance(announcer, int) \
            or not 0 <= announcer < len(seats):
        return None
    card = seats[you].get("inhabitant")
    if not isinstance(card, int) or not 0 <= card < len(RANK) or RANK[card] != prompt["rank"]:
        return None
    mine, theirs = len(seats[you].get("pile") or []), len(seats[announcer].get("pile") or [])
    return None if mine < theirs else (mine, theirs, announcer)


def _clock(seconds_left: float | None) -> str:
    """' -- 42 s left'. A pivot's deadline includes its time bank (R10.3);
    its prompt says how much of that is bank."""
    clock = format_seconds(seconds_left)
    if not clock:
        return ""
    return " -- time is up" if clock == "time is up" else f" -- {clock} left"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def render_prompt(prompt: dict | None, view: dict | None, you: Any, names: Names | None = None, *,
                  seconds_left: float | None = None, sending: str | None = None, width: int = 100) -> list[str]:
    """The open decision: the fight it is about, who is asked, the countdown
    (and for this seat its time bank), and for this seat the numbered choices."""
    names = names or {}
    if not prompt:
        return ["Nothing to decide right now."]
    topic = prompt.get("topic", "")
    title = _TOPIC_TITLES.get(topic, topic)
    if width < 110:  # the choices below say the rest
        title = _SHORT_TITLES.get(topic, title.split(":")[0])
    rule = prompt.get("rule")
    lines: list[str] = []
    fight = fight_line(view, you, names) if topic in ("negotiation", "support", "reinforcement") else None
    if fight:
        lines.append(fight)
    published = prompt.get("published") or []
    if published:
        lines.append("So far: " + "; ".join(f"{seat_ref(seat, names, you)}: {_published(answer, topic)}"
                                            for seat, answer in published))
    pivot = prompt.get("pivot")
    asked = prompt.get("asked") or []
    choices = decision_choices(prompt)
    mine = wants_answer(prompt, you)
    if sending:
        lines.append(f"Decision #{prompt.get('id')} ({title}){_clock(seconds_left)}")
        lines.append(f"Answer sent: {sending}. Waiting for the table...")
        return lines
    done_word = any(c.get("type") == "Done" for c in prompt.get("legal") or [])
    if mine:
        early = pivot != you
        lines.append(f">>> YOUR DECISION #{prompt.get('id')}: {title} ({rule}){_clock(seconds_left)}")
        sealed = prompt.get("sealed")
        if prompt.get("kind") == "window":
            if not sealed:  # once declared, the sealed line says it
                lines.append("    Declare your support now if you like: it stays sealed and becomes final when "
                             "the window closes (early, once both fighters say done and every asked seat has "
                             "declared, R10.2b1). Deals are open meanwhile.")
        elif early:
            lines.append(f"    {seat_ref(pivot, names, you)} decides first. You may answer early: your answer stays "
                         "sealed (shown to nobody) and can be changed until your turn.")
        if len(choices) == 1 and choices[0].get("type") == "Pass" and topic in _ONLY_PASS_AUTO:
            lines.append(f"    Your card allows only a pass here (R10.2e). The table waits for you all the same: "
                         f"an instant answer would tell everyone your card (R10.2d). "
                         f"/auto {_ONLY_PASS_AUTO[topic]} passes every such round at once, whatever your card.")
        hopeless = hopeless_claim(view, prompt, you) if any(c.get("type") == "Claim" for c in choices) else None
        if hopeless:
            mine_n, theirs_n, announcer = hopeless
            lines.append(f"    A claim cannot count as things stand (R4.3c): your rank only equals the one to beat, "
                         f"and at equal rank a claim needs fewer score cards than {seat_ref(announcer, names, you)} "
                         f"(you hold {mine_n}, they hold {theirs_n}). A deal may still change that.")
        if sealed:
            final = " (final when the window closes)" if prompt.get("kind") == "window" else ""
            lines.append(f"    Your sealed answer: {choice_label(sealed, topic, names, view, you)}{final}. "
                         "Type another number to change it.")
        lines.extend(_columns([choice_label(c, topic, names, view, you) for c in choices], width))
        bank = prompt.get("bank_ms")
        silence = f"silence: {prompt.get('silence', 'pass')}" + (
            f"; time bank {format_seconds(bank / 1000)}, counted in the time left"
            if isinstance(bank, int) and bank > 0 and not early else "")
        lines.append(_cap(silence) + "." if sealed else f"Type a number (1-{len(choices)}) and press Enter; {silence}.")
        return lines
    if prompt.get("kind") == "window":
        lines.append(f"Negotiation window ({rule}): {', '.join(seat_ref(s, names, you) for s in asked) or 'nobody'}"
                     f" may support a side next{_clock(seconds_left)}. Talk and deals are open.")
        if done_word:
            lines.append(">>> You are in this fight: bargain for support (/offer N, /deal), then type /done. "
                         "The window closes early once both fighters are done and every asked seat has declared "
                         "(R10.2b1).")
    else:
        lines.append(f"Waiting for {seat_ref(pivot, names, you)}: {title} ({rule}){_clock(seconds_left)}")
    return lines


def _published(answer: Any, topic: str) -> str:
    if answer is None:
        return "pass"
    if answer is True:
        return "joined"
    if isinstance(answer, str):
        return answer
    return str(answer)


# -- the table ----------------------------------------------------------------------

def _inhabitant(slot: dict, you: Any, names: Names) -> str:
    card = slot.get("inhabitant")
    mine = slot.get("seat") == you and isinstance(you, int)
    if slot.get("empty"):
        return "(no inhabitant)"
    if card is None:
        return "hidden"
    name = card_name(card)
    if slot.get("revealed"):
        return f"{name} (yours, revealed)" if mine else f"{name} (revealed)"
    if mine:
        known = slot.get("known_to")
        others = [s for s in known if s != you] if isinstance(known, list) else []
        extra = f"; known to {', '.join(seat_ref(s, names) for s in others)}" if others else ""
        return f"(yours, hidden{extra}) {name}"
    return f"{name} (hidden; you know it)"


def _fit_pile(head: str, pile: list[int], tail: str, width: int) -> str:
    """`head` + the pile's cards + `tail` on one line of `width`: the cards
    that do not fit are counted ('+3 more'); /piles shows them all."""
    names = [card_name(c) for c in pile]
    for shown in range(len(names), -1, -1):
        more = len(names) - shown
        cards = ", ".join(names[:shown]) if shown else ("" if names else "empty")
        if more:
            cards += (", " if shown else "") + f"+{more} more"
        line = head + cards + tail
        if len(line) <= width:
            return line
    bare = head.rstrip().rstrip(":") + tail  # the total and the promise record, without the cards
    if len(bare) <= width:
        return bare
    return (head + _plural(len(names), "card") + tail)[:width]


def render_seats(view: dict, you: Any, names: Names | None = None, width: int = 100) -> list[str]:
    """One line per seat: name, disc, stone, inhabitant, score pile and total.
    Below 110 columns the words get shorter; a pile too long for the line
    ends in '+N more' (/piles shows every card)."""
    names = names or {}
    seats = view.get("seats") or []
    stone = view.get("stone_holder")
    wide = width >= 110
    name_w = max([len(names.get(s.get("seat"), "")) for s in seats] + [4])
    if not wide:
        name_w = min(name_w, 12)
    inh_w = min(24, max([len(_inhabitant(slot, you, names)) for slot in seats] + [6]))
    lines = []
    for slot in seats:
        s = slot.get("seat")
        mine = s == you and isinstance(you, int)
        pile = list(slot.get("pile") or [])
        record = ""
        if slot.get("kept") or slot.get("broken"):
            record = (f"  promises kept {slot.get('kept', 0)}, broken {slot.get('broken', 0)}" if wide
                      else f"  kept {slot.get('kept', 0)}/broken {slot.get('broken', 0)}")
        if wide:
            who = names.get(s, "?") + (" (you)" if mine else "")
            disc = "disc held" if slot.get("disc") else "disc USED"
            head = (f"{'>' if mine else ' '} seat {s:<2} {who:<{name_w + 6}} {disc:<9} "
                    f"{'STONE' if s == stone else '':<5}  inhabitant: {_inhabitant(slot, you, names)}  |  "
                    f"pile ({pile_total(pile)} pts): ")
        else:
            who = names.get(s, "?")[:name_w]
            disc = "disc" if slot.get("disc") else "USED"
            head = (f"{'>' if mine else ' '}{s:>2} {who:<{name_w}} {disc} {'STONE' if s == stone else '     '} "
                    f"{_inhabitant(slot, you, names):<{inh_w}} | {pile_total(pile):>2} pts: ")
        lines.append(_fit_pile(head, pile, record, width))
    return lines


def card_reference() -> list[str]:
    """Every kind of card: how many, value and rank, and what it may do
    (/cards), from the rules' own card reference (R1.1, R5)."""
    lines = ["The cards: value (what it scores, R9.3), rank (privilege, R4.3; fights, R6.5). "
             "Every inhabitant may also attack (R6)."]
    for kind in reference()["kinds"]:
        name, title = kind["name"]["en"], kind["title"]["en"]
        rank = f", rank {kind['rank']}" if kind.get("rank") is not None and kind["kind"] != "treasure" else ""
        value = "" if kind["kind"] == "geisha" else f": value {kind['value']}"
        if kind["kind"] == "treasure":
            value = ": value 2, 3 or 4"
        lines.append(f"  {name} ({title}) x{kind['count']}{value}{rank}")
        for ability in kind.get("abilities") or []:
            lines.append(f"      {ability['name']['en']} ({ability['rule']}): {ability['text']['en']}")
    return lines


def render_piles(view: dict, you: Any, names: Names | None = None) -> list[str]:
    """Every seat's whole score pile, card by card, for the feed (/piles)."""
    names = names or {}
    lines = ["Score piles (R9.3: a treasure counts its value, an inhabitant its number):"]
    for slot in view.get("seats") or []:
        pile = slot.get("pile") or []
        cards = ", ".join(f"{card_name(c)} ({VALUE[c]})" for c in pile) or "empty"
        lines.append(f"  {seat_ref(slot.get('seat'), names, you)}: {pile_total(pile)} pts: {cards}")
    return lines


def render_board(view: dict, you: Any, names: Names | None = None, width: int = 100) -> list[str]:
    """Workers, bonus pile, deck, destiny stone, and the announcement in
    progress. The fight under way is `fight_line`, shown by the decision."""
    names = names or {}
    w = view.get("workers") or {}
    wide = width >= 110
    hut = f"hut {w.get('hut', 0)}" if w.get("hut_used") else ("hut not used" if wide else "no hut")
    bonus = f"bonus pile {_plural(view.get('bonus_size', 0), 'card')}" if wide else f"bonus {view.get('bonus_size', 0)}"
    if view.get("bonus_set_aside"):
        bonus += f" ({view['bonus_set_aside']} set aside for the fulfilling seat)"
    if view.get("bonus_awarded"):
        bonus += ", awarded this season"
    deck = f"deck {_plural(view.get('deck_size', 0), 'card')}" if wide else f"deck {view.get('deck_size', 0)}"
    bottom = view.get("deck_bottom") or []
    if bottom:
        deck += (" (known at the bottom, bottom first: " if wide else " (bottom: ") + ", ".join(
            _card(c) for c in bottom) + ")"
    if wide:
        text = (f"Workers: supply {w.get('supply', 0)}, {hut}, square {w.get('square', 0)}   |   {bonus}   |   "
                f"{deck}   |   destiny stone: {seat_ref(view.get('stone_holder'), names, you)}")
    else:
        text = f"Workers: supply {w.get('supply', 0)}, {hut}, square {w.get('square', 0)} | {bonus} | {deck}"
    lines = _wrap(text, width)
    if view.get("phase") == "over":
        return lines
    announcer = view.get("announcer")
    if announcer is not None and view.get("action"):
        chain = view.get("chain") or []
        text = f"Announced: {seat_ref(announcer, names, you)}: {action_label(view.get('action'), names, you)}"
        if len(chain) > 1:
            text += f" (chain: {', '.join(str(s) for s in chain)})"
        lines.extend(_wrap(text, width))
    return lines


def _fighter(view: dict, seat: Any, names: Names, you: Any) -> str:
    """'seat 1 (bob) with an Akindo (2)', or 'seat 3 (dee), hidden'."""
    slots = view.get("seats") or []
    slot = slots[seat] if isinstance(seat, int) and 0 <= seat < len(slots) else {}
    card = slot.get("inhabitant")
    what = f"{card_name(card)} {VALUE[card]}" if card is not None else "hidden"
    return f"{seat_ref(seat, names, you)} [{what}]"


def fight_line(view: dict | None, you: Any, names: Names | None = None) -> str | None:
    """The fight under way, with both fighters' inhabitants and their values
    (R6.5), so that a support decision always shows what it is about."""
    fight = (view or {}).get("fight")
    if not fight or not view:
        return None
    names = names or {}
    text = (f"Fight: {_fighter(view, fight.get('attacker'), names, you)} attacks "
            f"{_fighter(view, fight.get('defender'), names, you)}")
    reinf = fight.get("reinforcements") or []
    if reinf:
        text += "; reinforcements: " + ", ".join(f"{seat_ref(s, names, you)} {_card(c)}" for s, c in reinf)
    return text


def _transfer_text(t: dict, names: Names, you: Any) -> str:
    text = (f"{seat_ref(t.get('giver'), names, you)} gives {_card(t.get('card'))} "
            f"to {seat_ref(t.get('receiver'), names, you)}")
    if t.get("consideration"):
        said = str(t["consideration"])  # a quick deal's reads "for your support ...": not for "for ..."
        text += f' ("{said}")' if said.startswith("for ") else f' (for "{said}")'
    return text


def _promise_text(p: dict, names: Names, you: Any) -> str:
    """A promise in words from its structured form (R8.6), whoever wrote
    its text: the server settles these kinds itself, by these fields."""
    who, to = seat_ref(p.get("promiser"), names, you), seat_ref(p.get("promisee"), names, you)
    kind = p.get("kind", "free")
    if kind == "support":
        side = p.get("side")
        fighter = p.get("attacker") if side == "attacker" else p.get("defender")
        return (f"{who} will support the {side}, {seat_ref(fighter, names, you)}, in the fight of seat "
                f"{p.get('attacker')} against seat {p.get('defender')} (promised to {to})")
    if kind == "no_attack":
        target = p.get("seat")
        return f"{who} will not attack {seat_ref(target, names, you)} this season" + (
            f" (promised to {to})" if target != p.get("promisee") else "")
    if kind == "pay":
        cards = ", ".join(card_name(c) for c in p.get("cards") or []) or "nothing"
        return f"{who} will pay {to} {cards} by the end of season {p.get('by_season')}"
    return f'{who} promises {to} "{p.get("text", "")}"'


def deal_parts(deal: dict, names: Names | None = None, you: Any = None) -> list[str]:
    """Every card a deal moves and every promise in it, in words."""
    names = names or {}
    return ([_transfer_text(t, names, you) for t in deal.get("transfers") or []]
            + [_promise_text(p, names, you) for p in deal.get("promises") or []])


def deals_summary(view: dict | None, you: Any, width: int = 100) -> list[str]:
    """One line for the top of the screen: the open deals, and which wait
    for this seat's answer (/deals tells them in full)."""
    deals = (view or {}).get("deals") or []
    if not deals:
        return []
    items = []
    for d in deals:
        did = d.get("deal")
        if isinstance(you, int) and you in (d.get("parties") or []) and you not in (d.get("accepted") or []):
            items.append(f"#{did} WAITS FOR YOU (/accept {did}, /decline {did})")
        else:
            items.append(f"#{did}")
    return _wrap("Open deals: " + ", ".join(items) + " | /deals: what they say", width)


def render_ledger(view: dict, you: Any, names: Names | None = None) -> list[str]:
    """The public ledger of promises (R8.6) and each seat's kept/broken
    record, for the feed (/ledger)."""
    names = names or {}
    lines = ["Promises (R8.6): kept and broken by seat: " + ", ".join(
        f"{seat_ref(slot.get('seat'), names, you)} {slot.get('kept', 0)}/{slot.get('broken', 0)}"
        for slot in view.get("seats") or [])]
    ledger = view.get("ledger") or []
    for e in ledger:
        text = f"  #{e.get('promise')} ({e.get('status')}, season {e.get('season')}): {_promise_text(e, names, you)}"
        if (e.get("status") == "open" and e.get("promisee") == you and e.get("kind", "free") == "free"
                and isinstance(you, int)):
            text += f"  -> /kept {e.get('promise')} or /broken {e.get('promise')}"
        lines.append(text)
    if not ledger:
        lines.append("  No promise has been made yet.")
    return lines


def render_deals(view: dict, you: Any, names: Names | None = None, width: int = 100) -> list[str]:
    """Open deals with what this seat may do about them, and open promises."""
    names = names or {}
    lines: list[str] = []
    for d in view.get("deals") or []:
        parts = deal_parts(d, names, you)
        accepted = d.get("accepted") or []
        text = (f"  deal #{d.get('deal')} by {seat_ref(d.get('proposer'), names, you)}: " + "; ".join(parts)
                + f"  [accepted by: {', '.join(str(s) for s in accepted) or 'nobody'}]")
        if isinstance(you, int) and you in (d.get("parties") or []):
            if you in accepted:
                text += f"  -> /withdraw {d.get('deal')}"
            else:
                text += f"  -> /accept {d.get('deal')} or /decline {d.get('deal')}"
        lines.extend(_wrap(text, width, indent="      "))
    if lines:
        lines.insert(0, "Open deals:")
    promises = []
    for e in view.get("ledger") or []:
        if e.get("status") != "open":
            continue
        text = f"  promise #{e.get('promise')}: " + _promise_text(e, names, you)
        if e.get("promisee") == you and e.get("kind", "free") == "free" and isinstance(you, int):
            text += f"  -> /kept {e.get('promise')} or /broken {e.get('promise')}"
        promises.extend(_wrap(text, width, indent="      "))
    if promises:
        lines.append("Open promises:")
        lines.extend(promises)
    return lines


def ui_words(key: str, **args: Any) -> str:
    """A text of the clients' catalogue (its "ui" part), in English: the
    words of a quick deal, as the page has them."""
    template = catalogue("en")["ui"][key]
    return re.sub(r"\{(\w+)\}", lambda m: str(args.get(m.group(1), m.group(0))), template)


def _why(why: dict, names: Names, you: Any) -> str:
    """A reason of R8.8 in words, from the catalogue, never the code itself."""
    return OrienteNarrator("en", lambda s: seat_ref(s, names, you)).why(why)


def quick_label(option: QuickOption, names: Names, you: Any) -> str:
    """What a quick deal is, in words: 'My card for your support of the defender'."""
    if option.kind == "buy_support":
        return ui_words("quick.buy_support", side=ui_words(f"side.{option.side}"))
    if option.kind == "sell_support":
        return ui_words("quick.sell_support", name=seat_ref(option.fighter, names, you),
                        side=ui_words(f"role.{option.side}"))
    return ui_words("quick.peace")


def _fate(d: DealFate, names: Names, you: Any) -> str:
    """What became of a deal, in the catalogue's words (the page's too)."""
    def refs(seats: Iterable[int]) -> str:
        return ", ".join(seat_ref(s, names, you) for s in seats)

    by = seat_ref(d.by, names, you)
    if d.status == "open":
        return ui_words("mydeals.open", yes=refs(d.accepted), no=refs(s for s in d.parties if s not in d.accepted))
    if d.status == "declined" and d.why:
        return ui_words("mydeals.declined_why", name=by, why=_why(d.why, names, you))
    if d.status in ("declined", "withdrawn"):
        return ui_words(f"mydeals.{d.status}", name=by)
    if d.status in ("executed", "void", "lapsed"):
        return ui_words(f"mydeals.{d.status}")
    return d.status


def render_negotiation(view: dict | None, prompt: dict | None, you: Any, names: Names | None = None,
                       fates: Sequence[DealFate] = (), width: int = 100) -> list[str]:
    """Deals where a person looks during a fight, under the decision: offers
    waiting for this seat (with how to accept, decline with a reason, or
    counter), the quick deals of the moment pre-filled from the fight (one
    /offer N each), and what became of this seat's own deals this season,
    who declined and why in words (R8.8)."""
    offers, fates_told = render_offers(view, you, names, fates, width)
    return offers + render_quick(view, prompt, you, names, width) + fates_told


def render_offers(view: dict | None, you: Any, names: Names | None = None, fates: Sequence[DealFate] = (),
                  width: int = 100) -> tuple[list[str], list[str]]:
    """The offers waiting for this seat, and what became of its own deals
    this season (render_negotiation's parts that never give way)."""
    names = names or {}
    if not view or not isinstance(you, int) or isinstance(you, bool):
        return [], []
    lines: list[str] = []
    for d in view.get("deals") or []:
        if you not in (d.get("parties") or []) or you in (d.get("accepted") or []):
            continue
        did = d.get("deal")
        text = f"OFFER #{did} from {seat_ref(d.get('proposer'), names, you)}: " + "; ".join(deal_parts(d, names, you))
        if isinstance(d.get("why"), dict):
            text += f". It is {_why(d['why'], names, you)}"
        lines.extend(_wrap(text + f"  -> /accept {did} | /decline {did} [worth_less|record|...] | /counter {did}",
                           width, indent="      "))
    told: list[str] = []
    shown = [d for d in fates if d.proposer == you or d.status != "open"][-3:]
    for d in shown:
        others = ", ".join(seat_ref(s, names, you) for s in d.parties if s != you)
        told.extend(_wrap(ui_words("mydeals.line", deal=d.deal, parties=others, state=_fate(d, names, you)),
                          width, indent="      "))
    return lines, told


def render_quick(view: dict | None, prompt: dict | None, you: Any, names: Names | None = None,
                 width: int = 100) -> list[str]:
    """The quick deals of the moment, pre-filled from the fight: one
    /offer N each (a short screen gives them one line, render_table)."""
    names = names or {}
    if not view or not isinstance(you, int) or isinstance(you, bool):
        return []
    lines: list[str] = []
    for i, o in enumerate(quick_options(view, prompt, you), 1):
        to = ", ".join(seat_ref(s, names, you) for s in o.chosen)
        more = f" (or: /offer {i} to {', '.join(str(s) for s in o.seats)})" if len(o.seats) > 1 else ""
        lines.extend(_wrap(f"Quick deal /offer {i}: {quick_label(o, names, you)}: {card_name(o.card)} <-> {to}{more}",
                           width, indent="      "))
    return lines


def render_result(result: dict | None) -> list[str]:
    """The final scores (R9.3, R9.4)."""
    if not result:
        return []
    return ["GAME OVER", *describe_result(result).splitlines()]


def _header(table: str, info: dict | None, view: dict | None, you: Any, names: Names, link: str,
            screen: Any = None) -> str:
    settings = (info or {}).get("settings") or {}
    name = settings.get("name")
    who = "a spectator" if not isinstance(you, int) else seat_ref(you, names)
    text = f"Table {table}" + (f' "{name}"' if name else "")
    if (settings.get("timers") or {}).get("turn_based"):
        text += " | turn-based"  # days, not seconds: said at once, as the page's tag does
    text += f" | you are {who}"
    if view and screen is not None:
        text += f" | {screen.status(view)}"
    elif view:
        text += f" | season {view.get('season')}, {view.get('phase')}"
    if link:
        text = f"[{link}] " + text
    return text


AFTER_END = "Type /lobby to go back to the lobby, /save to keep the game's record, or /quit to leave."
TABLE_COMMANDS = ("Commands: NUMBER | /say TEXT | /offer N | /deal ... | /accept N | /decline N | /counter N | /done | "
                  "/deals | /ledger | /piles | /cards | /help | /lobby | /quit   PgUp/PgDn: the story so far")


def feed_lines(feed: Sequence[str], width: int) -> list[str]:
    """The feed's entries as screen lines, wrapped to `width`."""
    out: list[str] = []
    for entry in feed:
        for line in entry.splitlines():
            out.extend(_wrap(line, width, indent="    "))
    return out


def render_table(*, table: str, view: dict | None, prompt: dict | None, you: Any, names: Names | None = None,
                 info: dict | None = None, feed: Sequence[str] = (), seconds_left: float | None = None,
                 sending: str | None = None, result: dict | None = None, status: str = "",
                 auto: Iterable[str] = (), width: int = 100, height: int = 40, scroll: int = 0,
                 link: str = "", screen: Any = None, fates: Sequence[DealFate] = (),
                 after_end: str = AFTER_END) -> list[str]:
    """The whole table screen, at most `height` lines, each at most `width`
    characters (the input line comes below it).

    From the top: the header (with `link`, the connection's trouble, if
    any), the seats, the board, the open deals; then the feed, `scroll`
    lines up from its end; then the decision (with the fight it is about),
    the status and the commands. When the screen is short, the separators,
    the commands line, the deals line, the board and the quick deals (down
    to one line) go first, in that order, so that the seats, at least three
    lines of news and the whole decision stay on screen (80x24 with six
    seats keeps them all, in a fight too).

    `screen`: another game's `games.GameScreen`, which draws the part
    above the story, the board, the decision and the result instead.
    `fates`: this seat's deals as their events tell them (quickdeals.deals_of),
    shown under the decision with the offers and quick deals of the moment.
    `after_end`: what to type once the game is over."""
    names = names or {}
    rule = "-" * min(width, 120)
    header = _header(table, info, view, you, names, link, screen)
    seats: list[str] = []
    board: list[str] = []
    deals: list[str] = []
    if view and screen is not None:
        seats = screen.top(view, you, names, width)
        board = screen.board(view, you, names, width)
    elif view:
        seats = render_seats(view, you, names, width)
        board = render_board(view, you, names, width)
        deals = deals_summary(view, you, width)
    elif result:
        seats = ["This game is over."]
    else:
        taken = [s for s in (info or {}).get("seats") or [] if s]
        total = len((info or {}).get("seats") or [])
        seats = _wrap(f"Waiting for players: {len(taken)} of {total} seats taken. "
                      "The game starts when every seat is taken.", width)
        if isinstance(you, int) and len(taken) < total:
            seats += _wrap("Type /bots to give the free seats to the server's bots (/bots 2: two of them; "
                           "/bots ? says what each kind of bot does), or wait for people to join.", width)
        seats += [f"  seat {s.get('seat')}: {s.get('name')}" + (" (you)" if s.get("seat") == you else "")
                  for s in taken]
    decision: list[str] = []
    quick: list[str] = []
    if result:
        decision += render_result(result) if screen is None else screen.result(result)
        decision.append(after_end)
    elif view and screen is not None:
        decision += screen.decision(prompt, view, you, names, seconds_left=seconds_left, sending=sending, width=width)
    elif view:
        decision += render_prompt(prompt, view, you, names, seconds_left=seconds_left, sending=sending, width=width)
        offers, told = render_offers(view, you, names, fates, width)
        decision += offers + told
        quick = render_quick(view, prompt, you, names, width)
    tail: list[str] = []
    auto = list(auto)
    if auto:
        tail.append("Auto-answer on (unconditional): pass every " + ", ".join(auto) + " round. /auto off to stop.")
    if status:
        tail.append(status)
    decision = [part for line in decision for part in _wrap(line, width, indent="    ")]
    tail = [part for line in tail for part in _wrap(line, width, indent="    ")]
    seated_commands = TABLE_COMMANDS if screen is None else screen.commands
    commands = _wrap(seated_commands if isinstance(you, int) else "Commands: /lobby | /quit | /help   "
                     "PgUp/PgDn: the story so far", width, indent="    ")
    lines_of = feed_lines(feed, width)
    want_feed = 6
    offers_n = sum(1 for line in quick if line.startswith("Quick deal /offer "))
    quick_short = [f"Quick deals: /offer 1{f'-{offers_n}' if offers_n > 1 else ''} (a taller terminal lists "
                   "them)"[:width]] if quick else []
    parts = {"sep": 2, "commands": len(commands), "deals": len(deals), "board": len(board), "quick": len(quick)}
    fixed = 1 + len(seats) + len(decision) + len(tail)
    for drop in ("sep", "commands", "deals", "board", "quick"):
        if height - fixed - sum(parts.values()) >= want_feed:
            break
        parts[drop] = len(quick_short) if drop == "quick" else 0
    room = height - fixed - sum(parts.values())
    if room < 3:  # still short: the seats give way last, the viewer's own and the fighters' the very last
        keep = max(1, len(seats) - (3 - room))
        if screen is None and view and len(seats) == len(view.get("seats") or []):
            fight = view.get("fight") or {}
            first = [s for s in (you, fight.get("attacker"), fight.get("defender")) if isinstance(s, int)]
            order = list(dict.fromkeys([*first, *range(len(seats))]))
            kept = sorted(i for i in order[:keep] if 0 <= i < len(seats))
            seats = [seats[i] for i in kept]
        else:
            seats = seats[:keep]
        room = height - 1 - len(seats) - len(decision) - len(tail) - sum(parts.values())
    top = [header, *seats, *board[: parts["board"]], *deals[: parts["deals"]]]
    if parts["sep"]:
        top.append(rule)
    room = max(0, room)
    scroll = min(max(0, scroll), max(0, len(lines_of) - room + 1))
    if scroll > 0 and room > 1:  # the last line says what is below
        end = len(lines_of) - scroll
        shown = lines_of[max(0, end - room + 1):end]
        shown.append(f"-- {scroll} more lines below: PgDn, or End for the latest --")
    else:
        shown = lines_of[max(0, len(lines_of) - room):] if room > 0 else []
        # An entry cut at the top shows whole or not at all: no line begins
        # in the middle of a sentence (its wrapped rest, indented).
        cut = 0
        while cut < len(shown) and len(shown) < len(lines_of) and shown[cut].startswith("    "):
            cut += 1
        shown = [""] * cut + shown[cut:]
    shown += [""] * max(0, room - len(shown))
    quick = quick if parts["quick"] == len(quick) else quick_short
    bottom = ([rule] if parts["sep"] else []) + decision + quick + tail + commands[: parts["commands"]]
    lines = top + shown + bottom
    return [line[:width] for line in lines[-height:]] if height > 0 else lines


# -- the feed --------------------------------------------------------------------

def narrate_update_event(event: dict, you: Any, names: Names | None = None) -> str | None:
    """One feed entry for one event: table events here, game events by the
    shared narrator. None for events not worth a line."""
    names = names or {}
    viewer = you if isinstance(you, int) else None
    if event.get("type") in TABLE_EVENTS:
        return narrate_table_event(event, lambda seat: seat_ref(seat, names, you)) or None
    return narrate({k: v for k, v in event.items() if k != "seq"}, viewer)


# -- the lobby -------------------------------------------------------------------

def _timer_text(timers: dict | None) -> str:
    """A table's timers in the list: the preset's name (its words are below
    the list, as the page says them), else the seconds per decision."""
    if not timers:
        return ""
    if timers.get("zero_wait"):
        return "bot timers"
    if timers.get("turn_based"):  # the kind first: a turn-based table seats accounts only (docs/table.md T8)
        return f"turn-based, {preset_of(timers) or str(timers.get('prompt_ms', 0) // 3_600_000) + ' h per decision'}"
    return preset_of(timers) or f"{timers.get('prompt_ms', 0) // 1000} s per decision"


def render_lobby(tables: Sequence[dict], *, url: str, name: str, status: str = "", width: int = 100,
                 height: int = 40, mine: Iterable[str] = (), games: str = "", signed_in: bool = False) -> list[str]:
    """The lobby: numbered tables and the commands to join, watch or create one.
    `games`: the games the server plays, with their seats (served.games_text).
    `signed_in`: `name` is the account's, which every seat taken here gets."""
    mine = set(mine)
    who = f"signed in as {name}" if signed_in else f"your name: {name}"
    lines = [f"ORIENTE lobby | {url} | {who}", "-" * min(width, 120)]
    if not tables:
        lines.append("No tables yet. Create one: create 4 normal")
    else:
        lines.append(f"{'#':>3}  {'table':<12}  {'status':<8}  {'seats':<6}  {'timers':<17}  name / players")
    presets = [*(f"    {preset_text(p)}" + (" (the default)" if p == DEFAULT_PRESET else "") for p in TIMER_PRESETS),
               *(f"    {p}: {timers_text(TURN_PRESETS[p], tagged=False)}" for p in TURN_PRESETS)]
    commands = [
        "Commands:",
        "  join N [SEAT]              sit at table N (its number above or its id)",
        "  watch N                    watch table N as a spectator",
        "  create [GAME] SEATS [PRESET] [NAME]   open a table and sit down",
        *([f"                             (games: {games})"] if games else []),
        f"    PRESET: {'|'.join(TIMER_PRESETS)}, or turn-based (accounts only) {'|'.join(TURN_PRESETS)}",
        *presets,
        "  refresh                    read the list again (it also refreshes by itself)",
        "  mine                       your tables (and, signed in, your account's)",
        "  name NEW-NAME              change the name you join with" if not signed_in else
        "  (signed in: every seat you take carries the account's name)",
        "  quit",
    ]
    # What was just said (a refusal, `mine`'s list) stays on screen, and the
    # list keeps a few lines: a short terminal loses the presets' words first.
    said = _wrap(status, width) if status else []
    if height - 4 - len(commands) - len(said) < min(len(tables) + 1, 6):
        commands = [c for c in commands if c not in presets]
    room = max(1, height - 4 - len(commands) - len(said))  # what the commands below leave for the list
    shown = tables if len(tables) <= room else tables[: room - 1]
    for i, t in enumerate(shown, 1):
        settings = t.get("settings") or {}
        seats = t.get("seats") or []
        taken = [s for s in seats if s]
        players = ", ".join(str(s.get("name")) for s in taken)
        label = settings.get("name") or ""
        if t.get("game", DEFAULT_GAME) != DEFAULT_GAME:  # a table that names no game plays the default
            label = f"[{t['game']}] {label}"
        text = (f"{i:>3}  {t.get('table', ''):<12}  {t.get('status', ''):<8}  {len(taken)}/{len(seats):<4}  "
                f"{_timer_text(settings.get('timers')):<17}  {label}" + (f" [{players}]" if players else ""))
        if t.get("table") in mine:
            text += "  (your seat: join to go back)"
        lines.append(text[:width])
    if len(shown) < len(tables):
        lines.append(f"     ... and {len(tables) - len(shown)} more "
                     "(a larger terminal shows them; join or watch by id)")
    lines.append("-" * min(width, 120))
    lines += commands
    keep = max(height - len(said), 1)
    return [line[:width] for line in (lines[:keep] + said)[:max(height, 1)]]
