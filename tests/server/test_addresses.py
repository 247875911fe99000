"""The client address that creation limits count under (docs/table.md T6.2)."""

from __future__ import annotations

import pytest

from oriente.server.addresses import address_key, client_address


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
