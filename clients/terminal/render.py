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
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from oriente.clients.narrate import TABLE_EVENTS, describe_result, narrate, narrate_table_event
from oriente.server.rules.cards import VALUE, card_name
from oriente.server.rules.commands import DECISION_COMMAND_TYPES

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
    "render_prompt",
    "render_result",
    "render_seats",
    "render_table",
    "seat_ref",
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
    """'42 s', '2 min 05 s', 'time is up'."""
    if seconds is None:
        return ""
    if seconds <= 0:
        return "time is up"
    whole = int(seconds + 0.999)
    if whole < 60:
        return f"{whole} s"
    return f"{whole // 60} min {whole % 60:02d} s"


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


def choice_label(cmd: dict, topic: str | None = None, names: Names | None = None, view: dict | None = None,
                 you: Any = None) -> str:
    """One legal command in words, as the person picks it."""
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
    """Numbered choices, in columns when there are many."""
    items = [f"{i:>2}) {label}" for i, label in enumerate(labels, 1)]
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


def render_prompt(prompt: dict | None, view: dict | None, you: Any, names: Names | None = None, *,
                  seconds_left: float | None = None, sending: str | None = None, width: int = 100) -> list[str]:
    """The open decision: who is asked, the countdown, and (for this seat)
    the numbered choices."""
    names = names or {}
    if not prompt:
        return ["Nothing to decide right now."]
    topic = prompt.get("topic", "")
    title = _TOPIC_TITLES.get(topic, topic)
    rule = prompt.get("rule")
    clock = format_seconds(seconds_left)
    clock_text = f" -- {clock} left" if clock and clock != "time is up" else (" -- time is up" if clock else "")
    lines: list[str] = []
    published = prompt.get("published") or []
    if published:
        done = []
        for seat, answer in published:
            done.append(f"{seat_ref(seat, names, you)}: {_published(answer, topic)}")
        lines.append("So far: " + "; ".join(done))
    pivot = prompt.get("pivot")
    asked = prompt.get("asked") or []
    choices = decision_choices(prompt)
    mine = wants_answer(prompt, you)
    if sending:
        lines.insert(0, f"Decision #{prompt.get('id')} ({title}){clock_text}")
        lines.append(f"Answer sent: {sending}. Waiting for the table...")
        return lines
    if mine:
        early = pivot != you
        head = f">>> YOUR DECISION #{prompt.get('id')}: {title} ({rule}){clock_text}"
        lines.insert(0, head)
        if prompt.get("kind") == "window":
            lines.append("    You may declare your support now: it stays sealed (shown to nobody) and becomes final "
                         "when the window closes, at once if every asked seat has declared and both fighters "
                         "have said done (R10.2b1). Talk and deals are "
                         "open meanwhile.")
        elif early:
            lines.append(f"    {seat_ref(pivot, names, you)} decides first. You may answer early: your answer stays "
                         "sealed (shown to nobody) and can be changed until your turn.")
        sealed = prompt.get("sealed")
        if sealed:
            lines.append(f"    Your sealed answer: {choice_label(sealed, topic, names, view, you)}. "
                         "Type another number to change it.")
        lines.append(f"    If you say nothing: {prompt.get('silence', 'pass')}.")
        lines.extend(_columns([choice_label(c, topic, names, view, you) for c in choices], width))
        if not sealed:
            lines.append(f"Type a number (1-{len(choices)}) and press Enter.")
        return lines
    if prompt.get("kind") == "window":
        lines.insert(0, f"Negotiation window ({rule}): {', '.join(seat_ref(s, names, you) for s in asked) or 'nobody'}"
                        f" may support a side next{clock_text}. Talk and deals are open.")
    else:
        lines.insert(0, f"Waiting for {seat_ref(pivot, names, you)}: {title} ({rule}){clock_text}")
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


def render_seats(view: dict, you: Any, names: Names | None = None, width: int = 100) -> list[str]:
    """One line per seat: name, disc, stone, inhabitant, score pile and total."""
    names = names or {}
    seats = view.get("seats") or []
    stone = view.get("stone_holder")
    name_w = max([len(names.get(s.get("seat"), "")) for s in seats] + [4])
    lines = []
    for slot in seats:
        s = slot.get("seat")
        who = names.get(s, "?") + (" (you)" if s == you and isinstance(you, int) else "")
        disc = "disc held" if slot.get("disc") else "disc USED"
        mark = "STONE" if s == stone else ""
        pile = slot.get("pile") or []
        pile_text = ", ".join(card_name(c) for c in pile) if pile else "empty"
        promises = ""
        if slot.get("kept") or slot.get("broken"):
            promises = f"  promises kept {slot.get('kept', 0)}, broken {slot.get('broken', 0)}"
        text = (f"{'>' if s == you and isinstance(you, int) else ' '} seat {s:<2} {who:<{name_w + 6}} {disc:<9} "
                f"{mark:<5}  inhabitant: {_inhabitant(slot, you, names)}  |  "
                f"pile ({pile_total(pile)} pts): {pile_text}{promises}")
        lines.extend(_wrap(text, width, indent=" " * 12))
    return lines


