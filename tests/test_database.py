"""The reset after tests whose writes are committed (tests/database.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from psycopg import sql

from tests import database
from tests.factories import FAST_PASSWORD_HASHERS, make_user


@pytest.fixture
def committed(transactional_db, settings):
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS


def test_committed_rows_are_deleted_and_the_migrations_rows_kept(committed, django_user_model):
    kinds, permissions = ContentType.objects.count(), Permission.objects.count()
    make_user("alice")

    assert database.emptied("default")
    assert not django_user_model.objects.exists()
    assert (ContentType.objects.count(), Permission.objects.count()) == (kinds, permissions)


def test_a_test_that_changed_the_migrations_rows_is_left_to_djangos_flush(
    committed, django_user_model
):
    make_user("alice")
    Permission.objects.filter(codename="add_user").delete()

    assert not database.emptied("default")
    assert django_user_model.objects.exists()  # nothing deleted: the flush after the test runs


def test_a_reused_test_database_keeps_one_name_from_run_to_run():
    """With --reuse-db, two runs use one database, kept after them, instead of one each."""
    server = settings.DATABASES["default"]
    name = f"arlington_reuse_{os.getpid()}"
    one = "tests/test_database.py::test_committed_rows_are_deleted_and_the_migrations_rows_kept"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0"]
    command += ["-p", "no:randomly", "--reuse-db", one]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env["DATABASE_URL"] = database.server_url(server, name)

    def databases() -> set[str]:
        with psycopg.connect(database.server_url(server, "postgres"), autocommit=True) as conn:
            rows = conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", [f"test_{name}%"]
            ).fetchall()
        return {row[0] for row in rows}

    try:
        for _ in range(2):
            finished = subprocess.run(
                command, cwd=database.ROOT, env=env, capture_output=True, text=True
            )
            assert finished.returncode == 0, finished.stdout + finished.stderr
            assert databases() == {f"test_{name}"}
    finally:
        with psycopg.connect(database.server_url(server, "postgres"), autocommit=True) as conn:
            for leftover in databases():
                conn.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(leftover)))
