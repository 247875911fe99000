"""Which web pages may open a websocket here: the `Origin` check.

A browser sends `Origin` on every websocket handshake and scripts cannot
forge it. The page of this very site may connect; a page of another site
must not (it would act in a player's browser with the player's seat).
"This very site" used to mean "the `Host` the browser asked for", and that
is what DNS rebinding defeats: a page at `http://evil.example:8765` whose
name the attacker then points at 127.0.0.1 sends `Host: evil.example:8765`
and `Origin: http://evil.example:8765`, which agree, and drives a server
that listens on loopback only.

So the check compares `Origin` with the site's *public origins*, which the
operator names (`oriente serve --public-origin https://play.example.org`,
for a server behind a proxy) or which are, by default, the addresses the
server itself listens on: `http://127.0.0.1:8765` and
`http://localhost:8765` for the default listener; for one on every
interface (0.0.0.0, ::), an address of this machine, its host name or
`localhost`, always at the port it listens on. Names an attacker controls
resolve to nothing of these. Pages of other sites the operator trusts are
added with `--allow-origin`; on a site of many processes, the pages of the
site's other processes are its own (a page follows `moved` to them). Handshakes without `Origin` come from programs
(bots, the terminal client), which hold their own tokens: allowed.

An origin is a scheme, a host and a port; `https://example.org` and
`https://example.org:443` are one origin, `http://example.org:8080`
another.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

Origin = tuple[str, str, int]  # (scheme, host, port), lower case, the host of an IPv6 address without brackets

_DEFAULT_PORTS = {"http": 80, "https": 443}


class OriginError(ValueError):
    """Text that is not an origin; the message says what one looks like."""


def parse_origin(text: str) -> Origin:
    """`scheme://host[:port]` as a browser writes it in `Origin`, or raise
    OriginError (a path, a user, a query or another scheme is not an origin)."""
    given = text.strip()
    try:
        parts = urlsplit(given)
        port = parts.port
    except ValueError as exc:
        raise OriginError(f"{text!r} is not an origin ({exc})") from None
    scheme = parts.scheme.lower()
    if (scheme not in _DEFAULT_PORTS or not parts.hostname or parts.username is not None
            or parts.path not in ("", "/") or parts.query or parts.fragment):
        raise OriginError(f"{text!r} is not an origin: write it as a browser does, scheme://host[:port], "
                          "e.g. https://play.example.org or http://127.0.0.1:8765")
    return scheme, parts.hostname.lower().rstrip("."), port if port is not None else _DEFAULT_PORTS[scheme]


def _pages_of(urls: Iterable[str]) -> set[Origin]:
    """The origins of the pages a server at each URL serves: ws:// and
    http:// the one, wss:// and https:// the other."""
    pages = set()
    for url in urls:
        scheme, sep, rest = url.partition("://")
        web = {"ws": "http", "wss": "https"}.get(scheme.lower(), scheme.lower())
        try:
            pages.add(parse_origin(f"{web}{sep}{rest.split('/', 1)[0]}"))
        except OriginError:
            continue
    return pages


def origin_text(origin: Origin) -> str:
    scheme, host, port = origin
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" + ("" if _DEFAULT_PORTS[scheme] == port else f":{port}")


@functools.lru_cache(maxsize=256)
def _is_local_address(host: str) -> bool:
    """Is `host` an IP address of this machine? Binding a socket to it
    succeeds only then (EADDRNOTAVAIL otherwise), on every Unix."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(ip), 0))
    except OSError:
        return False
    return True


def _own_names() -> set[str]:
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names.add(name.lower().rstrip("."))
    return names


class OriginPolicy:
    """The public origins (named, or those of the listening addresses once
    `listening` is told them) and the other allowed pages; `allows` decides."""

    def __init__(self, public: Iterable[str] = (), others: Iterable[str] = ()) -> None:
        """Raises OriginError for an entry that is not an origin."""
        self.public: frozenset[Origin] = frozenset(parse_origin(o) for o in public)
        self.others: frozenset[Origin] = frozenset(parse_origin(o) for o in others)
        self._listening: list[tuple[str, int]] = []  # (address as bound, port)

    def listening(self, addresses: Iterable[tuple[str, int]]) -> None:
        """The (host, port) pairs the server's sockets are bound to."""
        self._listening = [(str(host), int(port)) for host, port in addresses]

    def describe(self) -> list[str]:
        """The public origins as a person reads them (for logs and errors)."""
        if self.public:
            return sorted(origin_text(o) for o in self.public)
        shown: list[str] = []
        for host, port in self._listening:
            ip = ipaddress.ip_address(host)
            if ip.is_unspecified:
                shown.append(f"http://<an address of this machine>:{port}")
            else:
                shown.append(origin_text(("http", host, port)))
                if ip.is_loopback:
                    shown.append(origin_text(("http", "localhost", port)))
        return sorted(set(shown))

    def allows(self, origin: str | None, site: Iterable[str] = ()) -> bool:
        """May a handshake with this `Origin` header proceed? `site`: the
        addresses of the other processes of a site (`ws://HOST:PORT`, as
        `welcome.origins` lists them), whose pages are this site's too."""
        if origin is None:
            return True  # a program, not a page
        try:
            parsed = parse_origin(origin)
        except OriginError:
            return False  # "null" (a sandboxed or file: page), or garbage
        if parsed in self.others or parsed in _pages_of(site):
            return True
        if self.public:
            return parsed in self.public
        return any(self._listens_as(parsed, host, port) for host, port in self._listening)

    @staticmethod
    def _listens_as(origin: Origin, host: str, port: int) -> bool:
        scheme, name, at = origin
        if scheme != "http" or at != port:
            return False
        bound = ipaddress.ip_address(host)
        try:
            asked: ipaddress.IPv4Address | ipaddress.IPv6Address | None = ipaddress.ip_address(name)
        except ValueError:
            asked = None
        if bound.is_unspecified:
            if asked is not None:
                return _is_local_address(str(asked))
            return name in _own_names()
        if asked is not None:
            return asked == bound
        return bound.is_loopback and name == "localhost"