def render_board(view: dict, you: Any, names: Names | None = None, width: int = 100) -> list[str]:
    """Workers, bonus pile, deck, destiny stone, and the announcement or fight in progress."""
    names = names or {}
    w = view.get("workers") or {}
    hut = f"hut {w.get('hut', 0)}" if w.get("hut_used") else "hut not used"
    bonus = f"bonus pile {_plural(view.get('bonus_size', 0), 'card')}"
    if view.get("bonus_set_aside"):
        bonus += f" ({view['bonus_set_aside']} set aside for the fulfilling seat)"
    if view.get("bonus_awarded"):
        bonus += ", awarded this season"
    deck = f"deck {_plural(view.get('deck_size', 0), 'card')}"
    bottom = view.get("deck_bottom") or []
    if bottom:
        deck += " (known at the bottom, bottom first: " + ", ".join(_card(c) for c in bottom) + ")"
    lines = _wrap(f"Workers: supply {w.get('supply', 0)}, {hut}, square {w.get('square', 0)}   |   {bonus}   |   "
                  f"{deck}   |   destiny stone: {seat_ref(view.get('stone_holder'), names, you)}", width)
    if view.get("phase") == "over":
        return lines
    announcer = view.get("announcer")
    if announcer is not None and view.get("action"):
        chain = view.get("chain") or []
        text = f"Announced: {seat_ref(announcer, names, you)}: {action_label(view.get('action'), names, you)}"
        if len(chain) > 1:
            text += f" (chain: {', '.join(str(s) for s in chain)})"
        lines.extend(_wrap(text, width))
    fight = view.get("fight")
    if fight:
        text = (f"Fight: {seat_ref(fight.get('attacker'), names, you)} "
                f"attacks {seat_ref(fight.get('defender'), names, you)}")
        reinf = fight.get("reinforcements") or []
        if reinf:
            text += "; reinforcements: " + ", ".join(f"{seat_ref(s, names, you)} {_card(c)}" for s, c in reinf)
        lines.extend(_wrap(text, width))
    return lines


def _transfer_text(t: dict, names: Names, you: Any) -> str:
    text = (f"{seat_ref(t.get('giver'), names, you)} gives {_card(t.get('card'))} "
            f"to {seat_ref(t.get('receiver'), names, you)}")
    if t.get("consideration"):
        text += f' (for "{t["consideration"]}")'
    return text


def _promise_text(p: dict, names: Names, you: Any) -> str:
    return (f'{seat_ref(p.get("promiser"), names, you)} promises '
            f'{seat_ref(p.get("promisee"), names, you)} "{p.get("text", "")}"')


def render_deals(view: dict, you: Any, names: Names | None = None, width: int = 100) -> list[str]:
    """Open deals with what this seat may do about them, and open promises."""
    names = names or {}
    lines: list[str] = []
    for d in view.get("deals") or []:
        parts = [_transfer_text(t, names, you) for t in d.get("transfers") or []]
        parts += [_promise_text(p, names, you) for p in d.get("promises") or []]
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


def render_result(result: dict | None) -> list[str]:
    """The final scores (R9.3, R9.4)."""
    if not result:
        return []
    return ["GAME OVER", *describe_result(result).splitlines()]


def _header(table: str, info: dict | None, view: dict | None, you: Any, names: Names) -> str:
    settings = (info or {}).get("settings") or {}
    name = settings.get("name")
    who = "a spectator" if not isinstance(you, int) else seat_ref(you, names)
    text = f"Table {table}" + (f' "{name}"' if name else "") + f" | you are {who}"
    if view:
        text += f" | season {view.get('season')}, {view.get('phase')}"
    return text


