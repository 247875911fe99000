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

Every port derives from `Port`, which gives what a game may leave out its
plain case (no bots, no promises, one rules version...) and passes the
steps of play through to the game's rules package when the port names it:
the server reads each member straight from the port, and a port says only
what is its game's own. (The registry refuses a port that does not derive
from it.)
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, Protocol

from ...refusal import Refusal
from .describe import GameInfo, GameOption
from .errors import Rejected

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
    makes the table seeded, as with a chosen seed (`fairplay/dealing.py`)."""

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
    the seat, a reply to one offer); an offer made in a window has its own.
    `again`: the port knows this move differs from what the seat has now
    (a sealed answer changed back after a change), so the runner
    sends it even if it sent the same key before."""

    key: tuple[Any, ...]
    command: dict[str, Any]
    again: bool = False


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

    @property
    def default_seats(self) -> int | None:
        """The seat count a client offers first (None: the fewest of `seats`)."""
        ...

    @property
    def options(self) -> tuple[GameOption, ...]:
        """The options a client may offer as fields of their own when it
        creates a table (`describe.GameInfo`); `configure` takes them and any
        others the game has."""
        ...

    @property
    def windows(self) -> bool:
        """Whether the game has negotiation windows (`Waiting.timer` "window")."""
        ...

    def describe(self) -> GameInfo:
        """What the game says of itself (`welcome.game_info`)."""
        ...

    # What a port may leave to the base (`Port`), which gives each the plain
    # case named in its docstring.

    @property
    def policy_aliases(self) -> Mapping[str, str]:
        """Old names of reference bots that still work, each mapped to the bot it
        now names: `add_bots` takes them, and a stored seat's bot of an old name
        plays on as the new one. (Base: none.)"""
        ...

    @property
    def policy_about(self) -> Mapping[str, Mapping[str, Any]]:
        """What each reference bot is, for `welcome.bot_about` (PROTOCOL.md 4):
        plain data per bot name, at least `about` (an English sentence); the
        rest is the game's. (Base: nothing said.)"""
        ...

    @property
    def new_table_options(self) -> Mapping[str, Any]:
        """Options every *new* table of the game gets unless its create_table
        gives them. A port whose rules changed keeps its stored tables on the old
        rules by reading an option's absence as the old revision, and pins new
        tables to the new one here. (Base: none.)"""
        ...

    @property
    def talk_commands(self) -> frozenset[str]:
        """The `type`s of commands that only talk (offers, proposals), which the
        game can do without. Once a table's log reaches its soft cap the table
        refuses them, as it refuses chat, while every other command still plays
        the game to its end (docs/table.md T5.4). (Base: none.)"""
        ...

    @property
    def replays(self) -> frozenset[str]:
        """Every rules version this code replays (`rules_version`). A table
        whose recorded version is not among them is refused at recovery, so
        a process running other rules never takes it over (docs/scaling.md).
        (Base: the game's name alone.)"""
        ...

    @property
    def words_dir(self) -> Path | None:
        """The folder of the game's word catalogues, one `LANG.json` each
        ({"ui": {...}, "narrate": {...}}, keys named after the game), served at
        /i18n/GAME/LANG.json (server/web.py). (Base: None, the `words` folder
        beside the module that defines the port's class.)"""
        ...

    def rules_version(self, setup: GameSetup) -> str:
        """The version of the rules a table of this setup plays, recorded
        with the table when it is created. (Base: the game's name.)"""
        ...

    def promises(self, events: list[PlainEvent], seats: int) -> list[tuple[int, int, int]] | None:
        """Each seat's own promises of a finished game as (kept, broken,
        released), from its full events, for the accounts' reputation
        (docs/accounts.md). (Base: None, the game has no promises.)"""
        ...

    def interactions(self, events: list[PlainEvent]) -> list[dict[str, Any]]:
        """Who helped whom in a finished game (`{"kind", "from", "to"}` by
        seat), from its full events, for a tournament director's collusion
        report (docs/tournaments.md). (Base: none.)"""
        ...

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

    def offered(self, state: Any) -> frozenset[int]:
        """The seats awaited beside the clock's pivot: an offer made to
        them that they have not answered, or a decision open to several
        seats (a window) that waits on them to close early. It has no
        deadline of its own, yet a person is told of it as of a decision
        (docs/table.md T8.8). Empty for a game without either."""
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

    def views(self, state: Any, viewers: list[Viewer],
              prompts: dict[Viewer, dict[str, Any] | None] | None = None) -> dict[Viewer, dict[str, Any]]:
        """`view` for several viewers at once, as the actor needs on every
        step: a game may build what they share once (the views are then
        read-only). `prompts`, if given, are this state's `prompts` for
        these viewers, read-only, for a view that holds the open decision."""
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
    """The base every game's port derives from: what `GamePort` lets a port
    leave out, with its plain case, and one pass-through to the game's
    rules package.

    A port declares `name`, `seats`, `configure`, `restart`, `reference`,
    `refills`, `proxy_command` and `bot_move`, and overrides what its game
    does otherwise than the plain case: no bots, no options to offer, no
    windows, the fewest seats first, nothing only talks, no promises, no
    interactions, no offers, one rules version (the game's name), its words
    beside its port. The table server reads every member straight from the port.

    `rules`, when the port names its rules package, is what every rules
    package here exposes: `new_game(config) -> (state, events)`,
    `apply(state, seat, command) -> events` raising `kit.errors.Rejected`,
    `command_from_plain`, `plain`, `pending(state)` (decisions in the shape
    of `kit.decisions`), `decision_views(state, viewers)`, `view(state,
    viewer)` (and optionally `views_of`, see `views`), `project(event, viewer)`, and a state whose `result` is None
    until the end. `start`, `apply`, `waiting`, `timeout_command`,
    `prompts`, `view`, `project` and `result` pass through to it; a port
    whose game has no such package (`tests/toy_game`) overrides them."""

    name: str
    seats: range
    rules: ModuleType | None = None
    policies: tuple[str, ...] = ()
    policy_aliases: Mapping[str, str] = MappingProxyType({})
    policy_about: Mapping[str, Mapping[str, Any]] = MappingProxyType({})
    new_table_options: Mapping[str, Any] = MappingProxyType({})
    talk_commands: frozenset[str] = frozenset()
    default_seats: int | None = None
    options: tuple[GameOption, ...] = ()
    windows: bool = False
    words_dir: Path | None = None

    def describe(self) -> GameInfo:
        """What the game says of itself, from the members above."""
        return GameInfo(seats=self.seats,
                        default_seats=self.seats.start if self.default_seats is None else self.default_seats,
                        options=self.options, windows=self.windows)

    @property
    def replays(self) -> frozenset[str]:
        return frozenset({self.name})

    def rules_version(self, setup: GameSetup) -> str:
        return self.name

    def promises(self, events: list[PlainEvent], seats: int) -> list[tuple[int, int, int]] | None:
        return None

    def interactions(self, events: list[PlainEvent]) -> list[dict[str, Any]]:
        return []

    def offered(self, state: Any) -> frozenset[int]:
        return frozenset()

    # -- the pass-through to the rules package -------------------------------------------

    def _rules(self) -> ModuleType:
        if self.rules is None:
            raise NotImplementedError(f"the port of {self.name} names no rules package: it implements this itself")
        return self.rules

    def start(self, config: Any) -> tuple[Any, list[PlainEvent]]:
        rules = self._rules()
        state, events = rules.new_game(config)
        return state, [rules.plain(e) for e in events]

    def apply(self, state: Any, seat: int, command: Any) -> list[PlainEvent]:
        rules = self._rules()
        try:
            return [rules.plain(e) for e in rules.apply(state, seat, rules.command_from_plain(command))]
        except Rejected as exc:
            raise RulesRejection(exc.code, exc.message) from None

    def waiting(self, state: Any) -> Waiting | None:
        return first_waiting(self._rules().pending(state))

    def timeout_command(self, waiting: Waiting) -> dict[str, Any]:
        return timeout_for(waiting)

    def prompts(self, state: Any, viewers: list[Viewer]) -> dict[Viewer, dict[str, Any] | None]:
        views: dict[Viewer, dict[str, Any] | None] = self._rules().decision_views(state, viewers)
        return views

    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        seen: dict[str, Any] = self._rules().view(state, viewer)
        return seen

    def views(self, state: Any, viewers: list[Viewer],
              prompts: dict[Viewer, dict[str, Any] | None] | None = None) -> dict[Viewer, dict[str, Any]]:
        """The rules' `views_of(state, viewers, decisions)` if they have one
        (decisions: their `decision_views`, which `prompts` passes through);
        else one `view` per viewer."""
        build = getattr(self.rules, "views_of", None)
        if build is None:
            return {viewer: self.view(state, viewer) for viewer in viewers}
        seen: dict[Viewer, dict[str, Any]] = build(state, viewers, prompts)
        return seen

    def project(self, event: PlainEvent, viewer: Viewer) -> PlainEvent:
        projected: PlainEvent = self._rules().project(event, viewer)
        return projected

    def result(self, state: Any) -> dict[str, Any] | None:
        return self._rules().plain(state.result) if state.result is not None else None


