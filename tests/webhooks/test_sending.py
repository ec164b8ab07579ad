"""One attempt against receivers that misbehave on the wire, each a raw socket on loopback."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest

from webhooks import sending

Answer = Callable[[socket.socket, threading.Event], None]


@pytest.fixture
def raw(settings) -> Iterator[Callable[[Answer], str]]:
    """A receiver that reads the request, then answers with ``answer(connection, stop)``;
    ``stop`` is set once the attempt is over, so that a trickle ends with the test."""
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    settings.WEBHOOKS_TIMEOUT_SECONDS = 1
    stop = threading.Event()
    servers: list[socket.socket] = []

    def start(answer: Answer) -> str:
        server = socket.create_server(("127.0.0.1", 0))
        servers.append(server)

        def serve() -> None:
            connection, _ = server.accept()
            with connection:
                # the whole request, so that closing never resets the connection
                request = b""
                while b"\r\n\r\n" not in request:
                    request += connection.recv(65536)
                head, _, body = request.partition(b"\r\n\r\n")
                length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
                while len(body) < length:
                    body += connection.recv(65536)
                answer(connection, stop)

        threading.Thread(target=serve, daemon=True).start()
        return f"http://127.0.0.1:{server.getsockname()[1]}/hooks"

    yield start
    stop.set()
    for server in servers:
        server.close()


def attempt(url: str) -> sending.Outcome:
    return sending.send(
        url=url,
        secrets=["whsec_" + "A" * 32],
        message_id="evt_1",
        payload={"type": "match.started"},
        at=datetime.now(UTC),
    )


def test_an_answer_trickled_a_byte_at_a_time_is_cut_off_by_the_timeout(raw):
    """Each byte comes well within the timeout, so no single wait trips it; the answer as a
    whole does, and the attempt is a timeout, not a success an hour later."""
    trickled = threading.Event()

    def trickle(connection: socket.socket, stop: threading.Event) -> None:
        with contextlib.suppress(OSError):
            connection.sendall(b"HTTP/1.1 200 OK\r\n")
            for _ in range(600):  # a byte every 0.1 s for a minute, unless stopped
                if stop.wait(0.1):
                    return
                connection.sendall(b"X")
            trickled.set()

    outcome = attempt(raw(trickle))
    assert outcome == sending.Outcome(None, error="timeout")
    assert not trickled.is_set()  # cut off, not waited out


@pytest.mark.parametrize(("length", "sent"), [(100, 3), (5000, 2500), (100_000, 99_999)])
def test_an_answer_closed_before_its_length_is_a_failed_attempt(raw, length, sent):
    """However long the answer, past the part kept as its excerpt too."""

    def short(connection: socket.socket, stop: threading.Event) -> None:
        head = f"HTTP/1.1 200 OK\r\nContent-Length: {length}\r\n\r\n".encode()
        connection.sendall(head + b"a" * sent)

    outcome = attempt(raw(short))
    assert outcome == sending.Outcome(None, error="connection_failed")


def test_a_long_answer_sent_whole_is_a_success_and_only_its_start_is_kept(raw):
    def whole(connection: socket.socket, stop: threading.Event) -> None:
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 50000\r\n\r\n" + b"b" * 50_000)

    outcome = attempt(raw(whole))
    assert outcome == sending.Outcome(200, "b" * sending.EXCERPT)


@pytest.mark.parametrize(
    "cut", [b"HTTP/1.1 200 OK\r\n", b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"]
)
def test_an_answer_closed_before_its_headers_end_is_a_failed_attempt(raw, cut):
    def answer(connection: socket.socket, stop: threading.Event) -> None:
        connection.sendall(cut)

    assert attempt(raw(answer)) == sending.Outcome(None, error="connection_failed")


def test_an_answer_without_length_read_to_its_close_is_a_success(raw):
    def until_close(connection: socket.socket, stop: threading.Event) -> None:
        connection.sendall(b"HTTP/1.0 202 Accepted\r\n\r\nqueued")

    assert attempt(raw(until_close)) == sending.Outcome(202, "queued")


def test_a_whole_answer_is_a_success_with_its_excerpt(raw):
    def whole(connection: socket.socket, stop: threading.Event) -> None:
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc")

    assert attempt(raw(whole)) == sending.Outcome(200, "abc")
