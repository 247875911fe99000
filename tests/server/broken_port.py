"""A game with a bug: Oriente, until one of its port's methods raises. It
stands for any failure inside a table (its rules, its port, the actor
calling them) in the isolation tests."""

from __future__ import annotations

from typing import Any

from oriente.games.kit.port import Viewer, Waiting
from oriente.games.oriente.port import OrientePort


class BrokenPort(OrientePort):
    """Raises on the call of `method` after the first `after` ones. For
    `apply` it raises after the rules have applied the command, the worst
    case: the state has moved on and the step is lost. One instance per
    broken table (it counts its calls)."""

    def __init__(self, name: str, method: str, after: int) -> None:
        self.name = name
        self.method = method
        self.after = after
        self.calls = 0

    def _tick(self, method: str) -> None:
        if method == self.method:
            self.calls += 1
            if self.calls > self.after:
                raise RuntimeError(f"{self.name}: a bug in {method}")

    def apply(self, state: Any, seat: int, command: Any) -> list[dict[str, Any]]:
        events = super().apply(state, seat, command)
        self._tick("apply")
        return events

    def prompts(self, state: Any, viewers: list[Viewer]) -> dict[Viewer, dict[str, Any] | None]:
        self._tick("prompts")
        return super().prompts(state, viewers)

    def timeout_command(self, waiting: Waiting) -> dict[str, Any]:
        self._tick("timeout_command")
        return super().timeout_command(waiting)