def first_waiting(decisions: Sequence[Any]) -> Waiting | None:
    """The decision the table waits on: the first of the rules' pending
    decisions (each with a `key` whose first item is its id, a `pivot`, a
    `timer` kind), or None when nothing is open (the game has ended)."""
    if not decisions:
        return None
    d = decisions[0]
    return Waiting(key=d.key, pivot=d.pivot, timer=d.timer.value)


def timeout_for(waiting: Waiting) -> dict[str, Any]:
    """The `Timeout` command the table's clock sends when `waiting` runs out."""
    return {"type": "Timeout", "decision": waiting.key[0], "pivot": waiting.pivot}


def rules_version(port: GamePort, setup: GameSetup) -> str:
    """The rules version a table of `setup` plays (`GamePort.rules_version`)."""
    return port.rules_version(setup)


def replayable(port: GamePort) -> frozenset[str]:
    """Every rules version this code of the game replays (`GamePort.replays`)."""
    return frozenset(port.replays)


def words_dir(port: GamePort) -> Path:
    """Where a game keeps its word catalogues (`LANG.json`, served at
    /i18n/GAME/LANG.json and read by the Python narrators): the port's
    `words_dir` if it names one, else the `words` folder beside the module
    that defines the port's class (a game's own folder)."""
    named = port.words_dir
    return Path(named) if named is not None else Path(inspect.getfile(type(port))).resolve().parent / "words"
