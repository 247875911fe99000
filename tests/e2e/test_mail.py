"""E-mail over real sockets and a real SMTP server (docs/accounts.md,
"E-mail"): an address is given, confirmed by the mailed link, and mailed
when turn-based tables await its account, at most once per interval with
every table that waits, each mail with its links back and the link that
turns the mail off. The SMTP server is aiosmtpd, a local sink."""

from __future__ import annotations

import contextlib
import re
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import trio
from argon2 import PasswordHasher

from oriente.clients.sdk import Client as SdkClient
from oriente.clients.sdk import ServerError
from oriente.server.app import App, MailOptions
from oriente.server.emails import RESEND_AFTER_S
from oriente.server.mailer import parse_smtp_url
from oriente.server.notifier import Notifier, NotifyPolicy
from oriente.server.stores import SeatRow

from .smtpsink import Sink, body, smtp_sink
from .wsclient import Client, open_client

pytestmark = pytest.mark.trio


@pytest.fixture
def sink() -> Iterator[Sink]:
    with smtp_sink() as s:
        yield s


@pytest.fixture
async def server(tmp_path: Any, nursery: trio.Nursery, sink: Sink) -> AsyncIterator[App]:
    mail = MailOptions(smtp=parse_smtp_url(sink.url), policy=NotifyPolicy(every=3600.0, grace=60.0, tick=3600.0))
    app = App(str(tmp_path / "store.sqlite"), port=0, hasher=PasswordHasher(time_cost=1, memory_cost=1024),
              mail=mail)
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def connect(port: int, stack: Any) -> Client:
    c = Client(await stack.enter_async_context(open_client(port)))
    await c.recv()  # welcome
    return c


async def get(url: str) -> tuple[int, str]:
    def fetch() -> tuple[int, str]:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()
    return await trio.to_thread.run_sync(fetch)


def link(text: str, path: str) -> str:
    found = re.search(r"http://\S+" + re.escape(path) + r"\S*", text)
    assert found, f"no {path} link in {text!r}"
    return found.group(0)


async def test_an_address_is_confirmed_by_its_mailed_link_once(server: App, sink: Sink) -> None:
    async with contextlib.AsyncExitStack() as stack:
        ana = await connect(server.port, stack)
        up = await ana.request({"t": "sign_up", "name": "ana", "password": "correct horse"})
        assert up["email"] is None
        bad = await ana.request({"t": "set_email", "address": "not an address"})
        assert bad["code"] == "account/bad_email" and sink.messages == []
        given = await ana.request({"t": "set_email", "address": "ana@example.org"})
        assert given["email"] == {"address": "ana@example.org", "confirmed": False, "notify": True}
        [mail] = sink.messages
        assert mail["To"] == "ana@example.org" and mail["From"] == "oriente@example.org"
        confirm = link(body(mail), "/email/confirm")
        token = confirm.rpartition("=")[2]
        # The store keeps the token's hash only.
        row = await server.store.email(up["account"]["id"])  # type: ignore[union-attr]
        assert row is not None and token not in row.confirm_hash and row.confirmed_at is None
        again = await ana.request({"t": "set_email", "address": "ana@example.net"})
        assert again["code"] == "account/email_limited" and 0 < again["retry_after"] <= RESEND_AFTER_S
        assert len(sink.messages) == 1, "a refused address is not mailed"

        assert (await get(confirm.replace("token=", "token=x")))[0] == 404
        status, text = await get(confirm)
        assert status == 200 and "ana@example.org" in text
        assert (await get(confirm))[0] == 404, "a confirmation link works once"
        other = await connect(server.port, stack)
        signed = await other.request({"t": "sign_in", "name": "ana", "password": "correct horse"})
        assert signed["email"] == {"address": "ana@example.org", "confirmed": True, "notify": True}
        assert (await other.request({"t": "set_email", "address": ""}))["email"] is None
        assert (await server.store.email(up["account"]["id"])) is None  # type: ignore[union-attr]


