"""Whole numbers from text a client wrote: a URL's query (`?limit=20`,
`?as=2`) or a listing cursor.

`str.isdigit` admits characters `int()` refuses (`"²"`, `"①"`), and
`int()` of thousands of digits is refused by Python and costs time before
that: either was an HTTP 500 with a traceback. Here a number is ASCII
decimal digits (`isdecimal`, every one of which `int()` takes, and ASCII so
that `"٣"` is not 3 in one place and refused in another), at most
`max_digits` of them; anything else is not a number, and the caller says so.
"""

from __future__ import annotations

MAX_DIGITS = 9  # below a billion: every count and seat a request may name


def whole_number(text: str | None, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The non-negative integer `text` writes, or None when it writes none
    (empty, a sign, a space, a non-ASCII digit, more than `max_digits`)."""
    if text is None or not 0 < len(text) <= max_digits or not (text.isascii() and text.isdecimal()):
        return None
    return int(text)
