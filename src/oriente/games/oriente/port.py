"""Oriente's rules behind the game seam (`games/kit/port.py`).

Everything the table server needs to know about Oriente and nothing else:
its options (a configured deal, R2.8, and the cap on open deal proposals,
R8.6) and how an earlier revision of the protocol spelt them, its seat range
(R1.4), its record's config, its silences, its time-bank refills (R10.3),
its card reference, and its reference bots (`games/oriente/bots`) for the
server's own bots and for away seats.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import msgspec

from ...protocol.codec import readable
from ..kit.describe import GameOption
from ..kit.port import (
    TABLE_SEAT,
    BotMove,
    GameSetup,
    PlainEvent,
    Port,
    RulesRejection,
    SettingsError,
)
from . import rules as game_rules
from .bots import ALIASES, CHARACTERS, POLICIES, Choose
from .bots.characters import DEFAULT
from .rules import (
    TABLE,
    ConfigError,
    GameConfig,
    GameState,
    Phase,
    Rejected,
    Timeout,
    apply,
    command_from_plain,
    plain,
    view,
)
from .rules.config import MAX_SEATS, MIN_SEATS, RULES_REVISION, RULES_REVISIONS
from .rules.game import config_from_plain
from .rules.reference import reference as card_reference
from .rules.views import decision_views

assert TABLE == TABLE_SEAT, "the rules and the table agree on who sends timeouts"

OPTIONS = ("deal", "max_open_proposals", "rules_revision")
DEFAULT_MAX_OPEN_PROPOSALS = 3
MAX_OPEN_PROPOSALS = 20
# The server's bots, the default first (the default character, which keeps
# its paid promises, characters.py); away seats get the negotiator's proxy mode.
BOT_POLICIES: tuple[str, ...] = (DEFAULT.name, *(n for n in CHARACTERS if n != DEFAULT.name), "heuristic", "random")
PROXY_POLICY = DEFAULT.name
assert set(BOT_POLICIES) | set(ALIASES) == set(POLICIES)
# What each bot is, for welcome.bot_about: `word` says how it treats its own
# promises (keeps: every one it can; weighs: by its record; breaks: when
# breaking pays; null: it makes none it would not keep).
BOT_ABOUT: dict[str, dict[str, Any]] = {
    **{c.name: {"about": c.about, "deals": True, "word": c.word, "character": True} for c in CHARACTERS.values()},
    "heuristic": {"about": "Plays the odds; offers a card for support in its own fights, and keeps every promise "
                           "it makes.", "deals": True, "word": "keeps", "character": False},
    "random": {"about": "Plays a random legal answer; a training partner.", "deals": False, "word": None,
               "character": False},
}
# Answers to a deal or a promise, open at any time to the seats they concern (R8).
DEAL_ANSWERS = frozenset({"AcceptDeal", "DeclineDeal", "WithdrawDeal", "SettlePromise"})


class Deal(msgspec.Struct, kw_only=True):
    """A configured deal (R2.8): deck top first, treasures per seat, stone."""

    deck: list[int]
    treasures: list[int]
    stone_holder: int


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class OrientePort(Port):
    """Oriente behind the port. Options: `deal` (a configured deal or None)
    and `max_open_proposals` (1 to 20, default 3); oriente.v1 clients may
    still send both at the top level of `create_table`."""

    name = "oriente"
    rules = game_rules  # start, apply, prompts, views... pass through to it (kit.port.Port)
    seats = range(MIN_SEATS, MAX_SEATS + 1)
    # The deal and the rules revision are for tools (a configured deal, R2.8)
    # and for the server (it pins new tables to the current revision).
    options = (GameOption("max_open_proposals", "int", DEFAULT_MAX_OPEN_PROPOSALS, min=1, max=MAX_OPEN_PROPOSALS),)
    windows = True  # R10.2b: a negotiation window before each fight's support round
    policies: tuple[str, ...] = BOT_POLICIES
    policy_aliases: Mapping[str, str] = ALIASES
    policy_about: Mapping[str, Mapping[str, Any]] = BOT_ABOUT
    # A new table plays the current online rules; a table stored without the
    # option started before there were revisions and keeps revision 1, so
    # that its log replays (game_port.GamePort.new_table_options).
    new_table_options: Mapping[str, Any] = {"rules_revision": RULES_REVISION}
    # Commands that only talk: refused once a table's log is full (game_port.GamePort.talk_commands).
    talk_commands: frozenset[str] = frozenset({"ProposeDeal"})
    # Every revision this code replays (game_port.rules_version).
    replays = frozenset(f"oriente/{revision}" for revision in RULES_REVISIONS)

    def rules_version(self, setup: GameSetup) -> str:
        """A table's rules: its revision (1 when stored without one)."""
        return f"oriente/{setup.public['rules_revision']}"

    def configure(self, seats: int, seed: int, options: Mapping[str, Any],
                  legacy: Mapping[str, Any]) -> GameSetup:
        chosen = dict(options)
        for key in OPTIONS:  # the top-level fields of oriente.v1's first revision
            if key not in chosen and legacy.get(key) is not None:
                chosen[key] = legacy[key]
        unknown = sorted(set(chosen) - set(OPTIONS))
        if unknown:
            raise SettingsError("table/bad_settings",
                                f"oriente has no option {unknown[0]!r}; its options are {', '.join(OPTIONS)}")
        deal = None
        if chosen.get("deal") is not None:
            try:
                deal = msgspec.convert(chosen["deal"], Deal, strict=True)
            except msgspec.ValidationError as exc:
                raise SettingsError("message/invalid", readable(str(exc), within="options.deal")) from None
        cap = chosen.get("max_open_proposals", DEFAULT_MAX_OPEN_PROPOSALS)
        if not _int(cap):
            raise SettingsError("message/invalid", "options.max_open_proposals is an integer")
        if not 1 <= cap <= MAX_OPEN_PROPOSALS:
            raise SettingsError("table/bad_settings", f"max_open_proposals is between 1 and {MAX_OPEN_PROPOSALS}")
        revision = chosen.get("rules_revision", 1)
        if not _int(revision):
            raise SettingsError("message/invalid", "options.rules_revision is an integer")
        if revision not in RULES_REVISIONS:
            raise SettingsError("table/bad_settings",
                                f"rules_revision is one of {', '.join(map(str, RULES_REVISIONS))}")
        try:
            config = GameConfig(seats=seats, seed=seed, max_open_proposals=cap, rules_revision=revision,
                                deck=tuple(deal.deck) if deal else None,
                                treasures=tuple(deal.treasures) if deal else None,
                                stone_holder=deal.stone_holder if deal else None)
        except ConfigError as exc:
            code = "table/bad_deal" if deal is not None else "table/bad_settings"
            raise SettingsError(code, str(exc)) from None
        kept_deal = msgspec.to_builtins(deal) if deal is not None else None
        # Revision 1 is kept as it was stored (no key), so that a table of the
        # first revision configures to the same setup again after a restart.
        revised = {"rules_revision": revision} if revision > 1 else {}
        return GameSetup(
            options={"deal": kept_deal, "max_open_proposals": cap, **revised},
            public={"configured_deal": deal is not None, "max_open_proposals": cap, "rules_revision": revision},
            record={"seats": seats, "seed": seed,
                    "deck": kept_deal["deck"] if kept_deal else None,
                    "treasures": kept_deal["treasures"] if kept_deal else None,
                    "stone_holder": kept_deal["stone_holder"] if kept_deal else None,
                    "max_open_proposals": cap, **revised},
            config=config,
            configured=deal is not None,
        )

    def restart(self, record: Mapping[str, Any]) -> tuple[GameState, list[PlainEvent]]:
        return self.start(config_from_plain(dict(record)))

    def reference(self) -> dict[str, Any]:
        """The cards as printed, in the rulebooks' three languages."""
        return card_reference()

    def apply(self, state: GameState, seat: int, command: Any) -> list[PlainEvent]:
        try:
            cmd = command_from_plain(command)
            if isinstance(cmd, Timeout) and seat != TABLE_SEAT:
                raise Rejected("timeout/not_table", "only the table's clock sends timeouts")
            return [plain(e) for e in apply(state, seat, cmd)]
        except Rejected as exc:
            raise RulesRejection(exc.code, exc.message) from None

    def promises(self, events: list[PlainEvent], seats: int) -> list[tuple[int, int, int]]:
        """Each seat's own promises as the R8.6 ledger settled them: kept,
        broken, released (the accounts' reputation)."""
        counts = [[0, 0, 0] for _ in range(seats)]
        for e in events:
            if e["type"] == "PromiseSettled" and 0 <= e["promiser"] < seats:
                column = ("kept", "broken", "released").index(e["status"])
                counts[e["promiser"]][column] += 1
        return [(k, b, r) for k, b, r in counts]

    def interactions(self, events: list[PlainEvent]) -> list[dict[str, Any]]:
        """Who helped whom in a finished game, for a tournament director's
        collusion report (docs/tournaments.md TR5.5): a support declared
        for a fighter's side (R6.2) is a "support" from the supporter to
        that fighter; a score card given in an executed deal (R8.2) is a
        "pay" from its giver to its receiver."""
        out: list[dict[str, Any]] = []
        fighters: dict[str, int] = {}
        for e in events:
            kind = e.get("type")
            if kind == "FightBegan":
                fighters = {"attacker": e["attacker"], "defender": e["defender"]}
            elif kind == "SupportDeclared" and e.get("side") in fighters:
                out.append({"kind": "support", "from": e["seat"], "to": fighters[e["side"]]})
            elif kind == "DealExecuted":
                out += [{"kind": "pay", "from": t["giver"], "to": t["receiver"]} for t in e.get("transfers", ())]
        return out

    def offered(self, state: GameState) -> frozenset[int]:
        """The seats awaited beside the clock's pivot: the parties of open
        deals that have not accepted them (R8.6: a proposal awaits their
        answer until it executes, is withdrawn or declined, or lapses at the
        season's end), and while a negotiation window is open the seats it
        waits on to close early (R10.2b1): the fighters that have not said
        done and the asked seats that have not answered."""
        owed = {p for deal in state.deals.values() for p in deal.parties if p not in deal.accepted}
        rnd, fight = state.round, state.fight
        if rnd is not None and fight is not None and state.phase is Phase.NEGOTIATION:
            owed.update(s for s in rnd.asked if s not in rnd.sealed)
            if state.config.rules_revision >= 2:
                owed.update(s for s in (fight.attacker, fight.defender) if s not in rnd.done)
        return frozenset(owed)

    def refills(self, events: list[PlainEvent]) -> int:
        """A time bank refills once per season from the second (R10.3)."""
        return sum(1 for e in events if e["type"] == "SeasonBegan" and e["season"] > 1)

    def proxy_command(self, state: GameState, seat: int) -> dict[str, Any] | None:
        """The negotiator's proxy mode for an away seat (R10.3), from that
        seat's own view and prompt only (what its owner would see), so the
        proxy knows nothing its owner did not: it answers as the pivot only,
        keeps the owner's promises and makes no deal in the owner's name.
        The same reference play as `bot_move`, without offers."""
        prompt = decision_views(state, [seat])[seat]
        if not prompt or not prompt.get("legal"):
            return None
        rng = random.Random(hash((state.config.seed, seat, prompt["id"])) & 0xFFFFFFFF)
        proxy = POLICIES[PROXY_POLICY]
        move = _move(proxy.proxy or proxy.choose, None, view(state, seat), prompt, rng, None)
        return move.command if move is not None else None

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        """The policy's choice from the seat's newest frame: a deal answer at
        any time (R8), an answer to the open decision (as its pivot, or
        early where it may, R10.2), a fighter's Done (R10.2b1), or else a
        deal it offers at the topics the policy
        bargains at (R8.1), each deal once."""
        if prompt is None:
            return None
        bot = POLICIES[policy]
        offer = bot.offer if prompt.get("topic") in bot.topics else None
        return _move(bot.choose, offer, view, prompt, rng, memo)


