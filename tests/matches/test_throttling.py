"""Throttling counts each logged-in user, not each address, and can live in a shared Redis."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.throttling import UserRateThrottle

from tests.factories import client_for
from tests.parallel import redis_url

PROJECT_ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = redis_url()


def test_two_members_on_one_wifi_are_two_clients(alice, carol, club, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min"})
    as_alice, as_carol = client_for(alice), client_for(carol)
    same_address = {"REMOTE_ADDR": "203.0.113.7"}
    statuses = [as_alice.get("/api/v1/clubs/", **same_address).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert as_carol.get("/api/v1/clubs/", **same_address).status_code == 200
    throttled = as_alice.get("/api/v1/clubs/", **same_address)
    assert throttled.json()["errors"][0]["code"] == "throttled"
    assert "Retry-After" in throttled


def test_the_token_endpoint_slows_password_guessing(api_client_plain, alice, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"auth": "2/min", "auth_account": "100/min"}
    )  # per address only
    guesses = [
        api_client_plain.post(
            "/api/v1/auth/token/", {"username": "alice", "password": "x"}, format="json"
        ).status_code
        for _ in range(3)
    ]
    assert guesses == [400, 400, 429]


@pytest.fixture
def shared_redis(settings, empty_redis):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
    from django.core.cache import caches

    caches["default"].clear()
    return empty_redis


def test_with_redis_url_a_second_app_server_sees_the_same_counts(alice, club, shared_redis):
    as_alice = client_for(alice)
    for _ in range(3):
        assert as_alice.get("/api/v1/clubs/").status_code == 200
    # Another process configured only through REDIS_URL, as a second app server would be.
    env = {
        **os.environ,
        "REDIS_URL": REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "arlington_site.settings",
    }
    env.setdefault("SECRET_KEY", "throttling-test-key")
    script = (
        "import django; django.setup();"
        "from accounts import ratelimit; from django.conf import settings;"
        f"window = ratelimit.hit('throttle_user_{alice.pk}', 1000, 60, count=False);"
        "print(settings.CACHES['default']['BACKEND'], 1000 - window.remaining)"
    )
    seen = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert seen.returncode == 0, seen.stderr
    backend, count = seen.stdout.split()
    assert backend == "django.core.cache.backends.redis.RedisCache"
    assert int(count) == 3


def test_a_forged_forwarded_for_header_does_not_dodge_the_limit(
    api_client_plain, alice, monkeypatch
):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"auth": "2/min", "auth_account": "100/min"}
    )  # per address only
    guesses = [
        api_client_plain.post(
            "/api/v1/auth/token/",
            {"username": "alice", "password": "x"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"10.0.0.{i}",
        ).status_code
        for i in range(3)
    ]
    assert guesses == [400, 400, 429]
