"""Random ids and secret tokens that a command line can take as they are.

Table ids, tournament ids, seat tokens and the other tokens the server hands
out are pasted into commands (``oriente play --resume TABLE TOKEN``,
``oriente tournament start ID TOKEN``). ``secrets.token_urlsafe`` draws from
an alphabet that holds ``-``, so about one draw in 64 began with it and a
command line took the id for an option. These draw from letters and digits
only: nothing to quote, nothing an argument parser reads as a flag, and a
double-click selects the whole of one. Ids drawn before keep working: nothing
checks an id's alphabet, only whether it names something.
"""
from __future__ import annotations

import secrets
import string
from typing import Final

#: Letters and digits: 62 symbols, about 5.95 bits each.
ALPHABET: Final = string.ascii_letters + string.digits

#: Length of an id (a table, a tournament, an account): about 71 bits, the
#: length token_urlsafe(9) gave before.
ID_LENGTH: Final = 12
#: Length of a secret token (a seat's, an organiser's, an entrant's): about
#: 190 bits, the length token_urlsafe(24) gave before.
TOKEN_LENGTH: Final = 32


def _draw(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def new_id(length: int = ID_LENGTH) -> str:
    """A fresh public id: letters and digits, never an option's leading '-'."""
    return _draw(length)


def new_token(prefix: str = "", length: int = TOKEN_LENGTH) -> str:
    """A fresh secret token (its ``prefix`` tells its kind to a reader)."""
    return prefix + _draw(length)