def seat(account: str, table: str, since: float, *, until: float | None = None, turn_based: bool = True,
         awaits: bool = True) -> SeatRow:
    return SeatRow(account, table, 0, awaits, since, until, turn_based, False, since)


async def test_one_mail_per_interval_names_every_table_that_waits(server: App, sink: Sink) -> None:
    store = server.store
    assert store is not None
    async with contextlib.AsyncExitStack() as stack:
        ana = await connect(server.port, stack)
        up = await ana.request({"t": "sign_up", "name": "ana", "password": "correct horse"})
        await ana.request({"t": "set_email", "address": "ana@example.org"})
        ana_id = up["account"]["id"]
    now = [1_000_000.0]
    notifier = Notifier(store, server.notifier.mailer, "https://play.example.org",  # type: ignore[union-attr]
                        NotifyPolicy(every=3600.0, grace=60.0), wall=lambda: now[0])
    await store.save_seats("T1", [seat(ana_id, "T1", now[0] - 120, until=now[0] + 86400)])
    assert await notifier.once() == 0, "an unconfirmed address is not mailed"
    status, _ = await get(link(body(sink.messages[0]), "/email/confirm"))
    assert status == 200
    await store.save_seats("T2", [seat(ana_id, "T2", now[0] - 90)])
    await store.save_seats("T3", [seat(ana_id, "T3", now[0] - 30)])  # within the grace: named, as it waits too
    await store.save_seats("T4", [seat(ana_id, "T4", now[0] - 600, turn_based=False)])  # not turn-based
    await store.save_seats("T5", [seat(ana_id, "T5", now[0] - 600, awaits=False)])
    assert await notifier.once() == 1
    mail = sink.messages[-1]
    text = body(mail)
    assert mail["Subject"] == "Oriente: it's your turn at 3 tables"
    for t in ("T1", "T2", "T3"):
        assert f"https://play.example.org/#/t/{t}" in text
    assert "T4" not in text and "T5" not in text
    assert "1970-01-13 13:46 UTC" in text, "the deadline in UTC"
    assert "/#/t/T2   (an offer awaits your answer)" in text, "a wait without a deadline is an offer's"
    unsubscribe = link(text.replace("https://play.example.org", f"http://127.0.0.1:{server.port}"),
                       "/email/unsubscribe")
    assert mail["List-Unsubscribe"] == f"<{unsubscribe.replace(f'http://127.0.0.1:{server.port}', 'https://play.example.org')}>"

    count = len(sink.messages)
    assert await notifier.once() == 0, "mailed already"
    now[0] += 1800
    await store.save_seats("T6", [seat(ana_id, "T6", now[0] - 120)])
    assert await notifier.once() == 0, "a new wait within the interval waits for it"
    now[0] += 1800
    assert await notifier.once() == 1
    assert "T6" in body(sink.messages[-1]) and "T1" in body(sink.messages[-1])
    now[0] += 7200
    assert await notifier.once() == 0, "nothing awaits since the last mail"
    assert len(sink.messages) == count + 1

    status, text = await get(unsubscribe)
    assert status == 200 and "ana@example.org" in text
    await store.save_seats("T7", [seat(ana_id, "T7", now[0] - 120)])
    assert await notifier.once() == 0, "unsubscribed"


async def test_the_sdk_gives_an_address_and_the_mail_arrives(server: App, sink: Sink) -> None:
    """The SDK's set_email (PROTOCOL.md 3): the reply as the server keeps
    the address, and the confirmation in the sink."""
    async with SdkClient.connect(f"ws://127.0.0.1:{server.port}") as client:
        await client.sign_up("bea", "correct horse")
        assert await client.set_email("bea@example.org") == {"address": "bea@example.org", "confirmed": False,
                                                              "notify": True}
        with pytest.raises(ServerError) as refused:
            await client.set_email("bea@example.net")
        assert refused.value.code == "account/email_limited"
    assert [m["To"] for m in sink.messages] == ["bea@example.org"]
