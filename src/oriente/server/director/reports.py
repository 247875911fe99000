"""What anyone may see of a tournament, and the reports made of it: its
public state (no secrets), an entrant's brief, the listing, the exports
(GET /tournament/ID/standings.csv, /export.json, /records.json) and the
collusion report (TR5.5)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..lobby import Lobby
from ..tournament import Round
from ..tournament.collusion import report as collusion_report
from ..tournament.standings import standings, standings_csv, withheld
from .live import SHOWN_ROUNDS, Live


def public(live: Live, lobby: Lobby, entrant: str | None = None, *, every_round: bool = False) -> dict[str, Any]:
    """What anyone may see of a tournament (no secrets), with, for an
    entrant, its current table, seat and seat token."""
    t = live.t
    held = withheld(t)
    shown = [r for r in t.rounds if not r.done]
    if t.config.format == "arena" and not every_round:  # an arena's games are many: those playing, the last few
        shown = [r for r in t.rounds[-SHOWN_ROUNDS:] if r.done] + shown[-SHOWN_ROUNDS * 10:]
    else:
        shown = t.rounds
    rounds = [round_plain(r, held) for r in shown]
    state: dict[str, Any] = {
        "tournament": t.id, "config": {**{k: v for k, v in t.config.to_plain().items() if k != "seed"},
                                       "seeded": t.config.seeded},
        "finished": t.finished,
        "entrants": [{k: v for k, v in e.to_plain().items() if k != "token_hash"} for e in t.entrants.values()],
        "rounds_played": len(t.rounds), "rounds": rounds, "standings": [row.plain() for row in standings(t)],
    }
    if entrant is not None:
        state["you"] = {"entrant": entrant, **next_table(live, lobby, entrant)}
    return state


def round_plain(rnd: Round, held: set[str]) -> dict[str, Any]:
    """A round as anyone may see it: a board's commitment from the
    seating on; its seed (which fixes its hidden cards) and salt only
    once every table has played it (TR3.2)."""
    plain = rnd.to_plain()
    for x in plain["tables"]:
        if x["board"] is not None and (x["table_id"] in held or x["table_id"] is None or x["status"] == "seated"):
            x["board_seed"] = x["board_salt"] = None
    return plain


def listing(lives: Iterable[Live]) -> list[dict[str, Any]]:
    """Every tournament given, in brief."""
    return [{"tournament": live.t.id, "name": live.t.config.name, "game": live.t.config.game,
             "format": live.t.config.format, "rounds": live.t.config.rounds, "played": len(live.t.rounds),
             "entrants": len(live.t.entrants), "finished": live.t.finished} for live in lives]


def next_table(live: Live, lobby: Lobby, entrant: str) -> dict[str, Any]:
    """The entrant's table now: the newest one it is seated at that has not
    ended, with its seat and seat token; or nothing."""
    for rnd in reversed(live.t.rounds):
        for table in rnd.tables:
            if entrant in table.entrants and table.table_id in live.ready and not table.done:
                seat = table.entrants.index(entrant)
                return {"round": rnd.number, "table": table.table_id, "seat": seat,
                        "token": live.seat_token(table.table_id, seat),
                        "commitment": commitment(lobby, table.table_id)}
        if entrant in rnd.byes and rnd is live.t.current():
            return {"round": rnd.number, "bye": rnd.byes[entrant]}
    return {}


def commitment(lobby: Lobby, table_id: str) -> str | None:
    """The commitment the table shows anyone (docs/table.md T7.1), given
    with the seat so that the entrant's first `resume` can bring its
    nonce at once: the table may start as soon as its seats are present,
    before a second request would arrive."""
    table = lobby.get(table_id)
    return None if table is None else table.statistics().commitment


def brief(live: Live, lobby: Lobby, entrant: str | None) -> dict[str, Any]:
    """What a playing entrant needs: where it sits now, and whether the
    event has ended (PROTOCOL.md 20: `tournament_watch` with `full` false)."""
    t = live.t
    state: dict[str, Any] = {"tournament": t.id, "name": t.config.name, "finished": t.finished,
                             "rounds_played": len(t.rounds)}
    if entrant is not None:
        state["you"] = {"entrant": entrant, **next_table(live, lobby, entrant)}
    return state


async def collusion(live: Live, lobby: Lobby) -> dict[str, Any]:
    """TR5.5: from the records of every finished game of the event."""
    port = lobby.ports[live.t.config.game]
    games = []
    for rnd in live.t.rounds:
        for x in rnd.tables:
            if x.table_id is None or not x.done:
                continue
            record = await lobby.record(x.table_id)
            found = port.interactions(record["events"]) if record else []
            games.append((x.entrants, found))
    return collusion_report(games, {e.id: e.name for e in live.t.entrants.values()})


async def export(live: Live, lobby: Lobby, what: str) -> tuple[bytes, str] | None:
    """One of a tournament's exports (`standings.csv`, `export.json`,
    `records.json`) and its content type; None for another name."""
    t = live.t
    if what == "standings.csv":
        return standings_csv(t).encode(), "text/csv; charset=utf-8"
    if what == "export.json":
        state = public(live, lobby, every_round=True)
        state["seating_ok"] = all(t.verify_seating(r.number) for r in t.rounds
                                  if t.config.format != "arena")
        if t.finished and t.config.seed is not None:
            # The organiser's seed fixes every board: told once they are all
            # played. A key the server drew is never told: each board's
            # commitment, salt and seed prove it.
            state["config"]["seed"] = t.config.seed
        return json.dumps(state, ensure_ascii=False).encode(), "application/json; charset=utf-8"
    if what == "records.json":
        held = withheld(t)
        records = []
        for rnd in t.rounds:
            for x in rnd.tables:
                if x.table_id is None or x.table_id in held:
                    continue
                record = await lobby.record(x.table_id)
                if record is not None:
                    records.append({"round": rnd.number, "table": x.index, "entrants": x.entrants,
                                    "record": record})
        return json.dumps({"tournament": t.id, "records": records}, ensure_ascii=False).encode(), \
            "application/json; charset=utf-8"
    return None
