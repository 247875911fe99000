"""Oro's projected events in plain words (PROTOCOL.md 18).

The narrator every game shares (`oriente.clients.narrate.Narrator`: seats
as labels, lists, a line for any event), with Oro's own events: their
words are the `oro.*` keys of this game's catalogues (`words/LANG.json`,
the "narrate" part), which the page reads too. The page runs the same
logic (clients/web/src/games/oro/narrate.js); tests/web/test_narrate_js.py
checks that both tell Oro's events in the same words.

Cards and islands are indices into the table's board (O9.1): the narrator
is given the islands' names (the default archipelago's when none are given,
from the pure rules' data). A card the viewer may not know is None and is
never named (O8.7).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from oriente.clients.narrate import Label, Narrator, Viewer, _cap
from oriente.games.oro.rules import default_board


class OroNarrator(Narrator):
    """Oro's events as lines. `islands` are the board's island names in
    order and `connections` its connections as index pairs (the view's
    `board`); the default archipelago when left out."""

    words_dir: ClassVar[Path | None] = Path(__file__).resolve().parent / "words"

    def __init__(self, lang: str = "en", label: Label | None = None, islands: Sequence[str] | None = None,
                 connections: Sequence[Sequence[int]] | None = None) -> None:
        super().__init__(lang, label)
        board = default_board()
        self.islands = list(islands) if islands is not None else list(board.names)
        self.ends = [tuple(c) for c in connections] if connections is not None else list(board.ends)

    @classmethod
    def for_board(cls, lang: str, board: dict[str, Any] | None, label: Label | None = None) -> OroNarrator:
        """A narrator for the board of a view (`view["board"]`), or the default one."""
        if not board:
            return cls(lang, label)
        return cls(lang, label, [i["name"] for i in board["islands"]], board["connections"])

    # -- small words ----------------------------------------------------------------

    def island(self, i: Any) -> str:
        return self.islands[i] if isinstance(i, int) and 0 <= i < len(self.islands) else str(i)

    def card(self, c: Any) -> str:
        """A card is its island; an unknown card is 'a card'."""
        return self.t("oro.card_hidden") if c is None else self.island(c)

    def cards(self, cards: Iterable[Any]) -> str:
        return self.list(self.card(c) for c in cards)

    def conn(self, c: Any) -> str:
        if isinstance(c, int) and 0 <= c < len(self.ends):
            a, b = self.ends[c]
            return f"{self.island(a)}–{self.island(b)}"
        return str(c)

    # -- events -----------------------------------------------------------------------

    def narrate(self, event: dict, viewer: Viewer = None) -> str:
        kind = event.get("type")
        fn = getattr(self, f"_o_{kind}", None) if isinstance(kind, str) else None
        if fn is None:
            return self._fallback(event)
        try:
            text = fn(event, viewer)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return self._fallback(event)
        return "\n".join(_cap(line) for line in text.split("\n"))

    def _o_GameStarted(self, e: dict, viewer: Viewer) -> str:
        variant = self.t("oro.GameStarted.gods") if e.get("gods") else ""
        lines = [self.t("oro.GameStarted", n=e["seats"], board=e["board"], variant=variant,
                        first=self.seat(e["first_seat"]), deck=e["deck_size"])]
        hands = e.get("hands") or []
        shown = [(s, h) for s, h in enumerate(hands) if h and all(c is not None for c in h)]
        if shown and len(shown) == len(hands):
            lines.append(self.t("oro.GameStarted.hands", list="; ".join(
                self.t("oro.pair", seat=self.seat(s), cards=self.cards(sorted(h))) for s, h in shown)))
        elif shown:
            lines.append(self.t("oro.GameStarted.hand", cards=self.cards(sorted(shown[0][1]))))
        return "\n".join(lines)

    def _o_GaveUp(self, e: dict, viewer: Viewer) -> str:
        if e.get("island") is None:
            return self.t("oro.GaveUp.hidden", seat=self.seat(e["seat"]))
        return self.t("oro.GaveUp", seat=self.seat(e["seat"]), card=self.card(e["island"]))

    def _o_DisplayOpened(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.DisplayOpened", cards=self.cards(e["display"]), deck=e["deck_size"])

    def _o_TurnBegan(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.TurnBegan.final" if e["half"] == 3 else "oro.TurnBegan", seat=self.seat(e["seat"]))

    def _o_Built(self, e: dict, viewer: Viewer) -> str:
        args = {"seat": self.seat(e["seat"]), "conn": self.conn(e["connection"])}
        if e.get("kanaloa"):
            return self.t("oro.Built.kanaloa", **args)
        return self.t("oro.Built", card=self.card(e["island"]), **args)

    def _o_Replaced(self, e: dict, viewer: Viewer) -> str:
        played = [self.card(c) for c in e.get("islands") or []] + ["Kanaloa"] * int(e.get("kanaloa") or 0)
        return self.t("oro.Replaced", seat=self.seat(e["seat"]), owner=self.seat(e["owner"]),
                      conn=self.conn(e["connection"]), cards=self.list(played))

    def _o_ControlGained(self, e: dict, viewer: Viewer) -> str:
        text = self.t("oro.ControlGained", seat=self.seat(e["seat"]), island=self.island(e["island"]))
        removed = e.get("removed") or []
        if removed:
            text += self.plural("oro.ControlGained.removed", len(removed),
                                owners=self.seats(sorted({o for _, o in removed})))
        text += "."
        if e.get("stone"):
            kane = self.plural("oro.ControlGained.kane", int(e["kane"])) if e.get("kane") else ""
            text += self.t("oro.ControlGained.stone", god=str(e["stone"]).capitalize(), kane=kane)
        return text

    def _o_ControlLost(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.ControlLost", seat=self.seat(e["seat"]), island=self.island(e["island"]))

    def _o_BridgeRemoved(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.BridgeRemoved", seat=self.seat(e["seat"]), island=self.island(e["island"]),
                      owner=self.seat(e["owner"]), conn=self.conn(e["connection"]))

    def _o_Discarded(self, e: dict, viewer: Viewer) -> str:
        if e.get("island") is None:
            return self.t("oro.Discarded.hidden", seat=self.seat(e["seat"]))
        return self.t("oro.Discarded", seat=self.seat(e["seat"]), card=self.card(e["island"]))

    def _o_Drew(self, e: dict, viewer: Viewer) -> str:
        seat = self.seat(e["seat"])
        lono = self.t("oro.Drew.lono") if e.get("lono") else ""
        if e.get("from_display"):
            text = self.t("oro.Drew.display", seat=seat, card=self.card(e["island"]), lono=lono)
            if e.get("refill") is not None:
                text += self.t("oro.Drew.refill", card=self.card(e["refill"]))
            return text + "."
        if e.get("island") is None:
            return self.t("oro.Drew.deck", seat=seat, lono=lono, deck=e["deck_size"])
        return self.t("oro.Drew.deck_seen", seat=seat, card=self.card(e["island"]), lono=lono, deck=e["deck_size"])

    def _o_TurnEnded(self, e: dict, viewer: Viewer) -> str:
        """A final turn is told once it is over, as what it was (O5.6); any
        other turn's end the draw (or the next TurnBegan) says."""
        if not e.get("final"):
            return ""
        key = "oro.TurnEnded.final" if e.get("played") else "oro.TurnEnded.final_idle"
        return self.t(key, seat=self.seat(e["seat"]))

    def _o_Passed(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.Passed", seat=self.seat(e["seat"]))

    def _o_Scored(self, e: dict, viewer: Viewer) -> str:
        items = [self.t("oro.Scored.item", island=self.island(i), seat=self.seat(s), points=p)
                 for i, s, p in e.get("islands") or []]
        head = self.t("oro.Scored.final" if e.get("final") else "oro.Scored.first",
                      items=self.t("sep").join(items) if items else self.t("oro.Scored.none"))
        totals = self.t("sep").join(self.t("oro.pair", seat=self.seat(s), cards=p)
                                    for s, p in enumerate(e.get("scores") or []))
        return head + "\n" + self.t("oro.Scored.totals", list=totals)

    def _o_Reshuffled(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.Reshuffled", deck=e["deck_size"], cards=self.cards(e["display"]))

    def _o_FinalRoundBegan(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.FinalRoundBegan")

    def _o_KuLooked(self, e: dict, viewer: Viewer) -> str:
        args = {"seat": self.seat(e["seat"]), "target": self.seat(e["target"])}
        hand = e.get("hand") or []
        if hand and all(c is not None for c in hand):
            return self.t("oro.KuLooked.seen", cards=self.cards(sorted(hand)), **args)
        return self.t("oro.KuLooked", **args)

    def _o_KuTook(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.KuTook", seat=self.seat(e["seat"]), target=self.seat(e["target"]),
                      card=self.card(e["island"]))

    def _o_PeleTook(self, e: dict, viewer: Viewer) -> str:
        taken = e.get("taken") or []
        text = self.t("oro.PeleTook", seat=self.seat(e["seat"]), from_=self.seats(o for o, _ in taken))
        seen = [(o, c) for o, c in taken if c is not None]
        if seen:
            text += self.t("oro.PeleTook.seen", list=self.t("sep").join(
                self.t("oro.pair", seat=self.seat(o), cards=self.card(c)) for o, c in seen))
        return text + "."

    def _o_PeleGave(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.PeleGave", seat=self.seat(e["seat"]), to=self.seat(e["to"]), card=self.card(e["island"]))

    def _o_LonoUsed(self, e: dict, viewer: Viewer) -> str:
        return self.t("oro.LonoUsed", seat=self.seat(e["seat"]))

    def _o_GameEnded(self, e: dict, viewer: Viewer) -> str:
        scores = e.get("scores") or []
        winner = e.get("winner")
        points = scores[winner] if isinstance(winner, int) and winner < len(scores) else "?"
        key = "oro.GameEnded.eleven" if e.get("reason") == "eleven" else "oro.GameEnded"
        return self.t(key, winner=_cap(self.seat(winner)), points=points)

    def describe_result(self, result: dict) -> str:
        """The final table of Oro's GameEnded: one row per seat, best rank first."""
        scores = result.get("scores") or []
        ranks = result.get("ranks") or []
        order = sorted(range(len(scores)), key=lambda s: (ranks[s] if s < len(ranks) else 0, s))
        lines = [self.t("oro.result.title_eleven" if result.get("reason") == "eleven" else "oro.result.title"),
                 self.t("oro.result.header")]
        for s in order:
            lines.append(f"{ranks[s] if s < len(ranks) else '?':>4}  {s:>4}  {scores[s]:>5}")
        return "\n".join(lines)


KNOWN_TYPES = frozenset(name[3:] for name in vars(OroNarrator) if name.startswith("_o_"))


@cache
def _narrator(lang: str) -> OroNarrator:
    return OroNarrator(lang)


def narrate(event: dict, viewer: Viewer = None, *, lang: str = "en") -> str:
    """One or a few lines for one projected Oro event on the default board."""
    return _narrator(lang).narrate(event, viewer)


def describe_result(result: dict, *, lang: str = "en") -> str:
    return _narrator(lang).describe_result(result)


def narrator(lang: str = "en", label: Label | None = None, view: dict[str, Any] | None = None) -> OroNarrator:
    """The narrator of a table: on the view's board (the default one without a view)."""
    return OroNarrator.for_board(lang, (view or {}).get("board"), label)


def basis(view: dict[str, Any]) -> Any:
    """What of a view the narrator is made from: the table's board (None: not shown yet)."""
    return view.get("board")


__all__ = ["KNOWN_TYPES", "OroNarrator", "basis", "describe_result", "narrate", "narrator"]
