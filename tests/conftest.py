"""Fixtures shared by the whole suite. Engine tests (tests/scoring) need none of them."""

import os

import pytest


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Give each test run its own database, so that runs side by side never collide."""
    from django.conf import settings

    for alias in settings.DATABASES.values():
        if alias["ENGINE"].endswith("sqlite3"):
            continue
        test = alias.setdefault("TEST", {})
        test["NAME"] = f"test_{alias['NAME']}_{os.getpid()}"


@pytest.fixture(scope="session")
def _checked_openapi_schema() -> None:
    """The OpenAPI document is valid, with no warning: checked once per run."""
    from tests.api import openapi

    openapi.checked_document()


@pytest.fixture
def openapi_schema(_checked_openapi_schema):
    """A copy of the OpenAPI document, built once per run (tests/api/openapi.py) and checked:
    a test may change its copy without changing any other test's."""
    from tests.api import openapi

    return openapi.document()


@pytest.fixture
def fresh_cache():
    """An empty cache before and after the test, so throttling counts never leak between tests."""
    from django.core.cache import cache

    cache.clear()
    yield cache
    cache.clear()


@pytest.fixture
def plain_http(settings):
    """The test client speaks plain HTTP; production settings would redirect it to HTTPS."""
    settings.SECURE_SSL_REDIRECT = False
    return settings


# Tests that take seconds each on an idle machine, and why; `make test-fast` leaves them out
# (-m "not slow"), `make test` runs them. The browser tests are marked in tests/web/conftest.py.
SLOW = {
    "tests/api/test_generated_client.py": "generates a client package, then plays a match",
    "tests/api/test_hostile_input.py": "Hypothesis examples against every operation",
    "tests/api/test_schemathesis.py": "every operation of the document, many examples each",
    "tests/matches/test_concurrency.py": "parallel requests in threads, committed databases",
    "tests/matches/test_embedded_database.py": "a process of its own on make run's SQLite",
    "tests/matches/test_stateful.py": "a Hypothesis state machine over the services",
    "tests/matches/test_workers.py": "gunicorn and uvicorn workers in processes of their own",
    "tests/scoring/test_live_stateful.py": "a Hypothesis state machine over the live table",
}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.nodeid.split("::", 1)[0] in SLOW:
            item.add_marker(pytest.mark.slow)
