"""Servers and workers in processes of their own, for the tests and the benchmarks alike.

``start`` runs a command in a session (process group) of its own, its output to a log file;
``wait_until`` waits for a condition (a port that answers, a health check that passes) and
stops waiting as soon as the process has exited; ``stop`` ends the whole group, SIGKILL after a
grace period; ``serving`` does all three around a block::

    with serving(command, ready=answers_http(port), log=folder / "server.log") as server:
        ...
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import socketserver
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class NotReady(RuntimeError):
    """A process exited, or a condition did not hold in time; the message says which."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def gunicorn(
    port: int, workers: int, *options: str, asgi: bool = True, python: str = sys.executable
) -> list[str]:
    """The command that serves the project with gunicorn on ``port`` of 127.0.0.1: the ASGI
    application with uvicorn workers (as docs/deployment.md runs it), or the WSGI one with
    gunicorn's own sync workers."""
    command = [python, "-m", "gunicorn"]
    if asgi:
        command += ["arlington_site.asgi:application", "-k", "uvicorn_worker.UvicornWorker"]
    else:
        command += ["arlington_site.wsgi:application"]
    return [*command, "--workers", str(workers), "--bind", f"127.0.0.1:{port}", *options]


def start(
    command: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path = ROOT,
    log: Path | None = None,
) -> subprocess.Popen[bytes]:
    """``command`` in a session of its own (``stop`` ends it with its children); its output
    appended to ``log``, or where ours goes (pytest captures it)."""
    out = log.open("ab") if log is not None else None
    try:
        return subprocess.Popen(
            list(command),
            cwd=cwd,
            env=dict(env) if env is not None else None,
            start_new_session=True,
            stdout=out,
            stderr=subprocess.STDOUT if out is not None else None,
        )
    finally:
        if out is not None:
            out.close()


def wait_until(
    condition: Callable[[], bool],
    *,
    what: str,
    seconds: float = 60,
    processes: Sequence[subprocess.Popen[bytes]] = (),
    log: Path | None = None,
) -> None:
    """Return once ``condition()`` holds. Raise :class:`NotReady` when one of ``processes``
    has exited first (with the end of ``log``), or after ``seconds``: a deadline for a process
    that hangs, far beyond what a busy machine needs. Between tries it waits a little longer
    each time, from 10 ms up to 200 ms."""
    deadline = time.monotonic() + seconds
    pause = 0.01
    while not condition():
        for process in processes:
            if process.poll() is not None:
                raise NotReady(f"{what}: the process exited with {process.returncode}{tail(log)}")
        if time.monotonic() > deadline:
            raise NotReady(f"{what}: not after {seconds:g} s{tail(log)}")
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def tail(log: Path | None, lines: int = 20) -> str:
    if log is None or not log.exists():
        return ""
    return "\n" + "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, grace: float = 20) -> None:
    """Stop a process started by :func:`start`, and its children: ``sig``, then SIGKILL after
    ``grace`` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextlib.contextmanager
def serving(
    command: Sequence[str],
    *,
    ready: Callable[[], bool],
    what: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path = ROOT,
    log: Path | None = None,
    seconds: float = 60,
) -> Iterator[subprocess.Popen[bytes]]:
    """The process of ``command``, once ``ready()`` holds; stopped after the block."""
    process = start(command, env=env, cwd=cwd, log=log)
    try:
        wait_until(
            ready, what=what or f"{command[0]} ready", seconds=seconds, processes=[process], log=log
        )
        yield process
    finally:
        stop(process)


def serve_in_thread(server: socketserver.BaseServer) -> threading.Thread:
    """``server`` answering on a thread of its own until ``server.shutdown()``, which then
    returns within 50 ms (the standard library looks for it every half second)."""
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    return thread


# --- conditions ----------------------------------------------------------------------------


def accepts(port: int) -> Callable[[], bool]:
    """Something accepts connections on ``port`` of 127.0.0.1."""

    def condition() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    return condition


def answers_http(
    port: int, path: str = "/healthz", statuses: Sequence[int] = (200,)
) -> Callable[[], bool]:
    """A GET of ``path`` on ``port`` gets one of ``statuses``."""

    def condition() -> bool:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", path)
            return conn.getresponse().status in statuses
        except (OSError, http.client.HTTPException):
            return False
        finally:
            conn.close()

    return condition


def answers_redis(port: int) -> Callable[[], bool]:
    """A redis-server on ``port`` answers PING."""

    def condition() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                return probe.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    return condition
