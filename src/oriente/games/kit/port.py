"""The seam between the table actor and a game: the contract a game's port keeps.

The table actor, the lobby, the store and the transport know a game only
through `GamePort`. Everything crossing the seam is plain data (maps of str,
int, bool, list, None), so none of them imports a game's types, and another
game is served by writing its pure rules package and a port (in its home,
`games/<name>/`) and registering it (`games/__init__.py`) — not by changing the actor.

What every port guarantees, and what the actor may do with what it gets:

- **Pure and deterministic.** Every method is a function of its arguments
  and the game state: no I/O, no clock, no global randomness. The same
  setup and the same commands give the same events, byte for byte, which is
  what recovery and replays check.
- **One instance, every table.** A port keeps no per-table data; the state
  it creates in `start` is the only thing that changes.
- **`apply` mutates the state it is given, and nothing else.** It either
  returns the events of the step, or raises `RulesRejection`, and then the
  state is exactly as before: a refused command leaves no trace. Any other
  exception is a bug: the actor ends that table (and that table alone) as
  failed.
- **Fresh results belong to the caller.** The events `start` and `apply`
  return, and the prompts `prompts` returns, are new maps the caller owns:
  the actor adds `seq` to each event and `deadline_ms`, `deadline_at_ms` and
  `bank_ms` to each prompt. Values nested inside them may be shared, so the
  caller changes top-level keys only. Everything else a port returns
  (`view`, `project`, `result`, the setup's maps) is read-only for the
  caller.
- **`project` never mutates its argument.** It returns the event itself
  when the viewer may see all of it, otherwise a new map (keeping the keys
  it does not hide, `seq` included). Every event has a projection for every
  viewer, so sequence numbers never skip for anyone.
- **Game events are maps with a "type"** that never clashes with the
  table's own event types (`table.TABLE_EVENTS`).

Viewers are a seat number, `"spectator"` (public information only) or
`"all"` (everything: the record after the end).

Bots. A port names the reference bots the server may seat for its game
(`policies`) and says what such a bot sends (`bot_move`), from the frames
its seat receives (the seat's own view and prompt) and nothing else, so a
server bot knows no more than a person in that seat. `proxy_command`, the
bot that plays an away seat, is the same reference play on the seat's view
and prompt, with a generator seeded by the decision.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ...refusal import Refusal
from .describe import GameInfo, GameOption

PlainEvent = dict[str, Any]
Viewer = int | str

# The seat number of commands the table itself sends: a timeout.
TABLE_SEAT = -1
# The viewers that are not a seat.
SPECTATOR = "spectator"
EVERYONE = "all"


class RulesRejection(Refusal):
    """A command the rules refuse; `code` is stable and namespaced
    (`decision/closed`), `message` a sentence the sender can act on."""


class SettingsError(Refusal):
    """Options (or a seat count) a game cannot be played with. `code` is the
    error code the client gets: `table/bad_settings` for a value out of
    range, `message/invalid` for a value of the wrong type, or a code of the
    game's own (documented in PROTOCOL.md)."""


@dataclass(frozen=True, slots=True)
class GameSetup:
    """A table's game as its port configured it (see `GamePort.configure`).

    `options` are the game's options as the game keeps them (plain data,
    stored with the table); `public` is what anyone may know of them before
    the game ends (shown in the table's information); `record` is the game's
    part of the record (its "config", enough to replay the commands);
    `config` is the game's own configuration object, handed to `start` and
    opaque to everyone else. `configured` says that the options fix hidden
    cards or random events (a configured setup): a player who asks for that
    makes the table seeded, as with a chosen seed (`server/dealing.py`)."""

    options: dict[str, Any]
    public: dict[str, Any]
    record: dict[str, Any]
    config: Any
    configured: bool = False


@dataclass(frozen=True, slots=True)
class Waiting:
    """The open decision, reduced to what the clock needs: a deadline is
    armed per `key` (a new key needs a new deadline); `pivot` is the seat
    waited on (None: a window that waits on the clock alone); `timer` names
    the table's timer setting that applies ("prompt" or "window")."""

    key: tuple[int, int | None]
    pivot: int | None
    timer: str


