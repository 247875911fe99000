import pytest

from oriente.server.app import App


@pytest.fixture
async def server(tmp_path, nursery):
    """A real server on 127.0.0.1 (free port), real SQLite store, real clock."""
    app = App(str(tmp_path / "store.sqlite"), port=0)
    await nursery.start(app.run)
    yield app
    await app.aclose()
