"""Samurai at the terminal (PROTOCOL.md §20, docs/rules-samurai.md).

The hex map is drawn as text, three characters a hex, every other row
shifted (a pointy-top grid in "odd-r" rows): rows are letters from the
top, columns numbers from the left, so a hex is named like a chess square
(`K12`) and the person types it (`helmet k12`). The names come from the
map in the view (`board.hexes`, axial `q`, `r`), so another map file
draws the same way. The squares are the game's own (games/samurai/squares.py),
so the story, the page and this map name a hex alike.

Above the story: the phase, each seat's captured figures (another seat's
behind its screen at 3 and 4 players: '?', S7.4), your hand and supply; on
a tall terminal (or with /map, into the story) the map itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

from oriente.clients.game_story import GameStory
from oriente.clients.narrate import Label, Narrator
from oriente.games.samurai.narrate import SamuraiNarrator, describe_result
from oriente.games.samurai.rules.datafiles import default_board_data, default_tiles_data
from oriente.games.samurai.squares import positions, row_name

from ..render import Names, _wrap, seat_ref
from . import GameScreen

__all__ = ["SCREEN", "HexMap", "SamuraiScreen"]

_KIND = {"helmet": "H", "buddha": "B", "rice": "R", "samurai": "S", "ronin": "N", "ship": "X",
         "figure_swap": "F", "tile_swap": "T"}
_KIND_WORD = {"helmet": "helmet", "buddha": "Buddha", "rice": "rice field", "samurai": "samurai", "ronin": "ronin",
              "ship": "ship", "figure_swap": "figure swap", "tile_swap": "tile swap"}
_FIGURE = {"helmet": "h", "buddha": "b", "rice": "r"}
_FIGURE_WORD = {"helmet": "helmet", "buddha": "Buddha", "rice": "rice field"}
_EMPTY = {"sea": " ~ ", "land": " . ", "village": " o ", "city": " O ", "capital": " @ "}


class HexMap:
    """A map's hexes as squares: row letter and column number."""

    def __init__(self, hexes: Sequence[dict[str, Any]]) -> None:
        self.hexes = {h["id"]: h for h in hexes}
        self.pos = positions(hexes)
        self.at = {p: i for i, p in self.pos.items()}
        self.rows = 1 + max((r for r, _ in self.pos.values()), default=0)
        self.cols = 1 + max((c for _, c in self.pos.values()), default=0)

    @staticmethod
    def _row(r: int) -> str:
        return row_name(r)

    def square(self, h: Any) -> str:
        """'K12'."""
        if h not in self.pos:
            return f"hex {h}"
        r, c = self.pos[h]
        return f"{self._row(r)}{c + 1}"

    def name(self, h: Any) -> str:
        """'Kyoto (K12)', 'village K7', 'K12'."""
        info = self.hexes.get(h) or {}
        square = self.square(h)
        if info.get("name"):
            return f"{info['name']} ({square})"
        if info.get("terrain") == "village":
            return f"village {square}"
        return square

    def draw(self, cell: dict[int, str]) -> list[str]:
        """The map, a row a line; `cell` gives a hex's three characters
        (an empty hex of its terrain otherwise)."""
        head = "   " + "".join(f"{c + 1:>3}" for c in range(self.cols))
        lines = [head]
        for r in range(self.rows):
            row = [" " * 3] * self.cols
            for c in range(self.cols):
                h = self.at.get((r, c))
                if h is not None:
                    row[c] = cell.get(h) or _EMPTY.get(self.hexes[h].get("terrain", ""), " ? ")
            shift = " " if r & 1 else ""
            lines.append(f"{self._row(r):>2} " + shift + "".join(row).rstrip())
        return lines


@lru_cache(maxsize=8)
def _map_of(key: tuple[tuple[int, int, int, str, str], ...]) -> HexMap:
    return HexMap([{"id": i, "q": q, "r": r, "terrain": t, "name": n} for i, q, r, t, n in key])


def hex_map(view: dict[str, Any] | None) -> HexMap:
    """The view's map (the default map without a view)."""
    board = (view or {}).get("board")
    if not board:
        board = default_board_data()
    key = tuple((h["id"], h["q"], h["r"], h.get("terrain", ""), h.get("name") or "") for h in board["hexes"])
    return _map_of(key)


