"""The heap's free pages go back to the system once a second
(server/heap.py): on the timer, with trio's MockClock; and glibc's
`malloc_trim` is really there to call."""

from __future__ import annotations

import platform

import pytest
import trio
import trio.testing

from oriente.server.heap import HeapTrimmer, malloc_trim


@pytest.mark.trio
async def test_the_heap_is_trimmed_every_every_s(autojump_clock: trio.testing.MockClock) -> None:
    at: list[float] = []
    trimmer = HeapTrimmer(every_s=1.0, trim=lambda: at.append(trio.current_time()))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(trimmer.run)
        await trio.sleep(5.5)
        nursery.cancel_scope.cancel()
    assert at == pytest.approx([1.0, 2.0, 3.0, 4.0, 5.0])
    assert trimmer.trims == 5
    assert "oriente_heap_trims_total 5" in trimmer.metrics()


@pytest.mark.trio
async def test_without_malloc_trim_nothing_runs(autojump_clock: trio.testing.MockClock) -> None:
    trimmer = HeapTrimmer(trim=None)
    with trio.move_on_after(10):
        await trimmer.run()  # returns at once, not after the 10 s
    assert trio.current_time() == 0 and trimmer.trims == 0


def test_glibc_s_malloc_trim_is_found_and_runs() -> None:
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("malloc_trim is glibc's")
    trim = malloc_trim()
    assert trim is not None
    assert trim() in (0, 1)  # 1: memory was given back, 0: there was none to give
