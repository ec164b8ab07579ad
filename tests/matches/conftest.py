"""Alice and Bob each own a club; Carol keeps score and Victor watches in Alice's club."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator

import pytest
import redis
from rest_framework.test import APIClient

from matches.models import Club, Membership, Player, Role, Season
from matches.services import clubs as club_services
from tests.factories import client_for, make_user, record, start_match, went_out
from tests.matches.endpoints import World
from tests.parallel import redis_url


@pytest.fixture(autouse=True)
def _empty_cache(fresh_cache, plain_http):
    """Every test starts with no throttling history."""


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Hash test passwords cheaply: the real hasher costs most of a test's setup."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def api_client_plain() -> APIClient:
    """A client with no login."""
    return APIClient()


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def carol(db):
    return make_user("carol")


@pytest.fixture
def victor(db):
    return make_user("victor")


def make_club(alice, carol, victor) -> Club:
    """Alice's club: Carol keeps score, Victor watches."""
    club = club_services.club_create(name="Arlington Card Club", user=alice)
    Membership.objects.create(club=club, user=carol, role=Role.SCOREKEEPER)
    Membership.objects.create(club=club, user=victor, role=Role.VIEWER)
    return club


def make_roster(club: Club) -> list[Player]:
    return [
        Player.objects.create(club=club, name=name) for name in ("Ann", "Ben", "Cleo", "Dev", "Eve")
    ]


def make_world(club: Club, roster: list[Player], as_carol: APIClient) -> World:
    """Alice's club with everything in it: roster, a season, a match with one hand recorded."""
    season = Season.objects.create(
        club=club, name="Spring", starts_on=dt.date(2025, 3, 1), ends_on=dt.date(2025, 5, 31)
    )
    seated = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3], season=season.pk)
    assert record(as_carol, match["id"], went_out(seated[0], seated)).status_code == 201
    return World(club=club, players=roster, season=season, match=match["id"], seated=seated)


@pytest.fixture
def club(alice, carol, victor) -> Club:
    return make_club(alice, carol, victor)


@pytest.fixture
def bobs_club(bob) -> Club:
    return club_services.club_create(name="Bob's Rummy Night", user=bob)


@pytest.fixture
def roster(club) -> list[Player]:
    return make_roster(club)


@pytest.fixture
def as_alice(alice) -> APIClient:
    return client_for(alice)


@pytest.fixture
def as_bob(bob) -> APIClient:
    return client_for(bob)


@pytest.fixture
def as_carol(carol) -> APIClient:
    return client_for(carol)


@pytest.fixture
def as_victor(victor) -> APIClient:
    return client_for(victor)


@pytest.fixture
def alices_world(club, roster, as_carol) -> World:
    """Alice's club with everything in it: roster, a season, a match with one hand recorded."""
    return make_world(club, roster, as_carol)


@pytest.fixture
def empty_redis() -> Iterator[redis.Redis]:
    """This worker's Redis database (tests/parallel.py), emptied before and after the test;
    the test is skipped, with the reason, where no Redis answers (failed in CI, which has one)."""
    url = redis_url()
    client = redis.Redis.from_url(url)
    try:
        client.ping()
    except redis.ConnectionError as error:
        reason = f"this test needs Redis at {url} (TEST_REDIS_URL): {error}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    client.flushdb()
    yield client
    client.flushdb()
