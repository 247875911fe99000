"""A person with only a terminal plays a turn-based table (docs/terminal.md,
docs/table.md T8.8), in tmux against `oriente serve`: `--account NAME
--new-account` makes the account (the password asked without echo, twice),
`create 4 daily` and `/bots` start a turn-based table, and the person leaves.
On another device, `--account NAME` signs in, `mine` says the table awaits
them and until when, and `join ID` takes the seat again without its token."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import trio

from .test_terminal_tmux import HANG_GUARD, TMUX, Tmux, _oriente, server, server_url  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
PASSWORD = "correct horse battery"
CLOCK = r"-- \d+ (h \d+ min|d \d+ h) left"  # a turn-based clock (a decision with its bank, or a window)


def _play(url: str, *flags: str) -> str:
    return " ".join(shlex.quote(a) for a in [*_oriente(), "play", "--server", url, *flags])


def test_a_person_signs_up_in_the_terminal_and_takes_a_turn_based_seat_again_elsewhere(server_url: str,  # noqa: F811
                                                                                        tmp_path: Path) -> None:
    first = Tmux(_play(server_url, "--account", "ana", "--new-account"), tmp_path, size=(160, 40))
    second: Tmux | None = None

    async def scenario() -> None:
        nonlocal second
        await first.wait_for(r"Password for ana:", 20)
        await first.type(PASSWORD)
        await first.wait_for(r"The same password again:", 10)
        screen = await first.screen()
        assert PASSWORD not in screen, "the password is not echoed"
        await first.type(PASSWORD)
        await first.wait_for(r"signed in as ana", 20)
        await first.type("create 4 daily")
        await first.wait_for(r"\| turn-based \| you are seat", 20)
        await first.type("/bots")
        # The bots play at once; the table then waits on ana (her decision, or a
        # negotiation window she fights in), for hours or days.
        await first.wait_for(CLOCK, 60)
        first.kill()

        second = Tmux(_play(server_url, "--account", "ana"), tmp_path, size=(160, 40))
        await second.wait_for(r"Password for ana:", 20)
        await second.type(PASSWORD)
        await second.wait_for(r"signed in as ana", 20)
        # The bots may still be playing their part (a server bot answers after
        # a second): a person looks again until the table waits on them.
        found = None
        with trio.move_on_after(HANG_GUARD):
            while found is None:
                await second.type("mine")
                await second.wait_for(r"Your tables: ", 20)
                found = re.search(r"Your tables: (\S+) \(running, seat \d+, your turn until \d{4}-\d\d-\d\d",
                                  "".join((await second.screen()).split("\n")))
                await trio.sleep(1)
        assert found, second.screens[-1]
        await second.type(f"join {found.group(1)}")
        await second.wait_for(CLOCK, 30)
        screen = await second.screen()
        assert "not yours" not in screen and "bad_token" not in screen, screen

    try:
        trio.run(scenario)
    finally:
        first.kill()
        if second is not None:
            second.kill()
