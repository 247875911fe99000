"""Limits that count a client's address hold for the whole site, not for
each of its processes."""

from __future__ import annotations

import pytest

from ..e2e.wsclient import Client, open_client


@pytest.mark.trio
async def test_an_address_has_as_many_open_tables_on_the_whole_site_as_on_one_process(site) -> None:
    """T6.2 on a site: the tables one client address created and are still
    open count over every process, not per process."""
    nodes = await site(2, "--tables-per-address", "3")
    created = []
    for port in (nodes[0].port, nodes[0].port, nodes[1].port, nodes[1].port):
        async with open_client(port) as ws:  # a connection each: the per-connection limit is not the one hit
            c = Client(ws)
            await c.recv()
            created.append(await c.request({"t": "create_table", "seats": 4, "name": "mine"}))
    assert [r["t"] for r in created] == ["ok", "ok", "ok", "error"], created
    assert created[3]["code"] == "lobby/too_many" and "3 open tables" in created[3]["message"]
