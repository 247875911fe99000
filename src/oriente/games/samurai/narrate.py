"""Samurai's projected events in plain words (PROTOCOL.md 20).

The narrator every game shares (`oriente.clients.narrate.Narrator`: seats
as labels, lists, a line for any event), with Samurai's own events: their
words are the `sam.*` keys of this game's catalogues (`words/LANG.json`,
the "narrate" part), which the page reads too. The page runs the same
logic (clients/web/src/games/samurai/narrate.js); tests/web/test_narrate_js.py
checks that both tell Samurai's events in the same words.

Hexes and tiles are ids into the table's map and tile set (S1.6): the
narrator is given them (the view's `board` and `tile_set`; the defaults
when none are given). A hex is named by its square (squares.py: `K12`), a
named one by its name too (`Edo (K12)`), a village as one. A tile the
viewer may not know is None and is never named (S7.4). The end says why
(which kind ran out, which figures were set aside) and who held which
sole majority (S5, S6).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from oriente.clients.narrate import Label, Narrator, Viewer, _cap
from oriente.games.samurai.rules import default_board_data, default_tiles_data
from oriente.games.samurai.squares import squares

KINDS = ("helmet", "buddha", "rice")  # the order of GameEnded's counts


class SamuraiNarrator(Narrator):
    """Samurai's events as lines. `board` and `tiles` are the view's
    `board` and `tile_set` (or the files' JSON); the defaults when left out."""

    words_dir: ClassVar[Path | None] = Path(__file__).resolve().parent / "words"

    def __init__(self, lang: str = "en", label: Label | None = None, board: dict[str, Any] | None = None,
                 tiles: dict[str, Any] | None = None) -> None:
        super().__init__(lang, label)
        board = board or default_board_data()
        tiles = tiles or default_tiles_data()
        self.names = {h["id"]: h["name"] for h in board["hexes"] if h.get("name")}
        self.villages = {h["id"] for h in board["hexes"] if h.get("terrain") == "village"}
        self.squares = squares(board["hexes"])
        self.tiles = list(tiles["tiles"])

    # -- small words ----------------------------------------------------------------

    def hex(self, h: Any) -> str:
        """A hex as every client names it: 'Kyoto (K12)', 'village K7', 'K12'
        (squares.py); 'hex 99' only for an id the map does not have."""
        square = self.squares.get(h)
        if square is None:
            return self.t("sam.hex", id=h)
        if h in self.names:
            return self.t("sam.hex_named", name=self.names[h], square=square)
        return self.t("sam.hex_village" if h in self.villages else "sam.hex_square", square=square)

    def figure(self, f: Any) -> str:
        return self.t(f"sam.figure.{f}")

    def kind(self, kind: Any, strength: Any) -> str:
        name = self.t(f"sam.kind.{kind}")
        return name if strength is None or kind in ("figure_swap", "tile_swap") else self.t(
            "sam.tile", kind=name, strength=strength)

    def tile(self, i: Any) -> str:
        if i is None:
            return self.t("sam.tile_hidden")
        t = self.tiles[i]
        return self.kind(t["kind"], t.get("strength"))

    def tile_list(self, tiles: Iterable[Any]) -> str:
        return self.list(self.tile(t) for t in tiles)

    def _table(self, e: dict, text: str) -> str:
        """A sentence, marked when the table's clock chose it (S7.1, S7.2)."""
        return text + (self.t("sam.by_table") if e.get("by_table") else "") + "."

    # -- events -----------------------------------------------------------------------

    def narrate(self, event: dict, viewer: Viewer = None) -> str:
        kind = event.get("type")
        fn = getattr(self, f"_s_{kind}", None) if isinstance(kind, str) else None
        if fn is None:
            return self._fallback(event)
        try:
            text = fn(event, viewer)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return self._fallback(event)
        return "\n".join(_cap(line) for line in text.split("\n"))

    def _s_GameStarted(self, e: dict, viewer: Viewer) -> str:
        return self.t("sam.GameStarted", n=e["seats"], board=e["board"], figures=e["figures_per_kind"],
                      first=self.seat(e["first"]))

    def _s_SelectionBegan(self, e: dict, viewer: Viewer) -> str:
        return self.t("sam.SelectionBegan")

    def _s_TilesChosen(self, e: dict, viewer: Viewer) -> str:
        tiles = e.get("tiles") or []
        if tiles and all(t is not None for t in tiles):
            return self._table(e, self.t("sam.TilesChosen", seat=self.seat(e["seat"]), tiles=self.tile_list(tiles)))
        return self._table(e, self.t("sam.TilesChosen.hidden", seat=self.seat(e["seat"])))

    def _s_SelectionDone(self, e: dict, viewer: Viewer) -> str:
        sizes = e.get("supply_sizes") or [0]
        return self.t("sam.SelectionDone", n=sizes[0])

    def _s_CapitalFilled(self, e: dict, viewer: Viewer) -> str:
        return self.t("sam.CapitalFilled", hex=self.hex(e["hex"]), figures=self.list(self.figure(f)
                                                                                      for f in e["figures"]))

    def _s_FigurePlaced(self, e: dict, viewer: Viewer) -> str:
        return self._table(e, self.t("sam.FigurePlaced", seat=self.seat(e["seat"]), figure=self.figure(e["figure"]),
                                     hex=self.hex(e["hex"])))

    def _s_TurnBegan(self, e: dict, viewer: Viewer) -> str:
        return self.t("sam.TurnBegan", turn=e["turn"], seat=self.seat(e["seat"]))

    def _s_TilePlaced(self, e: dict, viewer: Viewer) -> str:
        return self._table(e, self.t("sam.TilePlaced", seat=self.seat(e["seat"]),
                                     tile=self.kind(e["kind"], e.get("strength")), hex=self.hex(e["hex"])))

    def _s_FiguresSwapped(self, e: dict, viewer: Viewer) -> str:
        return self._table(e, self.t("sam.FiguresSwapped", seat=self.seat(e["seat"]), a=self.figure(e["figure_a"]),
                                     hex_a=self.hex(e["hex_a"]), b=self.figure(e["figure_b"]),
                                     hex_b=self.hex(e["hex_b"])))

    def _s_TileSwapped(self, e: dict, viewer: Viewer) -> str:
        return self._table(e, self.t("sam.TileSwapped", seat=self.seat(e["seat"]), hex=self.hex(e["hex"]),
                                     moved=self.tile(e["moved"]), to=self.hex(e["to"])))

    def _s_TurnEnded(self, e: dict, viewer: Viewer) -> str:
        return ""  # the captures, the draw and the next TurnBegan say it

    def _s_TurnPassed(self, e: dict, viewer: Viewer) -> str:
        return self._table(e, self.t("sam.TurnPassed", seat=self.seat(e["seat"])))

    def _s_FigureCaptured(self, e: dict, viewer: Viewer) -> str:
        args = {"figure": self.figure(e["figure"]), "hex": self.hex(e["hex"])}
        if e.get("seat") is None:
            return self.t("sam.FigureCaptured.aside", **args)
        return self.t("sam.FigureCaptured", seat=self.seat(e["seat"]), **args)

    def _s_TilesDrawn(self, e: dict, viewer: Viewer) -> str:
        tiles = e.get("tiles") or []
        seat, left = self.seat(e["seat"]), e["supply_left"]
        if tiles and all(t is not None for t in tiles):
            return self.t("sam.TilesDrawn", seat=seat, tiles=self.tile_list(tiles), left=left)
        return self.plural("sam.TilesDrawn.hidden", len(tiles), seat=seat, left=left)

    def _ending(self, e: dict) -> str:
        """Why the game ended: the kind that ran out (S5.1), the figures set
        aside (S5.2), or the guard for maps whose land outlasts the tiles
        (S5.4), which the rulebook does not have."""
        reason, captured, aside = e["reason"], e.get("captured"), e.get("set_aside")
        if reason == "no_moves":
            return self.t("sam.GameEnded.guard")
        if captured is None or aside is None:
            return self.t(f"sam.GameEnded.{reason}")
        gone = [sum(c[k] for c in captured) + aside[k] for k in range(3)]  # figures off the board
        if reason == "last_figure":  # the kinds with none left are those with the most gone
            out = [KINDS[k] for k in range(3) if gone[k] == max(gone)]
            return self.plural("sam.GameEnded.ran_out", len(out),
                               figures=self.list(self.t(f"sam.last.{f}") for f in out))
        if reason == "set_aside":
            return self.t("sam.GameEnded.aside", list=self.list(
                self.plural(f"sam.count.{KINDS[k]}", aside[k]) for k in range(3) if aside[k]))
        return self.t(f"sam.GameEnded.{reason}")

    def _s_GameEnded(self, e: dict, viewer: Viewer) -> str:
        lines = [self._ending(e)]
        majorities, captured = e.get("majorities"), e.get("captured")
        if majorities and captured and any(s is not None for s in majorities):  # S6.1
            lines.append(self.t("sam.GameEnded.majorities", list=self.list(
                self.t("sam.GameEnded.majority", seat=self.seat(s), figures=self.t(f"sam.figures.{KINDS[k]}"),
                       n=captured[s][k])
                for k, s in enumerate(majorities) if s is not None)))
        winners = e.get("winners") or []
        lines.append(self.t("sam.GameEnded.winners", winners=_cap(self.list(self.seat(s) for s in winners)))
                     if winners else self.t("sam.GameEnded.nobody"))
        return "\n".join(lines)

    def describe_result(self, result: dict) -> str:
        """The final table of Samurai's GameEnded: one row per seat, best rank first."""
        captured = result.get("captured") or []
        ranks = result.get("ranks") or []
        order = sorted(range(len(captured)), key=lambda s: (ranks[s] if s < len(ranks) else 0, s))
        lines = [self.t("sam.result.title"), self.t("sam.result.header")]
        for s in order:
            h, b, r = captured[s]
            lines.append(f"{ranks[s] if s < len(ranks) else '?':>4}  {s:>4}  {h:>5} {b:>6} {r:>5} {h + b + r:>5}")
        return "\n".join(lines)


KNOWN_TYPES = frozenset(name[3:] for name in vars(SamuraiNarrator) if name.startswith("_s_"))


@cache
def _narrator(lang: str) -> SamuraiNarrator:
    return SamuraiNarrator(lang)


def narrate(event: dict, viewer: Viewer = None, *, lang: str = "en") -> str:
    """One or a few lines for one projected Samurai event on the default map."""
    return _narrator(lang).narrate(event, viewer)


def describe_result(result: dict, *, lang: str = "en") -> str:
    return _narrator(lang).describe_result(result)


def narrator(lang: str = "en", label: Label | None = None, view: dict[str, Any] | None = None) -> SamuraiNarrator:
    """The narrator of a table: on the view's map and tiles (the defaults without a view)."""
    return SamuraiNarrator(lang, label, (view or {}).get("board"), (view or {}).get("tile_set"))


def basis(view: dict[str, Any]) -> Any:
    """What of a view the narrator is made from: the table's map (None: not shown yet)."""
    return view.get("board")


__all__ = ["KNOWN_TYPES", "SamuraiNarrator", "basis", "describe_result", "narrate", "narrator"]
