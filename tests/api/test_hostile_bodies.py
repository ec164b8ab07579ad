"""Bodies built to break a parser or a database are refused with 400, read or not.

Deep nesting, lone surrogates, NUL bytes and non-finite numbers are refused by the JSON parser
itself (arlington_site/parsers.py), before any view sees them, on every operation that takes a
body: the anonymous rulings and the token endpoint included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from rest_framework.test import APIClient

from tests.api import openapi
from tests.factories import shared_rows
from tests.matches.endpoints import World

pytestmark = pytest.mark.django_db

DEPTH = 1000
DEEP = '{"a":' + "[" * DEPTH + "]" * DEPTH + "}"  # about 2 KB


def body_operations() -> list[tuple[str, str]]:
    """Every (method, path) of the OpenAPI document that takes a JSON body."""
    return [
        (method, path)
        for path, method, operation in openapi.operations()
        if "requestBody" in operation
    ]


@pytest.fixture(scope="module")
def _world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Alice's club, built once for the module; each test's writes are rolled back."""
    with shared_rows(django_db_blocker):
        with django_db_blocker.unblock():
            world = openapi.build_world("alice", viewer="victor")
        yield world


@pytest.fixture
def world(_world, db) -> World:
    return _world


@pytest.fixture
def as_owner(world) -> APIClient:
    return APIClient(headers=openapi.token_for(world.club.created_by))


def url_of(path: str, world) -> str:
    return path.format(**openapi.path_values(path, world, member="victor"))


def send(client: APIClient, method: str, url: str, raw: str):
    extra = {"HTTP_IF_MATCH": '"1"'} if method == "put" and "/hands/" in url else {}
    return getattr(client, method)(url, raw, content_type="application/json", **extra)


def only_error(response) -> dict:
    body = response.json()
    assert len(body["errors"]) == 1, body
    return body["errors"][0]


def test_every_operation_with_a_body_is_listed():
    assert ("post", "/api/v1/rulings/meld/") in body_operations()
    assert ("post", "/api/v1/auth/token/") in body_operations()
    assert ("patch", "/api/v1/players/{id}/") in body_operations()


@pytest.mark.parametrize(("method", "path"), body_operations())
def test_deep_nesting_is_a_parse_error_on_every_operation(method, path, world, as_owner):
    response = send(as_owner, method, url_of(path, world), DEEP)
    assert response.status_code == 400, response.content
    assert only_error(response)["code"] == "parse_error"


@pytest.mark.parametrize("path", ["/api/v1/rulings/hand/", "/api/v1/auth/token/"])
def test_deep_nesting_is_a_parse_error_anonymously(path, world):
    response = send(APIClient(), "post", path, DEEP)
    assert response.status_code == 400
    assert only_error(response)["code"] == "parse_error"


def test_nesting_a_hand_needs_is_read(world, as_owner):
    body = {"cards": ["5H", "6H", "7H"]}
    assert send(as_owner, "post", "/api/v1/rulings/meld/", json.dumps(body)).status_code == 200


