"""Tokens: POST /api/v1/auth/token/, and what an anonymous or badly authenticated caller gets."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.matches import endpoints
from tests.matches.endpoints import Endpoint, snapshot

TOKEN_URL = "/api/v1/auth/token/"


def codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


def test_a_username_and_password_give_a_token_that_authenticates(alice, club):
    anonymous = APIClient()
    response = anonymous.post(
        TOKEN_URL, {"username": "alice", "password": "alice-pw-1234"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert set(response.json()) == {"token"}
    caller = APIClient()
    caller.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    clubs = caller.get("/api/v1/clubs/")
    assert clubs.status_code == 200
    assert [(c["id"], c["role"]) for c in clubs.json()["results"]] == [(club.pk, "owner")]


def test_asking_again_gives_the_same_token(alice):
    body = {"username": "alice", "password": "alice-pw-1234"}
    first = APIClient().post(TOKEN_URL, body, format="json").json()["token"]
    assert APIClient().post(TOKEN_URL, body, format="json").json()["token"] == first


@pytest.mark.parametrize(
    "body",
    [
        {"username": "alice", "password": "wrong"},
        {"username": "nobody", "password": "alice-pw-1234"},
    ],
)
def test_wrong_credentials_are_a_400_envelope(alice, body):
    response = APIClient().post(TOKEN_URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert codes(response) == [("authorization", "non_field_errors")]


def test_missing_credentials_are_required(db):
    response = APIClient().post(TOKEN_URL, {}, format="json")
    assert response.status_code == 400
    assert set(codes(response)) == {("required", "username"), ("required", "password")}


def test_the_token_endpoint_reads_only_json(alice):
    response = APIClient().post(TOKEN_URL, {"username": "alice", "password": "alice-pw-1234"})
    assert response.status_code == 415
    assert codes(response) == [("unsupported_media_type", None)]


def test_an_inactive_user_gets_no_token(alice):
    alice.is_active = False
    alice.save()
    response = APIClient().post(
        TOKEN_URL, {"username": "alice", "password": "alice-pw-1234"}, format="json"
    )
    assert response.status_code == 400


@pytest.mark.parametrize("endpoint", endpoints.ALL, ids=str)
def test_anonymous_callers_get_401_everywhere(endpoint: Endpoint, alices_world):
    before = snapshot()
    response = endpoint.call(APIClient(), alices_world)
    assert response.status_code == 401, response.content
    assert response.json()["type"] == "client_error"
    assert codes(response) == [("not_authenticated", None)]
    assert response["WWW-Authenticate"] == "Token"
    assert snapshot() == before


@pytest.mark.parametrize("header", ["Token not-a-real-key", "Token ", "Token a b"])
def test_a_bad_token_is_a_401(header, alices_world):
    caller = APIClient()
    caller.credentials(HTTP_AUTHORIZATION=header)
    response = caller.get(f"/api/v1/clubs/{alices_world.club.pk}/")
    assert response.status_code == 401
    assert codes(response) == [("authentication_failed", None)]


def test_a_stale_token_header_does_not_stop_getting_a_new_token(alice):
    caller = APIClient()
    caller.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
    response = caller.post(
        TOKEN_URL, {"username": "alice", "password": "alice-pw-1234"}, format="json"
    )
    assert response.status_code == 200
