"""Standings (TR4): tournament points, tie-breaks, and the per-board
comparison of duplicate events, all recomputed from the rounds' results
whenever asked (nothing is accumulated, so an adjudication or a late result
changes every figure that depends on it, and a recomputation from the
games' records must give the same numbers).

Order (TR4.2): points; in duplicate, the board score (how much better than
the others who played the same seat of the same board); strength of
opposition (the mean final points of every opponent met, once per
meeting); games won; then the order of entry. Disqualified entrants are
listed after everyone, unranked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import scoring

if TYPE_CHECKING:
    from .model import RoundTable, Tournament


@dataclass(frozen=True, slots=True)
class Row:
    rank: int | None
    id: str
    name: str
    kind: str
    status: str
    points: float
    games: int
    wins: float
    byes: int
    sos: float
    board_score: float | None

    def plain(self) -> dict[str, Any]:
        return {"rank": self.rank, "id": self.id, "name": self.name, "kind": self.kind, "status": self.status,
                "points": self.points, "games": self.games, "wins": self.wins, "byes": self.byes,
                "sos": self.sos, "board_score": self.board_score}


def table_points(t: Tournament, table: RoundTable) -> list[float] | None:
    """Each seat's points at a played table (TR3.1, forfeits last: TR4.5)."""
    if table.ranks is None or not table.done:
        return None
    ranks = scoring.forfeit_ranks(table.ranks, table.forfeits)
    return scoring.points(ranks, t.config.scoring, t.config.points_table)


def totals(t: Tournament, upto: int | None = None) -> dict[str, float]:
    """Every entrant's points over the rounds up to `upto` (all: None)."""
    out = dict.fromkeys(t.entrants, 0.0)
    for rnd in t.rounds[:upto]:
        for e, p in rnd.byes.items():
            out[e] = out.get(e, 0.0) + p
        for table in rnd.tables:
            pts = table_points(t, table)
            if pts is not None:
                for e, p in zip(table.entrants, pts, strict=True):
                    out[e] = out.get(e, 0.0) + p
    return {e: round(p, 9) for e, p in out.items()}


def board_scores(t: Tournament) -> dict[str, float]:
    """TR3.2: for each duplicate board, the mean points of each seat over the
    tables that played it; an entrant's board score is the sum of its points
    minus that mean, over its games. 0 for a seat no other table played."""
    by_deal: dict[tuple[str, int], list[tuple[str, float]]] = {}
    for rnd in t.rounds:
        for table in rnd.tables:
            pts = table_points(t, table)
            if pts is None or table.board is None:
                continue
            for seat, (e, p) in enumerate(zip(table.entrants, pts, strict=True)):
                by_deal.setdefault((table.board, seat), []).append((e, p))
    out = dict.fromkeys(t.entrants, 0.0)
    for played in by_deal.values():
        mean = sum(p for _, p in played) / len(played)
        for e, p in played:
            out[e] += p - mean
    return {e: round(v, 9) for e, v in out.items()}


def standings(t: Tournament) -> list[Row]:
    """TR4.2: the ranked table of entrants."""
    pts = totals(t)
    opponents: dict[str, list[str]] = {e: [] for e in t.entrants}
    games = dict.fromkeys(t.entrants, 0)
    wins = dict.fromkeys(t.entrants, 0.0)
    byes = dict.fromkeys(t.entrants, 0)
    for rnd in t.rounds:
        for e in rnd.byes:
            byes[e] += 1
        for table in rnd.tables:
            if table_points(t, table) is None or table.ranks is None:
                continue
            ranks = scoring.forfeit_ranks(table.ranks, table.forfeits)
            firsts = ranks.count(1)
            for s, e in enumerate(table.entrants):
                games[e] += 1
                if ranks[s] == 1:
                    wins[e] += 1 / firsts
                opponents[e] += [o for o in table.entrants if o != e]
    sos = {e: round(sum(pts[o] for o in opp) / len(opp), 6) if opp else 0.0 for e, opp in opponents.items()}
    duplicate = t.config.format == "duplicate"
    boards = board_scores(t) if duplicate else {}

    def key(e: str) -> tuple[float, ...]:
        return (-pts[e], -boards.get(e, 0.0), -sos[e], -wins[e], int(e[1:]))

    ranked = sorted((e for e in t.entrants if t.entrants[e].status != "disqualified"), key=key)
    rows = []
    previous: tuple[float, ...] | None = None
    rank = 0
    for index, e in enumerate(ranked):
        k = key(e)[:-1]
        if k != previous:
            rank, previous = index + 1, k
        rows.append(_row(t, e, rank, pts, games, wins, byes, sos, boards if duplicate else None))
    for e in t.entrants:
        if t.entrants[e].status == "disqualified":
            rows.append(_row(t, e, None, pts, games, wins, byes, sos, boards if duplicate else None))
    return rows


def _row(t: Tournament, e: str, rank: int | None, pts: dict[str, float], games: dict[str, int],
         wins: dict[str, float], byes: dict[str, int], sos: dict[str, float],
         boards: dict[str, float] | None) -> Row:
    entrant = t.entrants[e]
    return Row(rank=rank, id=e, name=entrant.name, kind=entrant.kind, status=entrant.status,
               points=round(pts[e], 6), games=games[e], wins=round(wins[e], 6), byes=byes[e], sos=sos[e],
               board_score=round(boards[e], 6) if boards is not None else None)


# A cell a spreadsheet would read as a formula begins with one of these
# (OWASP, "CSV Injection"): = + - @, a tab or a carriage return.
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")
CSV_FIELDS = ("rank", "name", "kind", "status", "points", "games", "wins", "byes", "sos", "board_score", "id")


def spreadsheet_text(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that could start a
    formula (an entrant named `=HYPERLINK(...)`, `@SUM(...)`, `-2+3`) gets
    a leading apostrophe, as OWASP recommends; the others are as they are."""
    return "'" + text if text.startswith(FORMULA_LEADS) else text


def csv_cell(value: Any) -> str:
    """One cell of the CSV (RFC 4180): a number bare, as the server wrote
    it; any text (None as empty text) quoted, its quotes doubled, and made
    formula-safe (`spreadsheet_text`), so that a comma, a quote or a line
    break in a name can open neither a new cell nor a new row."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        text = spreadsheet_text("" if value is None else str(value))
        return '"' + text.replace('"', '""') + '"'
    return repr(value)


def standings_csv(t: Tournament) -> str:
    """The standings as CSV (`standings.csv`): a header, then one row per
    entrant, in order."""
    lines = [",".join(csv_cell(name) for name in CSV_FIELDS)]
    for row in standings(t):
        plain = row.plain()
        lines.append(",".join(csv_cell(plain[name]) for name in CSV_FIELDS))
    return "\n".join(lines) + "\n"


def withheld(t: Tournament) -> set[str]:
    """TR3.2: the server tables whose duplicate board some table is still
    playing: their records, spectating and replays wait until it is done."""
    open_deals = {table.board for rnd in t.rounds for table in rnd.tables if table.board and not table.done}
    return {table.table_id for rnd in t.rounds for table in rnd.tables
            if table.board in open_deals and table.table_id is not None}
