"""A bot proposes only when its prompt says it may (R8.6, R8.7): a seat
whose proposals for the season are used up neither offers nor counters.
Found when a ruthless table's seat countered a deal after its fortieth
proposal of a season and the rules refused it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from oriente import games
from oriente.games.kit.port import BotMove, GamePort
from oriente.games.kit.selfplay import play
from oriente.games.oriente.bots import CHARACTERS, bargain, valuation
from oriente.games.oriente.rules import GameConfig, new_game, pending, view

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


class _EveryoneDeclines:
    """The Oriente port, but every seat declines every deal proposed to it
    (a bot's accept becomes a decline), as a table of people might: the
    negotiating bots then try seat after seat and counter. It records every
    proposal a bot makes, with its season and the decision open then."""

    def __init__(self, port: GamePort) -> None:
        self._port = port
        self.proposed: list[tuple[int, int, Any, dict[str, Any]]] = []
        self.game = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        move = self._port.bot_move(policy, seat, view, prompt, rng, memo)
        if move is None or prompt is None:
            return move
        cmd = move.command
        if cmd.get("type") == "AcceptDeal":
            return BotMove(key=("DeclineDeal", cmd["deal"], None), command={"type": "DeclineDeal", "deal": cmd["deal"]})
        if cmd.get("type") == "ProposeDeal":
            self.proposed.append((seat, (self.game, view["season"]), prompt.get("id"), cmd))
        return move


@pytest.mark.parametrize("bot", sorted(CHARACTERS))
def test_a_bot_makes_few_proposals_in_a_window_and_a_season_even_when_every_one_is_declined(bot: str) -> None:
    """Our own caps (bargain.MAX_PER_DECISION, MAX_PER_SEASON), well under
    the rules' 40 a season (R8.7): a person is not flooded with offers.
    Payments of promises made are not capped (they keep our word)."""
    port = _EveryoneDeclines(ORIENTE)
    for seed in (1, 2):
        port.game = seed
        play(port, 6, seed, bot)  # type: ignore[arg-type]
    counted = [(seat, season, decision) for seat, season, decision, cmd in port.proposed
               if (cmd.get("why") or {}).get("code") != "payment"]
    assert counted, "the bots proposed nothing: nothing was measured"
    per_decision = Counter(counted)
    per_season = Counter((seat, season) for seat, season, _ in counted)
    assert max(per_decision.values()) <= bargain.MAX_PER_DECISION, per_decision.most_common(3)
    assert max(per_season.values()) <= bargain.MAX_PER_SEASON, per_season.most_common(3)


def test_the_caps_count_per_decision_and_per_season_and_leave_payments_out() -> None:
    state, _ = new_game(GameConfig(seats=4, seed=3))
    seat = pending(state)[0].pivot
    assert seat is not None
    v = view(state, seat)
    r = valuation.reading(v, v["decision"])
    memo: dict[str, Any] = {}
    assert bargain.may_propose(r, memo)
    for i in range(bargain.MAX_PER_DECISION):
        bargain.remember(memo, bargain.Offer(("pay", i), {}, 0), r)  # a payment: not counted
        assert bargain.may_propose(r, memo)
        bargain.remember(memo, bargain.Offer(("peace", i), {}, 0), r)
    assert not bargain.may_propose(r, memo)
    assert bargain.may_propose(r)  # the rules' limits alone still allow it (R8.6, R8.7)
    later = valuation.reading(v, {**v["decision"], "id": v["decision"]["id"] + 1})
    assert bargain.may_propose(later, memo)  # another decision: a fresh count
    for i in range(bargain.MAX_PER_SEASON - bargain.MAX_PER_DECISION):
        bargain.remember(memo, bargain.Offer(("card", i), {}, 0),
                         valuation.reading(v, {**v["decision"], "id": 100 + i}))
    assert not bargain.may_propose(later, memo)  # the season's count is used up
