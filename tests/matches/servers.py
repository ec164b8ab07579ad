"""Real servers for the tests under load and faults: gunicorn with uvicorn workers, redis-server.

Each runs as in docs/deployment.md (DEBUG off, the project's gunicorn.conf.py), against the test
database, on a free loopback port, in a process group of its own that the test stops by pid.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from bench.tables import stop_group
from tests.matches.test_workers import ROOT, server_env
from tests.parallel import free_port

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
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "arlington_site.asgi:application",
            "-k",
            "uvicorn_worker.UvicornWorker",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{self.port}",
            "--graceful-timeout",
            "3",
        ]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=server_env(PGAPPNAME=APPLICATION_NAME, **environment),
            start_new_session=True,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        self.wait_until_up()

    def wait_until_up(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            assert self.process.poll() is None, self.log.read_text()
            with contextlib.suppress(OSError):
                if self.status("GET", "/healthz") in (200, 503):
                    return
            assert time.monotonic() < deadline, "gunicorn did not answer /healthz in time"
            time.sleep(0.2)

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
        stop_group(self.process)


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
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe,
            ):
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process)
            self.process = None


@contextlib.contextmanager
def app_server(workers: int, log: Path, **environment: str) -> Iterator[AppServer]:
    server = AppServer(workers, log, **environment)
    try:
        yield server
    finally:
        server.stop()
        terminate_other_connections()
