"""The terminal's status line about an answer goes with its decision
(clients/terminal/app.py): "You chose ..." and "You are done bargaining"
stayed on screen into the next decision, for 15 s, where they read as
being about the new one."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
import trio.testing

from oriente.clients.sdk import Update
from oriente.clients.terminal.app import PlayApp, TableState
from oriente.clients.terminal.commands import Intent
from oriente.clients.terminal.screen import Terminal


class _Client:
    welcome: dict[str, Any] | None = None
    account: dict[str, Any] | None = None
    lost = None
    down_for = None
    connected = True


class _Seat:
    """A seat whose frames the test sends, and whose commands are taken."""

    def __init__(self) -> None:
        self.table, self.seat = "T1", 0
        self.info: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.away = False
        self.sent: list[dict[str, Any]] = []
        self.send, self._receive = trio.open_memory_channel[Update](10)

    async def updates(self) -> AsyncIterator[Update]:
        async for update in self._receive:
            yield update

    async def act(self, cmd: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(cmd)
        return {"t": "ok", "seq": len(self.sent)}


def _prompt(decision: int, kind: str, legal: list[dict[str, Any]], deadline_ms: int = 30_000) -> dict[str, Any]:
    return {"id": decision, "kind": kind, "topic": "support" if kind != "prompt" else "announce", "rule": "R10.2",
            "asked": [0, 1], "pivot": 0, "early": [1], "timer": kind if kind == "window" else "prompt",
            "silence": "pass", "legal": legal, "deadline_ms": deadline_ms}


def _app() -> tuple[PlayApp, TableState, _Seat]:
    app = PlayApp(_Client(), Terminal(stdin=io.StringIO(), stdout=io.StringIO(), ansi=False),  # type: ignore[arg-type]
                  "ws://127.0.0.1:1", "Tester")
    seat = _Seat()
    st = TableState(table="T1", watch=seat, you=0)  # type: ignore[arg-type]
    app.state, app.mode = st, "table"
    return app, st, seat


async def _frame(seat: _Seat, prompt: dict[str, Any] | None) -> None:
    await seat.send.send(Update(kind="events", events=[], prompt=prompt, view=None))
    await trio.testing.wait_all_tasks_blocked()


@pytest.mark.trio
async def test_you_chose_stays_while_its_decision_is_open_and_goes_with_the_next() -> None:
    app, st, seat = _app()
    first = _prompt(4, "round", [{"type": "Pass", "decision": 4}])
    async with trio.open_nursery() as nursery:
        nursery.start_soon(app._consume, st, nursery)
        await _frame(seat, first)
        await app._send(st, {"type": "Pass", "decision": 4}, "pass")
        assert app.status == "You chose: pass."
        await _frame(seat, {**first, "deadline_ms": 12_000, "pivot": 1})  # the same round, another pivot
        assert app.status == "You chose: pass."
        await _frame(seat, _prompt(5, "prompt", [{"type": "Pass", "decision": 5}]))
        assert app.status == ""
        await app._send(st, {"type": "Pass", "decision": 5}, "pass")
        await _frame(seat, None)  # the decision closed, nothing open
        assert app.status == ""
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_done_bargaining_goes_when_the_window_closes() -> None:
    app, st, seat = _app()
    window = _prompt(7, "window", [{"type": "Done", "decision": 7}])
    async with trio.open_nursery() as nursery:
        nursery.start_soon(app._consume, st, nursery)
        await _frame(seat, window)
        await app._table_intent(st, Intent("done"), st.choice_key(), nursery)
        await trio.testing.wait_all_tasks_blocked()
        assert seat.sent == [{"type": "Done", "decision": 7}]
        assert app.status.startswith("You are done bargaining")
        await _frame(seat, {**window, "done": [0]})
        assert app.status.startswith("You are done bargaining")
        await _frame(seat, _prompt(7, "round", [{"type": "Pass", "decision": 7}]))  # the window became its round
        assert app.status == ""
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_other_lines_keep_their_time() -> None:
    """A refusal or a deal's line is about no decision: it stays its 15 s."""
    app, st, seat = _app()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(app._consume, st, nursery)
        await _frame(seat, _prompt(1, "prompt", []))
        app.set_status("Deal #1: accept sent.")
        await _frame(seat, _prompt(2, "prompt", []))
        assert app.status == "Deal #1: accept sent."
        nursery.cancel_scope.cancel()


def test_signed_in_the_lobby_shows_the_accounts_name() -> None:
    """With --token the lobby said "your name: player" while every seat
    was taken under the account's name."""
    app, _, _ = _app()
    app.mode = "lobby"
    assert "your name: Tester" in app.screen()[0]
    app.client.account = {"id": 3, "name": "ana-bot", "bot": True}  # type: ignore[attr-defined]
    top = app.screen()[0]
    assert "signed in as ana-bot" in top and "Tester" not in top
    assert app.shown_name == "ana-bot"


@pytest.mark.trio
async def test_with_bell_on_the_terminal_rings_once_per_decision_that_awaits_the_seat() -> None:
    """`bell on` (the page's Sound and Notify me): a BEL once when a decision
    awaits our seat, not again for the same decision's next frames, not for
    another seat's decision, and nothing with the bell off."""
    app, st, seat = _app()
    out = app.term.stdout
    assert isinstance(out, io.StringIO)
    ours = _prompt(4, "prompt", [{"type": "Pass", "decision": 4}])
    theirs = {**_prompt(5, "prompt", [{"type": "Pass", "decision": 5}]), "pivot": 1}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(app._consume, st, nursery)
        await _frame(seat, ours)
        assert "\a" not in out.getvalue(), "the bell is off until turned on"
        await app._table_intent(st, Intent("bell", "on"), None, nursery)
        assert app.bell and "Bell on" in app.status
        await _frame(seat, theirs)
        assert out.getvalue().count("\a") == 0, "another seat's decision"
        await _frame(seat, _prompt(6, "prompt", [{"type": "Pass", "decision": 6}]))
        await _frame(seat, {**_prompt(6, "prompt", [{"type": "Pass", "decision": 6}]), "deadline_ms": 9_000})
        assert out.getvalue().count("\a") == 1, "once per decision"
        await _frame(seat, _prompt(7, "prompt", [{"type": "Pass", "decision": 7}]))
        assert out.getvalue().count("\a") == 2
        await app._table_intent(st, Intent("bell", "off"), None, nursery)
        await _frame(seat, _prompt(8, "prompt", [{"type": "Pass", "decision": 8}]))
        assert out.getvalue().count("\a") == 2
        nursery.cancel_scope.cancel()
