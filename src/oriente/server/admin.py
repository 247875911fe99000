"""The admin socket: a running server's own door for `oriente drain` and
`oriente backup`.

`oriente drain PID` used to send SIGUSR1 to whatever process had that id (it
killed a `sleep`; the docs fed it `pgrep -f`, which matches more than the
server). Now each `oriente serve` listens on a Unix socket of its own,
named by the port it serves, in a folder only its user may enter
(``$XDG_RUNTIME_DIR/oriente`` or ``/tmp/oriente-UID``, mode 0700; the
socket 0600): whoever can connect is the server's own user, and only an
Oriente server answers there. The exchange is one line each way:

    drain\\n      ->   ok drained N\\n   (the server then stops)
                  or   no REASON\\n      (nothing changed)
    backup\\n     ->   ok BYTES PATH\\n  (a consistent copy of its SQLite store)
                  or   no REASON\\n

`oriente drain PORT` and `oriente backup PORT` send them (cli/main.py);
`oriente backup PID` used to signal a process id too. The folder can be
named with ORIENTE_ADMIN_DIR (tests, or several users' servers on one
machine).
"""
from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

log = logging.getLogger("oriente.server.admin")

#: The longest request line read.
MAX_LINE = 64
#: How long a connected client may take to send its line.
READ_TIMEOUT_S = 5.0


class AdminError(Exception):
    """The admin socket cannot be used (its folder is not private, nobody listens)."""


def admin_dir() -> Path:
    """The folder of this user's admin sockets."""
    named = os.environ.get("ORIENTE_ADMIN_DIR")
    if named:
        return Path(named)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_dir():
        return Path(runtime) / "oriente"
    return Path(tempfile.gettempdir()) / f"oriente-{os.getuid()}"


def socket_path(port: int) -> Path:
    """Where the server of `port` on this machine listens for admin requests."""
    return admin_dir() / f"serve-{port}.sock"


def _private_dir(folder: Path) -> None:
    """Make `folder` (0700) or check that it is ours and nobody else's."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except OSError as exc:
        raise AdminError(f"cannot make the admin folder {folder}: {exc.strerror}") from None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise AdminError(f"the admin folder {folder} is not this user's alone (mode 0700); remove it or set "
                         "ORIENTE_ADMIN_DIR")


Handler = Callable[[str], Awaitable[str]]


async def serve_admin(path: Path, handle: Handler, *,
                      task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """Listen on `path` until cancelled; answer each request line with
    `handle(line)`'s answer. The socket file is removed at the end."""
    _private_dir(path.parent)
    sock = trio.socket.socket(trio.socket.AF_UNIX, trio.socket.SOCK_STREAM)
    try:
        # A socket left by a server that died: nobody answers there any more.
        if path.exists() and not await _answers(path):
            path.unlink()
        try:
            await sock.bind(str(path))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise AdminError(f"another server answers at {path}") from None
            raise AdminError(f"cannot listen at {path}: {exc.strerror}") from None
        os.chmod(path, 0o600)
        sock.listen(4)
        listener = trio.SocketListener(sock)
        task_status.started()
        try:
            async with trio.open_nursery() as nursery:
                while True:
                    stream = await listener.accept()
                    nursery.start_soon(_one, stream, handle)
        finally:
            with trio.CancelScope(shield=True):
                await listener.aclose()
            path.unlink(missing_ok=True)
    finally:
        sock.close()


async def _answers(path: Path) -> bool:
    try:
        stream = await trio.open_unix_socket(str(path))
    except OSError:
        return False
    await stream.aclose()
    return True


async def _one(stream: trio.SocketStream, handle: Handler) -> None:
    async with stream:
        line = b""
        with trio.move_on_after(READ_TIMEOUT_S):
            while b"\n" not in line and len(line) <= MAX_LINE:
                chunk = await stream.receive_some(MAX_LINE)
                if not chunk:
                    break
                line += chunk
        request = line.split(b"\n", 1)[0].decode("ascii", "replace").strip()
        try:
            answer = await handle(request)
        except Exception as exc:  # said to the asker, logged here; the server goes on
            log.exception("admin request %r failed", request)
            answer = f"no {exc}"
        # Said even while the server shuts down (a drain ends in a stop).
        with trio.CancelScope(shield=True), trio.move_on_after(READ_TIMEOUT_S), \
                contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await stream.send_all(answer.encode() + b"\n")


async def ask(port: int, request: str) -> str:
    """Send one request to the server of `port` on this machine; its answer."""
    path = socket_path(port)
    try:
        stream = await trio.open_unix_socket(str(path))
    except FileNotFoundError:
        raise AdminError(f"no server of this user on this machine serves port {port} ({path} is not there)") \
            from None
    except OSError as exc:
        raise AdminError(f"cannot reach the server of port {port} at {path}: {exc.strerror}") from None
    async with stream:
        await stream.send_all(request.encode() + b"\n")
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = await stream.receive_some(4096)
            if not chunk:
                break
            answer += chunk
    return answer.decode("utf-8", "replace").strip()
