"""When a server bot answers (server/bots.py), under trio's MockClock.

A bot decides on the newest frame, then sends its answer a fixed delay
after the frame that called for it, whatever it decided and however long
deciding took (so that its timing says nothing about its cards, R10.2d);
and it decides only once the table has answered its last command, so it
never decides on a state its own command is about to change."""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio
from trio.testing import MockClock, wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.protocol.codec import encode
from oriente.server.bots import _Bot
from oriente.server.game_port import BotMove
from oriente.server.outbox import Outbox

pytestmark = pytest.mark.trio
DELAY = 2.0


class _Port:
    """A port whose bot thinks for `thinking` seconds, then answers."""

    def __init__(self, clock: MockClock, answers: list[str | None], thinking: list[float]) -> None:
        self.clock, self.answers, self.thinking = clock, answers, thinking
        self.calls: list[float] = []

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        self.calls.append(trio.current_time())
        self.clock.jump(self.thinking.pop(0))  # deciding takes time
        answer = self.answers.pop(0)
        if answer is None:
            return None
        return BotMove(key=(answer, prompt["id"] if prompt else None), command={"type": answer, "deal": 1})


class _Always(_Port):
    """A port whose bot wants the same move on every frame."""

    def __init__(self, clock: MockClock, move: BotMove) -> None:
        super().__init__(clock, [], [])
        self.move = move

    def bot_move(self, *args: Any) -> BotMove | None:
        self.calls.append(trio.current_time())
        return self.move


class _Table:
    def __init__(self, port: _Port) -> None:
        self.port, self.id = port, "t1"
        self.sent: list[tuple[float, Any]] = []

    async def send(self, outbox: Outbox | None, message: Any) -> None:
        self.sent.append((trio.current_time(), message))


def _frame(decision: int) -> bytes:
    return encode({"t": "events", "table": "t1", "events": [{"type": "DealProposed", "seq": decision}],
                   "prompt": {"id": decision, "legal": []}, "view": {"viewer": 1}})


async def test_a_bot_answers_a_fixed_delay_after_the_frame_whatever_it_decides(autojump_clock: MockClock) -> None:
    """Two frames, two answers (an accept after a long think, a decline after
    a short one): each goes out exactly DELAY after its frame. (On the
    table's answer to its accept, the bot looks again and has nothing to say.)"""
    port = _Port(autojump_clock, ["AcceptDeal", None, "DeclineDeal"], [1.5, 0.0, 0.01])
    table = _Table(port)
    outbox = Outbox(100)
    bot = _Bot(table, outbox, 1, "any", random.Random(0), DELAY)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot.play)
        outbox.put(_frame(1))
        await wait_all_tasks_blocked()
        await trio.sleep(DELAY + 1)
        (t_first, first), = table.sent
        assert t_first == pytest.approx(DELAY) and first.cmd["type"] == "AcceptDeal"
        outbox.put(encode(M.ok(first.id)))
        await trio.sleep(1)
        frame_at = trio.current_time()
        outbox.put(_frame(2))
        await trio.sleep(DELAY + 1)
        (t_second, second) = table.sent[1]
        assert t_second - frame_at == pytest.approx(DELAY) and second.cmd["type"] == "DeclineDeal"
        nursery.cancel_scope.cancel()


async def test_a_bot_decides_only_once_its_last_command_was_answered(autojump_clock: MockClock) -> None:
    """A frame that comes while the bot's last command is still in flight is
    read, but the bot decides again only on the table's answer, on the
    newest frame."""
    port = _Port(autojump_clock, ["AcceptDeal", "DeclineDeal"], [0.0, 0.0])
    table = _Table(port)
    outbox = Outbox(100)
    bot = _Bot(table, outbox, 1, "any", random.Random(0), DELAY)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot.play)
        outbox.put(_frame(1))
        await trio.sleep(DELAY + 0.5)
        (_, first), = table.sent
        outbox.put(_frame(2))  # news, while the accept is not answered yet
        await trio.sleep(DELAY * 3)
        assert len(port.calls) == 1 and len(table.sent) == 1
        answered = trio.current_time()
        outbox.put(encode(M.ok(first.id)))
        await trio.sleep(DELAY * 2)
        assert len(port.calls) == 2 and port.calls[1] == pytest.approx(answered)
        assert table.sent[1][0] == pytest.approx(answered + DELAY)
        nursery.cancel_scope.cancel()


async def test_a_changed_sealed_answer_may_go_out_again(autojump_clock: MockClock) -> None:
    """A sealed answer sealed, changed, then wanted again has the key it had
    the first time; the port marks it `again` (it differs from what is sealed
    now), and the runner sends it: without that, the bot would fall silent
    with a deal to answer, and the window would wait for its clock."""

    port = _Always(autojump_clock, BotMove(key=("seal", 1), command={"type": "Support", "decision": 1}, again=True))
    table = _Table(port)
    outbox = Outbox(100)
    bot = _Bot(table, outbox, 1, "any", random.Random(0), 0.0)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot.play)
        outbox.put(_frame(1))
        await trio.sleep(1)
        outbox.put(encode(M.ok(table.sent[0][1].id)))
        await trio.sleep(1)
        assert len(table.sent) == 2 and table.sent[1][1].cmd == table.sent[0][1].cmd
        nursery.cancel_scope.cancel()


async def test_a_refused_answer_is_decided_again_on_the_newest_state(autojump_clock: MockClock) -> None:
    """The table refuses the bot's answer (a deal executed under it, so the
    command it chose is no longer legal): the answer was not given, so the
    bot decides again on the newest frame and may send the same key. It
    used to keep the key as sent and fall silent, and the table waited out
    its clock. A refusal repeated more than MAX_REFUSALS times is given up."""
    from oriente.server.bots import MAX_REFUSALS

    port = _Always(autojump_clock, BotMove(key=("answer", 1), command={"type": "Pass", "decision": 1}))
    table = _Table(port)
    outbox = Outbox(100)
    bot = _Bot(table, outbox, 1, "any", random.Random(0), 0.0)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot.play)
        outbox.put(_frame(1))
        await trio.sleep(1)
        assert len(table.sent) == 1
        for n in range(MAX_REFUSALS + 2):
            outbox.put(encode({"t": "error", "re": table.sent[-1][1].id, "code": "act/illegal", "message": "no"}))
            await trio.sleep(1)
            assert len(table.sent) == min(n + 2, MAX_REFUSALS + 1), n
        outbox.put(encode(M.ok(table.sent[-1][1].id)))
        outbox.put(_frame(1))
        await trio.sleep(1)
        assert len(table.sent) == MAX_REFUSALS + 1, "an answer given is not given twice"
        nursery.cancel_scope.cancel()
