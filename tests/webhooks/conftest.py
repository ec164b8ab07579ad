"""Alice owns the club, Carol keeps score, Victor watches; Bob owns another club. A receiver
listens on loopback, as a third-party app's server would.

The fixtures are the matches tests' own, so that ownership is proved the same way here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests import harness
from tests.factories import work
from tests.matches.conftest import *  # noqa: F403
from tests.matches.conftest import _empty_cache, _fast_passwords  # noqa: F401  (autouse)


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    path: str = ""


@dataclass
class Receiver:
    """An HTTP server on loopback that keeps every request and answers from a script."""

    url: str
    requests: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    """Statuses to answer, in turn; 204 once they run out."""
    answer_body: bytes = b"ok"
    delay: float = 0.0


def _serve(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            receiver.requests.append(Received(dict(self.headers.items()), body, self.path))
            time.sleep(receiver.delay)
            status = receiver.answers.pop(0) if receiver.answers else 204
            self.send_response(status)
            payload = b"" if status == 204 else receiver.answer_body
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def receiver(settings) -> Iterator[Receiver]:
    """A receiver on loopback; private targets allowed, as in development."""
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    found = Receiver(url="")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _serve(found))  # a port the system hands out
    found.url = f"http://127.0.0.1:{server.server_address[1]}/hooks?app=1"
    harness.serve_in_thread(server)
    yield found
    server.shutdown()
    server.server_close()


@pytest.fixture
def run_worker(monkeypatch):
    """``work`` inside the test's transaction: the worker's check for stale connections between
    tasks would close the one connection that holds it (a test that commits runs it as is)."""
    from django_tasks_db.management.commands import db_worker

    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
    return work
