"""Starting, waiting for and stopping servers and workers (tests/harness.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests import harness


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (a zombie has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_server_is_used_once_it_answers_and_is_gone_after_the_block(tmp_path):
    port = harness.free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    ready = harness.answers_http(port, "/", (200,))

    with harness.serving(command, ready=ready, cwd=tmp_path, log=tmp_path / "log") as server:
        assert ready()
    assert server.returncode is not None
    assert not harness.accepts(port)()


def test_waiting_stops_when_the_process_exits_and_shows_its_last_words(tmp_path):
    log = tmp_path / "log"
    process = harness.start([sys.executable, "-c", "print('no config'); exit(3)"], log=log)

    with pytest.raises(harness.NotReady, match=r"(?s)exited with 3.*no config"):
        harness.wait_until(lambda: False, what="the server", processes=[process], log=log)


def test_stopping_ends_the_children_too(tmp_path):
    log = tmp_path / "log"
    child = "import subprocess, sys, time; "
    child += "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
    child += "print(c.pid, flush=True); time.sleep(600)"
    parent = harness.start([sys.executable, "-c", child], log=log)
    harness.wait_until(lambda: log.read_text().strip() != "", what="the child's pid")
    pid = int(log.read_text())
    assert running(pid)

    harness.stop(parent)

    harness.wait_until(lambda: not running(pid), what="the child gone", seconds=10)


def test_a_worker_left_without_a_redis_database_stops_rather_than_wrap(monkeypatch):
    """With TEST_REDIS_URL at database 1, the third worker would need -1: counting round to
    15 would flush a database the run was not given."""
    from tests import parallel

    monkeypatch.setenv("TEST_REDIS_URL", "redis://127.0.0.1:6379/1")
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    assert parallel.redis_url() == "redis://127.0.0.1:6379/0"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw2")
    with pytest.raises(parallel.TooFewRedisDatabases, match="worker gw2 would need database -1"):
        parallel.redis_url()
