"""Fixtures shared by the whole suite. Engine tests (tests/scoring) need none of them."""

import itertools
import os

import hypothesis
import pytest
from _pytest.mark.expression import Expression


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request, django_db_modify_db_settings_parallel_suffix):
    """Give each test run its own database, so that runs side by side never collide; with
    --reuse-db, the one database each worker keeps from run to run (a name of its own per run
    would leave a database behind at every run, since a reused database is not dropped)."""
    from django.conf import settings

    if request.config.getvalue("reuse_db"):
        return  # pytest-django's names: test_<name>, and _gw0, _gw1 … for each worker
    for alias in settings.DATABASES.values():
        if alias["ENGINE"].endswith("sqlite3"):
            continue
        test = alias.setdefault("TEST", {})
        test["NAME"] = f"test_{alias['NAME']}_{os.getpid()}"


@pytest.fixture(scope="session", autouse=True)
def _cheap_reset_after_committed_tests() -> None:
    """Tests whose writes are committed empty the database with DELETE, not a flush
    (tests/database.py)."""
    from tests import database

    database.install()


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


@pytest.fixture(autouse=True)
def _no_language_carried_over():
    """Every test starts in the default language, whatever the one before it left active:
    Django keeps the active language per thread, and a test that activates French (or a
    request that did) would otherwise change the sentences of whichever test comes next on
    the same worker."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _requests_commit_their_work(request):
    """What waits for a commit runs at the end of each request of a test held in one transaction.

    pytest-django's ``db`` wraps a test in a transaction that never commits, so the work a
    service leaves for after its commit (``after_commit`` subscribers, matches/subscribers.py)
    would never run. Each request of the test client runs it when it ends, as the request's
    own commit would have (Django's ``captureOnCommitCallbacks``). Tests on committed rows
    (``transactional_db``) commit for real and need nothing of this.
    """
    marker = request.node.get_closest_marker("django_db")
    names = request.fixturenames
    transactional = bool(marker and marker.kwargs.get("transaction")) or any(
        name in names for name in ("transactional_db", "live_server")
    )
    if transactional or not (marker or "db" in names):
        yield
        return
    from django.core.signals import request_finished, request_started
    from django.test import TestCase

    captures = []

    def started(**kwargs):
        capture = TestCase.captureOnCommitCallbacks(execute=True)
        capture.__enter__()
        captures.append(capture)

    def finished(**kwargs):
        while captures:
            captures.pop().__exit__(None, None, None)

    request_started.connect(started, weak=False, dispatch_uid="tests.commit-start")
    request_finished.connect(finished, weak=False, dispatch_uid="tests.commit-end")
    yield
    request_started.disconnect(dispatch_uid="tests.commit-start")
    request_finished.disconnect(dispatch_uid="tests.commit-end")


@pytest.fixture
def fresh_cache():
    """Empty caches before and after the test, so that neither throttling counts nor tables
    kept by this process leak between tests."""
    from django.core.cache import cache

    from tests.factories import empty_caches

    empty_caches()
    yield cache
    empty_caches()


@pytest.fixture
def plain_http(settings):
    """The test client speaks plain HTTP; production settings would redirect it to HTTPS."""
    settings.SECURE_SSL_REDIRECT = False
    return settings


# Tests that take seconds each on an idle machine, and why; `make test-fast` leaves them out
# (-m "not slow"), `make test` runs them. A key is a file (all its tests) or one test of a file
# (all its parameters). The browser tests are marked in tests/web/conftest.py.
SLOW = {
    "tests/api/test_generated_client.py": "generates a client package, then plays a match",
    "tests/api/test_hostile_input.py": "Hypothesis examples against every operation",
    "tests/api/test_schemathesis.py": "every operation of the document, many examples each",
    "tests/api/test_settings.py::test_production_settings_pass_the_deployment_checks": (
        "check --deploy in a process of its own, which builds the whole OpenAPI document"
    ),
    "tests/api/test_settings.py::test_the_deployment_checks_refuse_a_cache_kept_by_each_process": (
        "check --deploy in a process of its own, which builds the whole OpenAPI document"
    ),
    "tests/matches/test_a_game_package.py": (
        "installs a game's package with pip in a virtual environment, plays in a process there"
    ),
    "tests/matches/test_access_log.py": "a gunicorn server of its own",
    "tests/matches/test_body_limit_server.py": "a gunicorn server of its own",
    "tests/matches/test_concurrency.py": "parallel requests in threads, committed databases",
    "tests/matches/test_embedded_database.py": "a process of its own on make run's SQLite",
    "tests/matches/test_embedded_club_night.py": "make run's server and worker, writers in threads",
    "tests/clubnight/test_ratings_replay_on_sqlite.py": (
        "make run's server and worker, writers in threads, then rerate in a process"
    ),
    "tests/matches/test_decide_after_lock.py": "races between threads, many rounds, committed rows",
    "tests/matches/test_hand_drafts.py::test_two_phones_writing_one_part_at_once_one_wins": (
        "two writers in threads, committed rows"
    ),
    "tests/matches/test_migration_ruleset.py": "migrates the test database back and forth",
    "tests/matches/test_one_record_concurrency.py": "parallel requests in threads, committed rows",
    "tests/matches/test_production.py": "gunicorn servers and redis-servers of their own",
    "tests/matches/test_stateful.py": "a Hypothesis state machine over the services",
    "tests/matches/test_workers.py": "gunicorn and uvicorn workers in processes of their own",
    "tests/scoring/test_live_rummy_stateful.py": "a Hypothesis state machine over the rummy table",
    "tests/webhooks/test_feed_order.py": "writers and a reader in threads, committed rows",
    "tests/webhooks/test_worker_faults.py": "worker processes, one killed, and a lease run out",
    "tests/webhooks/test_migration_queued_for.py": "migrates the test database back and forth",
    "tests/webhooks/test_migration_succeeded_at.py": "migrates the test database back and forth",
    "tests/scoring/test_live_stateful.py": "a Hypothesis state machine over the live table",
    "tests/test_database.py::test_a_reused_test_database_keeps_one_name_from_run_to_run": (
        "two runs of pytest in processes of their own"
    ),
    "tests/test_run.py::test_an_embedded_postgresql_answers_and_is_gone_afterwards": (
        "starts and stops a PostgreSQL server of its own"
    ),
}

# Hypothesis' examples per property test: its default (100) in `make test`; `make test-fast`
# passes --hypothesis-profile=fast for a fifth of them. Tests that set their own count keep it.
hypothesis.settings.register_profile("fast", max_examples=20)


def is_slow(nodeid: str) -> bool:
    file, _, name = nodeid.partition("::")
    return file in SLOW or f"{file}::{name.split('[', 1)[0]}" in SLOW


def pytest_collection_modifyitems(items):
    for item in items:
        if is_slow(item.nodeid):
            item.add_marker(pytest.mark.slow)


def _slow_is_deselected(config) -> bool:
    """Whether the -m expression leaves out every test marked slow, whatever its other marks:
    tried with ``slow`` and each set of the other marks this suite's tests carry."""
    if not config.option.markexpr:
        return False
    expression = Expression.compile(config.option.markexpr)
    others = ("browser", "django_db", "parametrize", "usefixtures", "filterwarnings")
    for n in range(len(others) + 1):
        for chosen in itertools.combinations(others, n):
            marks = {"slow", *chosen}
            if expression.evaluate(lambda mark, /, marks=marks, **_: mark in marks):
                return False
    return True


_SLOW_DESELECTED = pytest.StashKey[bool]()


def pytest_ignore_collect(collection_path, config):
    """A file whose every test is slow is not even imported when the run leaves slow tests out:
    importing some costs seconds (Schemathesis builds its tests from the whole document)."""
    if collection_path.suffix != ".py" or not collection_path.is_relative_to(config.rootpath):
        return None
    if collection_path.relative_to(config.rootpath).as_posix() not in SLOW:
        return None
    if _SLOW_DESELECTED not in config.stash:
        config.stash[_SLOW_DESELECTED] = _slow_is_deselected(config)
    return True if config.stash[_SLOW_DESELECTED] else None


def pytest_terminal_summary(terminalreporter, config):
    """The random order's seed at the end too, where -q (make test-fast) shows it as well."""
    if config.pluginmanager.hasplugin("randomly") and hasattr(config.option, "randomly_seed"):
        seed = config.option.randomly_seed
        terminalreporter.write_line(f"tests in random order: repeat it with --randomly-seed={seed}")
