"""`oriente dev-services` (cli/devservices.py): a throwaway PostgreSQL and Redis
on free ports, without root and also as root, that a site of processes runs on;
stopped and removed by Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from oriente.cli.devservices import ServiceError, find_binaries

from .interrupt import default_sigint


def _binaries_or_skip() -> None:
    try:
        find_binaries()
    except ServiceError as exc:
        # .ci/run installs PostgreSQL and Redis (.ci/postgres, .ci/redis): under CI they must be there.
        if os.environ.get("CI"):
            pytest.fail(f"CI installs PostgreSQL and Redis, yet: {exc}")
        pytest.skip(str(exc))


def test_dev_services_start_serve_a_site_and_go_away(tmp_path: Path) -> None:
    _binaries_or_skip()
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "dev-services"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL, preexec_fn=default_sigint)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        said = {}
        for line in proc.stdout:
            key, _, value = line.partition(":")
            said[key] = value.split()[0] if value.strip() else ""
            if key == "folder":
                break
        assert said.get("postgres", "").startswith("postgresql://postgres@127.0.0.1:"), said or proc.stderr.read()
        assert said["redis"].startswith("redis://127.0.0.1:")
        folder = Path(said["folder"])
        assert folder.is_dir()
        # A process of a site runs on them as printed.
        serve = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--quiet",
                                  "--store", said["postgres"], "--cluster", said["redis"]],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
        try:
            assert serve.stdout is not None and serve.stderr is not None
            line = serve.stdout.readline()
            assert line.startswith("serving ws://127.0.0.1:"), line + (serve.stderr.read() if serve.poll() else "")
        finally:
            serve.terminate()
            serve.wait(timeout=60)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert not folder.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_folder_in_use_is_refused_in_one_line(tmp_path: Path) -> None:
    _binaries_or_skip()
    (tmp_path / "something").write_text("x")
    run = subprocess.run([sys.executable, "-m", "oriente.cli", "dev-services", "--dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 1 and "is not empty" in run.stderr and "Traceback" not in run.stderr
