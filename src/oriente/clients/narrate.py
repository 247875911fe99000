"""Events in plain words, for every game: terminals, logs, replays and the page.

The input is what a client receives: a projected event (a plain dict whose
"type" is the event's name; what the viewer may not know is None). Nothing
here reads a game's state, so a narration can only say what the projection
already told this viewer; hiding stays the rules' job.

`Narrator` is what every game's narrator shares: the words around events
(seats, lists, plurals), the table's own events (seats taken, chat,
presence, the end), a line for any event it cannot tell, and the final
ranks. Its words are the shared catalogue's "narrate" part
(`clients/i18n/LANG.json`) with the game's own merged in (its
`words/LANG.json`, beside its port). A game brings its narrator in its home
(`games/NAME/narrate.py`: a `Narrator` with a method per event, and
`narrator(lang, label, view)` that makes one for a table); a game that
brings none is told by `GenericNarrator`, from its words alone ("GAME.TYPE"
with the event's fields). The page runs the same logic
(`clients/web/src/narrate.js` and each game's `games/NAME/narrate.js`);
tests check that both tell events in the same words.

Seats are numbered as the rules number them, so that what is read here
matches commands, records and `--as SEAT`; a client that knows names passes
a `label` for seats.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, ClassVar

from oriente.games import UnknownGame, load, part
from oriente.games.kit.port import words_dir
from oriente.protocol.messages import DEFAULT_GAME

Viewer = int | str | None
Label = Callable[[Any], str]

__all__ = [
    "LANGUAGES",
    "TABLE_EVENTS",
    "GenericNarrator",
    "Label",
    "Narrator",
    "Viewer",
    "catalogue",
    "describe_result",
    "game_words",
    "narrate",
    "narrate_table_event",
    "narrator_for",
    "plural_key",
    "ui_text",
]

CATALOGUE_DIR = Path(__file__).resolve().parent / "i18n"
LANGUAGES = ("en", "de", "fr")
_FIELD = re.compile(r"\{(\w+)\}")

TABLE_EVENTS = ("TableOpened", "SeatTaken", "SeatLeft", "TableStarted", "Chat", "SeatAway", "SeatBack",
                "SeatPresence", "ProxyOn", "ProxyOff", "TableFinished", "TableFailed", "RematchOffered", "TimedOut",
                "TableAbandoned")


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The shared catalogue of one language: the page's texts and the words
    every game's narration uses. A game's own words are `game_words`."""
    return json.loads((CATALOGUE_DIR / f"{lang}.json").read_text(encoding="utf-8"))


def plural_key(lang: str, key: str, n: Any) -> str:
    """The form of `key` that the count `n` takes in `lang`: `KEY_one` for
    the counts the catalogue's `plural_one` lists (English and German: 1;
    French: 0 and 1), else `KEY_other`. One rule for the narrators and the
    page's texts alike, the page's too (clients/web/src/i18n.js pluralKey)."""
    return f"{key}_one" if n in catalogue(lang).get("plural_one", [1]) else f"{key}_other"


def ui_text(key: str, lang: str = "en", **args: Any) -> str:
    """One of the page's texts (the shared catalogue's "ui" part) filled
    with `args`, as the page's translator fills it: English for a key this
    language lacks, and the plural form the count `n` asks for where the
    key has forms (`KEY_one`, `KEY_other`)."""
    words, english = catalogue(lang)["ui"], catalogue("en")["ui"]
    template = words.get(key, english.get(key))
    if template is None and isinstance(args.get("n"), int):
        template = words.get(plural_key(lang, key, args["n"]), english.get(plural_key("en", key, args["n"])))
    if template is None:
        raise KeyError(key)
    return _FIELD.sub(lambda m: str(args.get(m.group(1), m.group(0))), str(template))


@cache
def _folder_words(folder: Path | None, lang: str) -> dict[str, Any]:
    path = None if folder is None else folder / f"{lang}.json"
    if path is None or not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def words_folder(game: str) -> Path | None:
    """The folder of a game's word catalogues, when this program has the
    game (the registry), else None."""
    try:
        return words_dir(load(game))
    except UnknownGame:
        return None


