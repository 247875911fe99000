"""Where an event's seeds come from (server/tournament/seeds.py,
docs/tournaments.md TR2.4, TR3.2): keyed, one-way, committed boards; the
organiser's seed makes the event `seeded`; an event stored before the
keyed scheme keeps its own."""

from __future__ import annotations

import hashlib

import pytest

from oriente.server.tournament import Config, Tournament, TournamentError
from oriente.server.tournament.seeds import (
    HMAC_SCHEME,
    LEGACY_SCHEME,
    EventSeeds,
    board_commitment,
    derive_seed,
    key_of_seed,
)


def duplicate(**kw: object) -> Tournament:
    t = Tournament(id="ev", config=Config(name="Dup", format="duplicate", table_sizes=(4,), rounds=2,  # type: ignore[arg-type]
                                          **kw), organiser_hash="o", seed_key=b"\x01" * 32)
    for i in range(8):
        t.register(f"p{i}", token_hash=f"h{i}")
    return t


def test_round_and_board_seeds_are_hmacs_of_the_key() -> None:
    seeds = EventSeeds("ev", HMAC_SCHEME, key=b"\x01" * 32)
    other = EventSeeds("ev", HMAC_SCHEME, key=b"\x02" * 32)
    assert seeds.round(1) == seeds.round(1) != other.round(1)
    assert seeds.round(1) != seeds.round(1, 1) != seeds.round(2)
    assert 0 <= seeds.round(1) < 2**63
    board = seeds.board(1, 4)
    assert board.seed != seeds.board(1, 5).seed != seeds.board(2, 4).seed
    assert board.salt is not None and len(board.salt) == 64
    # The byte layout PROTOCOL.md and docs/tournaments.md give, recomputed here.
    import hmac

    mac = hmac.new(b"\x01" * 32, b"oriente.board.v1\x001\x004", hashlib.sha256).digest()
    assert board.seed == int.from_bytes(mac[:8], "big") >> 1
    assert board.commitment == hashlib.sha256(
        f"oriente.board.v1\0ev\0r1s4\0{board.salt}\0{board.seed}".encode()).hexdigest()
    assert board.commitment == board_commitment("ev", "r1s4", board.salt, board.seed)
    assert board_commitment("ev", "r1s4", board.salt, board.seed + 1) != board.commitment


def test_a_duplicate_round_commits_to_its_board_and_the_seed_is_not_the_old_derivation() -> None:
    t = duplicate()
    rnd = t.start_round()
    boards = {(x.board, x.board_seed, x.board_salt, x.board_commitment) for x in rnd.tables}
    assert len(boards) == 1
    name, seed, salt, commitment = boards.pop()
    assert name == "r1s4" and salt is not None and seed is not None
    assert commitment == board_commitment("ev", name, salt, seed)
    assert seed != derive_seed(rnd.seed, 1, 4, 1) and rnd.seed != derive_seed(0, 1)
    assert t.verify_seating(1)
    again = Tournament.from_plain(t.to_plain(), seed_key=t.seed_key)
    assert again.config.seed_scheme == HMAC_SCHEME and again.rounds[0].tables[0].board_commitment == commitment
    assert "seed_key" not in str(t.to_plain()) and (b"\x01" * 32).hex() not in str(t.to_plain())


def test_the_organisers_seed_is_the_key_and_makes_the_event_seeded() -> None:
    chosen = Tournament(id="ev", config=Config(name="Dup", format="duplicate", table_sizes=(4,), seed=42),
                        organiser_hash="o")
    assert chosen.config.seeded and not Config(name="x").seeded
    for i in range(4):
        chosen.register(f"p{i}", token_hash=f"h{i}")
    rnd = chosen.start_round()
    assert rnd.seed == EventSeeds("ev", HMAC_SCHEME, key=key_of_seed(42)).round(1)
    assert key_of_seed(42) == hashlib.sha256(b"oriente.event-seed.v1\x0042").digest()


def test_an_event_stored_without_a_scheme_keeps_the_old_seeds() -> None:
    t = duplicate(seed=7)
    plain = t.to_plain()
    del plain["config"]["seed_scheme"]
    old = Tournament.from_plain(plain)
    assert old.config.seed_scheme == LEGACY_SCHEME and old.config.seeded
    rnd = old.start_round()
    assert rnd.seed == derive_seed(7, 1)
    assert {x.board_seed for x in rnd.tables} == {derive_seed(7, 1, 4, 1)}
    assert all(x.board_commitment is None for x in rnd.tables)


def test_an_event_without_seed_or_key_seats_nothing_and_a_bad_scheme_is_refused() -> None:
    t = Tournament(id="ev", config=Config(name="x", table_sizes=(2,)), organiser_hash="o")
    t.register("a", token_hash="a")
    t.register("b", token_hash="b")
    with pytest.raises(TournamentError) as e:
        t.start_round()
    assert e.value.code == "tournament/no_key"
    with pytest.raises(TournamentError):
        Config(name="x", seed_scheme="mine").validate()
    with pytest.raises(TournamentError):
        Config(name="x", seed=True).validate()  # type: ignore[arg-type]
