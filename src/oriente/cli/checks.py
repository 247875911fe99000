"""What the command line's options accept, checked when they are given.

Each function is an argparse ``type=``: it turns the word into its value or
raises ``argparse.ArgumentTypeError`` with a sentence for a person, so a bad
value is refused in one line naming the option (``--port 70000`` used to
serve on 4464, ``--port -5`` blamed another server, ``--store mysql://...``
became a SQLite file of that name, ``--bot-delay -1`` and ``--max-tables 0``
were taken). Nothing here opens a store or a socket: that is the command's.
"""
from __future__ import annotations

import argparse
import ipaddress
import math
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from oriente.server.stores import POSTGRES_SCHEMES

#: A host name: dot-separated labels of letters, digits and inner hyphens (RFC 1123).
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")

#: The largest seed a table takes (docs/table.md: an integer from 0 to 2**64-1).
MAX_SEED = 2**64 - 1


def _whole(text: str) -> int:
    try:
        return int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def port(text: str) -> int:
    """A TCP port, 1 to 65535, or 0 for any free one."""
    value = _whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port: ports are 1 to 65535 (0 picks a free one)")
    return value


def at_least(low: int, what: str = "") -> Callable[[str], int]:
    """A whole number of at least `low` (a count: 1; an index: 0)."""
    def check(text: str) -> int:
        value = _whole(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is too small: {what or 'this'} is at least {low}")
        return value
    check.__name__ = "whole number"  # what argparse names in "invalid ... value"
    return check


def seed(text: str) -> int:
    """A table seed: 0 to 2**64-1."""
    value = _whole(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{value} is not a seed: seeds are 0 to 2**64-1")
    return value


def seconds(text: str) -> float:
    """A duration in seconds, 0 or more (finite)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a duration: seconds are 0 or more")
    return value


def positive_seconds(text: str) -> float:
    """A duration in seconds above 0 (a lease, a wait before giving up)."""
    value = seconds(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 is too short: this duration is above 0 seconds")
    return value


def host(text: str) -> str:
    """An interface or host: an IPv4 or IPv6 address, or a host name."""
    given = text.strip()
    bare = given[1:-1] if given.startswith("[") and given.endswith("]") else given
    try:
        ipaddress.ip_address(bare)
        return bare
    except ValueError:
        pass
    labels = bare.rstrip(".").split(".")
    if bare and len(bare) <= 253 and all(_LABEL.fullmatch(label) for label in labels):
        return bare
    raise argparse.ArgumentTypeError(f"{text!r} is not an address or host name (for example 127.0.0.1, ::1, "
                                     "0.0.0.0 or localhost)")


def store(text: str) -> str:
    """A --store: a SQLite file whose folder exists, or a postgresql:// URL."""
    given = text.strip()
    if "://" in given:
        if given.startswith(POSTGRES_SCHEMES):
            if not urlsplit(given).hostname and "host=" not in given:
                raise argparse.ArgumentTypeError(f"{_hidden(given)} names no host: postgresql://USER@HOST/DB")
            return given
        scheme = given.split("://", 1)[0]
        raise argparse.ArgumentTypeError(
            f"{scheme}:// is not a store Oriente can use: give a SQLite file (a path such as oriente.sqlite) "
            "or a PostgreSQL database (postgresql://USER@HOST/DB)")
    if not given:
        raise argparse.ArgumentTypeError("an empty --store: give a SQLite file such as oriente.sqlite")
    path = Path(given).expanduser()
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{given!r} is a folder; give a file in it, e.g. {path / 'oriente.sqlite'}")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"the folder {str(folder)!r} does not exist; create it first "
                                         f"(mkdir -p {folder}) or give a store elsewhere")
    return str(path)


def url(schemes: tuple[str, ...], example: str) -> Callable[[str], str]:
    """A URL with one of `schemes` and a host (a --cluster bus, a --public-url)."""
    def check(text: str) -> str:
        given = text.strip()
        parts = urlsplit(given)
        if parts.scheme not in schemes or not (parts.hostname or (parts.scheme == "unix" and parts.path)):
            raise argparse.ArgumentTypeError(f"{_hidden(given)!r} is not a {' or '.join(s + '://' for s in schemes)} "
                                             f"URL with a host, e.g. {example}")
        try:
            parts.port  # noqa: B018 - raises ValueError for a port out of range
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_hidden(given)!r}: its port is not 1 to 65535") from None
        return given
    check.__name__ = "URL"
    return check


def _hidden(text: str) -> str:
    """A URL as it may be printed: its password replaced by ***."""
    parts = urlsplit(text)
    if parts.password is None:
        return text
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()


def server_url(text: str) -> str:
    """The websocket address of a server as a person may type it: 'ws://h:p'
    as is, 'http://h:p' (what `oriente serve` prints for browsers) as
    'ws://h:p', 'https://' as 'wss://', a bare 'h:p' or 'h' as 'ws://'."""
    given = text.strip()
    scheme, sep, rest = given.partition("://")
    if not sep:
        scheme, rest = "ws", given
    ws = {"ws": "ws", "wss": "wss", "http": "ws", "https": "wss"}.get(scheme.lower())
    host = rest.split("/", 1)[0]
    if ws is None or not host or any(c.isspace() for c in rest):
        raise ValueError(f"{text!r} is not a server address; try ws://HOST:PORT, e.g. ws://127.0.0.1:8765")
    return f"{ws}://{rest}"