def game_words(game: str, lang: str) -> dict[str, Any]:
    """A game's own catalogue of one language ({"ui": ..., "narrate": ...}),
    empty when it has none in that language or this program lacks the game."""
    return _folder_words(words_folder(game), lang)


@cache
def _narrate_words(folder: Path | None, lang: str) -> dict[str, str]:
    """The "narrate" words of one language: the shared ones, the game's over them."""
    return {**catalogue(lang)["narrate"], **_folder_words(folder, lang).get("narrate", {})}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Narrator:
    """The narration of one language. `label` names a seat ("seat 3", or a
    player's name); by default the catalogue's "seat {n}". A game's
    narrator names its words folder (`words_dir`) and tells its events with
    a method `_e_TYPE` each; `words` names another folder."""

    words_dir: ClassVar[Path | None] = None

    def __init__(self, lang: str = "en", label: Label | None = None, *, words: Path | None = None) -> None:
        folder = words if words is not None else self.words_dir
        self.lang = lang
        self.words: dict[str, str] = _narrate_words(folder, lang)
        self.en: dict[str, str] = _narrate_words(folder, "en")
        self.named = label is not None  # seats have names: list them one by one
        self.label = label or (lambda s: self.t("seat", n=s))

    # -- the catalogue ------------------------------------------------------------

    def t(self, key: str, **args: Any) -> str:
        """The template `key` with `{name}` replaced by args (English when
        this language lacks it; KeyError when no language has it)."""
        template = self.words.get(key)
        if template is None:
            template = self.en[key]
        return _FIELD.sub(lambda m: str(args.get(m.group(1), m.group(0))), template)

    def plural(self, key: str, n: int, **args: Any) -> str:
        return self.t(plural_key(self.lang, key, n), n=n, **args)

    # -- small words ----------------------------------------------------------------

    def seat(self, s: Any) -> str:
        return self.t("nobody") if s is None else self.label(s)

    def list(self, items: Iterable[str]) -> str:
        items = list(items)
        if not items:
            return self.t("nothing")
        if len(items) == 1:
            return items[0]
        return self.t("sep").join(items[:-1]) + self.t("and") + items[-1]

    def seats(self, seats: Iterable[Any]) -> str:
        seats = list(seats)
        if not seats:
            return self.t("no_seat")
        if self.named:
            return self.list(self.seat(s) for s in seats)
        return self.plural("seats", len(seats), list=self.list(str(s) for s in seats))

    # -- events ---------------------------------------------------------------------

    def narrate(self, event: dict, viewer: Viewer = None) -> str:
        """One or a few lines for one projected event, worded for `viewer`
        (a seat number says "you"; SPECTATOR or EVERYONE do not). An event
        this version does not know, or cannot read, still gets a line: a
        newer server must not break an older client."""
        kind = event.get("type")
        fn = getattr(self, f"_e_{kind}", None) if isinstance(kind, str) else None
        if fn is None:
            return self._fallback(event)
        try:
            text = fn(event, viewer)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return self._fallback(event)
        return "\n".join(_cap(line) for line in text.split("\n"))

    def _fallback(self, e: dict) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in e.items() if k != "type")
        return self.t("unknown", type=e.get("type", "unknown event"), fields=f": {fields}" if fields else "")

    # -- the table's own events (PROTOCOL.md, table events) ------------------------------

    def table_event(self, e: dict) -> str:
        t = e["type"]
        seat = e.get("seat")
        if t in ("TableOpened", "TableStarted"):
            return self.t(t)
        if t == "SeatTaken":
            return self.t(t, name=e.get("name", "?"), n=seat)
        if t == "SeatLeft":
            return self.t(t, n=seat)
        if t == "Chat":
            return self.t(t, name=e.get("name") or self.seat(seat), n=seat, text=e.get("text", ""))
        who = self.seat(seat)
        if t in ("SeatAway", "SeatBack", "ProxyOn", "ProxyOff"):
            return _cap(self.t(t, seat=who)) if t != "ProxyOn" else self.t(t, seat=who)
        if t == "SeatPresence":
            return _cap(self.t("SeatPresence.on" if e.get("connected") else "SeatPresence.off", seat=who))
        if t in ("TableFailed", "TableAbandoned"):
            return self.t(t)
        if t == "RematchOffered":
            return _cap(self.t(t, seat=who, table=e.get("table", "")))
        if t == "TimedOut":
            return _cap(self.t(t, seat=who))
        return ""  # TableFinished: the GameEnded line has said it all

    def describe_result(self, result: dict) -> str:
        """The final ranks of any game: one row per seat, best rank first,
        with its score where the result has scores."""
        ranks = result.get("ranks") or []
        scores = result.get("scores") or []
        lines = [self.t("ranks.title"), self.t("ranks.header")]
        for s in sorted(range(len(ranks)), key=lambda s: (ranks[s], s)):
            score = scores[s] if s < len(scores) else ""
            lines.append(f"{ranks[s]:>4}  {s:>4}  {score!s:>5}")
        return "\n".join(lines)


