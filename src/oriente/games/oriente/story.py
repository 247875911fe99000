"""The story of a table as one viewer follows it: the narrator's lines,
plus what no single event can say.

`narrate.OrienteNarrator` tells each event on its own. A story remembers what came
before, from the events this viewer received (and its view, if it has one),
so it can also tell:

- a fight's totals broken down into the cards that made them (R6.5): the
  fighters' inhabitants, the supporters', the reinforcements;
- the score piles at each season's end (a running score, R9.3);
- a run of seats passing in a privilege round as one line;
- a promise kept, broken or released with what it promised (R8.6), not
  only its number;
- a timeout as a timeout (the table's TimedOut event, told by the narrator).

Nothing here knows more than the events and view it is given: a card is
named only if an event or the view named it to this viewer (R10.4). Every
sentence comes from the game's words (words/LANG.json, keys `story.*`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from oriente.clients.narrate import TABLE_EVENTS, Label, Viewer
from oriente.games.oriente.narrate import OrienteNarrator
from oriente.games.oriente.rules.cards import VALUE

__all__ = ["Story"]


class Story:
    """Follows one viewer's events; `tell` turns each batch into lines."""

    def __init__(self, viewer: Viewer = None, *, lang: str = "en", label: Label | None = None) -> None:
        self.viewer = viewer
        self.narrator = OrienteNarrator(lang, label)
        self.known: dict[int, int] = {}  # seat -> its inhabitant, as last shown to this viewer
        self.fight: dict[str, Any] | None = None
        self.deal_promises: dict[int, list[dict[str, Any]]] = {}
        self.promises: dict[int, dict[str, Any]] = {}
        self._run: list[Any] = []  # seats of the pass run the last batch ended with
        self.replaces_last = False  # the first line of the last `tell(merge=True)` retells the line before it

    # -- memory -----------------------------------------------------------------------

    def _see(self, view: dict[str, Any] | None) -> None:
        for slot in (view or {}).get("seats") or []:
            card = slot.get("inhabitant")
            if card is not None:
                self.known[slot["seat"]] = card

    def _note(self, e: dict[str, Any]) -> None:
        """Remember what this event showed."""
        t = e.get("type")
        if t == "Announced" and e.get("card") is not None:
            self.known[e["seat"]] = e["card"]
        elif t == "FightBegan":
            if e.get("defender_card") is not None:
                self.known[e["defender"]] = e["defender_card"]
            self.fight = {"attacker": e["attacker"], "defender": e["defender"], "supporters": [], "turned": []}
        elif t == "SupportersRevealed" and self.fight is not None:
            for seat, card, side in e.get("supporters") or []:
                self.fight["supporters"].append((seat, card, side))
                if card is not None:
                    self.known[seat] = card
        elif t == "ReinforcementTurned" and self.fight is not None:
            self.fight["turned"].append((e["seat"], e.get("card")))
        elif t in ("ReinforcementTaken", "InhabitantDrawn"):
            if e.get("card") is not None:
                self.known[e["seat"]] = e["card"]
            else:
                self.known.pop(e["seat"], None)
        elif t == "RevolutionResolved":
            for seat, card in e.get("inhabitants") or []:
                if card is not None:
                    self.known[seat] = card
        elif t == "DealProposed":
            self.deal_promises[e["deal"]] = list(e.get("promises") or [])
        elif t == "DealExecuted":
            for pid, promise in zip(e.get("promise_ids") or [], self.deal_promises.pop(e["deal"], []), strict=False):
                self.promises[pid] = promise
        elif t == "DealClosed":
            self.deal_promises.pop(e["deal"], None)

    # -- telling ----------------------------------------------------------------------------

    def tell(self, events: Iterable[dict[str, Any]], view: dict[str, Any] | None = None, *,
             merge: bool = False) -> list[str]:
        """Lines for one batch of events (a frame's worth); `view` is the
        viewer's view after them, if it has one. With `merge`, a run of
        passes that goes on from the last batch is told again as one line
        and `replaces_last` says so (a screen replaces that line; a printed
        story cannot, and leaves `merge` off)."""
        lines: list[str] = []
        events = list(events)
        continues = (merge and bool(self._run) and bool(events) and events[0].get("type") == "PrivilegePassed"
                     and not events[0].get("voided_claim"))
        passes: list[Any] = list(self._run) if continues else []
        self.replaces_last = continues

        def flush() -> None:
            if len(passes) == 1:
                lines.append(self.narrator.narrate({"type": "PrivilegePassed", "seat": passes[0]}, self.viewer))
            elif passes:
                lines.append(_cap(self.narrator.t("story.passed_many", seats=self.narrator.seats(passes))))
            passes.clear()

        for e in events:
            t = e.get("type")
            if t == "PrivilegePassed" and not e.get("voided_claim"):
                passes.append(e["seat"])
                continue
            flush()
            text = self._line(e, view)
            self._note(e)
            if text:
                lines.append(text)
        self._run = list(passes) if merge else []  # the batch ended with these passes
        flush()
        self._see(view)
        return lines

    def _line(self, e: dict[str, Any], view: dict[str, Any] | None) -> str:
        n = self.narrator
        t = e.get("type")
        if t in TABLE_EVENTS:
            return n.table_event(e)
        if t == "FightResolved":
            return self._fight(e) or n.narrate(e, self.viewer)
        if t == "SeasonEnded":
            return n.narrate(e, self.viewer) + self._scores(e, view)
        if t == "PromiseSettled" and e.get("promise") in self.promises:
            status = e.get("status")
            if status in ("kept", "broken", "released"):
                return _cap(n.t(f"story.{status}", promiser=n.seat(e["promiser"]), promise=e["promise"],
                                what=self._promise(self.promises[e["promise"]])))
        return n.narrate(e, self.viewer)

    def _fight(self, e: dict[str, Any]) -> str | None:
        """FightResolved with each total as the sum of its cards, when every
        card of it was shown to this viewer and they add up (R6.5)."""
        fight, n = self.fight, self.narrator
        self.fight = None
        if fight is None:
            return None
        sides: dict[str, list[tuple[int, str]]] = {"attacker": [], "defender": []}
        for side in ("attacker", "defender"):
            seat = fight[side]
            if seat not in self.known:
                return None
            sides[side].append(self._part(seat, self.known[seat]))
        side_of = {fight["attacker"]: "attacker", fight["defender"]: "defender"}
        for seat, card, side in fight["supporters"]:
            if card is None or side not in sides:
                return None
            side_of[seat] = side
            sides[side].append(self._part(seat, card))
        for seat, card in fight["turned"]:
            if card is None or seat not in side_of:
                return None
            sides[side_of[seat]].append(
                (_value(card), n.t("story.reinforcement", card=n.name(card), value=_value(card))))
        totals = {"attacker": e["attack_total"], "defender": e["defence_total"]}
        if any(sum(v for v, _ in parts) != totals[side] for side, parts in sides.items()):
            return None  # not what the server counted: tell the plain totals
        words = {side: n.t("story.side", total=totals[side], parts=" + ".join(w for _, w in parts))
                 for side, parts in sides.items()}
        key = "FightResolved.shogun" if e.get("shogun_defence") else "FightResolved"
        return n.t(key, attack=words["attacker"], defence=words["defender"], winner=n.seat(e["winner"]),
                   loser=n.seat(e["loser"]), card=n.name(e.get("captured")))

    def _part(self, seat: int, card: int) -> tuple[int, str]:
        n = self.narrator
        return _value(card), n.t("story.part", seat=n.seat(seat), card=n.name(card), value=_value(card))

    def _scores(self, e: dict[str, Any], view: dict[str, Any] | None) -> str:
        """' Score piles after season 2: ...' from the view (score piles are
        public, R10.4); nothing without a view."""
        seats = (view or {}).get("seats") or []
        if not seats:
            return ""
        n = self.narrator
        items = [n.t("story.score", seat=n.seat(slot["seat"]), points=sum(_value(c) for c in slot.get("pile") or []))
                 for slot in seats]
        return "\n" + n.t("story.scores", season=e["season"], list=n.t("sep").join(items))

    def _promise(self, p: dict[str, Any]) -> str:
        """What a promise promised, from its structured fields (R8.6)."""
        n = self.narrator
        kind = p.get("kind", "free")
        if kind == "support":
            side = p.get("side")
            fighter = p.get("attacker") if side == "attacker" else p.get("defender")
            return n.t("story.promise.support", side=n.t(f"side.{side}"), fighter=n.seat(fighter),
                       attacker=n.seat(p.get("attacker")), defender=n.seat(p.get("defender")))
        if kind == "no_attack":
            return n.t("story.promise.no_attack", target=n.seat(p.get("seat")))
        if kind == "pay":
            return n.t("story.promise.pay", promisee=n.seat(p.get("promisee")), cards=n.cards(p.get("cards") or []),
                       season=p.get("by_season"))
        return n.t("story.promise.free", promisee=n.seat(p.get("promisee")), text=p.get("text", ""))


def _value(card: int) -> int:
    return VALUE[card]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
