"""No log line keeps an invitation's code, a public link's token or a stream's ticket whole:
whoever reads the log could otherwise join the club, open the link or watch the stream."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from arlington_site.middleware import SecretsLogFilter, loggable_path

pytestmark = pytest.mark.django_db

CODE = "Zq8vKf3LmN0pRsTuVwXy12"
TOKEN = "pUbLiC-tOkEn_0123456789"
TICKET = "eyJtYXRjaCI6M30:1tX:signature"


@pytest.mark.parametrize(
    "path",
    [
        f"/api/v1/invitations/{CODE}/",
        f"/api/v1/invitations/{CODE}/signup/",
        f"/join/{CODE}/",
        f"/r/{TOKEN}/",
        f"/api/v1/matches/3/live/stream/?ticket={TICKET}&lang=fr",
        f"/api/v1/matches/3/live/stream/?ti%63ket={TICKET}&lang=fr",  # the name written encoded
        f"/r/{TOKEN}",  # answered before any URL matched: a redirect to the final slash
        f"/join/{CODE}",
    ],
)
def test_the_access_line_shows_a_secrets_first_characters_only(client, caplog, path):
    caplog.set_level(logging.INFO, logger="arlington.access")
    client.get(path)
    (line,) = [r.getMessage() for r in caplog.records if r.name == "arlington.access"]
    for secret in (CODE, TOKEN, TICKET):
        assert secret not in line
    assert any(f"{secret[:4]}…" in line for secret in (CODE, TOKEN, TICKET)), line
    assert "lang=fr" in line or "?" not in path  # the rest of the query stays


def test_an_ordinary_path_is_logged_as_it_came(client, caplog):
    caplog.set_level(logging.INFO, logger="arlington.access")
    client.get("/api/v1/clubs/7/standings/?ordering=-points")
    (line,) = [r.getMessage() for r in caplog.records if r.name == "arlington.access"]
    assert '"GET /api/v1/clubs/7/standings/?ordering=-points" 401' in line


def test_the_development_servers_request_line_keeps_no_secret():
    """``make run``'s server writes its own line per request (logger ``django.server``)."""
    record = logging.LogRecord(
        "django.server",
        logging.INFO,
        __file__,
        1,
        '"%s" %s %s',
        (f"POST /api/v1/invitations/{CODE}/signup/ HTTP/1.1", "201", "512"),
        None,
    )
    assert SecretsLogFilter().filter(record)
    assert record.getMessage() == '"POST /api/v1/invitations/Zq8v…/signup/ HTTP/1.1" 201 512'


def test_a_path_that_matches_no_url_is_kept():
    assert loggable_path(f"/nowhere/{CODE}/") == f"/nowhere/{CODE}/"


def test_djangos_warning_of_a_refused_request_keeps_no_secret(client, caplog):
    """A code that no longer works is answered 404 or 410, and Django writes a warning naming
    the path (logger ``django.request``); the console's filter cuts the code there too."""
    caplog.set_level(logging.WARNING, logger="django.request")
    client.get(f"/api/v1/invitations/{CODE}/")
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert SecretsLogFilter().filter(record)
    assert record.getMessage() == "Not Found: /api/v1/invitations/Zq8v…/"


def test_a_secret_is_cut_in_its_own_segment_only():
    assert loggable_path("/api/v1/invitations/v1/") == "/api/v1/invitations/v1…/"


def test_a_secret_is_cut_as_written_so_no_decoded_character_reaches_the_log():
    logged = loggable_path("/api/v1/matches/3/live/stream/?ticket=%0A%0Dforged")
    assert logged == "/api/v1/matches/3/live/stream/?ticket=%0A%…"


def test_any_line_written_beside_the_request_keeps_no_secret():
    """Django's CSRF refusal (``Forbidden (CSRF cookie not set.): /join/<code>/``) and its
    other warnings carry the request: the path among their arguments is cut."""
    path = f"/join/{CODE}/"
    record = logging.LogRecord(
        "django.security.csrf",
        logging.WARNING,
        __file__,
        1,
        "Forbidden (%s): %s",
        ("CSRF cookie not set.", path),
        None,
    )
    record.request = SimpleNamespace(path=path)
    assert SecretsLogFilter().filter(record)
    assert record.getMessage() == "Forbidden (CSRF cookie not set.): /join/Zq8v…/"
