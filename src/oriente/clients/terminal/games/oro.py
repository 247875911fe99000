"""Oro at the terminal (PROTOCOL.md §18, docs/rules-oro.md).

Islands are named (ALOA, BAFI …), a connection by its two ends
(ALOA-BAFI), a card by its island. Above the story: the scores, the open
display, the deck and discard, your hand with who knows which card (O8.6),
the islands each seat holds; on a tall terminal (or with /board, into the
story) every island with its bridges. Everything comes from the viewer's
own view: another seat's cards are counted, never named, unless the view
says this viewer knows them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from oriente.games.oro.narrate import describe_result
from oriente.games.oro.rules import default_board

from ..render import Names, _wrap
from . import GameScreen

__all__ = ["SCREEN", "OroScreen"]

_SIZES = {"small": "S", "large": "L", "main": "M"}
_GODS = ("kane", "kanaloa", "ku", "pele", "lono")


class OroScreen(GameScreen):
    game = "oro"
    commands = ("Commands: NUMBER or WORDS (build aloa bafi) | /moves [WORDS] | /board | /say TEXT | /help | "
                "/lobby | /quit   PgUp/PgDn: the story")
    tells: ClassVar[dict[str, str]] = {"board": "every island: size, who holds it, its bridges"}
    titles: ClassVar[dict[str, str]] = {
        "give_up": "give up one card to the display",
        "turn": "your turn: build, replace or discard, then draw",
        "final_turn": "final round: build, replace or discard, then end the turn",
        "remove": "choose the bridge your majority removes",
        "ku": "Ku: choose the card to take",
        "pele": "Pele: choose the card to give back",
    }

    # -- small words -----------------------------------------------------------------

    @staticmethod
    def _names(view: dict[str, Any] | None) -> list[str]:
        board = (view or {}).get("board") or {}
        islands = board.get("islands")
        if islands:
            return [i["name"] for i in islands]
        return list(default_board().names)

    @staticmethod
    def _ends(view: dict[str, Any] | None) -> list[tuple[int, int]]:
        board = (view or {}).get("board") or {}
        if board.get("connections"):
            return [(a, b) for a, b in board["connections"]]
        return list(default_board().ends)

    def island(self, view: dict[str, Any] | None, i: Any) -> str:
        names = self._names(view)
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else "a card"

    def conn(self, view: dict[str, Any] | None, c: Any) -> str:
        ends = self._ends(view)
        if not isinstance(c, int) or not 0 <= c < len(ends):
            return str(c)
        a, b = ends[c]
        return f"{self.island(view, a)}-{self.island(view, b)}"

    # -- the screen --------------------------------------------------------------------

    def status(self, view: dict[str, Any]) -> str:
        half = view.get("half")
        part = "final round" if half == 3 else f"half {half}"
        return f"Oro, {part}, {view.get('phase')}"

    def top(self, view: dict[str, Any], you: Any, names: Names, width: int) -> list[str]:
        scores = view.get("scores") or []
        hands = view.get("hands") or []
        control = view.get("control") or []
        active = view.get("active")
        seats = []
        for s, points in enumerate(scores):
            size = hands[s].get("size") if s < len(hands) else "?"
            held = sum(1 for c in control if c == s)
            mark = ">" if s == active else ""
            islands = "island" if held == 1 else "islands"
            cards = "card" if size == 1 else "cards"
            seats.append(f"{mark}{self._who(s, names, you)}: {points} pts, {held} {islands}, {size} {cards}")
        lines = _wrap("Scores: " + " | ".join(seats), width, indent="   ")
        display = ", ".join(self.island(view, c) for c in view.get("display") or []) or "empty"
        discard = view.get("discard") or {}
        lines.append(f"Display: {display} | deck {view.get('deck_size')} | discarded face down: "
                     f"{discard.get('hidden', 0)} (???)")
        mine = hands[you] if isinstance(you, int) and not isinstance(you, bool) and you < len(hands) else None
        if mine and mine.get("cards") is not None:
            mine_cards: list[str] = []
            for card, known in zip(mine["cards"], mine.get("known_to") or [[]] * len(mine["cards"]), strict=False):
                who = ", ".join(self._who(s, names, you) for s in known)
                mine_cards.append(self.island(view, card) + (f" (known to {who})" if who else ""))
            lines += _wrap("Your hand: " + (", ".join(mine_cards) or "no cards"), width, indent="   ")
        known = [f"{self._who(h['seat'], names, you)} holds {', '.join(self.island(view, c) for c in h['known'])}"
                 for h in hands if h.get("known")]
        if known:
            lines += _wrap("You know: " + "; ".join(known), width, indent="   ")
        if view.get("gods"):
            stones = []
            for s, h in enumerate(view.get("held") or []):
                got = ", ".join(f"{g.capitalize()}" + (f" x{n}" if n > 1 else "") for g, n in (h or {}).items() if n)
                if got:
                    stones.append(f"{self._who(s, names, you)}: {got}")
            lines += _wrap("God stones held: " + ("; ".join(stones) or "none yet"), width, indent="   ")
        final = view.get("final")
        if final:
            owed = ", ".join(self._who(s, names, you) for s in final.get("owed") or [])
            lines.append(f"Final round: still to play: {owed or 'nobody'}")
        return lines

    def board(self, view: dict[str, Any], you: Any, names: Names, width: int) -> list[str]:
        """One line per island: size, places, who holds it, and its
        connections as 'OTHER:owner' (-- for a free one)."""
        islands = ((view.get("board") or {}).get("islands")) or [{"name": n} for n in self._names(view)]
        ends = self._ends(view)
        bridges = view.get("bridges") or [None] * len(ends)
        control = view.get("control") or []
        stones = view.get("stones") or []
        lines = ["Islands (size, holder; bridges to: island:owner, -- free):"]
        for i, isl in enumerate(islands):
            size = _SIZES.get(isl.get("size", ""), "?")
            holder = control[i] if i < len(control) else None
            links = []
            for c, (a, b) in enumerate(ends):
                if i in (a, b):
                    other = b if a == i else a
                    owner = bridges[c] if c < len(bridges) else None
                    who = "--" if owner is None else self._who(owner, names, you)
                    links.append(f"{self.island(view, other)}:{who}")
            god = stones[i] if i < len(stones) and stones[i] else None
            held = f"held by {self._who(holder, names, you)}" if holder is not None else ""
            head = f"  {isl['name']:<5} {size} {held:<14}"
            lines += _wrap(head + " " + " ".join(links) + (f" [god {god.capitalize()}]" if god else ""),
                           width, indent=" " * 8)
        return lines

    def tell(self, what: str, view: dict[str, Any], you: Any, names: Names, width: int = 100) -> list[str]:
        """/board: at 120 columns and more the full board; narrower, each
        island with its holder and its bridges counted by owner, two islands
        a line (the build moves name the free connections)."""
        if width >= 120:
            return self.board(view, you, names, width)
        islands = ((view.get("board") or {}).get("islands")) or [{"name": n} for n in self._names(view)]
        ends = self._ends(view)
        bridges = view.get("bridges") or [None] * len(ends)
        control = view.get("control") or []
        cells = []
        for i, isl in enumerate(islands):
            owners = [bridges[c] if c < len(bridges) else None for c, (a, b) in enumerate(ends) if i in (a, b)]
            counts = {s: owners.count(s) for s in sorted({o for o in owners if o is not None})}
            parts = [f"{self._who(s, names, you)} {n}" for s, n in counts.items()]
            parts.append(f"{owners.count(None)} free")
            holder = control[i] if i < len(control) else None
            held = f"*{self._who(holder, names, you)}*" if holder is not None else ""
            cells.append(f"{isl['name']:<5}{_SIZES.get(isl.get('size', ''), '?')} {held} {', '.join(parts)}".strip())
        colw = max(len(c) for c in cells) + 2
        per = max(1, width // colw)
        rows = -(-len(cells) // per)
        lines = ["Islands (S small, L large, M ORO; *holder*; bridges by owner):"]
        for r in range(rows):
            lines.append("".join(cells[c * rows + r].ljust(colw) for c in range(per) if c * rows + r < len(cells))
                         .rstrip())
        return lines

    # -- the choices -------------------------------------------------------------------

    def label(self, cmd: dict[str, Any], prompt: dict[str, Any], view: dict[str, Any] | None, you: Any,
              names: Names) -> str:
        kind = cmd.get("type")
        isl = self.island(view, cmd.get("island"))
        if kind == "GiveUp":
            return f"give up {isl}"
        if kind == "Build":
            card = "a Kanaloa stone" if cmd.get("kanaloa") else isl
            return f"build {self.conn(view, cmd.get('connection'))} with {card}"
        if kind == "Replace":
            owner = ((view or {}).get("bridges") or {})
            c = cmd.get("connection")
            whose = owner[c] if isinstance(owner, list) and isinstance(c, int) and c < len(owner) else None
            cards = " + ".join(self.island(view, i) for i in cmd.get("islands") or [])
            stones = cmd.get("kanaloa") or 0
            if stones:
                cards = " + ".join(filter(None, [cards, " + ".join(["Kanaloa"] * stones)]))
            return f"replace {self._who(whose, names, you)}'s bridge {self.conn(view, c)} with {cards}"
        if kind == "Discard":
            return f"discard {isl} face down"
        if kind == "Draw":
            return "draw from the deck" if cmd.get("island") is None else f"draw {isl} from the display"
        if kind == "EndTurn":
            return "end the turn"
        if kind == "Pass":
            return "pass your final turn"
        if kind == "Remove":
            bridges = (view or {}).get("bridges") or []
            c = cmd.get("connection")
            whose = bridges[c] if isinstance(c, int) and c < len(bridges) else None
            return f"remove {self._who(whose, names, you)}'s bridge {self.conn(view, c)}"
        if kind == "UseKu":
            return f"Ku: look at {self._who(cmd.get('target'), names, you)}'s hand and take a card"
        if kind == "Take":
            return f"take {isl}"
        if kind == "UsePele":
            return "Pele: take a card at random from every opponent"
        if kind == "GiveBack":
            return f"give {isl} back to {self._who(prompt.get('to'), names, you)}"
        if kind == "UseLono":
            return "Lono: draw from the deck, and play on" if cmd.get("island") is None else \
                f"Lono: draw {isl} from the display, and play on"
        return str(kind)

    def group(self, cmd: dict[str, Any]) -> str:
        return {"Build": "build", "Replace": "replace", "Discard": "discard", "Draw": "draw",
                "GiveUp": "give up", "Remove": "remove", "Take": "take", "GiveBack": "give back"}.get(
                    str(cmd.get("type")), self.label(cmd, {}, None, None, {}))

    def result(self, result: dict[str, Any]) -> list[str]:
        return ["GAME OVER", *describe_result(result).splitlines()]


SCREEN = OroScreen()