def _narrator_for(game: str, label: Label, view: dict[str, Any] | None) -> Narrator:
    # The game's narrator names hexes by the same squares as this map.
    return SamuraiNarrator("en", label, (view or {}).get("board"), (view or {}).get("tile_set"))


class SamuraiScreen(GameScreen):
    game = "samurai"
    commands = ("Commands: NUMBER or WORDS (helmet 2 k12) | /moves [WORDS] | /map | /say TEXT | /help | /lobby | "
                "/quit   PgUp/PgDn: the story")
    tells: ClassVar[dict[str, str]] = {"map": "the map: tiles, figures, settlements"}
    titles: ClassVar[dict[str, str]] = {
        "select": "choose your 5 tiles, secretly",
        "figure": "place a figure in a settlement",
        "turn": "your turn: place tiles, then end the turn",
    }

    def story(self, you: Any, names: Names) -> GameStory:
        viewer = you if isinstance(you, int) and not isinstance(you, bool) else None
        return GameStory("samurai", viewer, lambda seat: seat_ref(seat, names, you), _narrator_for)

    # -- small words -------------------------------------------------------------------

    @staticmethod
    def _tiles(view: dict[str, Any] | None) -> list[dict[str, Any]]:
        tiles = ((view or {}).get("tile_set") or {}).get("tiles")
        if tiles:
            return list(tiles)
        return list(default_tiles_data()["tiles"])

    def tile(self, view: dict[str, Any] | None, i: Any) -> str:
        """'helmet 2', 'ship 1 (fast)', 'figure swap'."""
        tiles = self._tiles(view)
        if not isinstance(i, int) or not 0 <= i < len(tiles):
            return "a hidden tile"
        t = tiles[i]
        word = _KIND_WORD.get(t["kind"], t["kind"])
        if t["kind"] not in ("figure_swap", "tile_swap"):
            word += f" {t.get('strength')}"
        return word + (" (fast)" if t.get("fast") else "")

    def short(self, view: dict[str, Any] | None, i: Any) -> str:
        """'H2', 'X1*' (fast)."""
        tiles = self._tiles(view)
        if not isinstance(i, int) or not 0 <= i < len(tiles):
            return "?"
        t = tiles[i]
        strength = "" if t["kind"] in ("figure_swap", "tile_swap") else str(t.get("strength", ""))
        return _KIND.get(t["kind"], "?") + strength + ("*" if t.get("fast") else "")

    # -- the screen ----------------------------------------------------------------------

    def status(self, view: dict[str, Any]) -> str:
        phase = {"select": "choosing tiles", "figures": "placing figures", "turns": f"turn {view.get('turn')}",
                 "over": "over"}.get(view.get("phase", ""), view.get("phase", ""))
        return f"Samurai, {phase}"

    def top(self, view: dict[str, Any], you: Any, names: Names, width: int) -> list[str]:
        current = (view.get("current") or {}).get("seat")
        seats = []
        hidden = False
        for p in view.get("players") or []:
            cap = p.get("captured")
            hidden = hidden or cap is None
            got = "?" if cap is None else " ".join(f"{_FIGURE[k].upper()}{cap.get(k, 0)}" for k in _FIGURE)
            mark = ">" if p["seat"] == current else ""
            seats.append(f"{mark}{self._who(p['seat'], names, you)} {got} ({p.get('hand_size')} tiles)")
        head = "Captured (? behind a screen): " if hidden else "Captured: "
        lines = _wrap(head + " | ".join(seats), width, indent="   ")
        mine = next((p for p in view.get("players") or [] if p.get("seat") == you), None)
        if mine is not None:
            hand = ", ".join(self.tile(view, t) for t in mine.get("hand") or []) or "none"
            lines += _wrap(f"Your hand: {hand} | supply {mine.get('supply_size')}", width, indent="   ")
        supply = view.get("figure_supply") or {}
        if view.get("phase") in ("select", "figures") and supply:
            lines.append("Figures to place: " + ", ".join(f"{n} {_FIGURE_WORD[k]}" for k, n in supply.items()))
        aside = {k: n for k, n in (view.get("set_aside") or {}).items() if n}
        if aside:
            lines.append("Set aside: " + ", ".join(f"{n} {_FIGURE_WORD.get(k, k)}" for k, n in aside.items()))
        return lines

    def board(self, view: dict[str, Any], you: Any, names: Names, width: int) -> list[str]:
        """The map with its tiles and figures, a legend, and the
        settlements still holding figures."""
        m = hex_map(view)
        cell: dict[int, str] = {}
        for t in view.get("tiles") or []:
            strength = "" if t.get("kind") in ("figure_swap", "tile_swap") else str(t.get("strength", ""))
            cell[t["hex"]] = f"{t.get('seat')}{_KIND.get(t.get('kind', ''), '?')}{strength}"[:3].ljust(3)
        settled = []
        for s in view.get("figures") or []:
            figs = "".join(_FIGURE.get(f, "?") for f in s.get("figures") or [])
            if figs:
                cell[s["hex"]] = figs.center(3)[:3]
                settled.append(f"{m.name(s['hex'])} {figs}")
        lines = m.draw(cell)
        lines.append("Tiles: seat, kind, strength (0H2: seat 0's helmet 2; H helmet, B Buddha, R rice field, "
                     "S samurai, N ronin, X ship, T tile swap). Figures: h b r; empty: O city, o village, "
                     "@ Edo, . land, ~ sea.")
        if settled:
            lines += _wrap("Figures: " + "; ".join(settled), width, indent="   ")
        return lines

    def tell(self, what: str, view: dict[str, Any], you: Any, names: Names, width: int = 100) -> list[str]:
        return self.board(view, you, names, width)

    # -- the choices ---------------------------------------------------------------------

    def label(self, cmd: dict[str, Any], prompt: dict[str, Any], view: dict[str, Any] | None, you: Any,
              names: Names) -> str:
        kind = cmd.get("type")
        m = hex_map(view)
        if kind == "PlaceFigure":
            return f"a {_FIGURE_WORD.get(cmd.get('figure', ''), cmd.get('figure'))} in {m.name(cmd.get('hex'))}"
        if kind == "PlaceTile":
            return f"{self.tile(view, cmd.get('tile'))} on {m.name(cmd.get('hex'))}"
        if kind == "SwapFigures":
            return (f"figure swap: the {_FIGURE_WORD.get(cmd.get('figure_a', ''))} in {m.name(cmd.get('hex_a'))} "
                    f"with the {_FIGURE_WORD.get(cmd.get('figure_b', ''))} in {m.name(cmd.get('hex_b'))}")
        if kind == "SwapTile":
            moved = next((t for t in (view or {}).get("tiles") or [] if t.get("hex") == cmd.get("hex")), None)
            what = f"your {self.tile(view, moved.get('tile'))}" if moved else "your tile"
            return f"tile swap: {what} from {m.square(cmd.get('hex'))} to {m.name(cmd.get('to'))}"
        if kind == "EndTurn":
            return "end the turn"
        if kind == "Pass":
            return "pass (no tile can be placed)"
        return str(kind)

    def keywords(self, cmd: dict[str, Any], view: dict[str, Any] | None) -> str:
        if cmd.get("type") == "PlaceTile":
            return self.short(view, cmd.get("tile")).rstrip("*")
        return ""

    def group(self, cmd: dict[str, Any]) -> str:
        return {"PlaceFigure": "place a figure", "PlaceTile": "place a tile", "SwapFigures": "figure swap",
                "SwapTile": "tile swap", "EndTurn": "end the turn", "Pass": "pass"}.get(str(cmd.get("type")), "")

    def choose_lines(self, prompt: dict[str, Any], view: dict[str, Any] | None, width: int) -> list[str]:
        offered = list((prompt.get("choose") or {}).get("tiles") or [])
        items = [f"{n:>2} {self.short(view, t)}" for n, t in enumerate(offered, 1)]
        per = max(1, (width - 2) // 7)
        lines = ["  " + "  ".join(f"{it:<5}" for it in items[i:i + per]).rstrip() for i in range(0, len(items), per)]
        lines.append("  (H helmet, B Buddha, R rice field, S samurai, N ronin, X ship, F figure swap, T tile swap; "
                     "* fast)")
        return lines

    def choose_label(self, prompt: dict[str, Any], view: dict[str, Any] | None, chosen: Sequence[Any]) -> str:
        return ", ".join(self.tile(view, t) for t in chosen)

    def result(self, result: dict[str, Any]) -> list[str]:
        return ["GAME OVER", *describe_result(result).splitlines()]


SCREEN = SamuraiScreen()
