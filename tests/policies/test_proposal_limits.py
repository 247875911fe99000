"""A bot proposes only when its prompt says it may (R8.6, R8.7): a seat
whose proposals for the season are used up neither offers nor counters.
Found when a ruthless table's seat countered a deal after its fortieth
proposal of a season and the rules refused it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oriente import games
from oriente.games.kit.port import BotMove, GamePort
from oriente.games.kit.selfplay import play

ORIENTE = games.load("oriente")


class _NoProposalsLeft:
    """The Oriente port, but every prompt says the seat's proposals for the
    season are used up; it records every deal its bots still try to make."""

    def __init__(self, port: GamePort) -> None:
        self._port = port
        self.tried: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)

    def prompts(self, state: Any, seats: list[int]) -> dict[int, dict[str, Any] | None]:
        out = self._port.prompts(state, seats)
        for prompt in out.values():
            if prompt is not None and isinstance(prompt.get("deal"), dict):
                prompt["deal"] = {**prompt["deal"], "propose": False, "season_left": 0}
        return out

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        move = self._port.bot_move(policy, seat, view, prompt, rng, memo)
        if move is not None and move.command.get("type") == "ProposeDeal":
            self.tried.append(move.command)
        return move


@pytest.mark.parametrize("bot", ORIENTE.policies)
def test_no_bot_proposes_when_its_prompt_says_it_may_not(bot: str) -> None:
    port = _NoProposalsLeft(ORIENTE)
    game = play(port, 5, 3, bot)  # type: ignore[arg-type]
    assert game.result is not None
    assert port.tried == []
