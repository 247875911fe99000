"""The garbage collector's schedule (server/collector.py): young freezes
come on a timer, a full collection waits until one is due and the process is
quiet, and comes anyway after `max_wait_s` when it never is. Time is trio's MockClock; what "due" means
and what "collect" does are the test's own, so nothing here depends on what
the interpreter happens to hold."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Iterator

import pytest
import trio
import trio.testing

from oriente.server.collector import NEVER, GcPolicy


@contextlib.contextmanager
def collections_started() -> Iterator[list[int]]:
    """The generation of every collection the interpreter starts meanwhile."""
    started: list[int] = []

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(on_gc)
    try:
        yield started
    finally:
        gc.callbacks.remove(on_gc)


class Fake:
    """A pending count the test sets, and the times `collect` was called."""

    def __init__(self) -> None:
        self.count = 0
        self.at: list[float] = []
        self.shallow_at: list[float] = []
        self.young_at: list[float] = []
        self.frozen_size = 100

    def pending(self) -> int:
        return self.count

    def collect(self) -> None:
        self.at.append(trio.current_time())
        self.count = 0

    def shallow(self) -> None:
        self.shallow_at.append(trio.current_time())
        self.count = 0

    def frozen(self) -> int:
        return self.frozen_size

    def young(self) -> None:
        self.young_at.append(trio.current_time())


def policy(fake: Fake, **kw: float) -> GcPolicy:
    return GcPolicy(due_after=5, check_s=1.0, quiet_s=0.001, max_wait_s=30.0,
                    pending=fake.pending, collect=fake.collect, collect_shallow=fake.shallow,
                    collect_young=fake.young, frozen=fake.frozen, **kw)  # type: ignore[arg-type]


@pytest.mark.trio
async def test_no_full_collection_before_it_is_due(autojump_clock: trio.testing.MockClock) -> None:
    fake = Fake()
    p = policy(fake)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(p.run)
        fake.count = 4
        await trio.sleep(100)
        assert fake.at == []
        fake.count = 5
        await trio.sleep(1.5)
        assert len(fake.at) == 1  # due, and the process idles: at the next check
        assert p.full == 1 and p.forced == 0
        nursery.cancel_scope.cancel()


def test_a_due_collection_waits_for_a_quiet_moment() -> None:
    clock = trio.testing.MockClock()  # no autojump: the busy task moves the clock itself
    fake = Fake()
    p = policy(fake)
    busy_until: list[float] = []

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(p.run)
            await trio.sleep(0)  # the policy starts: its first check at 1.0
            fake.count = 5
            clock.jump(1.0)  # the check is due
            await trio.sleep(0)
            # A table at play: always runnable, for 10 s of its clock.
            for _ in range(1000):
                clock.jump(0.01)
                await trio.lowlevel.checkpoint()
                assert fake.at == [], "collected while a task was runnable"
            busy_until.append(trio.current_time())
            await trio.testing.wait_all_tasks_blocked(0.05)  # idle: the policy collects
            nursery.cancel_scope.cancel()

    trio.run(main, clock=clock)
    assert len(fake.at) == 1 and fake.at[0] >= busy_until[0]
    assert fake.shallow_at == [], "a quiet moment gets the deep collection"
    assert p.forced == 0


def test_a_server_never_quiet_is_collected_after_max_wait() -> None:
    clock = trio.testing.MockClock()
    fake = Fake()
    p = policy(fake)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(p.run)
            await trio.sleep(0)  # the policy starts: its first check at 1.0
            fake.count = 5
            clock.jump(1.0)
            await trio.sleep(0)
            for _ in range(4000):  # 40 s of a task always runnable
                clock.jump(0.01)
                await trio.lowlevel.checkpoint()
            nursery.cancel_scope.cancel()

    trio.run(main, clock=clock)
    assert fake.at == [], "a server never quiet is not collected deeply while its heap stays the same size"
    assert len(fake.shallow_at) == 1
    # Due from its first or second check (1 or 2 s), then max_wait_s: not before.
    assert 31.0 <= fake.shallow_at[0] <= 33.0
    assert p.forced == 1 and p.forced_deep == 0


def never_quiet(fake: Fake, p: GcPolicy, seconds: float) -> None:
    """Run `p` for `seconds` of a clock on which some task is always runnable,
    with a full collection due throughout."""
    clock = trio.testing.MockClock()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(p.run)
            await trio.sleep(0)
            for _ in range(int(seconds * 100)):
                fake.count = 5
                clock.jump(0.01)
                await trio.lowlevel.checkpoint()
            nursery.cancel_scope.cancel()

    trio.run(main, clock=clock)


def test_a_server_never_quiet_is_collected_deeply_once_its_frozen_heap_grew_by_half() -> None:
    fake = Fake()
    p = policy(fake)
    p.frozen_after_deep = 100
    fake.frozen_size = 150  # grown by exactly half: not yet
    never_quiet(fake, p, 40)
    assert fake.at == [] and len(fake.shallow_at) == 1
    fake.frozen_size = 151
    never_quiet(fake, p, 40)
    assert len(fake.at) == 1, "grown by more than half: the forced collection is a deep one"
    assert p.forced_deep == 1 and p.frozen_after_deep == 151
    never_quiet(fake, p, 40)
    assert len(fake.at) == 1 and len(fake.shallow_at) == 2, "measured from the last deep collection again"


@pytest.mark.trio
async def test_young_freezes_come_every_young_s(autojump_clock: trio.testing.MockClock) -> None:
    fake = Fake()
    p = policy(fake, young_s=0.02)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(p.run)
        await trio.sleep(1.001)
        nursery.cancel_scope.cancel()
    assert len(fake.young_at) == 50
    gaps = [b - a for a, b in zip(fake.young_at, fake.young_at[1:], strict=False)]
    assert min(gaps) == pytest.approx(0.02) and max(gaps) == pytest.approx(0.02)
    assert fake.at == []  # nothing was due


def test_installed_thresholds_leave_generations_1_and_2_to_the_policy() -> None:
    """However many objects survive, the interpreter itself collects
    generation 0 only: a collection of generation 1 would walk ten young
    generations' survivors at once."""
    before = gc.get_threshold()
    try:
        GcPolicy().install()
        with collections_started() as seen:
            kept = [[i] for i in range(300_000)]  # 30 times the generation-0 threshold, all alive
        assert len(kept) == 300_000
        assert seen and set(seen) == {0}
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_install_freezes_start_up_and_leaves_the_old_generation_to_the_policy() -> None:
    before = gc.get_threshold()
    try:
        GcPolicy(young=1234, middle=7).install()
        assert gc.get_threshold() == (1234, 7, NEVER)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


