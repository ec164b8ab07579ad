"""The production server's access log names each request by its id (X-Request-ID).

gunicorn with uvicorn workers, as docs/deployment.md runs it, against the test database.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.matches.servers import app_server

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_request_has_an_access_line_with_its_id(tmp_path):
    call_command("createcachetable")
    log = tmp_path / "server.log"
    with app_server(1, log, CACHE_BACKEND="database", LOG_LEVEL="INFO") as server:
        status, _, answer = server.answer(
            "POST",
            "/api/v1/rulings/meld/",
            body=b'{"cards": ["JS", "QS", "KS"]}',
            headers={"Content-Type": "application/json", "X-Request-ID": "client-42"},
        )
        assert (status, answer.headers["X-Request-ID"]) == (200, "client-42")
        status, _, answer = server.answer("GET", "/api/v1/clubs/")
        made = answer.headers["X-Request-ID"]
        assert status == 401 and len(made) == 32
    lines = [line for line in log.read_text().splitlines() if "arlington.access" in line]
    assert any('[client-42]: "POST /api/v1/rulings/meld/" 200 ' in line for line in lines)
    assert any(f'[{made}]: "GET /api/v1/clubs/" 401 ' in line for line in lines)
