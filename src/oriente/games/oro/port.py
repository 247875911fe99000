"""Oro's rules behind the game seam (`games/kit/port.py`).

Everything the table server needs to know about Oro and nothing else: its
options (the gods variant O7, a board and a tiles file O9, a configured
setup O2.6), its seat range (O1.6), its record's config, its silences
(O8.1), when its time banks refill (O8.9: Oro has no seasons), its
reference data, and its reference bots (`games/oro/bots.py`) for the
server's own bots and for away seats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import msgspec

from ..kit.describe import GameOption
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
    BoardError,
    ConfigError,
    OroConfig,
    OroState,
    decision_views,
    view,
)
from .rules.config import MAX_SEATS, MIN_SEATS, RULES_REVISION, RULES_REVISIONS
from .rules.game import config_from_plain, config_to_plain
from .rules.reference import reference as oro_reference

assert TABLE == TABLE_SEAT, "the rules and the table agree on who sends timeouts"

OPTIONS = ("gods", "board", "tiles", "setup", "rules_revision")
# The server's bots, the default first; away seats get the heuristic (O8.9).
BOT_POLICIES: tuple[str, ...] = ("heuristic", "random")
PROXY_POLICY = "heuristic"
assert set(BOT_POLICIES) == set(POLICIES)
# The events that refill every seat's time bank (O8.9): the second half
# begins, the final round begins.
REFILLS = frozenset({"Reshuffled", "FinalRoundBegan"})


class Setup(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A configured setup (O2.6): the deck's cards (island indices) top
    first, the god on each island (gods variant), the seat that begins.
    Each part is optional; what is not given comes from the seed."""

    deck: list[int] | None = None
    stones: list[str] | None = None
    first_seat: int | None = None


