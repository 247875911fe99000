"""The director's collusion report (TR5.5): who supported and paid whom,
across every game of the event.

The rules leave collusion to the director; the report gives the figures to
judge it by. Each game's port turns a finished game's events into plain
interactions (`{"kind", "from", "to", "count"}` by seat; a game without
such things gives none), and this module adds them up by entrant over the
tables they shared. A pair stands out when one helped the other far more
often per game together than the event's pairs do on average.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

STAND_OUT = 2.0  # a pair's help per game together, over the event's mean, that is worth a look
MIN_GAMES = 2  # games together before a pair can stand out


@dataclass(slots=True)
class PairFigures:
    games: int = 0
    counts: dict[str, int] = field(default_factory=dict)


def report(games: Iterable[tuple[Sequence[str], Sequence[Mapping[str, Any]]]],
           names: Mapping[str, str]) -> dict[str, Any]:
    """`games`: for each finished table, its entrants in seat order and its
    interactions. Returns `{"pairs": [...], "kinds": [...]}`, each pair
    `{"from", "to", "games", <kind>: count, ..., "per_game", "stands_out"}`,
    the most helpful first."""
    pairs: dict[tuple[str, str], PairFigures] = {}
    kinds: set[str] = set()
    for entrants, interactions in games:
        for a in entrants:
            for b in entrants:
                if a != b:
                    pairs.setdefault((a, b), PairFigures()).games += 1
        for item in interactions:
            giver, taker = item.get("from"), item.get("to")
            if not (isinstance(giver, int) and isinstance(taker, int)) or giver == taker:
                continue
            if not (0 <= giver < len(entrants) and 0 <= taker < len(entrants)):
                continue
            kind = str(item.get("kind", "help"))
            kinds.add(kind)
            figures = pairs.setdefault((entrants[giver], entrants[taker]), PairFigures())
            figures.counts[kind] = figures.counts.get(kind, 0) + int(item.get("count", 1))
    rates = {p: sum(f.counts.values()) / f.games for p, f in pairs.items() if f.games}
    mean = sum(rates.values()) / len(rates) if rates else 0.0
    rows: list[dict[str, Any]] = []
    for (a, b), f in pairs.items():
        if not f.counts:
            continue
        rate = rates.get((a, b), 0.0)
        rows.append({"from": names.get(a, a), "to": names.get(b, b), "from_id": a, "to_id": b, "games": f.games,
                     **{k: f.counts.get(k, 0) for k in sorted(kinds)}, "per_game": round(rate, 3),
                     "stands_out": f.games >= MIN_GAMES and mean > 0 and rate >= STAND_OUT * mean})
    rows.sort(key=lambda r: (-r["per_game"], -r["games"], r["from_id"], r["to_id"]))
    return {"kinds": sorted(kinds), "mean_per_game": round(mean, 3), "pairs": rows}
