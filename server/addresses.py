"""Who a connection is, for limits per client address (docs/table.md T6.2).

The peer of the TCP connection, unless that peer is a reverse proxy the
operator trusts (`oriente serve --trusted-proxy`): then the client is the
last address in `X-Forwarded-For` that is not itself a trusted proxy (each
proxy appends the address it got the request from, so the entries before
it are whatever the client chose to send). An IPv6 client counts with its
/64 network, which one subscriber usually holds whole.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Collection, Iterable


def address_key(address: str) -> str:
    """The key limits count under: an IPv4 address, an IPv6 /64, or the
    text itself (cut short) when it is not an IP address."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_address(peer: str, forwarded_for: Iterable[str], trusted: Collection[str]) -> str:
    """The client's address key, given the TCP peer and the values of every
    `X-Forwarded-For` header of the request."""
    if peer not in trusted:
        return address_key(peer)
    hops = [hop.strip() for value in forwarded_for for hop in value.split(",")]
    for hop in reversed(hops):
        if hop and hop not in trusted:
            return address_key(hop)
    return address_key(peer)
