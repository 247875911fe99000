"""Who a connection is, for limits per client address (docs/table.md T6.2).

The peer of the TCP connection, unless that peer is a reverse proxy the
server trusts: then the client is the last address in `X-Forwarded-For`
that is not itself a trusted proxy (each proxy appends the address it got
the request from, so the entries before it are whatever the client chose
to send, and a forged one never comes last). An IPv6 client counts with
its /64 network, which one subscriber usually holds whole.

Which proxies are trusted: those `oriente serve --trusted-proxy` names
(addresses or networks, repeatable; `none` for no proxy at all), and
without that option the loopback addresses, because docs/deploy.md puts
the proxy on the same machine: deployed exactly as it says, every player
behind the proxy is limited by their own address, not all of them by the
proxy's. A program on the server's own machine is trusted as the machine
is. A header from a peer that is not trusted is ignored (and logged,
rarely: it usually means a proxy that `--trusted-proxy` should name).
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Collection, Iterable, Iterator

from .lograte import RareWarning

log = logging.getLogger("oriente.transport")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

LOOPBACK: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
NO_PROXY = "none"


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a peer or a hop names: brackets and a port (as some
    proxies write them) taken off; an IPv4-mapped IPv6 address as IPv4."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # IPv4 with a port; an IPv6 address has more colons
        text = text.partition(":")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def address_key(address: str) -> str:
    """The key limits count under: an IPv4 address, an IPv6 /64, or the
    text itself (cut short) when it is not an IP address."""
    ip = _ip(address)
    if ip is None:
        return address.strip()[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def parse_trusted_proxy(text: str) -> tuple[Network, ...]:
    """One `--trusted-proxy` value: an address (10.0.0.5, ::1), a network
    (10.0.0.0/8), or `none` (trust no proxy, not even loopback). Raises
    ValueError with a message for a person otherwise."""
    given = text.strip()
    if given.lower() == NO_PROXY:
        return ()
    try:
        return (ipaddress.ip_network(given, strict=False),)
    except ValueError:
        raise ValueError(f"{text!r} is not an IP address or network (for example 127.0.0.1, 10.0.0.0/8 or ::1), "
                         f"nor {NO_PROXY!r}") from None


class TrustedProxies(Collection[str]):
    """The peers whose `X-Forwarded-For` is believed; `address in proxies`."""

    def __init__(self, entries: Iterable[str] | None = None) -> None:
        """`entries` as `--trusted-proxy` takes them; None (the option not
        given): loopback. Raises ValueError for an entry that is neither."""
        if entries is None:
            self.networks: tuple[Network, ...] = LOOPBACK
        else:
            self.networks = tuple(net for entry in entries for net in parse_trusted_proxy(entry))

    def __contains__(self, address: object) -> bool:
        ip = _ip(address) if isinstance(address, str) else None
        return ip is not None and any(ip in net for net in self.networks)

    def __iter__(self) -> Iterator[str]:
        return (str(net) for net in self.networks)

    def __len__(self) -> int:
        return len(self.networks)

    def __repr__(self) -> str:
        return f"TrustedProxies({[str(n) for n in self.networks]})"


def client_address(peer: str, forwarded_for: Iterable[str], trusted: Collection[str]) -> str:
    """The client's address key, given the TCP peer and the values of every
    `X-Forwarded-For` header of the request, in order."""
    if peer not in trusted:
        return address_key(peer)
    hops = [hop.strip() for value in forwarded_for for hop in value.split(",")]
    for hop in reversed(hops):
        if hop and hop not in trusted:
            return address_key(hop)
    return address_key(peer)


class ClientAddresses:
    """The address each client counts under, for a server whose trusted
    proxies are `trusted` (None: loopback). A header from a peer that is no
    trusted proxy is ignored, and said so in the log now and then: usually
    a proxy `--trusted-proxy` should name."""

    def __init__(self, trusted: Collection[str] | None = None) -> None:
        self.trusted: Collection[str] = TrustedProxies() if trusted is None else trusted
        self._untrusted_forward = RareWarning(log)

    def of(self, peer: str, forwarded: list[str]) -> str:
        if forwarded and peer not in self.trusted:
            self._untrusted_forward.warn(
                "X-Forwarded-For %r came from %s, which is not a trusted proxy: the header is ignored and its "
                "limits count under %s (if %s is your reverse proxy, name it with --trusted-proxy)",
                ", ".join(forwarded)[:200], peer, address_key(peer), peer)
        return client_address(peer, forwarded, self.trusted)
