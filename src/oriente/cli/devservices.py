"""`oriente dev-services`: a throwaway PostgreSQL and Redis for trying a site.

A site of many processes (`oriente serve --cluster`) needs a PostgreSQL
store and a Redis bus. This starts both from the machine's own binaries
(``initdb``/``postgres`` and ``redis-server``, found on PATH or where
Debian puts PostgreSQL, /usr/lib/postgresql/N/bin), in a fresh folder, on
free ports of 127.0.0.1, prints their URLs, and runs until Ctrl-C, when it
stops both and removes the folder. No root, no system service, no
password: the database trusts local connections, and nothing listens
beyond loopback.

Run as root it still works: ``initdb`` refuses root, so PostgreSQL runs as
an unprivileged user (``postgres`` where it exists, else ``nobody``), which
owns its data folder.
"""
from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: How long each service may take to answer after it was started.
START_TIMEOUT_S = 60.0


class ServiceError(Exception):
    """A service could not be started; the message says why and what to do."""


@dataclass(frozen=True)
class Binaries:
    initdb: str
    postgres: str
    redis: str


def _postgres_bin(name: str) -> str | None:
    """`name` on PATH, else in the newest /usr/lib/postgresql/N/bin (Debian's place)."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return versions[-1] if versions else None


def find_binaries() -> Binaries:
    """The programs this needs, or ServiceError naming what to install."""
    initdb, postgres, redis = _postgres_bin("initdb"), _postgres_bin("postgres"), shutil.which("redis-server")
    missing = [what for what, path in (("PostgreSQL (initdb, postgres)", initdb and postgres),
                                       ("Redis (redis-server)", redis)) if not path]
    if missing:
        raise ServiceError(f"not found: {' and '.join(missing)}; install them (Debian: apt-get install "
                           "postgresql redis-server) or put them on PATH")
    assert initdb and postgres and redis
    return Binaries(initdb, postgres, redis)


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def unprivileged_user() -> pwd.struct_passwd | None:
    """Who runs PostgreSQL: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise ServiceError("running as root, and there is no 'postgres' or 'nobody' user to run PostgreSQL as "
                       "(initdb refuses root)")


def _answers_postgres(port: int) -> bool:
    """PostgreSQL answers a startup message (an SSL request: it says S or N)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall((8).to_bytes(4, "big") + (80877103).to_bytes(4, "big"))
            return conn.recv(1) in (b"S", b"N")
    except OSError:
        return False


def _answers_redis(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _wait(what: str, check: object, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServiceError(f"{what} stopped at once; its log {log} says:\n{_tail(log)}")
        if callable(check) and check():
            return
        time.sleep(0.1)
    raise ServiceError(f"{what} did not answer within {START_TIMEOUT_S:g} s; see {log}")


def _tail(log: Path, lines: int = 15) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@dataclass
class Services:
    folder: Path
    postgres_url: str
    redis_url: str
    procs: list[subprocess.Popen[bytes]]

    def stop(self) -> None:
        """Stop both (PostgreSQL with a fast shutdown), then wait for them."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown; Redis stops too
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextlib.contextmanager
def running(folder: Path | None = None) -> Iterator[Services]:
    """Start both in `folder` (default: a new temporary one, removed at the end)."""
    binaries = find_binaries()
    user = unprivileged_user()
    made = folder is None
    base = Path(tempfile.mkdtemp(prefix="oriente-services-")) if folder is None else folder
    if folder is not None and folder.exists() and any(folder.iterdir()):
        raise ServiceError(f"{folder} is not empty: give a new or empty folder (or none, for a temporary one)")
    base.mkdir(parents=True, exist_ok=True)
    procs: list[subprocess.Popen[bytes]] = []
    services = None
    try:
        data, sockets = base / "postgres", base / "sockets"
        data.mkdir()
        sockets.mkdir()
        as_user: dict[str, object] = {}
        if user is not None:
            # The unprivileged user must reach and own what PostgreSQL writes.
            os.chmod(base, 0o755)
            for path in (data, sockets):
                os.chown(path, user.pw_uid, user.pw_gid)
            as_user = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": [],
                       "env": {**os.environ, "HOME": str(data)}}
        pg_log, redis_log = base / "postgres.log", base / "redis.log"
        init = subprocess.run([binaries.initdb, "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                               "--locale=C", "--no-sync"], capture_output=True, text=True, cwd=base,
                              **as_user)  # type: ignore[call-overload]
        if init.returncode != 0:
            raise ServiceError(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        pg_port, redis_port = free_port(), free_port()
        with pg_log.open("wb") as out:
            procs.append(subprocess.Popen(  # type: ignore[call-overload]
                [binaries.postgres, "-D", str(data), "-p", str(pg_port), "-k", str(sockets),
                 "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=base,
                start_new_session=True, **as_user))
        _wait("PostgreSQL", lambda: _answers_postgres(pg_port), procs[-1], pg_log)
        with redis_log.open("wb") as out:
            procs.append(subprocess.Popen(
                [binaries.redis, "--bind", "127.0.0.1", "--port", str(redis_port), "--save", "",
                 "--appendonly", "no", "--dir", str(base)],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=base,
                start_new_session=True))
        _wait("Redis", lambda: _answers_redis(redis_port), procs[-1], redis_log)
        services = Services(base, f"postgresql://postgres@127.0.0.1:{pg_port}/postgres",
                            f"redis://127.0.0.1:{redis_port}/0", procs)
        yield services
    finally:
        Services(base, "", "", procs).stop()
        if made:
            shutil.rmtree(base, ignore_errors=True)


def main(folder: str | None = None) -> int:
    """Start both, print their URLs and how to use them, run until Ctrl-C or SIGTERM."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # SIGTERM stops both services as Ctrl-C does

    signal.signal(signal.SIGTERM, interrupt)
    try:
        with running(Path(folder) if folder else None) as services:
            print(f"postgres: {services.postgres_url}", flush=True)
            print(f"redis:    {services.redis_url}", flush=True)
            print(f"folder:   {services.folder} (removed when this stops)" if folder is None
                  else f"folder:   {services.folder} (kept)", flush=True)
            print("\nA site of two processes on them (needs pip install -e '.[cluster]'):\n"
                  f"  oriente serve --port 8765 --store {services.postgres_url} --cluster {services.redis_url}\n"
                  f"  oriente serve --port 8766 --store {services.postgres_url} --cluster {services.redis_url}\n"
                  "Ctrl-C here stops both services.", flush=True)
            while all(p.poll() is None for p in services.procs):
                time.sleep(0.5)
            print("oriente dev-services: a service stopped by itself; stopping", file=sys.stderr)
            return 1
    except ServiceError as exc:
        print(f"oriente dev-services: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
