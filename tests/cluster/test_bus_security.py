"""The bus between a site's processes, as an attacker on Redis sees it:
what it sniffs holds no token, nonce, name or hand, and what it publishes
(forged, tampered or replayed messages) is dropped and counted, never
handled: no seat taken, no table listed, no client sent elsewhere."""

from __future__ import annotations

import threading
import urllib.request

import msgpack
import pytest
import trio

from oriente.server.cluster.seal import Sealer, new_site_key
from oriente.server.stores.postgres import split_schema

from ..e2e.wsclient import Client, open_client
from .site import BUS_URL

# -- the seal alone ------------------------------------------------------------------


def test_a_sealed_message_opens_once_on_its_own_channel_with_the_site_key() -> None:
    key = new_site_key()
    sender, receiver = Sealer(key), Sealer(key)
    sealed = sender.seal("oriente.s.node.a", b"a seat token")
    assert b"a seat token" not in sealed
    assert receiver.open("oriente.s.node.a", sealed) == b"a seat token"
    assert receiver.open("oriente.s.node.a", sealed) is None  # the same message again
    assert receiver.open("oriente.s.node.b", sender.seal("oriente.s.node.a", b"x")) is None  # another channel
    tampered = bytearray(sender.seal("oriente.s.node.a", b"act"))
    tampered[-1] ^= 1
    assert receiver.open("oriente.s.node.a", bytes(tampered)) is None
    assert Sealer(new_site_key()).open("oriente.s.node.a", sender.seal("oriente.s.node.a", b"x")) is None
    assert receiver.open("oriente.s.node.a", msgpack.packb({"k": "fwd"})) is None  # no seal at all
    assert receiver.dropped == {"replayed": 1, "forged": 2, "short": 1}
    later = sender.seal("oriente.s.node.a", b"later")
    assert receiver.open("oriente.s.node.a", later) == b"later"  # the sender goes on after all that


def test_an_old_message_from_an_unknown_sender_is_stale() -> None:
    key = new_site_key()
    now = [1000.0]
    old = Sealer(key, wall=lambda: now[0]).seal("c", b"captured")
    now[0] += 3600
    receiver = Sealer(key, wall=lambda: now[0])
    assert receiver.open("c", old) is None
    assert receiver.dropped == {"stale": 1}


# -- the bus of a running site -------------------------------------------------------


