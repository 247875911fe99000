"""The shared pure module every game's rules use (server/gamekit): the
generator gives the published PCG32 sequence, and a game's streams depend
on its list of names only by position, so appending a stream changes none
of the existing ones (what keeps golden replays valid)."""

from __future__ import annotations

from oriente.server import gamekit
from oriente.server.gamekit import Pcg32, derive_streams
from oriente.server.oro import rng as oro_rng
from oriente.server.rules import rng as oriente_rng
from oriente.server.samurai import streams as samurai_streams


def test_pcg32_gives_the_reference_implementation_s_sequence() -> None:
    """pcg32-demo (O'Neill's minimal C library), seed 42, stream 54."""
    rng = Pcg32.seeded(42, 54)
    assert [rng.next_u32() for _ in range(6)] == [
        0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_streams_are_fixed_by_position_so_appending_changes_none() -> None:
    short = derive_streams(7, ("a", "b"))
    longer = derive_streams(7, ("a", "b", "c"))
    assert [s.snapshot() for s in short.values()] == [longer[k].snapshot() for k in ("a", "b")]
    renamed = derive_streams(7, ("x", "y"))
    assert [s.snapshot() for s in renamed.values()] == [s.snapshot() for s in short.values()]
    assert len({s.snapshot() for s in longer.values()}) == 3


def test_every_game_derives_its_streams_through_the_shared_generator() -> None:
    for module, names in ((oriente_rng, oriente_rng.STREAMS), (oro_rng, oro_rng.STREAMS),
                          (samurai_streams, samurai_streams.STREAMS)):
        own = module.derive_streams(2**64 + 5)  # the seed is taken modulo 2**64
        shared = gamekit.derive_streams(5, names)
        assert {k: v.snapshot() for k, v in own.items()} == {k: v.snapshot() for k, v in shared.items()}


def test_a_rejection_is_one_type_for_every_game() -> None:
    from oriente.server import oro, rules, samurai
    assert rules.Rejected is oro.Rejected is samurai.Rejected is gamekit.Rejected
    assert rules.TABLE == oro.TABLE == samurai.TABLE == gamekit.TABLE == -1