def _move(choose: Choose, offer: Choose | None, view: dict[str, Any], prompt: dict[str, Any],
          rng: random.Random, memo: dict[str, Any] | None) -> BotMove | None:
    """A policy's command as a BotMove, keyed by what it answers: a deal or
    promise, the decision (a seat answers a decision once as its pivot; a
    fighter says Done once; a sealed early answer may change while it is
    sealed), or the deal it offers."""
    cmd = choose(view, prompt, rng, memo)
    if cmd is not None:
        if cmd.get("type") == "ProposeDeal":  # a counter-offer, made before the decline it softens (R8.8)
            return BotMove(key=("offer", json.dumps(cmd, sort_keys=True)), command=cmd)
        if cmd.get("type") in DEAL_ANSWERS:
            return BotMove(key=(cmd["type"], cmd.get("deal"), cmd.get("promise")), command=cmd)
        if cmd.get("decision") == prompt["id"] and cmd in (prompt.get("legal") or []):
            if cmd["type"] != "Done" and prompt.get("pivot") != view.get("viewer"):
                # A sealed early answer may be changed until the seat's turn (R10.2): a deal
                # that buys our support changes it, so each change is an answer of its own.
                sealed = json.dumps(prompt.get("sealed"), sort_keys=True)
                return BotMove(key=("seal", prompt["id"], json.dumps(cmd, sort_keys=True), sealed), command=cmd,
                               again=cmd != prompt.get("sealed"))
            return BotMove(key=("Done" if cmd["type"] == "Done" else "answer", prompt["id"]), command=cmd)
    if offer is not None:
        proposal = offer(view, prompt, rng, memo)
        if proposal is not None and proposal.get("type") == "ProposeDeal":
            # the policy's memo keeps it from proposing the same deal twice
            return BotMove(key=("offer", json.dumps(proposal, sort_keys=True)), command=proposal)
        if proposal is not None and proposal in (prompt.get("legal") or []):  # the seal an offer needs first
            sealed = json.dumps(prompt.get("sealed"), sort_keys=True)
            return BotMove(key=("seal", prompt["id"], json.dumps(proposal, sort_keys=True), sealed), command=proposal,
                           again=proposal != prompt.get("sealed"))
    return None


__all__ = ["OrientePort"]
