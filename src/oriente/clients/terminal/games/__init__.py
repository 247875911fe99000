"""Each game at the terminal: one screen per game, in this folder under the
game's name (`games/NAME.py`, as the page's `games/NAME/`), and
the generic screen for a game that brings none.

A screen is pure, like `render.py`: from the view, prompt and names the
server sent to lines, labels and commands. The app (`app.py`) asks
`screen_for(game)` and uses the same loop, feed, clock, chat, resume and
lobby for every game. A game's module here names its screen (`SCREEN`); a
module that names None (`oriente.py`) says the game's table is the one
`render.py` draws whole (seats, fights, deals) and `commands.py` reads (the
table screen this client began with). A game without a module here gets
`GenericScreen`: its view's fields, its legal commands numbered, its events
told by the generic narrator, in its own words where this program has them.

What a screen shares with every other (this base class):

- **Numbered choices.** Every command of the prompt's `legal` list is a
  choice, numbered in the server's order (as the SDK's `Turn.legal`), so
  `7` means the same move whatever the screen shows of the list.
- **Finding a move by words.** A turn may have a hundred legal moves
  (a turn may list every placement on a map). When they do not fit, the
  decision shows how many there are of each kind, and the person types
  words instead of a number: `helmet k12` plays the one move whose label
  has those words, or lists the moves that have them, numbered, in the
  story (`/moves WORDS` lists without playing).
- **A combination to choose** (the prompt's `choose`, PROTOCOL.md §6:
  five tiles of a hand, say): typed as numbers, checked here before sending.

Nothing here answers for the person: the only commands sent are the ones
typed (R10.2d holds for every game's hidden hands too).
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from oriente.clients.game_story import TableStory, story_for
from oriente.clients.narrate import game_words

from ..render import Names, _clock, _columns, _wrap, format_seconds, seat_ref

__all__ = ["SCREENS", "Choice", "GameScreen", "GenericScreen", "render_overlay", "screen_for"]

# How many lines of numbered choices a decision may take before it shows a
# summary instead (the feed keeps at least three lines at 80x24).
MAX_CHOICE_LINES = 8


@dataclass(frozen=True)
class Choice:
    """One legal command as the person sees it: its number and its words."""

    number: int
    command: dict[str, Any]
    label: str


_FILLER = frozenset({"on", "the", "a", "with", "from", "to", "in"})
"""Short words a label has that nobody types: left out of the summary's example."""


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _covers(wanted: Sequence[str], have: Sequence[str]) -> bool:
    """Each typed word finds a word of its own among `have` (itself or a
    word it starts): a word typed twice needs two, so "build guma limu
    guma" is the bridge paid with GUMA and not the one paid with LIMU.
    A matching of typed words to words (augmenting paths): a greedy pass
    could give a short word the only word a longer one fits."""
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j, word in enumerate(have):
            if j in seen or not word.startswith(wanted[i]):
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(wanted)))


def _names_whole(wanted: Sequence[str], have: Sequence[str]) -> bool:
    """The typed words are the label's words, short words aside (each
    typed word the start of one of them)."""
    content = [w for w in have if w not in _FILLER]
    return len(wanted) == len(content) and _covers(wanted, content)


def _in_order(wanted: Sequence[str], have: Sequence[str]) -> bool:
    """The typed words appear in the label's order (each the start of a word)."""
    rest = iter(have)
    return all(any(word.startswith(w) for word in rest) for w in wanted)


