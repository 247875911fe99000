"""The seam between the table actor and a rules package.

The actor knows a game only through `GamePort`: start it, apply plain
commands, ask what is open, project events and views. Everything speaks
plain data (maps of str, int, list, None), so the actor, the store and the
transport never import a game's types, and another game could be served by
writing another port (ARCHITECTURE.md: keep the seam clean).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from .rules import (
    TABLE, GameConfig, Rejected, Timeout, apply, command_from_plain, is_over, legal, new_game,
    pending, plain, project, view,
)
from .rules.views import decision_view, decision_views

PlainEvent = dict[str, Any]


class RulesRejection(Exception):
    """A command the rules refuse; `code` is stable and namespaced."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Waiting:
    """One open decision, reduced to what the clock needs: a deadline is
    armed per `key`; `pivot` is the seat waited on (None: a window that
    waits on the clock alone); `timer` names the setting ('prompt'/'window')."""

    key: tuple[int, int | None]
    pivot: int | None
    timer: str


class GamePort(Protocol):
    def start(self, settings: dict[str, Any]) -> tuple[Any, list[PlainEvent]]: ...
    def apply(self, state: Any, seat: int, command: Any) -> list[PlainEvent]: ...
    def timeout(self, state: Any, waiting: Waiting) -> list[PlainEvent]: ...
    def waiting(self, state: Any) -> Waiting | None: ...
    def legal(self, state: Any, seat: int) -> list[dict[str, Any]]: ...
    def view(self, state: Any, viewer: int | str) -> dict[str, Any]: ...
    def prompt(self, state: Any, viewer: int | str) -> dict[str, Any] | None: ...
    def prompts(self, state: Any, viewers: list[int | str]) -> dict[int | str, dict[str, Any] | None]: ...
    def project(self, event: PlainEvent, viewer: int | str) -> PlainEvent: ...
    def is_over(self, state: Any) -> bool: ...
    def result(self, state: Any) -> dict[str, Any] | None: ...
    def refills(self, events: list[PlainEvent]) -> int: ...
    def proxy_command(self, state: Any, seat: int) -> dict[str, Any] | None: ...
    def timeout_command(self, waiting: Waiting) -> dict[str, Any]: ...


class OrientePort:
    """Oriente's rules behind the port."""

    name = "oriente"

    def start(self, settings: dict[str, Any]) -> tuple[Any, list[PlainEvent]]:
        deal = settings.get("deal") or {}
        config = GameConfig(
            seats=settings["seats"], seed=settings["seed"],
            deck=tuple(deal["deck"]) if deal else None,
            treasures=tuple(deal["treasures"]) if deal else None,
            stone_holder=deal.get("stone_holder") if deal else None,
            max_open_proposals=settings.get("max_open_proposals", 3),
        )
        state, events = new_game(config)
        return state, [plain(e) for e in events]

    def apply(self, state: Any, seat: int, command: Any) -> list[PlainEvent]:
        try:
            cmd = command_from_plain(command)
            if isinstance(cmd, Timeout):
                raise Rejected("timeout/not_table", "only the table's clock sends timeouts")
            return [plain(e) for e in apply(state, seat, cmd)]
        except Rejected as exc:
            raise RulesRejection(exc.code, exc.message) from None

    def timeout(self, state: Any, waiting: Waiting) -> list[PlainEvent]:
        cmd = Timeout(decision=waiting.key[0], pivot=waiting.pivot)
        return [plain(e) for e in apply(state, TABLE, cmd)]

    def timeout_command(self, waiting: Waiting) -> dict[str, Any]:
        return {"type": "Timeout", "decision": waiting.key[0], "pivot": waiting.pivot}

    def waiting(self, state: Any) -> Waiting | None:
        decisions = pending(state)
        if not decisions:
            return None
        d = decisions[0]
        return Waiting(key=d.key, pivot=d.pivot, timer=d.timer.value)

    def legal(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return [plain(c) for c in legal(state, seat)]

    def view(self, state: Any, viewer: int | str) -> dict[str, Any]:
        return view(state, viewer)

    def prompt(self, state: Any, viewer: int | str) -> dict[str, Any] | None:
        return decision_view(state, viewer)

    def prompts(self, state: Any, viewers: list[int | str]) -> dict[int | str, dict[str, Any] | None]:
        return decision_views(state, viewers)

    def project(self, event: PlainEvent, viewer: int | str) -> PlainEvent:
        return project(event, viewer)

    def is_over(self, state: Any) -> bool:
        return is_over(state)

    def result(self, state: Any) -> dict[str, Any] | None:
        return plain(state.result) if state.result is not None else None

    def refills(self, events: list[PlainEvent]) -> int:
        """A time bank refills once per season (R10.3)."""
        return sum(1 for e in events if e["type"] == "SeasonBegan" and e["season"] > 1)

    def proxy_command(self, state: Any, seat: int) -> dict[str, Any] | None:
        """What the reference bot would do for an away seat, from that seat's
        own view and prompt only (what its owner would see)."""
        from .policies import POLICIES

        prompt = decision_view(state, seat)
        if not prompt or not prompt.get("legal"):
            return None
        rng = random.Random(hash((state.config.seed, seat, prompt["id"])) & 0xFFFFFFFF)
        return POLICIES["heuristic"](view(state, seat), prompt, rng)
