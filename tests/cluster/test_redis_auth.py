"""A site on a Redis that asks who is there (docs/deploy.md, "Redis"): the
processes reach the bus as an ACL user with a password, named in the URL,
limited to the site's channels; a wrong password stops a process with a
clear line that does not print the password."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from ..e2e.wsclient import Client, open_client
from .site import Node

pytestmark = pytest.mark.trio

PASSWORD = "bus-pw-4f9c1e"
ADMIN = "admin-pw-77a1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def locked_redis(tmp_path: Path) -> Iterator[int]:
    """A redis-server of its own on a free port: no anonymous access, and a
    user `oriente` that may only publish and subscribe on oriente.*."""
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs redis-server (.ci/redis installs it)")
        pytest.skip("redis-server is not installed; this test starts one with a password")
    port = _free_port()
    conf = tmp_path / "redis.conf"
    conf.write_text(f"port {port}\nbind 127.0.0.1\nsave \"\"\nappendonly no\nrequirepass {ADMIN}\n"
                    f"user oriente on >{PASSWORD} resetkeys resetchannels &oriente.* "
                    "-@all +publish +subscribe +unsubscribe +ping +hello\n")
    proc = subprocess.Popen([server, str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=port, password=ADMIN, socket_connect_timeout=1).ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail(f"redis-server did not start: {proc.stdout.read() if proc.stdout else ''}")
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


async def test_a_site_runs_on_a_redis_with_an_acl_user_and_a_password(postgres_schemas, locked_redis) -> None:
    store = postgres_schemas.store_url(postgres_schemas.fresh())
    bus = f"redis://oriente:{PASSWORD}@127.0.0.1:{locked_redis}/0"
    nodes = [await Node(store, bus).start(), await Node(store, bus).start()]
    try:
        async with open_client(nodes[0].port) as ws:
            c = Client(ws)
            await c.recv()
            table = (await c.request({"t": "create_table", "seats": 4, "name": "locked"}))["table"]
        async with open_client(nodes[1].port) as ws:  # forwarded over the locked bus
            c = Client(ws)
            await c.recv()
            joined = await c.request({"t": "join", "table": table, "name": "through-acl"}, timeout=10)
            assert joined["t"] == "ok", joined
            snapshot = await c.until(lambda f: f["t"] == "snapshot")
            assert snapshot["table_info"]["seats"][joined["seat"]]["name"] == "through-acl"
    finally:
        for node in nodes:
            node.cleanup()

    wrong = subprocess.run(
        [sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", store, "--quiet",
         "--cluster", f"redis://oriente:not-{PASSWORD}@127.0.0.1:{locked_redis}/0"],
        capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 1, wrong.stderr[-3000:]
    assert "cannot reach the bus" in wrong.stderr and "Traceback" not in wrong.stderr, wrong.stderr[-3000:]
    assert PASSWORD not in wrong.stderr + wrong.stdout
    await trio.lowlevel.checkpoint()
