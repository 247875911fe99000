"""Replays are built once per (table, viewer) and within budgets
(server/replay_cache.py, PROTOCOL.md 13).

Measured before: every GET of /data/replay/TABLE.json played the game
again with a view per step and gzipped it at level 9, in a thread of its
own, for anyone: eight clients fetching replays in a loop took a table
from 40 moves a second to 4 (bench/abuse.py measures it). The records here
are real games of the real rules; the budgets' clock is frozen, so what is
refused is what the counts say, never how fast this machine is."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
import trio

from oriente.games.kit.selfplay import play
from oriente.server.budget import AddressBudget
from oriente.server.games.oriente import OrientePort
from oriente.server.replay_cache import ReplayCache, Wait
from oriente.server.replays import replay_steps, viewer_of

pytestmark = pytest.mark.trio

PORT = OrientePort()


def played(seed: int, seats: int = 4) -> dict[str, Any]:
    """A finished game's record: the random bot at every seat until the end."""
    record = play(PORT, seats, seed, "random").record()
    return {**record, "table": f"t{seed}", "names": [f"p{i}" for i in range(seats)]}


RECORDS = {f"t{seed}": played(seed) for seed in (1, 2, 3)}


class Loads:
    def __init__(self) -> None:
        self.count = 0

    async def __call__(self, table_id: str) -> dict[str, Any] | None:
        self.count += 1
        await trio.sleep(0)
        return RECORDS.get(table_id)


def cache(**kw: Any) -> tuple[ReplayCache, AddressBudget, Loads]:
    budget = AddressBudget(clock=lambda: 0.0)
    loads = Loads()
    return ReplayCache({"oriente": PORT}, loads, budget, clock=lambda: 0.0, **kw), budget, loads


async def test_a_replay_is_built_once_per_table_and_viewer_and_is_the_replay() -> None:
    replays, _, loads = cache()
    first = await replays.get("t1", "2", "198.51.100.1", viewer_of)
    assert not isinstance(first, Wait) and first is not None
    expected = replay_steps(PORT, RECORDS["t1"], 2)
    assert json.loads(gzip.decompress(first.gzipped)) == json.loads(json.dumps(expected))
    for viewer in ("2", "02", "2"):
        assert await replays.get("t1", viewer, "198.51.100.2", viewer_of) is first
    assert (replays.builds, loads.count) == (1, 1), "served from memory: not built, not even read again"
    other = await replays.get("t1", "spectator", "198.51.100.1", viewer_of)
    assert other is not None and other is not first and replays.builds == 2


async def test_requests_for_a_replay_being_built_wait_for_that_build() -> None:
    replays, _, _ = cache()
    got: list[Any] = []
    async with trio.open_nursery() as nursery:
        for i in range(6):
            nursery.start_soon(lambda i=i: _into(got, replays.get("t2", "all", f"198.51.100.{i}", viewer_of)))
    assert len(got) == 6 and all(g is got[0] for g in got) and replays.builds == 1


async def _into(out: list[Any], awaitable: Any) -> None:
    out.append(await awaitable)


async def test_nothing_to_show_is_none_and_costs_no_build() -> None:
    replays, budget, _ = cache(build_cost=1000.0)
    for table, viewer in (("nope", "spectator"), ("t1", "4"), ("t1", "²"), ("t1", "9" * 5000), ("t1", "-1")):
        assert await replays.get(table, viewer, "198.51.100.1", viewer_of) is None
    assert replays.builds == 0 and len(budget) == 0


async def test_one_address_builds_a_few_then_waits_and_others_do_not_wait_for_it(autojump_clock) -> None:
    replays, budget, _ = cache()
    keys = [(t, v) for t in RECORDS for v in ("spectator", "all", "0", "1", "2", "3")]
    answers = [await replays.get(t, v, "198.51.100.1", viewer_of) for t, v in keys[:7]]
    burst = int(budget.burst // replays.build_cost)
    assert all(not isinstance(a, Wait) for a in answers[:burst])
    refused = answers[burst]
    assert isinstance(refused, Wait) and refused.status == 429 and refused.retry_after >= 1
    # What is built is served to it at once, and another address builds.
    assert not isinstance(await replays.get(*keys[0], "198.51.100.1", viewer_of), Wait)
    assert not isinstance(await replays.get(*keys[burst], "198.51.100.2", viewer_of), Wait)


async def test_builds_together_take_a_bounded_share_of_the_time(autojump_clock) -> None:
    replays, budget, _ = cache(burst_s=0.0)
    refused = await replays.get("t1", "spectator", "198.51.100.1", viewer_of)
    assert isinstance(refused, Wait) and refused.status == 503 and refused.retry_after >= 1
    assert len(budget) == 0, "a build refused for the site's sake is not charged to the address"


async def test_the_cache_is_bounded_by_entries_and_by_bytes() -> None:
    replays, _, _ = cache(max_entries=3)
    for viewer in ("0", "1", "2", "3"):
        await replays.get("t3", viewer, f"198.51.100.{viewer}", viewer_of)
    assert len(replays) == 3 and replays.builds == 4
    await replays.get("t3", "0", "198.51.100.9", viewer_of)
    assert replays.builds == 5, "the least recently used went first"
    one = await replays.get("t1", "all", "198.51.100.9", viewer_of)
    assert one is not None and not isinstance(one, Wait)
    small, _, _ = cache(max_bytes=len(one.gzipped) * 2)
    for viewer in ("all", "spectator", "0", "1"):
        await small.get("t1", viewer, f"198.51.100.{len(viewer)}", viewer_of)
    assert small.bytes <= len(one.gzipped) * 2 and len(small) < 4