class _Cycle:
    """A container in a reference cycle with itself."""

    def __init__(self) -> None:
        self.me = self


def test_what_a_full_collection_leaves_is_frozen_and_only_a_deep_one_walks_it() -> None:
    """The real interpreter: a cycle that turns to garbage after a shallow
    collection froze it waits for a deep one; a cycle made since the last
    collection is found by a shallow one; each leaves what survives frozen."""
    from oriente.server import collector

    before = gc.get_threshold()
    try:
        gc.disable()
        old = _Cycle()
        old_ref = weakref.ref(old)
        collector._collect_shallow()
        assert gc.is_tracked(old) and gc.get_freeze_count() > 0
        del old  # garbage now, but frozen
        young = _Cycle()
        young_ref = weakref.ref(young)
        del young
        collector._collect_shallow()
        assert young_ref() is None, "a shallow collection finds what was made since the last"
        assert old_ref() is not None, "nor walks what the last one froze"
        collector._collect_deep()
        assert old_ref() is None, "a deep collection walks the frozen heap too"
        assert gc.get_freeze_count() > 0, "and freezes what survives"
    finally:
        gc.unfreeze()
        gc.enable()
        gc.set_threshold(*before)


@pytest.mark.trio
async def test_a_full_collection_is_due_after_due_after_young_freezes(
        autojump_clock: trio.testing.MockClock) -> None:
    """Without a `pending` of the test's own, the policy counts its own young
    freezes since the last full collection (CPython's count of young
    collections no longer moves: nothing collects generation 0)."""
    fake = Fake()
    p = GcPolicy(due_after=110, young_s=0.02, check_s=1.0, quiet_s=0.001, max_wait_s=30.0,
                 collect=fake.collect, collect_shallow=fake.shallow, collect_young=fake.young,
                 frozen=fake.frozen)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(p.run)
        await trio.sleep(1.91)  # 95 young freezes, a check at 1 s: not due
        assert fake.at == [] and p.young_since_full == 95
        await trio.sleep(0.6)  # due at 2.2 s, after the check of 2 s
        assert fake.at == []
        await trio.sleep(0.6)  # the check of 3 s collects
        assert len(fake.at) == 1 and fake.at[0] == pytest.approx(3.0)
        assert p.young_since_full < 10, "the count starts again after a full collection"
        nursery.cancel_scope.cancel()


def test_a_young_freeze_walks_nothing_and_leaves_cycles_to_a_deep_collection() -> None:
    """The real interpreter: a young freeze starts no collection (no
    callback), empties generation 0 without walking it, and a cycle it froze
    is found by a deep collection only; what it froze and then lost its last
    reference is freed at once, as before."""
    from oriente.server import collector

    before = gc.get_threshold()
    try:
        gc.disable()
        cycle = _Cycle()
        cycle_ref = weakref.ref(cycle)
        plain = _Cycle()
        plain.me = None  # type: ignore[assignment]
        plain_ref = weakref.ref(plain)
        with collections_started() as started:
            collector._freeze_young()
        assert started == [], "a young freeze walks nothing"
        assert gc.get_count()[0] == 0 and not any(o is cycle for o in gc.get_objects(0))
        del plain
        assert plain_ref() is None, "reference counting frees a frozen object"
        del cycle
        collector._collect_shallow()
        assert cycle_ref() is not None, "a shallow collection does not walk what a young freeze froze"
        collector._collect_deep()
        assert cycle_ref() is None, "a deep collection does"
    finally:
        gc.unfreeze()
        gc.enable()
        gc.set_threshold(*before)
