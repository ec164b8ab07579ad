"""Real servers for the tests under load and faults: gunicorn with uvicorn workers, redis-server.

Each runs as in docs/deployment.md (DEBUG off, the project's gunicorn.conf.py), against the test
database, on a free loopback port, in a process group of its own that the test stops by pid.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests import harness
from tests.harness import free_port
from tests.matches.test_workers import server_env

APPLICATION_NAME = "arlington-test-server"  # libpq reads PGAPPNAME: the servers' connections


def connections_to_test_database() -> int:
    """How many connections the servers started here hold to the test database."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            [APPLICATION_NAME],
        )
        (count,) = cursor.fetchone()
    return int(count)


def terminate_other_connections() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


class AppServer:
    """gunicorn with uvicorn workers, serving the project's ASGI application."""

    def __init__(self, workers: int, log: Path, **environment: str) -> None:
        self.port = free_port()
        self.log = log
        command = harness.gunicorn(self.port, workers, "--graceful-timeout", "3")
        env = server_env(PGAPPNAME=APPLICATION_NAME, **environment)
        self.process = harness.start(command, env=env, log=log)
        self.wait_until_up()

    def wait_until_up(self) -> None:
        harness.wait_until(
            harness.answers_http(self.port, "/healthz", (200, 503)),
            what="gunicorn answering /healthz",
            processes=[self.process],
            log=self.log,
        )

    def workers(self) -> list[int]:
        """The pids of the worker processes gunicorn runs now."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()]

    def connect(self, timeout: float = 30) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def answer(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> tuple[int, bytes, http.client.HTTPResponse]:
        conn = self.connect(timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read(), response
        finally:
            conn.close()

    def status(self, method: str, path: str, **kwargs: object) -> int:
        return self.answer(method, path, **kwargs)[0]  # type: ignore[arg-type]

    def stop(self) -> None:
        harness.stop(self.process)


class RedisServer:
    """A redis-server of the test's own, on its own port, that the test may stop and restart."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            if os.environ.get("CI"):
                pytest.fail("this test needs redis-server (Debian's redis-server package)")
            pytest.skip("this test needs redis-server (Debian's redis-server package)")
        self.binary, self.folder, self.port = binary, folder, free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = harness.start(command, log=self.folder / "redis.log")
        harness.wait_until(
            harness.answers_redis(self.port),
            what="redis-server",
            processes=[self.process],
            log=self.folder / "redis.log",
        )

    def stop(self) -> None:
        if self.process is not None:
            harness.stop(self.process)
            self.process = None


@contextlib.contextmanager
def app_server(workers: int, log: Path, **environment: str) -> Iterator[AppServer]:
    server = AppServer(workers, log, **environment)
    try:
        yield server
    finally:
        server.stop()
        terminate_other_connections()
