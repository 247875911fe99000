"""High card behind the game seam: `ToyPort` is the whole of what the table
server needs to serve it (see server/game_port.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from oriente.games.kit.describe import GameOption
from oriente.games.kit.port import TABLE_SEAT, BotMove, GameSetup, Port, RulesRejection, SettingsError, Viewer, Waiting

from . import rules


class ToyPort(Port):
    name = "highcard"
    seats = range(2, 4)  # H1
    options = (GameOption("rounds", "int", 3, min=1, max=9),)  # H1
    policies: tuple[str, ...] = ("bold", "shy")  # raise on a high card / never raise

    def configure(self, seats: int, seed: int, options: Mapping[str, Any],
                  legacy: Mapping[str, Any]) -> GameSetup:
        unknown = sorted(set(options) - {"rounds"})
        if unknown:
            raise SettingsError("table/bad_settings", f"high card has no option {unknown[0]!r}")
        rounds = options.get("rounds", 3)
        if not isinstance(rounds, int) or isinstance(rounds, bool):
            raise SettingsError("message/invalid", "options.rounds is an integer")
        if not 1 <= rounds <= 9:
            raise SettingsError("table/bad_settings", "rounds is between 1 and 9")
        return GameSetup(options={"rounds": rounds}, public={"rounds": rounds},
                         record={"seats": seats, "seed": seed, "rounds": rounds}, config=(seats, seed, rounds))

    def start(self, config: tuple[int, int, int]) -> tuple[rules.State, list[dict[str, Any]]]:
        return rules.new_game(*config)

    def restart(self, record: Mapping[str, Any]) -> tuple[rules.State, list[dict[str, Any]]]:
        return rules.new_game(record["seats"], record["seed"], record["rounds"])

    def reference(self) -> dict[str, Any]:
        return {"deck": list(rules.DECK)}

    def apply(self, state: rules.State, seat: int, command: Any) -> list[dict[str, Any]]:
        if isinstance(command, dict) and command.get("type") == "Timeout" and seat != TABLE_SEAT:
            raise RulesRejection("timeout/not_table", "only the table's clock sends timeouts")
        try:
            return rules.apply(state, seat, command)
        except rules.Refused as exc:
            raise RulesRejection(exc.code, exc.message) from None

    def waiting(self, state: rules.State) -> Waiting | None:
        pivot = state.pivot
        return None if pivot is None else Waiting(key=(state.round, pivot), pivot=pivot, timer="prompt")

    def timeout_command(self, waiting: Waiting) -> dict[str, Any]:
        return {"type": "Timeout", "decision": waiting.key[0], "pivot": waiting.pivot}

    def prompts(self, state: rules.State, viewers: list[Viewer]) -> dict[Viewer, dict[str, Any] | None]:
        return {v: rules.prompt(state, v) for v in viewers}

    def view(self, state: rules.State, viewer: Viewer) -> dict[str, Any]:
        return rules.view(state, viewer)

    def project(self, event: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        return rules.project(event, viewer)

    def result(self, state: rules.State) -> dict[str, Any] | None:
        return dict(state.result) if state.result is not None else None

    def refills(self, events: list[dict[str, Any]]) -> int:
        return sum(1 for e in events if e["type"] == "RoundDealt" and e["round"] > 1)

    def proxy_command(self, state: rules.State, seat: int) -> dict[str, Any] | None:
        """The bold bot's bid, from the seat's own view only."""
        move = self.bot_move("bold", seat, rules.view(state, seat), rules.prompt(state, seat), random.Random(0), {})
        return move.command if move is not None else None

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        """Bid on its turn: bold raises on a high card (7 or more), shy never."""
        if not prompt or not prompt.get("legal") or prompt["pivot"] != seat:
            return None
        card = view["cards"][seat]
        raise_ = policy == "bold" and card is not None and card >= 7
        return BotMove(key=("bid", prompt["id"]), command={"type": "Bid", "decision": prompt["id"], "raise": raise_})