def test_brackets_inside_strings_are_not_nesting(world, as_owner):
    body = json.dumps({"cards": ["[" * DEPTH, "{" * DEPTH]})
    response = send(as_owner, "post", "/api/v1/rulings/meld/", body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_card"


SURROGATES = [
    ("post", "/api/v1/rulings/meld/", {"cards": ["5H", "\ud800", "7H"]}, "cards.1"),
    ("post", "/api/v1/rulings/discard/", {"card": "\udfff"}, "card"),
    (
        "post",
        "/api/v1/rulings/take-discards/",
        {"top_card": "7H", "from_hand": ["\ud800"]},
        "from_hand.0",
    ),
    ("post", "/api/v1/rulings/extend/", {"meld": ["5H", "6H", "7H"], "add": ["\ud800"]}, "add.0"),
    ("post", "/api/v1/rulings/hand/", {"ending": "\ud800", "results": []}, "ending"),
    ("post", "/api/v1/clubs/{id}/members/", {"user": "victor", "role": "\ud800"}, "role"),
    ("post", "/api/v1/auth/token/", {"username": "\ud800", "password": "x"}, "username"),
    (
        "post",
        "/api/v1/matches/{match_pk}/hands/",
        {"ending": "went_out", "results": [{"player": 1, "melds": [["\ud800"]], "hand": []}]},
        "results.0.melds.0.0",
    ),
    ("post", "/api/v1/rulings/meld/", {"\ud800": 1}, "\\ud800"),
]


@pytest.mark.parametrize(("method", "path", "body", "attr"), SURROGATES)
def test_a_lone_surrogate_anywhere_is_refused_with_its_path(
    method, path, body, attr, world, as_owner
):
    response = send(as_owner, method, url_of(path, world), json.dumps(body))
    assert response.status_code == 400, response.content
    error = only_error(response)
    assert error["code"] == "surrogate_characters_not_allowed"
    assert error["attr"] == attr


def test_a_surrogate_pair_is_a_character_and_is_read(world, as_owner):
    body = json.dumps({"cards": ["\U0001f0a1"]})  # written as the pair \\ud83c\\udca1
    assert "\\ud83c" in body
    response = send(as_owner, "post", "/api/v1/rulings/meld/", body)
    assert response.status_code == 400
    assert only_error(response)["code"] != "surrogate_characters_not_allowed"


NULS = [
    ("post", "/api/v1/clubs/{id}/members/", {"user": "\u0000", "role": "viewer"}, "user"),
    ("post", "/api/v1/players/", {"club": "CLUB", "name": "Zed", "user": "\u0000"}, "user"),
    ("patch", "/api/v1/players/{id}/", {"user": "vic\u0000tor"}, "user"),
    ("post", "/api/v1/auth/token/", {"username": "alice\u0000", "password": "x"}, "username"),
    ("post", "/api/v1/rulings/discard/", {"card": "Q\u0000S"}, "card"),
]


@pytest.mark.parametrize(("method", "path", "body", "attr"), NULS)
def test_a_nul_byte_anywhere_is_refused_with_its_path(method, path, body, attr, world, as_owner):
    if body.get("club") == "CLUB":
        body = {**body, "club": world.club.pk}
    response = send(as_owner, method, url_of(path, world), json.dumps(body))
    assert response.status_code == 400, response.content
    error = only_error(response)
    assert error["code"] == "null_characters_not_allowed"
    assert error["attr"] == attr


@pytest.mark.parametrize("number", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
def test_numbers_json_cannot_hold_are_a_parse_error(number, world, as_owner):
    raw = '{"club": ' + number + ', "players": [1, 2]}'
    response = send(as_owner, "post", "/api/v1/matches/", raw)
    assert response.status_code == 400
    assert only_error(response)["code"] == "parse_error"


def test_an_integer_too_long_to_read_is_a_parse_error(world, as_owner):
    raw = '{"club": ' + "9" * 5000 + ', "players": [1, 2]}'
    response = send(as_owner, "post", "/api/v1/matches/", raw)
    assert response.status_code == 400
    assert only_error(response)["code"] == "parse_error"


def test_the_renderer_writes_a_lone_surrogate_as_its_escape():
    from arlington_site.renderers import JSONRenderer

    assert json.loads(JSONRenderer().render({"card": "\ud800"})) == {"card": "\ud800"}


@pytest.mark.parametrize("charset", ["punycode", "base64", "zlib", "utf-32"])
def test_a_charset_the_server_cannot_decode_is_a_400_never_a_500(charset, db):
    client = APIClient()
    client.raise_request_exception = False
    response = client.post(
        "/api/v1/rulings/meld/",
        b'{"cards": ["5H", "6H", "7H"]}',
        content_type=f"application/json; charset={charset}",
    )
    assert response.status_code == 400, response.content
    assert response.json()["type"] == "client_error"
    assert response.json()["errors"][0]["code"] == "parse_error"
