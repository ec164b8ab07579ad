"""The site starts only when safely configured, and serves its API description offline."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arlington_site.settings import INSECURE_DEV_SECRET_KEY
from tests import database

PROJECT_ROOT = Path(__file__).resolve().parents[2]

LOAD_SETTINGS = (
    "import django; from django.conf import settings; django.setup(); print(settings.SECRET_KEY)"
)


def load_settings(
    script: str = LOAD_SETTINGS, **overrides: str
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (by default: import the settings) in a fresh interpreter, with DEBUG,
    SECRET_KEY and TABLES_KEPT unset unless given."""
    unset = {"DEBUG", "SECRET_KEY", "TABLES_KEPT"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(DJANGO_SETTINGS_MODULE="arlington_site.settings", **overrides)
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = load_settings()
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


def test_production_refuses_the_insecure_development_key():
    result = load_settings(SECRET_KEY=INSECURE_DEV_SECRET_KEY)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


def test_production_starts_with_a_real_secret_key():
    result = load_settings(SECRET_KEY="a-real-secret-for-this-test")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "a-real-secret-for-this-test"


def test_debug_uses_the_development_key_when_none_is_set():
    result = load_settings(DEBUG="true")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == INSECURE_DEV_SECRET_KEY


@pytest.mark.django_db
def test_schema_is_an_openapi_3_document(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Arlington scoring API"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/docs/"])
def test_docs_are_served_from_local_static_files(api_client, url):
    response = api_client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "drf_spectacular_sidecar/" in page
    assert "cdn.jsdelivr" not in page
    assert "unpkg.com" not in page


@pytest.mark.django_db
def test_unknown_api_url_is_not_found_with_the_error_envelope(api_client):
    response = api_client.get("/api/v1/no-such-endpoint/")
    assert response.status_code == 404
    assert response.json()["type"] == "client_error"
    assert [error["code"] for error in response.json()["errors"]] == ["not_found"]


@pytest.mark.django_db
def test_unknown_api_url_answers_the_envelope_under_debug_too(api_client, settings):
    settings.DEBUG = True  # as make run serves: Django draws its debugging page for a bad URL
    response = api_client.get("/api/v1/no-such-endpoint/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"] == [
        {"code": "not_found", "detail": "Introuvable.", "attr": None}
    ]
    page = api_client.get("/no-such-page/")  # a page is still the debugging page there
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")


def worker_database_url() -> str:
    """The URL of this worker's test database, which exists while the tests run.

    The database DATABASE_URL names may not exist (pytest-django creates ``test_<name>``
    beside it): a check that connects to it would wait out the pool's timeout, 10 s, then
    find nothing to check."""
    from django.db import connection

    return database.server_url(connection.settings_dict)


@pytest.fixture
def database_url(django_db_setup, django_db_blocker) -> str:
    with django_db_blocker.unblock():
        return worker_database_url()


def deployment_checks(database_url: str, **overrides: str) -> subprocess.CompletedProcess[str]:
    """`manage.py check --deploy` with production settings, as docs/deployment.md runs it, on
    the test database (the deployment checks ask its server how many connections it takes)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "REDIS_URL", "CACHE_BACKEND"}
    }
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="arlington_site.settings",
        SECRET_KEY="x7$kP2!vQ9#mW4^zR8&tL1*bN6(cJ3)hF5@dG0%sY-aE+uI=oU~eT",
        ALLOWED_HOSTS="scores.example.org",
        **overrides,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "cache", [{"CACHE_BACKEND": "database"}, {"REDIS_URL": "redis://cache.internal:6379/0"}]
)
def test_production_settings_pass_the_deployment_checks(cache, database_url):
    result = deployment_checks(database_url, **cache)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


@pytest.mark.parametrize("cache", [{}, {"CACHE_BACKEND": "local"}])
def test_the_deployment_checks_refuse_a_cache_kept_by_each_process(cache, database_url):
    result = deployment_checks(database_url, **cache)
    assert result.returncode != 0
    assert "arlington.E001" in result.stderr + result.stdout


def test_an_unknown_cache_backend_is_refused_at_start():
    result = load_settings(SECRET_KEY="a-real-secret-for-this-test", CACHE_BACKEND="memcached")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


TABLES = """
import django
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
django.setup()
tables = caches["tables"]
print(f"kept up to {tables._max_entries}" if isinstance(tables, LocMemCache) else "none kept")
"""


@pytest.mark.parametrize(
    ("kept", "expected"),
    [("", "kept up to 200"), ("25", "kept up to 25"), ("0", "none kept")],
)
def test_each_process_keeps_as_many_tables_as_tables_kept_says(kept, expected):
    overrides = {"TABLES_KEPT": kept} if kept else {}
    result = load_settings(TABLES, SECRET_KEY="a-real-secret-for-this-test", **overrides)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


@pytest.mark.parametrize("kept", ["-1", "many", "2.5"])
def test_a_count_of_tables_kept_that_is_no_whole_number_is_refused_at_start_up(kept):
    result = load_settings(SECRET_KEY="a-real-secret-for-this-test", TABLES_KEPT=kept)
    assert result.returncode != 0
    assert "ImproperlyConfigured: TABLES_KEPT is a whole number of tables" in result.stderr


@pytest.mark.parametrize("timeout", ["0", "61", "ten"])
def test_a_webhook_timeout_out_of_bounds_is_refused_at_start_up(timeout):
    result = load_settings(
        SECRET_KEY="a-real-secret-for-this-test", WEBHOOKS_TIMEOUT_SECONDS=timeout
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured: WEBHOOKS_TIMEOUT_SECONDS is a number of seconds" in result.stderr


@pytest.mark.parametrize("wait", ["0", "301", "ten"])
def test_a_sign_in_wait_out_of_bounds_is_refused_at_start_up(wait):
    result = load_settings(
        SECRET_KEY="a-real-secret-for-this-test", AUTH_THROTTLE_WAIT_SECONDS=wait
    )
    assert result.returncode != 0
    said = "ImproperlyConfigured: AUTH_THROTTLE_WAIT_SECONDS is a number of seconds"
    assert said in result.stderr
