"""What answers carry beside their body: a request id, CORS for the listed origins, the legacy
token endpoint's deprecation."""

from __future__ import annotations

import logging

import pytest
from rest_framework.test import APIClient

from arlington_site.middleware import RequestIDMiddleware
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


def test_every_answer_gets_a_new_request_id(anonymous):
    first = anonymous.get("/api/v1/rulesets/")
    second = anonymous.get("/api/v1/no-such-thing/")
    refused = anonymous.get("/api/v1/rulesets/?lang=%00")
    ids = [r.headers["X-Request-ID"] for r in (first, second, refused)]
    assert [len(i) for i in ids] == [32, 32, 32] and len(set(ids)) == 3
    assert (second.status_code, refused.status_code) == (404, 400)


def test_a_well_formed_incoming_request_id_is_kept_and_a_malformed_one_replaced(anonymous):
    kept = anonymous.get("/api/v1/rulesets/", headers={"X-Request-ID": "app-7f3c:42.1"})
    assert kept.headers["X-Request-ID"] == "app-7f3c:42.1"
    for bad in ("has space", "x" * 129, "<script>"):
        answer = anonymous.get("/api/v1/rulesets/", headers={"X-Request-ID": bad})
        assert answer.headers["X-Request-ID"] != bad
        assert len(answer.headers["X-Request-ID"]) == 32


def test_log_lines_written_during_a_request_name_its_id(rf, caplog):
    from arlington_site.middleware import RequestIDLogFilter

    def view(request):
        logging.getLogger("arlington.test").warning("inside")
        from django.http import HttpResponse

        return HttpResponse("ok")

    handler_filter = RequestIDLogFilter()
    caplog.handler.addFilter(handler_filter)
    try:
        with caplog.at_level(logging.WARNING, logger="arlington.test"):
            answer = RequestIDMiddleware(view)(rf.get("/", headers={"X-Request-ID": "abc-1"}))
    finally:
        caplog.handler.removeFilter(handler_filter)
    assert answer.headers["X-Request-ID"] == "abc-1"
    assert [r.request_id for r in caplog.records if r.name == "arlington.test"] == ["abc-1"]


def test_the_log_format_prints_the_request_id(settings):
    assert "{request_id}" in settings.LOGGING["formatters"]["plain"]["format"]
    assert "request_id" in settings.LOGGING["handlers"]["console"]["filters"]


def test_no_cross_origin_access_unless_the_operator_lists_the_origin(anonymous, settings):
    preflight = {
        "Origin": "https://scores.example.org",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, idempotency-key",
    }
    assert settings.CORS_ALLOWED_ORIGINS == []
    assert "corsheaders.middleware.CorsMiddleware" not in settings.MIDDLEWARE
    closed = anonymous.options("/api/v1/matches/", headers=preflight)
    assert "Access-Control-Allow-Origin" not in closed.headers
    assert "origin" not in closed.headers.get("Vary", "").lower()
    # as the settings read CORS_ALLOWED_ORIGINS=https://scores.example.org
    settings.CORS_ALLOWED_ORIGINS = ["https://scores.example.org"]
    settings.MIDDLEWARE = [
        settings.MIDDLEWARE[0],
        "corsheaders.middleware.CorsMiddleware",
        *settings.MIDDLEWARE[1:],
    ]
    listed = APIClient()  # a new handler, with the new middleware
    opened = listed.options("/api/v1/matches/", headers=preflight)
    assert opened.headers["Access-Control-Allow-Origin"] == "https://scores.example.org"
    assert "idempotency-key" in opened.headers["Access-Control-Allow-Headers"]
    read = listed.get("/api/v1/rulesets/", headers={"Origin": "https://scores.example.org"})
    exposed = read.headers["Access-Control-Expose-Headers"]
    assert "x-request-id" in exposed and "etag" in exposed and "retry-after" in exposed
    other = listed.get("/api/v1/rulesets/", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_the_settings_install_cors_only_for_listed_origins():
    import subprocess
    import sys

    program = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'arlington_site.settings'; "
        "from django.conf import settings; "
        "print('corsheaders.middleware.CorsMiddleware' in settings.MIDDLEWARE, "
        "settings.CORS_ALLOWED_ORIGINS)"
    )
    env = {"DEBUG": "true", "CORS_ALLOWED_ORIGINS": "https://a.example, https://b.example"}
    import os

    shown = subprocess.run(
        [sys.executable, "-c", program],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert shown.strip() == "True ['https://a.example', 'https://b.example']"


def test_the_legacy_token_endpoint_says_it_is_deprecated_and_when_it_ends(anonymous):
    make_user("lena")
    answer = anonymous.post(
        "/api/v1/auth/token/", {"username": "lena", "password": "wrong"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.headers["Deprecation"] == "@1796083200"  # 2026-12-01
    assert answer.headers["Sunset"] == "Wed, 01 Dec 2027 00:00:00 GMT"
    assert 'rel="successor-version"' in answer.headers["Link"]
    assert "Deprecation" not in anonymous.get("/api/v1/rulesets/").headers
