"""No page is a 500 when the shared cache (Redis) cannot be reached: every page that reads it
answers as usual, computed afresh, or with a 503 that says why.

The cache here is a Redis client pointed at a loopback port nobody listens on: each use of it
meets a refused connection, as after a Redis crash.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from django.test import override_settings

from tests.clubnight.games import outright
from tests.factories import client_for, start_match

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def cache_lost() -> Iterator[None]:
    lost = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    with override_settings(CACHES=lost):
        yield


@pytest.fixture
def links(as_alice, as_carol, club, roster, crowd) -> dict[str, str]:
    """A public link of each scope: standings, a match, a tournament."""
    ann, ben = roster[:2]
    outright(as_carol, club, ann, ben)
    match = start_match(as_carol, club, roster[:3])
    tournament = as_carol.post(
        "/api/v1/tournaments/",
        {"club": club.pk, "name": "Friday cup", "players": [p.pk for p in crowd[:9]]},
        format="json",
    ).json()
    as_carol.post(f"/api/v1/tournaments/{tournament['id']}/rounds/", {}, format="json")
    bodies = {
        "standings": {"scope": "standings"},
        "match": {"scope": "match", "match": match["id"]},
        "tournament": {"scope": "tournament", "tournament": tournament["id"]},
    }
    found = {}
    for scope, body in bodies.items():
        made = as_alice.post(f"/api/v1/clubs/{club.pk}/public-links/", body, format="json")
        assert made.status_code == 201
        found[scope] = urlsplit(made.json()["url"]).path
    return found


@pytest.mark.parametrize("scope", ["standings", "match", "tournament"])
def test_a_public_page_is_served_when_the_cache_is_lost(client, links, cache_lost, scope):
    first = client.get(links[scope])
    assert first.status_code == 200
    again = client.get(links[scope], HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_the_apps_pages_and_the_api_that_read_the_cache_answer_without_a_500(
    alice, club, links, cache_lost
):
    signed_in = client_for(alice)
    signed_in.force_login(alice)
    for path in [
        "/",
        f"/clubs/{club.pk}/",
        f"/clubs/{club.pk}/standings/",
        f"/api/v1/clubs/{club.pk}/standings/",
        f"/api/v1/clubs/{club.pk}/standings/?format=csv",
        "/api/v1/clubs/",
    ]:
        response = signed_in.get(path)
        assert response.status_code == 200, path
    assert signed_in.get("/healthz").status_code == 503
