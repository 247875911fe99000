"""The client address that creation limits count under (docs/table.md T6.2)."""

from __future__ import annotations

import pytest

from oriente.server.addresses import TrustedProxies, address_key, client_address, parse_trusted_proxy


@pytest.mark.parametrize("raw, key", [
    ("127.0.0.2", "127.0.0.2"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("[2001:db8:1:2::9]", "2001:db8:1:2::/64"),
    ("::ffff:198.51.100.4", "198.51.100.4"),
    ("not an address", "not an address"),
])
def test_address_keys(raw: str, key: str) -> None:
    assert address_key(raw) == key


def test_only_a_trusted_proxy_may_name_the_client() -> None:
    trusted = {"10.0.0.1", "10.0.0.2"}
    assert client_address("203.0.113.9", ["198.51.100.1"], trusted) == "203.0.113.9"
    assert client_address("10.0.0.1", ["198.51.100.1"], trusted) == "198.51.100.1"
    # What the client sent itself comes first; each proxy appends what it saw.
    assert client_address("10.0.0.1", ["6.6.6.6, 198.51.100.1", "10.0.0.2"], trusted) == "198.51.100.1"
    assert client_address("10.0.0.1", [], trusted) == "10.0.0.1"


def test_loopback_is_the_trusted_proxy_unless_the_operator_names_others() -> None:
    default = TrustedProxies()
    assert "127.0.0.1" in default and "127.8.9.10" in default and "::1" in default and "::ffff:127.0.0.1" in default
    assert "10.0.0.1" not in default and "203.0.113.9" not in default and "not an address" not in default
    assert client_address("127.0.0.1", ["6.6.6.6, 198.51.100.1"], default) == "198.51.100.1"
    # A forged hop that names a trusted address is passed over, as the proxy itself is.
    assert client_address("127.0.0.1", ["127.0.0.1, 198.51.100.1"], default) == "198.51.100.1"
    assert client_address("127.0.0.1", ["198.51.100.1, 127.0.0.1"], default) == "198.51.100.1"
    named = TrustedProxies(["10.0.0.0/8", "2001:db8::1"])
    assert "10.200.0.3" in named and "2001:db8::1" in named and "127.0.0.1" not in named
    assert client_address("127.0.0.1", ["198.51.100.1"], named) == "127.0.0.1"
    assert len(TrustedProxies(["none"])) == 0 and "127.0.0.1" not in TrustedProxies(["none"])


def test_hops_written_with_ports_or_brackets_count_as_their_address() -> None:
    trusted = TrustedProxies()
    assert client_address("127.0.0.1", ["198.51.100.1:4711"], trusted) == "198.51.100.1"
    assert client_address("127.0.0.1", ["[2001:db8:1:2::9]:443"], trusted) == "2001:db8:1:2::/64"


@pytest.mark.parametrize("text", ["notanip", "10.0.0.0/33", "", "example.org"])
def test_a_trusted_proxy_that_is_no_address_is_refused_saying_what_one_is(text: str) -> None:
    with pytest.raises(ValueError, match="is not an IP address or network"):
        parse_trusted_proxy(text)
