"""Fixtures for the browser tests: a real server (its own trio loop in a
thread, the real store, the shipped web client) and Debian's Chromium
driven by Playwright.

Without Chromium the tests skip with the reason, except in CI (`CI` set),
where they fail: `.ci/run` installs it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
from collections.abc import Awaitable, Callable, Generator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import trio

from oriente.clients.web import mounts
from oriente.server.app import App

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


class ServerThread:
    """An `App` with the web client on 127.0.0.1 in a thread of its own;
    `spawn` starts a coroutine in its loop (scripted bots), `call` runs one
    to completion and returns its result."""

    def __init__(self, store: str, bot_delay: float = 0.0, games: Mapping[str, Any] | None = None) -> None:
        extra: dict[str, Any] = {"games": games} if games else {}
        self.app = App(store, port=0, web=mounts(), bot_delay=bot_delay, **extra)
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._token: Any = None
        self._nursery: trio.Nursery | None = None
        self._thread = threading.Thread(target=self._main, daemon=True)

    @property
    def port(self) -> int:
        assert self.app.port is not None
        return self.app.port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> ServerThread:
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        return self

    def _main(self) -> None:
        async def run() -> None:
            self._token = trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                await nursery.start(self.app.run)
                self._ready.set()
                await self.app.stopped.wait()
                nursery.cancel_scope.cancel()
        try:
            trio.run(run)
        except BaseException as exc:  # reported to the test thread
            self._error = exc
            self._ready.set()

    def spawn(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        assert self._nursery is not None
        trio.from_thread.run_sync(self._nursery.start_soon, fn, *args, trio_token=self._token)

    def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        return trio.from_thread.run(fn, *args, trio_token=self._token)

    def stop(self) -> None:
        if self._token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(self.app.stop, trio_token=self._token)
        self._thread.join(15)


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerThread(str(Path(tmp) / "store.sqlite")).start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("Chromium is not installed (apt-get install chromium); the browser tests need it")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("Playwright for Python is not installed (pip install -e '.[test]')")
    # `expect` waits 5 s by default, whatever the page's own timeout: a guard
    # against a hang that a loaded two-core machine can outlast while right.
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def set_pace(page: Any, ms: int) -> None:
    """The gap between two drawn steps in this browser (pace.js), from the
    next page load on: 0 draws every step at once."""
    page.context.add_init_script(f"localStorage.setItem('oriente.pace', '{ms}');")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """Keep each phase's report on the test, so that `page` knows at its
    teardown whether the test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A fresh profile (no stored names or tokens) at a desktop size. When
    the test fails, the page as it was is saved (a screenshot and its text)
    and the failure's report says where."""
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    # A table is drawn at a person's pace by default (pace.js: a step every
    # 0.8 s). Tests that are not about pace see every step at once, as a
    # demo that is not about pace runs with --delay 0; a test about pace
    # sets its own gap (`set_pace`).
    context.add_init_script("if (localStorage.getItem('oriente.pace') === null) "
                            "localStorage.setItem('oriente.pace', '0');")
    pg = context.new_page()
    pg.errors = []
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))
    pg.set_default_timeout(15_000)
    try:
        yield pg
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            try:
                pg.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
                (tmp_path / "failure.txt").write_text(pg.locator("body").inner_text(timeout=2_000), encoding="utf-8")
                report.sections.append(("page at the failure", f"saved in {tmp_path}: failure.png, failure.txt"))
            except Exception as exc:  # the page may be gone: the failure itself is what counts
                report.sections.append(("page at the failure", f"not saved: {exc}"))
        context.close()