class GameScreen:
    """What the terminal draws and reads for one game. Subclasses fill in
    the game's words; the decision, choices and matching are shared."""

    game = ""
    #: The commands line under the table (the game's own /words first).
    commands = "Commands: NUMBER or WORDS | /moves [WORDS] | /say TEXT | /help | /lobby | /quit   PgUp/PgDn: story"
    #: The game's /words that tell something into the story: word -> what it tells.
    tells: ClassVar[dict[str, str]] = {}
    #: Topic -> the decision's title.
    titles: ClassVar[dict[str, str]] = {}

    # -- what a game says ------------------------------------------------------------

    @staticmethod
    def _who(seat: Any, names: Names, you: Any) -> str:
        """A seat in the screen's short words: 'you', its name, 'seat 2'."""
        if seat is None:
            return "nobody"
        if seat == you:
            return "you"
        return names.get(seat) or f"seat {seat}"

    def status(self, view: dict[str, Any]) -> str:
        """The header's part about the game's progress."""
        return str(view.get("phase", ""))

    def top(self, view: dict[str, Any], you: Any, names: Names, width: int) -> list[str]:
        """The lines above the story: what everyone holds and scores."""
        return []

    def board(self, view: dict[str, Any], you: Any, names: Names, width: int) -> list[str]:
        """The board, shown under `top` when the terminal is tall enough
        (and told into the story by the game's /word)."""
        return []

    def tell(self, what: str, view: dict[str, Any], you: Any, names: Names, width: int = 100) -> list[str]:
        """A /word of `tells`, told into the story."""
        return self.board(view, you, names, width)

    def label(self, cmd: dict[str, Any], prompt: dict[str, Any], view: dict[str, Any] | None, you: Any,
              names: Names) -> str:
        """One legal command in words."""
        return str(cmd.get("type"))

    def keywords(self, cmd: dict[str, Any], view: dict[str, Any] | None) -> str:
        """Extra words a command is found by (short forms), besides its label."""
        return ""

    def choose_lines(self, prompt: dict[str, Any], view: dict[str, Any] | None, width: int) -> list[str]:
        """What a `choose` prompt offers, numbered from 1."""
        return []

    def choose_command(self, prompt: dict[str, Any], numbers: Sequence[int]) -> dict[str, Any] | str:
        """The command for the numbers typed at a `choose` prompt, or why not."""
        choose = prompt.get("choose") or {}
        offered = list(choose.get("tiles") or choose.get("options") or [])
        count = int(choose.get("count") or 0)
        if len(numbers) != count:
            return f"Choose exactly {count}: type {count} numbers from 1 to {len(offered)}, e.g. " \
                   + " ".join(str(n) for n in range(1, count + 1)) + "."
        if len(set(numbers)) != len(numbers):
            return "Each number once: you typed one of them twice."
        wrong = [n for n in numbers if not 1 <= n <= len(offered)]
        if wrong:
            return f"{wrong[0]} is not on the list: the numbers go from 1 to {len(offered)}."
        field = "tiles" if "tiles" in choose else "options"
        return {"type": choose.get("command"), "decision": prompt.get("id"),
                field: sorted(offered[n - 1] for n in numbers)}

    def choose_label(self, prompt: dict[str, Any], view: dict[str, Any] | None, chosen: Sequence[Any]) -> str:
        return ", ".join(str(c) for c in chosen)

    def result(self, result: dict[str, Any]) -> list[str]:
        return [str(result)]

    def story(self, you: Any, names: Names) -> TableStory:
        viewer = you if isinstance(you, int) and not isinstance(you, bool) else None
        return story_for(self.game, viewer, lambda seat: seat_ref(seat, names, you))

    # -- the decision, shared ---------------------------------------------------------

    def choices(self, prompt: dict[str, Any] | None, view: dict[str, Any] | None = None, you: Any = None,
                names: Names | None = None) -> list[Choice]:
        """The prompt's legal commands, numbered in the server's order."""
        if not prompt:
            return []
        legal = [c for c in prompt.get("legal") or [] if c.get("type") != "Timeout"]
        return [Choice(i, c, self.label(c, prompt, view, you, names or {})) for i, c in enumerate(legal, 1)]

    def wants_answer(self, prompt: dict[str, Any] | None, you: Any) -> bool:
        """May this seat answer now: the pivot, or early in a sealed round."""
        if not prompt or not isinstance(you, int) or isinstance(you, bool):
            return False
        if not (prompt.get("legal") or prompt.get("choose")):
            return False
        return prompt.get("pivot") == you or you in (prompt.get("early") or [])

    def match(self, words: str, prompt: dict[str, Any] | None, view: dict[str, Any] | None, you: Any,
              names: Names) -> list[Choice]:
        """The choices whose label (or keywords) has every typed word, each
        word a whole word or the start of one."""
        wanted = _tokens(words)
        found = []
        for choice in self.choices(prompt, view, you, names):
            have = _tokens(choice.label + " " + self.keywords(choice.command, view))
            if wanted and _covers(wanted, have):
                found.append(choice)
        return found

    def find(self, words: str, prompt: dict[str, Any] | None, view: dict[str, Any] | None, you: Any,
             names: Names) -> list[Choice]:
        """What typed words mean: one move to play, or several to list (none:
        no such move). Choices in the same words are one move: two identical
        tiles placed on the same hex, say. Of moves with the same words, the
        one that has them in the order typed is meant: "swap rice field b18
        helmet e13" is not the swap told the other way round. And a move
        named whole is meant over longer ones with the same words: "draw
        deck" is drawing from the deck, not a god's power that draws too;
        "draw" alone names no move whole and lists them all."""
        found = self.match(words, prompt, view, you, names)
        wanted = _tokens(words)
        for narrower in (lambda c: _names_whole(wanted, _tokens(c.label)),
                         lambda c: _in_order(wanted, _tokens(c.label))):
            if len({c.label for c in found}) > 1:
                found = [c for c in found if narrower(c)] or found
        return found[:1] if len({c.label for c in found}) == 1 else found

    def title(self, prompt: dict[str, Any]) -> str:
        topic = prompt.get("topic", "")
        return self.titles.get(topic, topic)

    def decision(self, prompt: dict[str, Any] | None, view: dict[str, Any] | None, you: Any, names: Names, *,
                 seconds_left: float | None = None, sending: str | None = None, width: int = 100) -> list[str]:
        """The open decision: who is asked, the clock, and for this seat its
        numbered choices (or a summary of them, and how to find one)."""
        if not prompt:
            return ["Nothing to decide right now."]
        title = self.title(prompt)
        rule = prompt.get("rule")
        pivot = prompt.get("pivot")
        if sending:
            return [f"Decision #{prompt.get('id')} ({title}){_clock(seconds_left)}",
                    f"Sent: {sending}. Waiting for the table..."]
        if not self.wants_answer(prompt, you):
            # A title written for the asked seat ("your turn: build…") names another's turn as its own.
            whose = title.removeprefix("your turn: ")
            waiting = f"Waiting for {seat_ref(pivot, names, you)}" + (
                f" to play its turn: {whose}" if whose != title else f": {title}")
            return [f"{waiting} ({rule}){_clock(seconds_left)}"]
        lines = [f">>> YOUR DECISION #{prompt.get('id')}: {title} ({rule}){_clock(seconds_left)}"]
        if pivot != you:
            lines.append(f"    {seat_ref(pivot, names, you)} decides first. Answer now if you like: your answer "
                         "stays sealed (shown to nobody) and can be changed until your turn.")
        bank = prompt.get("bank_ms")
        # What the silence does is long: it is said once time runs short (and always without a clock).
        silence = f"silence: {prompt.get('silence', 'pass')}" if seconds_left is None or seconds_left < 20 else \
            "/help: what the table does if time runs out"
        if isinstance(bank, int) and bank > 0:
            silence += f"; time bank {format_seconds(bank / 1000)}"
        if prompt.get("choose"):
            count = (prompt["choose"] or {}).get("count")
            sealed = prompt.get("sealed")
            if sealed:
                lines.append(f"    Your sealed choice: {self.choose_label(prompt, view, sealed)}. "
                             f"Type {count} other numbers to change it.")
            lines.extend(self.choose_lines(prompt, view, width))
            lines.append(f"Type {count} numbers separated by spaces and press Enter; {silence}.")
            return lines
        choices = self.choices(prompt, view, you, names)
        shown = _columns([c.label for c in choices], width)
        if len(shown) <= MAX_CHOICE_LINES:
            lines.extend(shown)
            lines.append(f"Type a number (1-{len(choices)}) or words of a move, and press Enter; {silence}.")
            return lines
        lines.extend(self._summary(choices, width))
        lines.append(f"Type words of a move (e.g. {self._example(choices)}) or /moves WORDS to list them "
                     f"numbered; {silence}.")
        return lines

    def _summary(self, choices: Sequence[Choice], width: int) -> list[str]:
        """'place a tile: 86 (1-86) | end the turn: 1 (87)': how many of each kind."""
        groups: dict[str, list[int]] = {}
        for c in choices:
            groups.setdefault(self.group(c.command), []).append(c.number)
        parts = []
        for name, numbers in groups.items():
            span = str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"
            parts.append(f"{name}: {len(numbers)} ({span})" if len(numbers) > 1 else f"{span}) {name}")
        return _wrap("  " + " | ".join(parts), width, indent="  ")

    def group(self, cmd: dict[str, Any]) -> str:
        """The kind of move a command is, for the summary."""
        return str(cmd.get("type"))

    def _example(self, choices: Sequence[Choice]) -> str:
        if not choices:
            return "end"
        return " ".join(w for w in _tokens(choices[0].label) if w not in _FILLER)


