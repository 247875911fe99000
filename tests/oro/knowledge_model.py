"""An independent who-knows-what model for Oro, rebuilt from full events alone.

The engine keeps its own bookkeeping (`state.known`) and its own gate
(`views.py`); this model shares neither. It follows every hand through the
full-detail events and applies O8.6 as the rules reference words it:

- a card arriving from the display is seen by every seat and the public;
  from the deck by its drawer alone; by Ku or Pele by the two seats
  involved (the giver and the taker);
- a card leaving a hand when played (and a card given up at setup, once
  revealed) is seen by all; a face-down discard by its owner alone; a card
  taken by Ku or Pele, or given back, by the two seats involved;
- an observer that sees a card of island X leave is certain of one X fewer;
  one that does not is certain of one card fewer of every island;
- Ku shows the user the target's whole hand; after the game every hand is
  public (O8.8).

`CARD_FIELDS` says, per event type, which fields hold cards and who may see
them; `visible_to` answers it for one event and one viewer, so a test can
check every projection in both directions: no card a viewer may not know,
and no card hidden from one who may.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

PUBLIC = "public"

# Every field of every event, classified. Card fields name who may see the
# card: "all", "seat" (the acting seat), or a pair ("seat", other field).
# Fields not listed hold no hidden card. An event type the engine adds must
# be listed here before the properties pass.
CARD_FIELDS: dict[str, dict[str, Any]] = {
    "GameStarted": {"hands": "per_seat"},
    "GaveUp": {"island": "seat"},
    "DisplayOpened": {},
    "TurnBegan": {},
    "Built": {},
    "Replaced": {},
    "ControlGained": {},
    "ControlLost": {},
    "BridgeRemoved": {},
    "Discarded": {"island": "seat"},
    "Drew": {"island": "drew"},
    "TurnEnded": {},
    "Passed": {},
    "Scored": {},
    "Reshuffled": {},
    "FinalRoundBegan": {},
    "KuLooked": {"hand": ("seat", "target")},
    "KuTook": {"island": ("seat", "target")},
    "PeleTook": {"taken": "pele"},
    "PeleGave": {"island": ("seat", "to")},
    "LonoUsed": {},
    "GameEnded": {},
}

OTHER_FIELDS: dict[str, set[str]] = {
    "GameStarted": {"seats", "gods", "board", "first_seat", "deck_size", "stones"},
    "GaveUp": {"seat", "decision"},
    "DisplayOpened": {"given", "filled", "display", "deck_size"},
    "TurnBegan": {"seat", "half"},
    "Built": {"seat", "connection", "island", "kanaloa"},
    "Replaced": {"seat", "connection", "owner", "islands", "kanaloa"},
    "ControlGained": {"seat", "island", "removed", "stone", "kane"},
    "ControlLost": {"seat", "island"},
    "BridgeRemoved": {"seat", "island", "connection", "owner"},
    "Discarded": {"seat"},
    "Drew": {"seat", "from_display", "refill", "deck_size", "lono"},
    "TurnEnded": {"seat", "final", "played"},  # final, played: a final turn of rules revision 2 (O10.1)
    "Passed": {"seat"},
    "Scored": {"final", "islands", "points", "scores"},
    "Reshuffled": {"deck_size", "display"},
    "FinalRoundBegan": {"scores"},
    "KuLooked": {"seat", "target"},
    "KuTook": {"seat", "target"},
    "PeleTook": {"seat"},
    "PeleGave": {"seat", "to"},
    "LonoUsed": {"seat"},
    "GameEnded": {"reason", "winner", "scores", "ranks", "final_order", "hands"},
}


def schema_problems(event: dict) -> list[str]:
    """Fields of a full event that are not classified above."""
    kind = event["type"]
    if kind not in CARD_FIELDS:
        return [f"unknown event type {kind}"]
    known = set(CARD_FIELDS[kind]) | OTHER_FIELDS[kind] | {"type"}
    return [f"{kind}.{f}" for f in event if f not in known]


def _seat(viewer: Any) -> int | None:
    return viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None


def hidden_parts(event: dict, viewer: Any) -> list[tuple[str, bool]]:
    """For each card of the event held in a hidden field: (where, whether
    `viewer` may see it). A spectator sees none of them."""
    seat = _seat(viewer)
    out: list[tuple[str, bool]] = []
    for name, who in CARD_FIELDS[event["type"]].items():
        if who == "per_seat":
            for s, hand in enumerate(event[name]):
                out.extend((f"{name}[{s}]", seat == s) for _ in hand)
        elif who == "seat":
            out.append((name, seat == event["seat"]))
        elif who == "drew":
            out.append((name, event["from_display"] or seat == event["seat"]))
        elif who == "pele":
            for o, _ in event[name]:
                out.append((f"{name}[{o}]", seat in (event["seat"], o)))
        else:
            a, b = who
            may = seat in (event[a], event[b])
            cards = event[name] if isinstance(event[name], list) else [event[name]]
            out.extend((name, may) for _ in cards)
    return out


def shown_cards(projected: dict) -> list[tuple[str, bool]]:
    """For each card slot of a projected event in a hidden field, whether
    the projection shows it (not None)."""
    out: list[tuple[str, bool]] = []
    for name, who in CARD_FIELDS[projected["type"]].items():
        value = projected[name]
        if who == "per_seat":
            for s, hand in enumerate(value):
                out.extend((f"{name}[{s}]", c is not None) for c in hand)
        elif who == "pele":
            out.extend((f"{name}[{o}]", c is not None) for o, c in value)
        elif isinstance(value, list):
            out.extend((name, c is not None) for c in value)
        else:
            out.append((name, value is not None))
    return out


class KnowledgeModel:
    """Hands and certain knowledge, from full events only."""

    def __init__(self) -> None:
        self.n = 0
        self.hands: list[Counter[int]] = []
        self.certain: dict[Any, list[Counter[int]]] = {}
        self.hidden: list[list[int]] = []  # each seat's face-down discards this half

    def _observers(self) -> list[Any]:
        return [*range(self.n), PUBLIC]

    def _join(self, seat: int, island: int, witnesses: set[Any]) -> None:
        self.hands[seat][island] += 1
        for o in witnesses:
            if o != seat:
                self.certain[o][seat][island] += 1

    def _leave(self, seat: int, island: int, witnesses: set[Any]) -> None:
        assert self.hands[seat][island] > 0, f"seat {seat} never had the card of island {island} it lost"
        self.hands[seat][island] -= 1
        for o in self._observers():
            if o == seat:
                continue
            row = self.certain[o][seat]
            if o in witnesses:
                if row[island] > 0:
                    row[island] -= 1
            else:
                for k in list(row):
                    if row[k] > 0:
                        row[k] -= 1
        self.hands[seat] += Counter()  # drop zeros

    def _all(self) -> set[Any]:
        return set(self._observers())

    def apply(self, e: dict) -> None:
        kind = e["type"]
        if kind == "GameStarted":
            self.n = e["seats"]
            self.hands = [Counter(h) for h in e["hands"]]
            self.certain = {o: [Counter() for _ in range(self.n)] for o in self._observers()}
            self.hidden = [[] for _ in range(self.n)]
        elif kind == "DisplayOpened":
            for seat, island in e["given"]:
                self._leave(seat, island, self._all())
        elif kind == "Drew":
            self._join(e["seat"], e["island"], self._all() if e["from_display"] else {e["seat"]})
        elif kind == "Built":
            if e["island"] is not None:
                self._leave(e["seat"], e["island"], self._all())
        elif kind == "Replaced":
            for island in e["islands"]:
                self._leave(e["seat"], island, self._all())
        elif kind == "Discarded":
            self._leave(e["seat"], e["island"], {e["seat"]})
            self.hidden[e["seat"]].append(e["island"])
        elif kind == "Reshuffled":
            self.hidden = [[] for _ in range(self.n)]
        elif kind == "KuLooked":
            self.certain[e["seat"]][e["target"]] = Counter(e["hand"])
            assert Counter(e["hand"]) == self.hands[e["target"]], "Ku saw a hand that is not the target's"
        elif kind == "KuTook":
            both = {e["seat"], e["target"]}
            self._leave(e["target"], e["island"], both)
            self._join(e["seat"], e["island"], both)
        elif kind == "PeleTook":
            for o, island in e["taken"]:
                both = {e["seat"], o}
                self._leave(o, island, both)
                self._join(e["seat"], island, both)
        elif kind == "PeleGave":
            both = {e["seat"], e["to"]}
            self._leave(e["seat"], e["island"], both)
            self._join(e["to"], e["island"], both)
        elif kind == "GameEnded":
            for s, hand in enumerate(e["hands"]):
                assert Counter(hand) == self.hands[s], "the revealed hand is not the one the events built"
                for o in self._observers():
                    if o != s:
                        self.certain[o][s] = Counter(hand)

    def known(self, viewer: Any, seat: int) -> list[int]:
        """What `viewer` (a seat, or anyone else: the public) is certain `seat` holds."""
        o = viewer if _seat(viewer) is not None and 0 <= viewer < self.n else PUBLIC
        return sorted(self.certain[o][seat].elements())

    def hand(self, seat: int) -> list[int]:
        return sorted(self.hands[seat].elements())

    def known_to(self, seat: int) -> list[list[int]]:
        """Per card of `seat`'s sorted hand, the other seats certain of it."""
        out: list[list[int]] = []
        copies: Counter[int] = Counter()
        for c in self.hand(seat):
            j = copies[c]
            copies[c] += 1
            out.append([o for o in range(self.n) if o != seat and self.certain[o][seat][c] > j])
        return out
