"""Requests at the edges of HTTP get a clear answer: the API's envelope, never HTML or a guess.

NUL bytes in a path or query, a chunked body without Content-Length, a Host the site does not
serve, a POST to the health check, and an Accept header that refuses CSV with ``q=0``.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.api import openapi

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return openapi.build_world("alice", viewer="victor")


@pytest.fixture
def as_owner(world) -> APIClient:
    return APIClient(headers=openapi.token_for(world.club.created_by))


def the_error(response) -> dict:
    assert response["Content-Type"] == "application/json", response.content
    body = response.json()
    assert body["type"] in {"client_error", "validation_error"}
    assert len(body["errors"]) == 1, body
    return body["errors"][0]


# --- NUL in a path or a query -----------------------------------------------------------------


def test_a_nul_username_in_the_path_is_a_400(world, as_owner):
    response = as_owner.delete(f"/api/v1/clubs/{world.club.pk}/members/%00/")
    assert response.status_code == 400
    error = the_error(response)
    assert error["code"] == "null_characters_not_allowed"
    assert error["attr"] == "username"


@pytest.mark.parametrize("query", ["ordering=%00", "season=1%00", "from=%00"])
def test_a_nul_in_a_query_parameter_is_a_400_naming_it(query, world, as_owner):
    response = as_owner.get(f"/api/v1/clubs/{world.club.pk}/standings/?{query}")
    assert response.status_code == 400
    error = the_error(response)
    assert error["code"] == "null_characters_not_allowed"
    assert error["attr"] == query.split("=")[0]


def test_a_nul_in_an_admin_search_is_a_400_not_a_500(world):
    staff = get_user_model().objects.create_user(
        "staff", password="staff-pw-1234", is_staff=True, is_superuser=True
    )
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/matches/club/?q=%00").status_code == 400


# --- a body without a length ------------------------------------------------------------------


def test_a_chunked_body_without_content_length_is_refused_with_411(world, as_owner):
    body = json.dumps({"user": "victor", "role": "viewer"})
    # A WSGI server hands a chunked body over without CONTENT_LENGTH; Django reads it as empty.
    response = as_owner.post(
        f"/api/v1/clubs/{world.club.pk}/members/",
        body,
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert response.status_code == 411
    assert the_error(response)["code"] == "length_required"


def test_a_body_with_content_length_is_read(world, as_owner):
    body = json.dumps({"cards": ["5H", "6H", "7H"]})
    response = as_owner.post("/api/v1/rulings/meld/", body, content_type="application/json")
    assert response.status_code == 200


# --- Host -------------------------------------------------------------------------------------


def test_a_host_the_site_does_not_serve_gets_the_envelope_under_the_api(api_client):
    response = api_client.get("/api/v1/clubs/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert the_error(response)["code"] == "disallowed_host"


def test_a_host_the_site_does_not_serve_gets_a_page_elsewhere(api_client):
    response = api_client.get("/admin/login/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert not response["Content-Type"].startswith("application/json")


# --- the health check -------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_health_check_answers_405_to_anything_but_get(method):
    response = getattr(Client(enforce_csrf_checks=True), method)("/healthz")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"


def test_the_health_check_answers_head():
    assert Client().head("/healthz").status_code == 200


# --- Accept -----------------------------------------------------------------------------------


def standings(client, world, accept: str):
    return client.get(f"/api/v1/clubs/{world.club.pk}/standings/", HTTP_ACCEPT=accept)


def test_csv_refused_with_q_0_is_never_sent(world, as_owner):
    response = standings(as_owner, world, "text/csv;q=0")
    assert response.status_code == 406
    assert the_error(response)["code"] == "not_acceptable"


def test_csv_refused_with_q_0_gets_json_when_json_is_accepted(world, as_owner):
    response = standings(as_owner, world, "text/csv; q=0, application/json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"


def test_the_media_type_with_the_higher_quality_wins(world, as_owner):
    response = standings(as_owner, world, "application/json;q=0.4, text/csv;q=0.9")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")


def test_csv_is_still_served_when_asked_for(world, as_owner):
    assert standings(as_owner, world, "text/csv")["Content-Type"].startswith("text/csv")
    assert standings(as_owner, world, "*/*")["Content-Type"] == "application/json"


# --- A path without its final slash ------------------------------------------------------------


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "get"])
def test_a_path_without_its_slash_is_redirected_with_308(as_owner, settings, debug, method):
    settings.DEBUG = debug
    body = {} if method == "get" else {"data": {"name": "Tuesday"}, "format": "json"}
    response = getattr(as_owner, method)("/api/v1/clubs?x=1", **body)
    assert response.status_code == 308
    assert response["Location"] == "/api/v1/clubs/?x=1"


def test_a_write_that_follows_the_308_keeps_its_method_and_body(as_owner):
    from matches.models import Club

    response = as_owner.post("/api/v1/clubs", {"name": "Tuesday"}, format="json", follow=True)
    assert [status for _, status in response.redirect_chain] == [308]
    assert response.status_code == 201
    assert Club.objects.filter(name="Tuesday").count() == 1
