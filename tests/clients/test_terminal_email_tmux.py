"""A person gives the account's e-mail address and turns the bell on in
`oriente play`, in a real terminal (tmux), against `oriente serve --smtp`
with a local SMTP sink (aiosmtpd): the confirmation is mailed, its link
confirms the address, and `email` then says so, as the page's account
panel does (docs/terminal.md)."""

from __future__ import annotations

import re
import shlex
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from oriente.clients.sdk import Client
from tests.e2e.smtpsink import Sink, body, smtp_sink

from .test_terminal_tmux import TMUX, Tmux, _oriente, oriente_serve

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")


@pytest.fixture
def sink() -> Iterator[Sink]:
    with smtp_sink() as s:
        yield s


@pytest.fixture
def mail_server(tmp_path: Path, sink: Sink) -> Iterator[str]:
    """`oriente serve --smtp` into the sink, on a free port: its ws:// address."""
    with oriente_serve(tmp_path, "--smtp", sink.url) as (url, _):
        yield url


def test_the_account_gives_and_confirms_its_address_and_turns_the_bell_on(mail_server: str, sink: Sink,
                                                                          tmp_path: Path) -> None:
    async def sign_up() -> str:
        async with Client.connect(mail_server) as client:
            await client.sign_up("ana", "correct horse")
            assert client.auth_token is not None
            return client.auth_token

    token = trio.run(sign_up)
    command = " ".join(shlex.quote(a) for a in [*_oriente(), "play", "--server", mail_server, "--token", token])
    tmux = Tmux(command, tmp_path, size=(160, 30))

    async def scenario() -> None:
        await tmux.wait_for(r"signed in as ana", 20)
        await tmux.type("email")
        await tmux.wait_for(r"No e-mail address\. email ADDRESS", 10)
        await tmux.type("email nonsense")
        await tmux.wait_for(r"Usage: email ADDRESS", 10)
        await tmux.type("email ana@example.org")
        await tmux.wait_for(r"A link to confirm ana@example\.org was mailed to it", 10)
        assert [m["To"] for m in sink.messages] == ["ana@example.org"]
        await tmux.type("email")
        await tmux.wait_for(r"E-mail ana@example\.org: not confirmed yet", 10)
        found = re.search(r"http://\S+/email/confirm\?token=\S+", body(sink.messages[0]))
        assert found
        status = await trio.to_thread.run_sync(lambda: urllib.request.urlopen(found.group(0), timeout=10).status)
        assert status == 200
        await tmux.type("email")
        await tmux.wait_for(r"E-mail ana@example\.org: confirmed\. You are mailed when a turn-based table", 10)
        await tmux.type("email ana@example.net")
        await tmux.wait_for(r"Refused: .*\(account/email_limited\)\. Try again in \d+ s", 10)
        await tmux.type("bell on")
        await tmux.wait_for(r"Bell on: the terminal rings when a decision awaits you", 10)
        await tmux.type("email off")
        await tmux.wait_for(r"No e-mail address\.", 10)
        await tmux.type("quit")
        await tmux.wait_for(r"\[exited 0\]", 20)

    try:
        trio.run(scenario)
    finally:
        tmux.kill()
    assert len(sink.messages) == 1, "a refused address is not mailed"