def render_overlay(lines: Sequence[str], width: int, height: int) -> list[str]:
    """A board over the whole screen (/map, /board), with how to go back:
    on its first line's right when there is room (a map as tall as the
    screen keeps every row), else on a line of its own. What does not fit
    is cut at the bottom (it is in the story too: PgUp)."""
    hint = "Enter: back to the table"
    lines = [line[:width] for line in lines][:max(1, height)]
    room = [i for i, line in enumerate(lines) if len(line) + len(hint) + 2 <= width]
    if room:  # the first line with room for it (a map's top or its short last rows)
        i = room[0]
        lines[i] = lines[i].ljust(width - len(hint)) + hint
    else:
        lines = [hint, *lines][:max(1, height)]
    return lines


def _shown(v: Any) -> str:
    """A value of a view or a command, plainly (as the page's generic screen shows it)."""
    if v is None:
        return "?"
    if isinstance(v, list | tuple):
        return ", ".join(_shown(x) for x in v)
    if isinstance(v, bool):
        return "true" if v else "false"
    return json.dumps(v, separators=(",", ":")) if isinstance(v, dict) else str(v)


class GenericScreen(GameScreen):
    """The screen of a game that brings none: the view's fields as they are,
    the open decision's legal commands numbered, the final ranks. Words
    come from the game's own catalogue where this program has it
    ("GAME.topic.TOPIC", "GAME.choice.TYPE" with the command's fields,
    "GAME.field.FIELD"; the page's generic screen reads the same), else the
    server's own names."""

    _UNSHOWN = frozenset({"decision", "viewer", "result"})

    def __init__(self, game: str) -> None:
        self.game = game
        self.words: dict[str, str] = dict(game_words(game, "en").get("ui") or {})

    def _word(self, key: str, otherwise: str, **args: str) -> str:
        template = self.words.get(key)
        if template is None:
            return otherwise
        return re.sub(r"\{(\w+)\}", lambda m: args.get(m.group(1), m.group(0)), template)

    def status(self, view: dict[str, Any]) -> str:
        return str(view.get("phase") or self._word(f"game.{self.game}", self.game))

    def top(self, view: dict[str, Any], you: Any, names: Names, width: int) -> list[str]:
        lines: list[str] = []
        for key, value in view.items():
            if key not in self._UNSHOWN:
                lines.extend(_wrap(f"{self._word(f'{self.game}.field.{key}', key)}: {_shown(value)}", width))
        return lines

    def label(self, cmd: dict[str, Any], prompt: dict[str, Any], view: dict[str, Any] | None, you: Any,
              names: Names) -> str:
        fields = {k: v for k, v in cmd.items() if k not in ("type", "decision")}
        kind = str(cmd.get("type"))
        plain = f"{kind} " + ", ".join(f"{k}={_shown(v)}" for k, v in fields.items()) if fields else kind
        return self._word(f"{self.game}.choice.{kind}", plain, **{k: _shown(v) for k, v in fields.items()})

    def title(self, prompt: dict[str, Any]) -> str:
        topic = str(prompt.get("topic", ""))
        return self._word(f"{self.game}.topic.{topic}", topic)

    def result(self, result: dict[str, Any]) -> list[str]:
        ranks = result.get("ranks") or []
        scores = result.get("scores") or []
        lines = ["GAME OVER", "rank  seat score"]
        for s in sorted(range(len(ranks)), key=lambda s: (ranks[s], s)):
            lines.append(f"{ranks[s]:>4}  {s:>4}  {_shown(scores[s]) if s < len(scores) else '':>5}")
        return lines


SCREENS: dict[str, GameScreen | None] = {}


def screen_for(game: str) -> GameScreen | None:
    """The screen of `game`: the one its module here names (None: the table
    `render.py` draws whole), else the generic screen."""
    if game not in SCREENS:
        if not game.isidentifier():  # a name the server sent: never a path into other modules
            return GenericScreen(game)
        try:
            module = importlib.import_module(f"{__name__}.{game}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{game}":
                raise
            SCREENS[game] = GenericScreen(game)
        else:
            SCREENS[game] = module.SCREEN
    return SCREENS[game]