def render_table(*, table: str, view: dict | None, prompt: dict | None, you: Any, names: Names | None = None,
                 info: dict | None = None, feed: Sequence[str] = (), seconds_left: float | None = None,
                 sending: str | None = None, result: dict | None = None, status: str = "",
                 auto: Iterable[str] = (), width: int = 100, height: int = 40) -> list[str]:
    """The whole table screen, at most `height` lines, each at most `width`
    characters (the input line comes below it)."""
    names = names or {}
    top = [_header(table, info, view, you, names), "-" * min(width, 120)]
    if view:
        top += render_seats(view, you, names, width)
        top += render_board(view, you, names, width)
        top += render_deals(view, you, names, width)
    elif result:
        top.append("This game is over.")
    else:
        seats = (info or {}).get("seats") or []
        taken = [s for s in seats if s]
        top.append(f"Waiting for players: {len(taken)} of {len(seats)} seats taken. "
                   "The game starts when every seat is taken.")
        for s in taken:
            top.append(f"  seat {s.get('seat')}: {s.get('name')}" + (" (you)" if s.get("seat") == you else ""))
    top.append("-" * min(width, 120))
    bottom: list[str] = ["-" * min(width, 120)]
    if result:
        bottom += render_result(result)
        bottom.append("Type /lobby to go back to the lobby, or /quit to leave.")
    elif view:
        bottom += render_prompt(prompt, view, you, names, seconds_left=seconds_left, sending=sending, width=width)
    auto = list(auto)
    if auto:
        bottom.append("Auto-answer on (unconditional): pass every " + ", ".join(auto) + " round. /auto off to stop.")
    if status:
        bottom.extend(_wrap(status, width))
    if isinstance(you, int):
        bottom.append("Commands: NUMBER | /say TEXT | /deal give CARD to SEAT for REASON | /accept N | "
                      "/decline N | /help | /lobby | /quit")
    else:
        bottom.append("Commands: /lobby | /quit | /help")
    bottom = [part for line in bottom for part in _wrap(line, width, indent="    ")]
    feed_lines: list[str] = []
    for entry in feed:
        for line in entry.splitlines():
            feed_lines.extend(_wrap(line, width, indent="    "))
    room = height - len(top) - len(bottom)
    if room < 3:
        keep_top = max(2, height - len(bottom) - 3)
        top = top[:keep_top]
        room = height - len(top) - len(bottom)
    feed_lines = feed_lines[-room:] if room > 0 else []
    feed_lines += [""] * max(0, room - len(feed_lines))
    lines = top + feed_lines + bottom
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
    if not timers:
        return ""
    if timers.get("zero_wait"):
        return "bot timers"
    return f"{timers.get('prompt_ms', 0) // 1000} s per decision"


def render_lobby(tables: Sequence[dict], *, url: str, name: str, status: str = "", width: int = 100,
                 height: int = 40, mine: Iterable[str] = ()) -> list[str]:
    """The lobby: numbered tables and the commands to join, watch or create one."""
    mine = set(mine)
    lines = [f"ORIENTE lobby | {url} | your name: {name}", "-" * min(width, 120)]
    if not tables:
        lines.append("No tables yet. Create one: create 4 people")
    else:
        lines.append(f"{'#':>3}  {'table':<12}  {'status':<8}  {'seats':<6}  {'timers':<17}  name / players")
    room = max(1, height - 14)  # what the commands below leave for the list
    shown = tables if len(tables) <= room else tables[: room - 1]
    for i, t in enumerate(shown, 1):
        settings = t.get("settings") or {}
        seats = t.get("seats") or []
        taken = [s for s in seats if s]
        players = ", ".join(str(s.get("name")) for s in taken)
        label = settings.get("name") or ""
        text = (f"{i:>3}  {t.get('table', ''):<12}  {t.get('status', ''):<8}  {len(taken)}/{len(seats):<4}  "
                f"{_timer_text(settings.get('timers')):<17}  {label}" + (f" [{players}]" if players else ""))
        if t.get("table") in mine:
            text += "  (your seat: join to go back)"
        lines.append(text[:width])
    if len(shown) < len(tables):
        lines.append(f"     ... and {len(tables) - len(shown)} more "
                     "(a larger terminal shows them; join or watch by id)")
    lines.append("-" * min(width, 120))
    lines += [
        "Commands:",
        "  join N [SEAT]              take a seat at table N (a number above, or a table id); also: N",
        "  watch N                    watch table N as a spectator",
        "  create SEATS [people|quick] [NAME]   open a table for 4-12 seats and sit down",
        "                             (people: 60 s per decision; quick: 20 s)",
        "  refresh                    read the list again (it also refreshes by itself)",
        "  name NEW-NAME              change the name you join with",
        "  quit",
    ]
    if status:
        lines.extend(_wrap(status, width))
    return [line[:width] for line in lines[:max(height, 1)]]
