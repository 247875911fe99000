"""A tournament as a pure state machine: its settings, entrants, rounds and
tables, and every change the organiser, the entrants and the tables' results
make to it (docs/tournaments.md cites TR rules by number).

No I/O, no clock, no global randomness: the director (server/director.py)
calls these methods, stores `to_plain()` after each change, and does what
the returned values ask (create tables, seat entrants, start them). A
refused change raises `TournamentError` with a stable code and leaves the
tournament as it was. Every random choice (seating, byes) comes from the
round's seed, kept in the round, so any round can be recomputed and
checked from the stored data; round seeds and duplicate boards come from
the event's secret key (`seeds.py`), so no board follows from a round's
public seed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...refusal import Refusal
from . import scoring, seating
from .seeds import HMAC_SCHEME, LEGACY_SCHEME, SCHEMES, EventSeeds, board_name, derive_seed, key_of_seed
from .standings import totals

FORMATS = ("swiss", "duplicate", "arena")
NO_SHOW = ("proxy", "forfeit")
BOTS = ("allowed", "only", "none")
ENTRANT_KINDS = ("player", "bot")
ACTIVE, WITHDRAWN, DISQUALIFIED = "active", "withdrawn", "disqualified"
MAX_ENTRANTS = 2_000
MAX_ROUNDS = 500  # a bot event may be long; people rarely play more than a dozen
MAX_NAME = 32
MAX_SHOW_UP_S = 300.0  # well inside the table's own abandonment of open tables (T6.1: 10 minutes)


class TournamentError(Refusal):
    """A refused change: `code` is stable (`tournament/...`), `message` a
    sentence the organiser or entrant can act on."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """What an organiser creates a tournament with (TR1.1). `table_sizes`
    must lie within the game's seat range (checked by the director, which
    knows the game's port); `bye_points` None means the mean points of a
    place at the largest table (0.5 in linear scoring, TR4.3)."""

    name: str
    game: str = "oriente"
    format: str = "swiss"
    rounds: int = 3
    table_sizes: tuple[int, ...] = (4, 5, 6)
    timers: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    rated: bool = False
    bots: str = "allowed"
    no_show: str = "proxy"
    show_up_s: float = 120.0
    scoring: str = scoring.LINEAR
    points_table: tuple[float, ...] = ()
    bye_points: float | None = None
    apart: tuple[tuple[str, str], ...] = ()
    seed: int | None = None  # the organiser's choice (then `seeded`); None: the server's secret key
    auto_rounds: bool = False  # TR5.6: start each next round as soon as the last one is played
    # How the event's seeds are made (seeds.py): set by the server, never by
    # the organiser; an event stored without it predates the keyed scheme.
    seed_scheme: str = HMAC_SCHEME

    @property
    def seeded(self) -> bool:
        """Whether somebody may know the event's boards: its organiser chose
        its seed, or its seeds are of the old, invertible scheme."""
        return self.seed is not None or self.seed_scheme == LEGACY_SCHEME

    def validate(self) -> None:
        def bad(message: str) -> TournamentError:
            return TournamentError("tournament/bad_settings", message)

        if not 1 <= len(self.name.strip()) <= 64:
            raise bad("a tournament's name has 1 to 64 characters")
        if self.format not in FORMATS:
            raise bad(f"format is one of {', '.join(FORMATS)}, not {self.format!r}")
        if self.format != "arena" and not 1 <= self.rounds <= MAX_ROUNDS:
            raise bad(f"a tournament has 1 to {MAX_ROUNDS} rounds")
        if not self.table_sizes or any(not isinstance(s, int) or s < 2 for s in self.table_sizes):
            raise bad("table_sizes lists the table sizes allowed, each at least 2")
        if self.bots not in BOTS:
            raise bad(f"bots is one of {', '.join(BOTS)}")
        if self.no_show not in NO_SHOW:
            raise bad(f"no_show is one of {', '.join(NO_SHOW)}")
        if not 0 <= self.show_up_s <= MAX_SHOW_UP_S:
            raise bad(f"show_up_s is between 0 and {MAX_SHOW_UP_S:g} seconds")
        if self.scoring not in scoring.KINDS:
            raise bad(f"scoring is one of {', '.join(scoring.KINDS)}")
        if self.scoring == "table" and not self.points_table:
            raise bad("scoring 'table' needs points_table, the points of each place")
        if self.seed is not None and (not isinstance(self.seed, int) or isinstance(self.seed, bool)
                                      or not 0 <= self.seed < 2**64):
            raise bad("the seed is an integer from 0 to 2**64-1")
        if self.seed_scheme not in SCHEMES:
            raise bad(f"seed_scheme is one of {', '.join(SCHEMES)}")

    def bye_value(self) -> float:
        if self.bye_points is not None:
            return self.bye_points
        size = max(self.table_sizes)
        base = scoring.place_points(self.scoring, size, self.points_table)
        return round(sum(base) / size, 9)

    def to_plain(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "format": self.format, "rounds": self.rounds,
                "table_sizes": list(self.table_sizes), "timers": self.timers, "options": self.options,
                "rated": self.rated, "bots": self.bots, "no_show": self.no_show, "show_up_s": self.show_up_s,
                "scoring": self.scoring, "points_table": list(self.points_table), "bye_points": self.bye_points,
                "apart": [list(p) for p in self.apart], "seed": self.seed, "auto_rounds": self.auto_rounds,
                "seed_scheme": self.seed_scheme}

    @classmethod
    def from_plain(cls, d: dict[str, Any]) -> Config:
        known = cls.__dataclass_fields__
        unknown = sorted(set(d) - set(known))
        if unknown:
            raise TournamentError("tournament/bad_settings", f"unknown settings: {', '.join(unknown)}")
        d = dict(d)
        for key in ("table_sizes", "points_table"):
            if key in d:
                d[key] = tuple(d[key])
        if "apart" in d:
            d["apart"] = tuple((str(a), str(b)) for a, b in d["apart"])
        try:
            return cls(**d)
        except TypeError as exc:
            raise TournamentError("tournament/bad_settings", str(exc)) from None


@dataclass(slots=True, kw_only=True)
class Entrant:
    """One entry (TR1.2). The identity is `name` today; `account` is where an
    account id will be attached. `token_hash`: the entrant's secret, hashed
    (it finds the entrant's tables and takes its seats). `policy`: a server
    bot's policy (the server plays this entry itself); None for an entrant
    that connects on its own (a person, or a bot through the SDK)."""

    id: str
    name: str
    kind: str = "player"
    account: str | None = None
    token_hash: str = ""
    policy: str | None = None
    status: str = ACTIVE
    since_round: int = 1

    def to_plain(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind, "account": self.account,
                "token_hash": self.token_hash, "policy": self.policy, "status": self.status,
                "since_round": self.since_round}


@dataclass(slots=True, kw_only=True)
class RoundTable:
    """One table of a round: the entrants in seat order, the server's table
    once created, the duplicate board it plays, and its outcome. `ranks` is
    the game's result (1 first) or the director's adjudication; `forfeits`
    the seats that forfeited (TR4.5); `absent` the seats that had not
    shown up by the deadline."""

    index: int
    entrants: list[str]
    table_id: str | None = None
    board: str | None = None
    board_seed: int | None = None
    board_salt: str | None = None  # with the seed, gives board_commitment (seeds.py)
    board_commitment: str | None = None  # public from the seating on
    status: str = "seated"  # seated, started, finished, adjudicated
    ranks: list[int] | None = None
    forfeits: list[int] = field(default_factory=list)
    absent: list[int] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.status in ("finished", "adjudicated")

    def to_plain(self) -> dict[str, Any]:
        return {"index": self.index, "entrants": self.entrants, "table_id": self.table_id, "board": self.board,
                "board_seed": self.board_seed, "board_salt": self.board_salt,
                "board_commitment": self.board_commitment, "status": self.status, "ranks": self.ranks,
                "forfeits": self.forfeits, "absent": self.absent}


@dataclass(slots=True, kw_only=True)
class Round:
    number: int
    seed: int
    tables: list[RoundTable]
    byes: dict[str, float] = field(default_factory=dict)
    paused: bool = False
    seating: dict[str, Any] = field(default_factory=dict)  # the seater's figures (cost, repeats, iterations)
    attempt: int = 0  # re-seatings of this round (TR5.2): each draws a new seed

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tables)

    def to_plain(self) -> dict[str, Any]:
        return {"number": self.number, "seed": self.seed, "tables": [t.to_plain() for t in self.tables],
                "byes": self.byes, "paused": self.paused, "seating": self.seating,
                "attempt": self.attempt}


@dataclass(slots=True)
class Tournament:
    """The whole event; see the module docstring."""

    id: str
    config: Config
    organiser_hash: str
    entrants: dict[str, Entrant] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    finished: bool = False
    # The event's secret key (seeds.py): kept by the director beside the
    # stored state, never in to_plain. None: the organiser's seed gives it.
    seed_key: bytes | None = field(default=None, repr=False)

    def seeds(self) -> EventSeeds:
        """Where this event's round seeds and boards come from."""
        c = self.config
        if c.seed_scheme == LEGACY_SCHEME:
            return EventSeeds(self.id, LEGACY_SCHEME, legacy_seed=c.seed or 0)
        key = self.seed_key if self.seed_key is not None else key_of_seed(c.seed) if c.seed is not None else None
        if not key:
            raise TournamentError("tournament/no_key", "this event has neither a seed nor a key to seat rounds from")
        return EventSeeds(self.id, HMAC_SCHEME, key=key)

    # -- entries -------------------------------------------------------------------

    def register(self, name: str, *, kind: str = "player", token_hash: str, policy: str | None = None,
                 account: str | None = None) -> Entrant:
        """TR1.2: a new entry. Late entries are welcome until the last round
        starts; they play from the next round on (TR1.3)."""
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME:
            raise TournamentError("tournament/bad_name", f"an entrant's name has 1 to {MAX_NAME} characters")
        if kind not in ENTRANT_KINDS:
            raise TournamentError("tournament/bad_entry", f"an entrant is a {' or a '.join(ENTRANT_KINDS)}")
        if self.config.bots == "none" and kind == "bot":
            raise TournamentError("tournament/no_bots", "this tournament does not admit bots")
        if self.config.bots == "only" and kind != "bot":
            raise TournamentError("tournament/bots_only", "this tournament admits bots only")
        if self.finished or (self.config.format != "arena" and len(self.rounds) >= self.config.rounds):
            raise TournamentError("tournament/closed", "entries closed when the last round started")
        if any(e.name.casefold() == name.casefold() for e in self.entrants.values()):
            raise TournamentError("tournament/name_taken", f"an entrant is already called {name!r}")
        if len(self.entrants) >= MAX_ENTRANTS:
            raise TournamentError("tournament/full", f"a tournament has at most {MAX_ENTRANTS} entrants")
        entrant = Entrant(id=f"e{len(self.entrants) + 1}", name=name, kind=kind, token_hash=token_hash,
                          policy=policy, account=account, since_round=len(self.rounds) + 1)
        self.entrants[entrant.id] = entrant
        return entrant

    def entrant(self, entrant_id: str) -> Entrant:
        e = self.entrants.get(entrant_id)
        if e is None:
            raise TournamentError("tournament/unknown_entrant", f"there is no entrant {entrant_id!r}")
        return e

    def by_token(self, token_hash: str) -> Entrant | None:
        return next((e for e in self.entrants.values() if e.token_hash == token_hash), None)

    def withdraw(self, entrant_id: str) -> None:
        """TR4.4: from the next round on the entrant is not seated; its results
        so far stand, and a game it is playing is played out (by the seat
        proxy or in silence, as the tournament's no-show rule says)."""
        e = self.entrant(entrant_id)
        if e.status != ACTIVE:
            raise TournamentError("tournament/not_active", f"{e.name} is already {e.status}")
        e.status = WITHDRAWN

    def disqualify(self, entrant_id: str) -> None:
        """TR5.3: as a withdrawal, and the entrant leaves the standings (listed
        last, unranked); its opponents keep what they scored."""
        e = self.entrant(entrant_id)
        e.status = DISQUALIFIED

    # -- rounds --------------------------------------------------------------------

    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def start_round(self, *, iterations: int | None = None, attempt: int = 0) -> Round:
        """TR2: seat the next round from the active entrants: split (TR2.1),
        byes (TR4.3), seating (TR2.2), and in duplicate one board per table
        size (TR3.2)."""
        if self.config.format == "arena":
            raise TournamentError("tournament/arena", "an arena seats its tables as entrants wait (arena_seat)")
        if self.finished:
            raise TournamentError("tournament/finished", "this tournament has finished")
        last = self.current()
        if last is not None and not last.done:
            raise TournamentError("tournament/round_running", f"round {last.number} has tables still playing")
        if len(self.rounds) >= self.config.rounds:
            raise TournamentError("tournament/no_rounds_left", f"all {self.config.rounds} rounds were played")
        number = len(self.rounds) + 1
        present = [e.id for e in self.entrants.values() if e.status == ACTIVE]
        sizes, bye_count = seating.split(len(present), self.config.table_sizes)
        if not sizes:
            raise TournamentError("tournament/too_few", f"{len(present)} active entrants cannot fill a table "
                                  f"of {min(self.config.table_sizes)}")
        seeds = self.seeds()
        seed = seeds.round(number, attempt)
        byes = self._byes(present, bye_count, seed)
        seated = [e for e in present if e not in byes]
        boards: list[str | None] = [None] * len(sizes)
        if self.config.format == "duplicate":
            boards = [board_name(number, size) for size in sizes]
        result = self.seat_round(seated, sizes, seed, number, boards, iterations)
        tables = []
        for t, ids in enumerate(result.tables):
            board = seeds.board(number, sizes[t]) if boards[t] is not None else None
            tables.append(RoundTable(index=t, entrants=ids, board=boards[t],
                                     board_seed=board.seed if board else None,
                                     board_salt=board.salt if board else None,
                                     board_commitment=board.commitment if board else None))
        bye_value = self.config.bye_value()
        rnd = Round(number=number, seed=seed, tables=tables, byes=dict.fromkeys(byes, bye_value), attempt=attempt,
                    seating={k: v for k, v in result.plain().items() if k != "tables"})
        self.rounds.append(rnd)
        return rnd

    def reseat(self, number: int, *, iterations: int | None = None) -> Round:
        """TR5.2: seat round `number` again (a new seed; the entrants and
        their statuses as they are now), while none of its tables has
        started. The director drops the old tables."""
        rnd = self._round(number)
        if rnd is not self.current() or any(t.status != "seated" for t in rnd.tables):
            raise TournamentError("tournament/started", "a round is re-seated only before any of its tables starts")
        self.rounds.pop()
        return self.start_round(iterations=iterations, attempt=rnd.attempt + 1)

    def seat_round(self, seated: list[str], sizes: list[int], seed: int, number: int,
                   boards: list[str | None], iterations: int | None) -> seating.Seating:
        """The seater's call for round `number`, from the rounds before it only."""
        return seating.seat(seated, sizes, seed=seed, history=self.history(upto=number - 1),
                            apart=self._apart_ids(), boards=boards, iterations=iterations,
                            group_weight=seating.W_GROUP if number > 1 else 0.0)

    def verify_seating(self, number: int) -> bool:
        """TR2.4: recompute round `number`'s seating from what is stored (its
        seed, the entrants it seated in the order they entered, the rounds
        before it) and compare."""
        rnd = self._round(number)
        seated = sorted((e for t in rnd.tables for e in t.entrants), key=lambda e: int(e[1:]))
        sizes = [len(t.entrants) for t in rnd.tables]
        iterations = rnd.seating.get("iterations")
        again = self.seat_round(seated, sizes, rnd.seed, number, [t.board for t in rnd.tables],
                                iterations if isinstance(iterations, int) else None)
        return again.tables == [t.entrants for t in rnd.tables]

    def _round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError("tournament/unknown_round", f"there is no round {number}")
        return self.rounds[number - 1]

    def table(self, number: int, index: int) -> RoundTable:
        rnd = self._round(number)
        if not 0 <= index < len(rnd.tables):
            raise TournamentError("tournament/unknown_table", f"round {number} has no table {index}")
        return rnd.tables[index]

    def find_table(self, table_id: str) -> tuple[Round, RoundTable] | None:
        for rnd in self.rounds:
            for t in rnd.tables:
                if t.table_id == table_id:
                    return rnd, t
        return None

    def set_paused(self, number: int, paused: bool) -> None:
        """TR5.1: a paused round starts no more tables until resumed."""
        self._round(number).paused = paused

    def record_result(self, number: int, index: int, ranks: list[int]) -> None:
        """A table's game ended with `ranks` (1 first); forfeiting seats are
        moved last (TR4.5)."""
        t = self.table(number, index)
        if t.done:
            return
        if len(ranks) != len(t.entrants):
            raise TournamentError("tournament/bad_result", f"table {index} has {len(t.entrants)} seats")
        t.ranks = list(ranks)
        t.status = "finished"
        self._maybe_finish()

    def adjudicate(self, number: int, index: int, ranks: list[int]) -> None:
        """TR5.4: the director decides a table's ranks (a stuck or disputed
        game); it replaces any result, and the game, if still playing, no
        longer counts."""
        t = self.table(number, index)
        if len(ranks) != len(t.entrants) or any(not 1 <= r <= len(ranks) for r in ranks):
            raise TournamentError("tournament/bad_result",
                                  f"give a rank from 1 to {len(t.entrants)} for each of the {len(t.entrants)} seats")
        t.ranks = list(ranks)
        t.status = "adjudicated"
        self._maybe_finish()

    def _maybe_finish(self) -> None:
        rnd = self.current()
        if self.config.format != "arena" and rnd is not None and rnd.done and len(self.rounds) >= self.config.rounds:
            self.finished = True

    # -- the arena -----------------------------------------------------------------

    def busy(self) -> set[str]:
        """Entrants at a table that has not finished."""
        return {e for rnd in self.rounds for t in rnd.tables if not t.done for e in t.entrants}

    def arena_seat(self, waiting: Iterable[str]) -> Round | None:
        """TR3.3: seat the waiting entrants of an arena as soon as they fill
        a table of an allowed size; those left over keep waiting. Each call
        that seats anyone is a round of its own (numbered on), so the arena's
        games share the Swiss machinery: history, standings, records."""
        if self.config.format != "arena":
            raise TournamentError("tournament/not_arena", "only an arena seats entrants as they wait")
        busy = self.busy()
        ids = [e for e in dict.fromkeys(waiting) if e in self.entrants and self.entrants[e].status == ACTIVE
               and e not in busy]
        if len(ids) < min(self.config.table_sizes):
            return None
        sizes, _ = seating.split(len(ids), self.config.table_sizes)
        number = len(self.rounds) + 1
        seed = self.seeds().round(number)
        chosen = ids[:sum(sizes)]  # the longest waiting first
        result = seating.seat(chosen, sizes, seed=seed, history=self.history(), apart=self._apart_ids(),
                              group_weight=0.0, iterations=1_000 + 100 * len(chosen))
        rnd = Round(number=number, seed=seed,
                    tables=[RoundTable(index=t, entrants=e) for t, e in enumerate(result.tables)],
                    seating={k: v for k, v in result.plain().items() if k != "tables"})
        self.rounds.append(rnd)
        return rnd

    # -- what the seater and the standings read --------------------------------------

    def history(self, upto: int | None = None) -> seating.History:
        """What the rounds up to `upto` (all: None) tell the seater."""
        met: dict[tuple[str, str], int] = {}
        positions: dict[str, list[float]] = {}
        boards: dict[str, list[str]] = {}
        for rnd in self.rounds[:upto]:
            for t in rnd.tables:
                last = max(1, len(t.entrants) - 1)
                for s, a in enumerate(t.entrants):
                    positions.setdefault(a, []).append(s / last)
                    if t.board is not None:
                        boards.setdefault(a, []).append(t.board)
                    for b in t.entrants[s + 1:]:
                        p = seating.pair(a, b)
                        met[p] = met.get(p, 0) + 1
        return seating.History(met=met, positions=positions, boards=boards, points=totals(self, upto=upto))

    def _apart_ids(self) -> list[tuple[str, str]]:
        """The kept-apart pairs, given by name or id, as entrant ids."""
        by_name = {e.name.casefold(): e.id for e in self.entrants.values()}
        out = []
        for a, b in self.config.apart:
            ia = a if a in self.entrants else by_name.get(a.casefold())
            ib = b if b in self.entrants else by_name.get(b.casefold())
            if ia is not None and ib is not None:
                out.append((ia, ib))
        return out

    def _byes(self, present: list[str], count: int, seed: int) -> list[str]:
        """TR4.3: who sits out when the field cannot be split: those with the
        fewest byes so far, then the fewest points, then the latest to
        enter, then by the round's seed."""
        if count == 0:
            return []
        pts = totals(self)
        had = {e: sum(e in r.byes for r in self.rounds) for e in present}
        order = {e: derive_seed(seed, i + 1) for i, e in enumerate(present)}
        ranked = sorted(present, key=lambda e: (had[e], pts.get(e, 0.0), -self.entrants[e].since_round,
                                                -int(e[1:]), order[e]))
        return ranked[:count]

    # -- storage ---------------------------------------------------------------------

    def head_plain(self) -> dict[str, Any]:
        """Everything but the rounds (stored apart: a table's news rewrites
        its round only)."""
        plain = self.to_plain()
        del plain["rounds"]
        return plain

    def to_plain(self) -> dict[str, Any]:
        return {"format": "oriente.tournament.v1", "id": self.id, "config": self.config.to_plain(),
                "organiser_hash": self.organiser_hash, "finished": self.finished,
                "entrants": [e.to_plain() for e in self.entrants.values()],
                "rounds": [r.to_plain() for r in self.rounds]}

    @classmethod
    def from_plain(cls, d: dict[str, Any], *, seed_key: bytes | None = None) -> Tournament:
        """The stored state; an event stored without `seed_scheme` predates
        the keyed scheme and keeps its old one to its end (seeds.py)."""
        config = dict(d["config"])
        config.setdefault("seed_scheme", LEGACY_SCHEME)
        t = cls(id=d["id"], config=Config.from_plain(config), organiser_hash=d["organiser_hash"],
                finished=d["finished"], seed_key=seed_key)
        for e in d["entrants"]:
            t.entrants[e["id"]] = Entrant(**e)
        for r in d["rounds"]:
            tables = [RoundTable(**x) for x in r["tables"]]
            t.rounds.append(Round(number=r["number"], seed=r["seed"], tables=tables, byes=dict(r["byes"]),
                                  paused=r["paused"], seating=dict(r["seating"]), attempt=r.get("attempt", 0)))
        return t

