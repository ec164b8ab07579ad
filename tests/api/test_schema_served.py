"""The schema built once per process and served with an ETag; the documentation pages fetch
nothing from another origin."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arlington_site import api_docs

pytestmark = pytest.mark.django_db


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def counted_builds(monkeypatch):
    """The schema view's cache emptied, and a count of the documents it builds."""
    monkeypatch.setattr(api_docs.SchemaView, "built", {})
    builds = []
    original = api_docs.Built.__init__

    def counting(self, *args, **kwargs):
        builds.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(api_docs.Built, "__init__", counting)
    return builds


def test_the_schema_is_built_once_and_answers_304_to_its_etag(anonymous, counted_builds):
    first = anonymous.get("/api/schema/", {"format": "json"})
    again = anonymous.get("/api/schema/", {"format": "json"})
    assert first.status_code == again.status_code == 200
    assert first.content == again.content and len(counted_builds) == 1
    etag = first.headers["ETag"]
    assert etag == again.headers["ETag"] and etag.startswith('"')
    unchanged = anonymous.get("/api/schema/", {"format": "json"}, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b""
    stale = anonymous.get("/api/schema/", {"format": "json"}, headers={"If-None-Match": '"x"'})
    assert stale.status_code == 200
    yaml = anonymous.get("/api/schema/")
    assert yaml.headers["ETag"] != etag and len(counted_builds) == 2
    french = anonymous.get("/api/schema/", {"format": "json", "lang": "fr"})
    assert french.headers["Content-Language"] == "fr" and len(counted_builds) == 3


@pytest.mark.parametrize("page", ["/api/docs/"])
def test_the_documentation_pages_may_fetch_nothing_from_another_origin(anonymous, page):
    policy = anonymous.get(page).headers["Content-Security-Policy"]
    for directive in ("default-src 'self'", "img-src 'self' data:", "connect-src 'self'"):
        assert directive in policy


def test_swagger_ui_asks_no_online_validator(anonymous):
    assert '"validatorUrl": null' in anonymous.get("/api/docs/").content.decode()


def test_the_old_redoc_page_leads_to_the_documentation_page(anonymous):
    response = anonymous.get("/api/redoc/")
    assert response.status_code == 301
    assert response.headers["Location"] == "/api/docs/"