# The fields of an event that name a seat, told by the seat's label.
SEAT_FIELDS = frozenset({"seat", "winner", "loser", "pivot", "target", "owner", "by", "to", "from", "proposer"})


class GenericNarrator(Narrator):
    """The narrator of a game that brings none of its own: an event `TYPE`
    is told by the game's words "GAME.TYPE" (its catalogue's "narrate"
    part), each field filled in plainly (seats by their label, lists
    joined, a hidden value as such); an event it has no words for is told
    by its type and fields. `clients/web/src/narrate.js` tells them alike."""

    def __init__(self, game: str, lang: str = "en", label: Label | None = None, *,
                 words: Path | None = None) -> None:
        super().__init__(lang, label, words=words if words is not None else words_folder(game))
        self.game = game

    def value(self, field: str, v: Any) -> str:
        if v is None:
            return self.t("nobody" if field in SEAT_FIELDS else "hidden_card")
        if isinstance(v, list | tuple):
            return self.t("sep").join(self.value(field, x) for x in v)
        if field in SEAT_FIELDS and isinstance(v, int) and not isinstance(v, bool):
            return self.seat(v)
        if isinstance(v, bool):
            return "true" if v else "false"
        return json.dumps(v, separators=(",", ":")) if isinstance(v, dict) else str(v)

    def narrate(self, event: dict, viewer: Viewer = None) -> str:
        kind = event.get("type")
        if kind in TABLE_EVENTS:
            return self.table_event(event)
        key = f"{self.game}.{kind}"
        if key not in self.words and key not in self.en:
            return self._fallback(event)
        return _cap(self.t(key, **{k: self.value(k, v) for k, v in event.items()}))


def narrator_for(game: str, lang: str = "en", label: Label | None = None,
                 view: dict[str, Any] | None = None) -> Narrator:
    """The narrator of a table of `game`: the game's own (its home's
    `narrate.narrator`, made for the table's view: its board, say), else
    the generic one over the game's words."""
    module = part(game, "narrate")
    make = getattr(module, "narrator", None)
    if make is not None:
        made: Narrator = make(lang, label, view)
        return made
    return GenericNarrator(game, lang, label)


@lru_cache(maxsize=32)
def _narrator(game: str, lang: str) -> Narrator:
    return narrator_for(game, lang)


def narrate(event: dict, viewer: Viewer = None, *, lang: str = "en", game: str = DEFAULT_GAME) -> str:
    """One or a few lines for one projected event of a table of `game`
    (see `Narrator.narrate`; on the game's default board, where it has
    one); table events too, with seats as "seat N". A call that names no
    game tells the game a record without `game` holds (oriente.v1)."""
    narrator = _narrator(game, lang)
    if event.get("type") in TABLE_EVENTS:
        return narrator.table_event(event)
    return narrator.narrate(event, viewer)


def narrate_table_event(e: dict, label: Label | None = None, *, lang: str = "en") -> str:
    """The table's own events around the game. `label` names a seat
    ("seat 3 (bob)"); clients that know names pass one."""
    return Narrator(lang, label).table_event(e)


def describe_result(result: dict, *, lang: str = "en", game: str = DEFAULT_GAME) -> str:
    """The final table of a game's result, in the game's own words."""
    return _narrator(game, lang).describe_result(result)


def __getattr__(name: str) -> Any:
    # The names this module had when it told the events of one game alone
    # (its narrator's event types, an action's words): that game's, now in
    # its home, importable from here for one release.
    if name in ("KNOWN_TYPES", "action_phrase"):
        return getattr(part(DEFAULT_GAME, "narrate"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
