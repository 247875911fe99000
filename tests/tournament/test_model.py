"""The tournament state machine (docs/tournaments.md TR1, TR3-TR5)."""

from __future__ import annotations

import pytest

from oriente.server.tournament import Config, Tournament, TournamentError
from oriente.server.tournament.collusion import report
from oriente.server.tournament.scoring import forfeit_ranks, points
from oriente.server.tournament.standings import board_scores, standings, totals, withheld


def event(n: int, **config: object) -> Tournament:
    t = Tournament(id="t", config=Config(name="Cup", **config), organiser_hash="o",  # type: ignore[arg-type]
                   seed_key=b"k" * 32)
    for i in range(n):
        t.register(f"p{i + 1}", token_hash=f"h{i + 1}")
    return t


def play(t: Tournament) -> None:
    """Finish every table of the current round: seat 0 first, and so on."""
    rnd = t.current()
    assert rnd is not None
    for table in rnd.tables:
        t.record_result(rnd.number, table.index, list(range(1, len(table.entrants) + 1)))


def test_tr3_1_linear_points_and_shared_ties() -> None:
    assert points([1, 2, 3, 4, 5]) == [1.0, 0.75, 0.5, 0.25, 0.0]
    assert points([1, 1, 3, 4]) == [pytest.approx(5 / 6), pytest.approx(5 / 6), pytest.approx(1 / 3), 0.0]
    assert points([2, 1, 2], "win") == [0.0, 1.0, 0.0]
    assert points([1, 2, 3], "table", [5, 2]) == [5.0, 2.0, 0.0]
    assert sum(points([1, 1, 1, 4, 4, 6])) == pytest.approx(3.0)


def test_tr4_5_forfeits_rank_last() -> None:
    assert forfeit_ranks([1, 2, 3, 4], [0]) == [4, 1, 2, 3]
    assert forfeit_ranks([1, 1, 3, 4], [1, 3]) == [1, 3, 2, 3]


def test_tr1_entries_bots_and_late_entries() -> None:
    t = event(0, bots="none", rounds=2, table_sizes=(2,))
    with pytest.raises(TournamentError) as e:
        t.register("Robo", kind="bot", token_hash="x")
    assert e.value.code == "tournament/no_bots"
    t.register("A", token_hash="a")
    with pytest.raises(TournamentError) as e:
        t.register("a", token_hash="b")
    assert e.value.code == "tournament/name_taken"
    t.register("B", token_hash="b")
    t.start_round()
    late = t.register("C", token_hash="c")
    assert late.since_round == 2
    play(t)
    t.start_round()
    with pytest.raises(TournamentError) as e:
        t.register("D", token_hash="d")
    assert e.value.code == "tournament/closed"


def test_tr4_3_byes_go_to_the_fewest_byes_then_fewest_points() -> None:
    t = event(7, table_sizes=(3,), rounds=3)
    r1 = t.start_round()
    assert len(r1.byes) == 1 and list(r1.byes.values()) == [0.5]
    play(t)
    r2 = t.start_round()
    assert not set(r2.byes) & set(r1.byes)
    low = min((e for e in t.entrants if e not in r1.byes), key=lambda e: (totals(t, upto=1)[e], -int(e[1:])))
    assert list(r2.byes) == [low]


def test_rounds_withdrawal_standings_and_storage() -> None:
    t = event(11, table_sizes=(5, 6), rounds=2, seed=5)
    with pytest.raises(TournamentError):
        t.record_result(1, 0, [1])
    t.start_round()
    with pytest.raises(TournamentError) as e:
        t.start_round()
    assert e.value.code == "tournament/round_running"
    t.withdraw("e1")
    play(t)
    r2 = t.start_round()
    assert "e1" not in {e for table in r2.tables for e in table.entrants}
    play(t)
    assert t.finished
    rows = standings(t)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows if r.rank is not None)
    assert sum(r.points for r in rows) == pytest.approx(sum(totals(t).values()))
    assert Tournament.from_plain(t.to_plain()).to_plain() == t.to_plain()
    assert t.verify_seating(1) and t.verify_seating(2)


def test_tr5_director_tools() -> None:
    t = event(10, table_sizes=(5,), rounds=2)
    r1 = t.start_round()
    again = t.reseat(1)
    assert again.attempt == 1 and again.seed != r1.seed
    assert t.verify_seating(1)
    t.set_paused(1, True)
    assert t.current() is not None and t.current().paused  # type: ignore[union-attr]
    t.adjudicate(1, 0, [1, 1, 3, 4, 5])
    with pytest.raises(TournamentError):
        t.adjudicate(1, 1, [1, 2])
    t.record_result(1, 1, [5, 4, 3, 2, 1])
    with pytest.raises(TournamentError) as e:
        t.reseat(1)
    assert e.value.code == "tournament/started"
    loser = t.current().tables[1].entrants[0]  # type: ignore[union-attr]
    t.disqualify(loser)
    rows = standings(t)
    assert rows[-1].id == loser and rows[-1].rank is None


def test_tr3_2_duplicate_deals_and_withholding() -> None:
    t = event(12, format="duplicate", table_sizes=(6,), rounds=2)
    rnd = t.start_round()
    assert {x.board for x in rnd.tables} == {"r1s6"} and len({x.board_seed for x in rnd.tables}) == 1
    rnd.tables[0].table_id, rnd.tables[1].table_id = "A", "B"
    t.record_result(1, 0, [1, 2, 3, 4, 5, 6])
    assert withheld(t) == {"A", "B"}
    t.record_result(1, 1, [6, 5, 4, 3, 2, 1])
    assert withheld(t) == set()
    scores = board_scores(t)
    assert scores[rnd.tables[0].entrants[0]] == pytest.approx(0.5)
    assert sum(scores.values()) == pytest.approx(0.0)
    r2 = t.start_round()
    assert {x.board for x in r2.tables} == {"r2s6"}


def test_tr3_3_arena_seats_whoever_waits() -> None:
    t = event(9, format="arena", table_sizes=(3, 4))
    assert t.arena_seat(["e1", "e2"]) is None
    first = t.arena_seat(["e1", "e2", "e3", "e4", "e5"])
    assert first is not None and len(first.tables) == 1
    assert sorted(first.tables[0].entrants) == ["e1", "e2", "e3", "e4"]
    busy = t.busy()
    second = t.arena_seat([e for e in t.entrants if e not in busy])
    assert second is not None
    assert not busy & {e for x in second.tables for e in x.entrants}


def test_tr5_5_collusion_report_flags_a_helpful_pair() -> None:
    seats = ["a", "b", "c", "d"]
    games = [(seats, [{"kind": "support", "from": 0, "to": 1, "count": 3}, {"kind": "pay", "from": 2, "to": 3}])
             for _ in range(3)]
    out = report(games, {"a": "Ann"})
    top = out["pairs"][0]
    assert (top["from"], top["to"], top["support"], top["games"]) == ("Ann", "b", 9, 3)
    assert top["stands_out"]
