"""`oriente drain` and `oriente backup` ask the server itself, on its admin
socket (server/admin.py): no signal to whatever process has an id, and only
the server's own user gets in."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from oriente.server.admin import AdminError, ask, serve_admin, socket_path


def _env(folder: Path) -> dict[str, str]:
    return {**os.environ, "ORIENTE_ADMIN_DIR": str(folder)}


def _drain(*words: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return _oriente("drain", *words, folder=folder)


def _oriente(*words: str, folder: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "oriente.cli", *words], env=_env(folder), cwd=cwd,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--quiet",
                             "--store", str(tmp_path / "s.sqlite")], env=_env(tmp_path / "admin"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("serving ws://"), line
        yield proc, int(line.split()[1].rsplit(":", 1)[1])
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_drain_asks_the_server_of_a_port_and_a_lone_server_says_no(server, tmp_path: Path) -> None:
    proc, port = server
    folder = tmp_path / "admin"
    path = socket_path_in(folder, port)
    assert path.is_socket() and oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    for word in (str(port), f"ws://127.0.0.1:{port}", f"127.0.0.1:{port}"):
        run = _drain(word, folder=folder)
        assert run.returncode == 1 and "not one of a site's processes" in run.stderr, run.stderr
    assert proc.poll() is None  # nothing to hand on: it serves on
    proc.terminate()
    proc.wait(timeout=30)
    assert not path.exists()  # the socket goes with its server


def test_drain_never_signals_a_process_by_its_id(tmp_path: Path) -> None:
    """`oriente drain PID` used to send SIGUSR1 to any process: it killed a sleep."""
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        run = _drain(str(sleeper.pid), folder=tmp_path)
        assert _refused_as_no_server(run, sleeper.pid), run.stderr
        assert sleeper.poll() is None
    finally:
        sleeper.kill()
        sleeper.wait()
    assert _drain("0", folder=tmp_path).returncode == 2
    assert "names no port" in _drain("ws://127.0.0.1", folder=tmp_path).stderr


def test_backup_asks_the_server_of_a_port_for_a_copy_of_its_store(server, tmp_path: Path) -> None:
    """From another folder, by port: the copy lands beside the store, and the
    command says where (the server's path, resolved)."""
    _, port = server
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = _oriente("backup", f"ws://127.0.0.1:{port}", folder=tmp_path / "admin", cwd=elsewhere)
    copy = tmp_path / "s.sqlite.backup"
    assert run.returncode == 0, run.stderr
    assert f"{copy.resolve()} ({copy.stat().st_size} bytes)" in run.stdout
    assert not list(elsewhere.iterdir())


def test_backup_never_signals_a_process_by_its_id(tmp_path: Path) -> None:
    """`oriente backup PID STORE` used to send SIGUSR2 to any process, which
    a `sleep` does not survive; the old form is refused in words."""
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        run = _oriente("backup", str(sleeper.pid), folder=tmp_path)
        assert _refused_as_no_server(run, sleeper.pid), run.stderr
        run = _oriente("backup", str(sleeper.pid), str(tmp_path / "s.sqlite"), folder=tmp_path)
        assert run.returncode == 2 and "give the server's port alone" in run.stderr
        assert sleeper.poll() is None
    finally:
        sleeper.kill()
        sleeper.wait()


def _refused_as_no_server(run: subprocess.CompletedProcess[str], pid: int) -> bool:
    """No server serves that number as a port (or, on a machine whose
    process ids go past 65535, it is no port at all)."""
    if pid > 65535:
        return run.returncode == 2 and "is not a port" in run.stderr
    return run.returncode == 1 and "no server of this user on this machine serves port" in run.stderr


def socket_path_in(folder: Path, port: int) -> Path:
    return folder / socket_path(port).name


@pytest.mark.trio
async def test_the_socket_answers_one_line_and_only_in_a_private_folder(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORIENTE_ADMIN_DIR", str(tmp_path / "a"))
    asked: list[str] = []

    async def handle(line: str) -> str:
        asked.append(line)
        return "ok drained 3"

    path = socket_path(4242)
    # A socket a dead server left behind is replaced.
    path.parent.mkdir(mode=0o700)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()
    async with trio.open_nursery() as nursery:
        await nursery.start(serve_admin, path, handle)
        assert await ask(4242, "drain") == "ok drained 3"
        nursery.cancel_scope.cancel()
    assert asked == ["drain"] and not path.exists()
    # A folder others may enter is refused, not used.
    os.chmod(path.parent, 0o755)
    with pytest.raises(AdminError, match="not this user's alone"):
        await serve_admin(path, handle)
    with pytest.raises(AdminError, match="serves port 4243"):
        await ask(4243, "drain")
