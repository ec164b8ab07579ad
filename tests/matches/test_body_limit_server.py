"""The body size limit under the production server (gunicorn with uvicorn workers): a body is
refused as soon as its declared size, or what has arrived of it, passes the limit, without
waiting for the rest."""

from __future__ import annotations

import json
import socket

import pytest
from django.core.management import call_command

from tests.matches.servers import app_server

pytestmark = pytest.mark.django_db(transaction=True)

HEAD = (
    "POST /api/v1/rulings/meld/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
)


def answer_of(client: socket.socket) -> tuple[int, dict]:
    """The status and JSON body of the answer, read before the request's body is complete."""
    data = b""
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < length_of(data):
        chunk = client.recv(65536)
        if not chunk:
            break
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    return int(head.split()[1]), json.loads(body[: length_of(data)])


def length_of(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 1 << 30


@pytest.fixture
def server(tmp_path):
    call_command("createcachetable")
    with app_server(1, tmp_path / "server.log", CACHE_BACKEND="database") as running:
        yield running


def test_a_declared_size_over_the_limit_is_refused_before_the_body(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as client:
        client.sendall(f"{HEAD}Content-Length: 300000000\r\n\r\n".encode() + b'{"cards": ')
        status, body = answer_of(client)
    assert status == 413
    assert body["errors"][0]["code"] == "request_too_large"


def test_a_streamed_body_is_refused_once_it_passes_the_limit(server):
    piece = b" " * 16384
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as client:
        client.sendall(f"{HEAD}Transfer-Encoding: chunked\r\n\r\n".encode())
        for _ in range(5):  # 80 KB of a body that never ends, over the 64 KB limit
            client.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        status, body = answer_of(client)
    assert status == 413
    assert body["errors"][0]["code"] == "request_too_large"
    ordinary = server.answer(
        "POST",
        "/api/v1/rulings/meld/",
        body=b'{"cards": ["JS", "QS", "KS"]}',
        headers={"Content-Type": "application/json"},
    )
    assert ordinary[0] == 200