def _file(options: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    value = options.get(key)
    if value is not None and not isinstance(value, dict):
        raise SettingsError("message/invalid", f"options.{key} is a {key} file: a JSON object (O9)")
    return value


class OroPort(Port):
    """Oro behind the port. Options: `gods` (the variant, default false),
    `board` and `tiles` (a board or tiles file's JSON, O9; null: the
    defaults), `setup` (a configured deck, stones and first seat, O2.6),
    `rules_revision` (O10.1; a table stored without it plays revision 1, O10.2)."""

    name = "oro"
    rules = game_rules  # start, apply, prompts, views... pass through to it (kit.port.Port)
    seats = range(MIN_SEATS, MAX_SEATS + 1)
    default_seats = 3
    # Boards, tiles and a configured setup are files and tools' options (O9, O2.6).
    # Without `gods` a table plays without the variant; a client proposes it.
    options = (GameOption("gods", "bool", False, suggested=True),)
    policies: tuple[str, ...] = BOT_POLICIES
    # What each bot is, for welcome.bot_about.
    policy_about: Mapping[str, Mapping[str, Any]] = {
        "heuristic": {"about": "Plays the odds of the islands: builds where a majority pays, draws what helps it."},
        "random": {"about": "Plays a random legal answer; a training partner."},
    }
    # A new table plays the current rules; a table stored without the option
    # started before there were revisions and keeps revision 1 (O10.2), so
    # that its log replays (kit.port.GamePort.new_table_options).
    new_table_options: Mapping[str, Any] = {"rules_revision": RULES_REVISION}
    # Every revision this code replays: revision 1 keeps the version tables
    # were stored with before there were revisions (kit.port.GamePort.rules_version).
    replays = frozenset({"oro", *(f"oro/{r}" for r in RULES_REVISIONS if r > 1)})

    def rules_version(self, setup: GameSetup) -> str:
        """A table's rules: `oro` for revision 1, `oro/N` after (O10.1)."""
        revision = setup.public.get("rules_revision", 1)
        return "oro" if revision == 1 else f"oro/{revision}"

    def configure(self, seats: int, seed: int, options: Mapping[str, Any],
                  legacy: Mapping[str, Any]) -> GameSetup:
        """Validate through the rules' own validator (O9.2, O2.6), so a
        table is refused with the rule it breaks. `legacy` is ignored: no
        earlier protocol revision knew Oro."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise SettingsError("table/bad_settings",
                                f"oro has no option {unknown[0]!r}; its options are {', '.join(OPTIONS)}")
        gods = options.get("gods", False)
        if not isinstance(gods, bool):
            raise SettingsError("message/invalid", "options.gods is true or false (O7)")
        board, tiles = _file(options, "board"), _file(options, "tiles")
        revision = options.get("rules_revision", 1)
        if not isinstance(revision, int) or isinstance(revision, bool):
            raise SettingsError("message/invalid", "options.rules_revision is an integer (O10.1)")
        if revision not in RULES_REVISIONS:
            raise SettingsError("table/bad_settings",
                                f"rules_revision is one of {', '.join(map(str, RULES_REVISIONS))} (O10.1)")
        setup = None
        if options.get("setup") is not None:
            try:
                setup = msgspec.convert(options["setup"], Setup, strict=True)
            except msgspec.ValidationError as exc:
                raise SettingsError("message/invalid", f"options.setup: {exc}") from None
        try:
            config = OroConfig(seats=seats, seed=seed, gods=gods, board=board, tiles=tiles,
                               deck=tuple(setup.deck) if setup and setup.deck is not None else None,
                               stones=tuple(setup.stones) if setup and setup.stones is not None else None,
                               first_seat=setup.first_seat if setup else None, rules_revision=revision)
        except BoardError as exc:
            raise SettingsError("table/bad_board", str(exc)) from None
        except ConfigError as exc:
            raise SettingsError("table/bad_setup" if setup is not None else "table/bad_settings", str(exc)) from None
        kept_setup = msgspec.to_builtins(setup) if setup is not None else None
        # Revision 1 is kept as it was stored (no key), so that a table of the
        # first revision configures to the same setup again after a restart.
        revised = {"rules_revision": revision} if revision > 1 else {}
        return GameSetup(
            options={"gods": gods, "board": board, "tiles": tiles, "setup": kept_setup, **revised},
            public={"gods": gods, "board": config.the_board.name, "custom_board": board is not None,
                    "custom_tiles": tiles is not None, "configured_setup": setup is not None,
                    "rules_revision": revision},
            record=config_to_plain(config),
            config=config,
            configured=setup is not None,
        )

    def restart(self, record: Mapping[str, Any]) -> tuple[OroState, list[PlainEvent]]:
        return self.start(config_from_plain(dict(record)))

    def reference(self) -> dict[str, Any]:
        """The island sizes and their scoring, the god stones, the default board."""
        return oro_reference()

    def refills(self, events: list[PlainEvent]) -> int:
        """O8.9: the banks refill when the second half and the final round begin."""
        return sum(1 for e in events if e["type"] in REFILLS)

    def proxy_command(self, state: OroState, seat: int) -> dict[str, Any] | None:
        """The heuristic's move for an away seat (O8.9, T3.2), from that
        seat's own view and prompt only; deterministic, like the heuristic."""
        prompt = decision_views(state, [seat])[seat]
        if not prompt or prompt.get("pivot") != seat or not prompt.get("legal"):
            return None
        rng = random.Random(f"{state.config.seed}:{seat}:{prompt['id']}")
        move = self.bot_move(PROXY_POLICY, seat, view(state, seat), prompt, rng, {})
        return move.command if move is not None else None

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        """The policy's answer to the seat's open decision, as its pivot or,
        in the setup round, early (O8.2). A turn is one decision while the
        seat plays on (O8.3), so an answer is keyed by the decision and
        the position it answers (the seat's hand, the bridges, the turn so
        far): each play of a turn is a new answer, and a frame that changes
        nothing of these (another seat's sealed choice, a chat) gets none."""
        if not prompt or not prompt.get("legal"):
            return None
        asked_now = prompt.get("pivot") == seat or seat in (prompt.get("early") or ())
        if not asked_now or "sealed" in prompt:
            return None
        cmd = POLICIES[policy].choose(view, {**prompt, "pivot": seat}, rng)
        if cmd is None or cmd not in prompt["legal"]:
            return None
        hand = next((h.get("cards") for h in view.get("hands") or () if h.get("seat") == seat), None)
        turn = view.get("turn") or {}
        position = (tuple(hand or ()), tuple(-1 if b is None else b for b in view.get("bridges") or ()),
                    turn.get("cards_played"), turn.get("discarded"), turn.get("acted"),
                    tuple(sorted((view.get("held") or [{}] * (seat + 1))[seat].items()))
                    if view.get("gods") else ())
        return BotMove(key=("answer", prompt["id"], prompt.get("pivot"), position), command=cmd)


__all__ = ["OroPort"]