class Sniffer:
    """Everything published on a site's channels, as Redis hands it out."""

    def __init__(self, store_url: str) -> None:
        import redis

        schema = split_schema(store_url)[1]
        self.pattern = f"oriente.{schema}.*"
        self.client = redis.Redis.from_url(BUS_URL)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.psubscribe(self.pattern)
        self.pubsub.get_message(timeout=5)
        self.seen: list[tuple[str, bytes]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            message = self.pubsub.get_message(timeout=0.2)
            if message is not None and message["type"] == "pmessage":
                self.seen.append((message["channel"].decode(), message["data"]))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.pubsub.close()

    def publish(self, channel: str, body: bytes) -> None:
        self.client.publish(channel, body)


def bus_dropped(port: int) -> dict[str, int]:
    """The drops a process counted, from its /metrics (on its metrics port)."""
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    found = {}
    for line in body.splitlines():
        if line.startswith("oriente_bus_dropped_total{"):
            reason = line.split('reason="', 1)[1].split('"', 1)[0]
            found[reason] = int(line.rsplit(" ", 1)[1])
    return found


@pytest.mark.trio
async def test_the_bus_holds_no_secret_and_handles_no_forgery(site) -> None:
    nodes = await site(2)
    sniffer = Sniffer(site.store)
    try:
        async with open_client(nodes[0].port) as ws:
            c = Client(ws)
            await c.recv()
            table = (await c.request({"t": "create_table", "seats": 4, "name": "sniffed"}))["table"]
        nonce = "a-secret-join-nonce-0123456789"
        with trio.fail_after(10):  # the welcome lists the site's origins: where `moved` may send a client
            while True:
                async with open_client(nodes[1].port) as ws:
                    origins = (await Client(ws).recv())["origins"]
                if len(origins) == 2:
                    break
                await trio.sleep(0.1)
        assert origins == [f"ws://127.0.0.1:{nodes[1].port}", f"ws://127.0.0.1:{nodes[0].port}"]
        async with open_client(nodes[1].port) as ws:
            c = Client(ws)
            await c.recv()
            joined = await c.request({"t": "join", "table": table, "name": "Shadowed", "nonce": nonce}, timeout=10)
            assert joined["t"] == "ok", joined
            await c.until(lambda f: f["t"] == "snapshot")
            resumed = await c.request({"t": "resume", "table": table, "token": joined["token"], "after": 0},
                                      timeout=10)
            assert resumed["t"] == "ok", resumed
            await c.request({"t": "chat", "table": table, "text": "meet me at the well"}, timeout=10)
            with trio.fail_after(10):  # until A's listing went over the bus too
                while not any(ch.endswith(".site") for ch, _ in sniffer.seen):
                    await trio.sleep(0.05)
            await trio.sleep(0.3)

            captured = list(sniffer.seen)
            forwarded = [(ch, body) for ch, body in captured if ".node." in ch]
            assert len(forwarded) >= 4, captured  # the join, its reply, the resume, the chat went over the bus
            for secret in (joined["token"], nonce, "Shadowed", "meet me at the well", table):
                assert not any(secret.encode() in body for _, body in captured), f"{secret!r} travels in clear"

            # What an attacker on Redis can do with that: send it again,
            # tamper with it, or write its own (the unsealed frames the bus
            # used to take).
            channels = sorted({ch for ch, _ in forwarded})
            for ch, body in forwarded:
                sniffer.publish(ch, body)  # replayed
            tampered = bytearray(forwarded[0][1])
            tampered[-3] ^= 0x40
            sniffer.publish(forwarded[0][0], bytes(tampered))
            schema_prefix = channels[0].rsplit(".node.", 1)[0]
            for ch in channels:
                # A join forwarded "from" the other process, as the old bus took it.
                sniffer.publish(ch, msgpack.packb({"k": "fwd", "from": "x", "conn": 1, "frame": msgpack.packb(
                    {"t": "join", "id": "forged", "table": table, "name": "Forged"})}))
                # A `moved` to an attacker's listener for whatever connection 1 is.
                sniffer.publish(ch, msgpack.packb({"k": "out", "conn": 1, "frame": msgpack.packb(
                    {"t": "moved", "table": table, "message": "go", "url": "ws://127.0.0.1:9/"})}))
            sniffer.publish(f"{schema_prefix}.site", msgpack.packb({"k": "list", "from": "x", "tables": [
                {"table": "forgedtable", "name": "free chips", "status": "open", "seats": [None] * 4}]}))

            with trio.fail_after(15):
                while True:
                    dropped = [bus_dropped(n.metrics_port) for n in nodes]
                    total = sum(sum(d.values()) for d in dropped)
                    if total >= len(forwarded) + 1 + 2 * len(channels):
                        break
                    await trio.sleep(0.1)
            merged: dict[str, int] = {}
            for d in dropped:
                for reason, count in d.items():
                    merged[reason] = merged.get(reason, 0) + count
            assert merged.get("replayed", 0) >= len(forwarded)
            assert merged.get("forged", 0) >= 1
            assert merged.get("short", 0) + merged.get("version", 0) >= 2 * len(channels)

            # Nothing forged was handled: this connection was not moved, no
            # seat was taken, no forged table is listed.
            assert not [f for f in c.frames if f["t"] == "moved"]
            listing = (await c.request({"t": "list_tables"}))["tables"]
            assert "forgedtable" not in [t["table"] for t in listing]
            snapshot_now = await c.request({"t": "spectate", "table": table}, timeout=10)
            assert snapshot_now["t"] == "ok"
            snap = await c.until(lambda f: f["t"] == "snapshot" and f["you"] == "spectator")
            names = [s["name"] for s in snap["table_info"]["seats"] if s]
            assert names == ["Shadowed"], names
    finally:
        sniffer.stop()

