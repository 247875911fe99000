"""Samurai's rules behind the game seam (`games/kit/port.py`).

Everything the table server needs to know about Samurai and nothing else:
its options (another map or tile set, S1.6; the start seat, S2.2; the
rules revision, S8), its seat range (S1.2), its record's config, its silences (S7.1, S7.2), when its time
banks refill (S7.8), its reference data, and its reference bots
(`games/samurai/bots.py`) for the server's own bots and away seats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..kit.port import (
    TABLE_SEAT,
    BotMove,
    GameSetup,
    PlainEvent,
    Port,
    SettingsError,
)
from . import rules as game_rules
from .bots import POLICIES
from .rules import (
    TABLE,
    ConfigError,
    DataError,
    GameConfig,
    GameState,
    decision_views,
    view,
)
from .rules.config import RULES_REVISION, RULES_REVISIONS
from .rules.pieces import MAX_SEATS, MIN_SEATS
from .rules.reference import reference as samurai_reference

assert TABLE == TABLE_SEAT, "the rules and the table agree on who sends timeouts"

OPTIONS = ("board", "tiles", "first_seat", "rules_revision")
# The server's bots, the default first; away seats get the heuristic (S7.8).
BOT_POLICIES: tuple[str, ...] = ("heuristic", "random")
PROXY_POLICY = "heuristic"
assert set(BOT_POLICIES) == set(POLICIES)


def _file(options: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    value = options.get(key)
    if value is not None and not isinstance(value, dict):
        raise SettingsError("message/invalid", f"options.{key} is a {key} file: a JSON object (S1.6)")
    return value


class SamuraiPort(Port):
    """Samurai behind the port. Options: `board` and `tiles` (a map or tile
    set file's JSON, S1.6; null: the defaults), `first_seat` (the start
    seat, S2.2; null: drawn from the seed), `rules_revision` (S8.1; a table
    stored without it plays revision 1, S8.2)."""

    name = "samurai"
    rules = game_rules  # start, apply, prompts, views... pass through to it (kit.port.Port)
    seats = range(MIN_SEATS, MAX_SEATS + 1)
    # No option to offer: a map, a tile set (S1.6) and the start seat (S2.2)
    # are files and a setup the seed otherwise draws, tools' options.
    default_seats = 3
    policies: tuple[str, ...] = BOT_POLICIES
    # What each bot is, for welcome.bot_about.
    policy_about: Mapping[str, Mapping[str, Any]] = {
        "heuristic": {"about": "Plays the odds of the board: places tiles where an influence pays."},
        "random": {"about": "Plays a random legal answer; a training partner."},
    }
    # A new table plays the current rules; a table stored without the option
    # started before there were revisions and keeps revision 1 (S8.2), so
    # that its log replays (kit.port.GamePort.new_table_options).
    new_table_options: Mapping[str, Any] = {"rules_revision": RULES_REVISION}
    # Every revision this code replays: revision 1 keeps the version tables
    # were stored with before there were revisions (kit.port.GamePort.rules_version).
    replays = frozenset({"samurai", *(f"samurai/{r}" for r in RULES_REVISIONS if r > 1)})

    def rules_version(self, setup: GameSetup) -> str:
        """A table's rules: `samurai` for revision 1, `samurai/N` after (S8.1)."""
        revision = setup.public.get("rules_revision", 1)
        return "samurai" if revision == 1 else f"samurai/{revision}"

    def configure(self, seats: int, seed: int, options: Mapping[str, Any],
                  legacy: Mapping[str, Any]) -> GameSetup:
        """Validate through the rules' own validator (S1.6), so a table is
        refused with every problem of its map or tiles, each naming its rule.
        `legacy` is ignored: no earlier protocol revision knew Samurai."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise SettingsError("table/bad_settings",
                                f"samurai has no option {unknown[0]!r}; its options are {', '.join(OPTIONS)}")
        board, tiles = _file(options, "board"), _file(options, "tiles")
        first = options.get("first_seat")
        if first is not None and (not isinstance(first, int) or isinstance(first, bool)):
            raise SettingsError("message/invalid", "options.first_seat is a seat number or null (S2.2)")
        revision = options.get("rules_revision", 1)
        if not isinstance(revision, int) or isinstance(revision, bool):
            raise SettingsError("message/invalid", "options.rules_revision is an integer (S8.1)")
        if revision not in RULES_REVISIONS:
            raise SettingsError("table/bad_settings",
                                f"rules_revision is one of {', '.join(map(str, RULES_REVISIONS))} (S8.1)")
        try:
            config = GameConfig(seats=seats, seed=seed, first=first, board=board, tiles=tiles,
                                rules_revision=revision)
        except DataError as exc:
            raise SettingsError("table/bad_board", str(exc)) from None
        except ConfigError as exc:
            raise SettingsError("table/bad_settings", str(exc)) from None
        # Revision 1 is kept as it was stored (no key), so that a table of the
        # first revision configures to the same setup again after a restart.
        revised = {"rules_revision": revision} if revision > 1 else {}
        return GameSetup(
            options={"board": board, "tiles": tiles, "first_seat": first, **revised},
            public={"board": config.layout.name, "tile_set": config.tileset.name,
                    "custom_board": board is not None, "custom_tiles": tiles is not None, "first_seat": first,
                    "rules_revision": revision},
            record=config.to_plain(),
            config=config,
        )

    def restart(self, record: Mapping[str, Any]) -> tuple[GameState, list[PlainEvent]]:
        return self.start(GameConfig.from_plain(dict(record)))

    def reference(self) -> dict[str, Any]:
        """The figures, the tile kinds and what they influence, the default map and tiles."""
        return samurai_reference()

    def refills(self, events: list[PlainEvent]) -> int:
        """S7.8: the banks refill once, when the first turn begins (S2.6)."""
        return sum(1 for e in events if e["type"] == "TurnBegan" and e["turn"] == 1)

    def proxy_command(self, state: GameState, seat: int) -> dict[str, Any] | None:
        """The heuristic's move for an away seat (S7.8, T3.2), from that
        seat's own view and prompt only, as its pivot; deterministic."""
        prompt = decision_views(state, [seat])[seat]
        if not prompt or prompt.get("pivot") != seat:
            return None
        rng = random.Random(f"{state.config.seed}:{seat}:{prompt['id']}")
        move = self.bot_move(PROXY_POLICY, seat, view(state, seat), prompt, rng, {})
        return move.command if move is not None else None

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        """The policy's answer to the seat's open decision: as its pivot, or
        early in the tile choice (S7.2). A turn is one decision however many
        tiles it places (S7.1), so an answer is keyed by the decision and the
        position it answers (the seat's hand, the tiles placed this turn):
        each placement of a turn is a new answer, and a frame that changes
        neither (another seat's sealed choice, a chat) gets none."""
        if not prompt:
            return None
        if prompt.get("topic") == "select":
            if "sealed" in prompt or seat not in prompt.get("asked", ()) or seat in prompt.get("final", ()):
                return None
        elif prompt.get("pivot") != seat or not prompt.get("legal"):
            return None
        cmd = POLICIES[policy].choose(view, {**prompt}, rng)
        if cmd is None:
            return None
        if prompt.get("topic") != "select" and cmd not in prompt["legal"]:
            return None
        me = (view.get("players") or [{}] * (seat + 1))[seat]
        current = view.get("current") or {}
        position = (tuple(me.get("hand") or ()), current.get("placed"))
        return BotMove(key=("answer", prompt["id"], seat, position), command=cmd)


__all__ = ["SamuraiPort"]
