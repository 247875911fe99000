"""The PostgreSQL the tests run against, and a fresh schema for each test.

``ORIENTE_TEST_POSTGRES`` names the database (a libpq URL; default: the
local server, database ``test``, as `.ci/run` sets it up). Each store under
test gets a schema of its own, named after this test session, and every
schema the session made is dropped at its end, so parallel runs and
leftovers never meet.

A test that needs PostgreSQL is skipped, with the reason, when it cannot be
reached, except under CI (the ``CI`` variable set), where it fails: CI must
never pass by skipping the store a site runs on.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Iterator

import pytest

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"


def postgres_url() -> str:
    return os.environ.get("ORIENTE_TEST_POSTGRES") or DEFAULT_URL


class Schemas:
    """Hands out fresh schema names on one database and drops them all at
    the end of the session."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = f"oriente_test_{os.getpid()}_{uuid.uuid4().hex[:6]}_"
        self._numbers = itertools.count()
        self.made: list[str] = []

    def fresh(self) -> str:
        name = f"{self.prefix}{next(self._numbers)}"
        self.made.append(name)
        return name

    def store_url(self, schema: str) -> str:
        """The URL that `oriente serve --store` takes for this schema."""
        return f"{self.url}{'&' if '?' in self.url else '?'}schema={schema}"

    def drop_all(self) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            for name in self.made:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def _unreachable(url: str) -> str | None:
    """Why PostgreSQL cannot serve the tests, or None if it can."""
    try:
        import psycopg
    except ImportError as exc:
        return f"psycopg is not installed ({exc}); pip install -e '.[test]'"
    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL at {url} is not reachable ({str(exc).strip()}); set ORIENTE_TEST_POSTGRES"
    return None


@pytest.fixture(scope="session")
def postgres_schemas() -> Iterator[Schemas]:
    """Fresh schemas on the test database; skips (fails under CI) without one."""
    url = postgres_url()
    reason = _unreachable(url)
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs PostgreSQL: {reason}")
        pytest.skip(reason)
    schemas = Schemas(url)
    yield schemas
    schemas.drop_all()