@dataclass(frozen=True, slots=True)
class BotMove:
    """What a bot sends now (`command`), and which answer it is (`key`). A
    decision stays open over several frames (other seats' moves, chat), so
    a bot would answer it again and again: the bot runner sends each key
    once. Two moves with the same key are the same answer (the decision and
    the seat, a reply to one offer); an offer made in a window has its own."""

    key: tuple[Any, ...]
    command: dict[str, Any]


class GamePort(Protocol):
    """One game behind the seam. See the module docstring for the rules every
    method keeps; `games/oriente/port.py` is the reference port and
    `tests/toy_game/` a minimal one."""

    name: str
    """The game's id: `create_table.game`, table information, records."""

    seats: range
    """The seat counts the game is played with; the lobby refuses others."""

    policies: tuple[str, ...]
    """The reference bots the server may seat at this game's tables
    (`add_bots`), the default first; empty if it has none."""

    default_seats: int | None
    """The seat count a client offers first (None: the fewest of `seats`)."""

    options: tuple[GameOption, ...]
    """The options a client may offer as fields of their own when it
    creates a table (`describe.GameInfo`); `configure` takes them and any
    others the game has."""

    windows: bool
    """Whether the game has negotiation windows (`Waiting.timer` "window")."""

    def describe(self) -> GameInfo:
        """What the game says of itself (`welcome.game_info`)."""
        ...

    # Optional (read with getattr, default {}): old names of reference bots
    # that still work, each mapped to the bot it now names: `add_bots` takes
    # them, and a stored seat's bot of an old name plays on as the new one.
    # policy_aliases: Mapping[str, str]

    # Optional (read with getattr, default {}): what each reference bot is,
    # for `welcome.bot_about` (PROTOCOL.md 5): plain data per bot name, at
    # least `about` (an English sentence); the rest is the game's.
    # policy_about: Mapping[str, Mapping[str, Any]]

    # Optional (read with getattr, default {}): options every *new* table of
    # the game gets unless its create_table gives them. A port whose rules
    # changed keeps its stored tables on the old rules by reading an option's
    # absence as the old revision, and pins new tables to the new one here.
    # new_table_options: Mapping[str, Any]

    # Optional (read with getattr, default empty): the `type`s of commands
    # that only talk (offers, proposals), which the game can do without.
    # Once a table's log reaches its soft cap the table refuses them, as it
    # refuses chat, while every other command still plays the game to its
    # end (docs/table.md T5.4).
    # talk_commands: frozenset[str]

    # Optional (read with hasattr; absent: the game has no promises): each
    # seat's own promises of a finished game as (kept, broken, released),
    # from its full events, for the accounts' reputation (docs/accounts.md).
    # def promises(self, events: list[PlainEvent], seats: int) -> list[tuple[int, int, int]]: ...

    # Optional (read with getattr; absent: one version, the game's name):
    # the version of the rules a table of this setup plays, recorded with the
    # table when it is created, and every version this code replays. A table
    # whose recorded version is not among them is refused at recovery, so a
    # process running other rules never takes it over (docs/scaling.md).
    # def rules_version(self, setup: GameSetup) -> str: ...
    # replays: frozenset[str]

    # Optional (read with getattr; absent: the `words` folder beside the
    # module that defines the port's class): the folder of the game's word
    # catalogues, one `LANG.json` each ({"ui": {...}, "narrate": {...}},
    # keys named after the game), served at /i18n/GAME/LANG.json (server/web.py).
    # words_dir: Path

    def configure(self, seats: int, seed: int, options: Mapping[str, Any],
                  legacy: Mapping[str, Any]) -> GameSetup:
        """Validate a table's game options and build its setup, or raise
        SettingsError. `legacy` holds top-level fields of `create_table` (or
        of settings stored by an earlier version) that the protocol does not
        define: a port may read options an earlier protocol revision placed
        there, and ignores the rest. Configuring again with the returned
        `options` and no legacy gives an equal setup (recovery relies on it)."""
        ...

    def start(self, config: Any) -> tuple[Any, list[PlainEvent]]:
        """A new game state from `GameSetup.config`, and the events of the start."""
        ...

    def restart(self, record: Mapping[str, Any]) -> tuple[Any, list[PlainEvent]]:
        """What `start` gave, from a record's `config` (`GameSetup.record`):
        the same state and events, so that re-applying the record's commands
        replays the game (a replay steps through it this way)."""
        ...

    def reference(self) -> dict[str, Any]:
        """The game's public reference data, which depends on the code alone
        (its cards: names, values, texts): clients draw the game from it
        rather than copy the rules. Served as /data/NAME/reference.json."""
        ...

    def apply(self, state: Any, seat: int, command: Any) -> list[PlainEvent]:
        """Apply one plain command from `seat` (or from TABLE_SEAT: a
        `timeout_command`) and return its events, or raise RulesRejection
        leaving the state untouched. A command from a client is any value;
        the port validates it."""
        ...

    def waiting(self, state: Any) -> Waiting | None:
        """The decision the clock waits on now, or None (nothing is open)."""
        ...

    def timeout_command(self, waiting: Waiting) -> dict[str, Any]:
        """The command the table applies as TABLE_SEAT when `waiting`'s
        deadline passes: the decision's silence."""
        ...

    def prompts(self, state: Any, viewers: list[Viewer]) -> dict[Viewer, dict[str, Any] | None]:
        """Each viewer's view of the open decision, or None: at least `id`,
        `pivot`, `asked` and `early` (PROTOCOL.md 6), and for a seat its
        `legal` commands. Built for several viewers at once because the
        actor needs one per viewer on every step."""
        ...

    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """Everything `viewer` may know now."""
        ...

    def project(self, event: PlainEvent, viewer: Viewer) -> PlainEvent:
        """What `viewer` may see of one event (the one gate for hidden
        information, with `view`)."""
        ...

    def result(self, state: Any) -> dict[str, Any] | None:
        """None while the game runs; its final result once it has ended
        (after which no command is applied)."""
        ...

    def refills(self, events: list[PlainEvent]) -> int:
        """How many times these events refill every seat's time bank (a new
        phase of the game, say); usually 0."""
        ...

    def proxy_command(self, state: Any, seat: int) -> dict[str, Any] | None:
        """What a reference bot would send for `seat` now, judging from that
        seat's own view and prompt only; None to let the silence apply."""
        ...

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        """What the reference bot `policy` (one of `policies`) playing `seat`
        sends now, given the view and prompt of that seat's newest frame; or
        None to wait. `rng` and `memo` are the bot's own, kept by the caller
        for the whole game (a policy may note in `memo` what it must
        remember between calls, such as the offers it made): the game state
        holds no part of a bot."""
        ...


class Port:
    """The base every game's port derives from: what `GamePort` lets a
    port leave out, with its default. A port declares `name`, `seats` and
    the methods; what it does not override here is the plain case (no
    bots, no options to offer, no windows, the fewest seats first)."""

    name: str
    seats: range
    policies: tuple[str, ...] = ()
    default_seats: int | None = None
    options: tuple[GameOption, ...] = ()
    windows: bool = False

    def describe(self) -> GameInfo:
        """What the game says of itself, from the members above."""
        return GameInfo(seats=self.seats,
                        default_seats=self.seats.start if self.default_seats is None else self.default_seats,
                        options=self.options, windows=self.windows)


def rules_version(port: GamePort, setup: GameSetup) -> str:
    """The rules version a table of `setup` plays (`GamePort.rules_version`)."""
    version = getattr(port, "rules_version", None)
    return str(version(setup)) if version is not None else port.name


def replayable(port: GamePort) -> frozenset[str]:
    """Every rules version this code of the game replays."""
    return frozenset(getattr(port, "replays", (port.name,)))
