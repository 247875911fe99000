"""What a game says of itself: the seat counts it is played with, the
options a new table of it may be given, and whether it has negotiation
windows.

A port declares it (`port.Port`: `seats`, `default_seats`, `options`,
`windows`) and the server announces every game's in `welcome.game_info`
(PROTOCOL.md 4), so that a client offers what each game offers instead of
keeping its own copy, and a game it has never heard of is still offered
rightly. `GameInfo.from_plain` reads the announcement back (the SDK's
`Client.game_info`). Pure data: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The kinds of option a client can offer as a field of its own: a whole
# number (within `min`..`max` when given), true or false, one of `choices`,
# a line of text.
OPTION_TYPES = ("int", "bool", "choice", "str")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class GameOption:
    """One option of `create_table.options` as a client offers it.

    `default` is what the table gets when the option is not given (null: the
    game decides, from the seed say). `suggested`, when not None, is the
    value a form starts with instead, where the game's default is not what
    a person is best offered first (a variant that is off unless asked
    for, which the game's own screens propose)."""

    name: str
    type: str
    default: Any
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None
    suggested: Any = None

    def __post_init__(self) -> None:
        if self.type not in OPTION_TYPES:
            raise ValueError(f"option {self.name!r}: type is one of {', '.join(OPTION_TYPES)}, not {self.type!r}")
        if self.type == "choice" and not self.choices:
            raise ValueError(f"option {self.name!r}: a choice lists its choices")
        if self.type != "choice" and self.choices is not None:
            raise ValueError(f"option {self.name!r}: only a choice lists choices")
        if self.type != "int" and (self.min is not None or self.max is not None):
            raise ValueError(f"option {self.name!r}: only an int has bounds")
        for value in (self.default, self.suggested):
            if value is not None and not self.accepts(value):
                raise ValueError(f"option {self.name!r}: {value!r} is not a value it takes")

    def accepts(self, value: Any) -> bool:
        """Whether `value` is of this option's type (and within its bounds or choices)."""
        if self.type == "int":
            return (_int(value) and (self.min is None or value >= self.min)
                    and (self.max is None or value <= self.max))
        if self.type == "bool":
            return isinstance(value, bool)
        if self.type == "choice":
            return value in (self.choices or ())
        return isinstance(value, str)

    @property
    def initial(self) -> Any:
        """The value a client's form starts with: the suggestion, else the default."""
        return self.suggested if self.suggested is not None else self.default

    def plain(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.suggested is not None:
            out["suggested"] = self.suggested
        return out

    @classmethod
    def from_plain(cls, data: Mapping[str, Any]) -> GameOption:
        """Read an option back (fields a later server adds are ignored);
        ValueError if it is not one."""
        try:
            choices = data.get("choices")
            return cls(name=str(data["name"]), type=str(data["type"]), default=data.get("default"),
                       choices=tuple(choices) if choices is not None else None,
                       min=data.get("min"), max=data.get("max"), suggested=data.get("suggested"))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a game option: {data!r}") from exc


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as it describes itself: `seats` the seat counts it is played
    with, `default_seats` the count a client offers first, `options` the
    options a client may offer as fields (options that take a file or fix
    a part of the setup the seed otherwise draws are for tools and are not
    listed: PROTOCOL.md, the game's section), `windows` whether it has
    negotiation windows (moments when every seat may talk and bargain, on the
    window timer)."""

    seats: range
    default_seats: int
    options: tuple[GameOption, ...] = ()
    windows: bool = False

    def __post_init__(self) -> None:
        if self.seats.step != 1 or not self.seats:
            raise ValueError(f"seats is a range of whole seat counts, not {self.seats!r}")
        if self.default_seats not in self.seats:
            raise ValueError(f"default_seats {self.default_seats} is not within {self.seats.start}.."
                             f"{self.seats.stop - 1}")
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"options are named once each: {names}")

    def initial_options(self) -> dict[str, Any]:
        """The options a client's form starts with (`GameOption.initial`)."""
        return {o.name: o.initial for o in self.options}

    def plain(self) -> dict[str, Any]:
        """As `welcome.game_info` gives it."""
        return {"seats": {"min": self.seats.start, "max": self.seats.stop - 1, "default": self.default_seats},
                "options": [o.plain() for o in self.options], "windows": self.windows}

    @classmethod
    def from_plain(cls, data: Mapping[str, Any]) -> GameInfo:
        """Read a description back (fields a later server adds are
        ignored); ValueError if it is not one."""
        try:
            seats = data["seats"]
            low, high, default = seats["min"], seats["max"], seats["default"]
            if not (_int(low) and _int(high) and _int(default)):
                raise ValueError(f"seats are whole numbers: {seats!r}")
            return cls(seats=range(low, high + 1), default_seats=default,
                       options=tuple(GameOption.from_plain(o) for o in data.get("options") or ()),
                       windows=bool(data.get("windows", False)))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a game description: {data!r}") from exc


__all__ = ["OPTION_TYPES", "GameInfo", "GameOption"]
