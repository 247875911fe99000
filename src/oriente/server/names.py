"""Names people see: what a seat's name may hold, its normal form, and when
two names look alike.

A name is shown to everyone at a table, in the terminal, the page and the
records. Characters that move or hide text (bidi overrides, zero-width
characters), control characters and line breaks let one player forge what
others read, so a name holding any of them is refused, saying which; the
rest is kept in NFC and trimmed. Two names at one table that a reader could
take for each other ("ana" and "ANA", a Latin "a" and a Cyrillic "а", "Paul"
and "Pau1") are one name: `looks_alike` compares their skeletons, after
Unicode's confusables (UTS #39, as packaged by confusable-homoglyphs)
and NFKC with case folding.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs.confusables import confusables_data

MAX_NAME = 32

# Characters that change the direction of the text around them (Unicode's
# bidi controls): U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069.
_DIRECTION = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\u180e\u2061\u2062\u2063\u2064\u00ad\u034f")
_LINES = frozenset("\n\r\x0b\x0c\x85\u2028\u2029")
_BOM = "\ufeff"


class NameRefused(Exception):
    """A name that may not be used; `message` says why, for the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _what(ch: str) -> str | None:
    """What is wrong with one character in a name, or None."""
    if ch == _BOM:
        return "a byte order mark"
    if ch in _LINES:
        return "a line break"
    if ch in _DIRECTION:
        return "a text direction control"
    if ch in _ZERO_WIDTH:
        return "a zero-width character"
    category = unicodedata.category(ch)
    if category == "Cc":
        return "a control character"
    if category in ("Cf", "Co", "Cs", "Cn"):
        return "an invisible or unassigned character"
    return None


def clean_name(raw: str, *, max_len: int = MAX_NAME, what: str = "a name") -> str:
    """The name as it is kept and shown: NFC, trimmed, 1 to `max_len`
    characters. Raises NameRefused naming the first character it may not hold."""
    for ch in raw:
        problem = _what(ch)
        if problem is not None:
            name = unicodedata.name(ch, "")
            said = f"U+{ord(ch):04X}" + (f" {name}" if name else "")
            raise NameRefused(f"{what} may not hold {problem} ({said})")
    name = unicodedata.normalize("NFC", raw).strip()
    if not 0 < len(name) <= max_len:
        raise NameRefused(f"{what} has 1 to {max_len} characters")
    return name


@functools.cache
def _classes() -> dict[str, str]:
    """Every confusable character -> the smallest character of its class.
    The packaged table lists, per character, the characters it may be taken
    for; the classes are what those lists join up to (single characters only:
    "rn" for "m" is left out)."""
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            parent[ch] = parent[parent[ch]]
            ch = parent[ch]
        return ch

    for ch, found in confusables_data.items():
        for d in found:
            if len(d["c"]) == 1 and len(ch) == 1:
                a, b = root(ch), root(d["c"])
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {ch: root(ch) for ch in parent}


def _prototype(ch: str) -> str:
    return _classes().get(ch, ch)


def _prototypes(text: str) -> str:
    return "".join(_prototype(ch) for ch in text)


def skeletons(name: str) -> frozenset[str]:
    """What a reader may take the name for: compatibility forms unfolded,
    accents and spaces dropped, each character replaced by the prototype
    of the characters it looks like, with case folded before or after.
    Unicode's confusables are case-sensitive ("0" looks like "O", "l" like
    "I"), so one string cannot hold both kinds of likeness: two names look
    alike when any of their skeletons are equal."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch) and not ch.isspace())
    folded = unicodedata.normalize("NFKC", bare.casefold())
    return frozenset({_prototypes(bare), _prototypes(folded),
                      _prototypes(unicodedata.normalize("NFKC", _prototypes(bare).casefold()))})


def looks_alike(a: str, b: str) -> bool:
    """Could a reader take name `a` for name `b`?"""
    return not skeletons(a).isdisjoint(skeletons(b))
