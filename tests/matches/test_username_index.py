"""The index of the usernames in upper case (accounts' migration 0004), on PostgreSQL."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

from accounts import usernames

migration = import_module("accounts.migrations.0004_username_any_case_index")


def plan(field: str) -> str:
    """PostgreSQL's plan for the rows whose username (``field``) is ``ALICE`` in any case, as
    ``accounts.usernames`` asks for them, where it could use an index (no sequential scan
    unless it must)."""
    from matches.models import Membership

    rows = get_user_model().objects.all() if field == "username" else Membership.objects.all()
    sql, params = usernames.alike(rows, "ALICE", field).query.sql_with_params()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.parametrize("field", ["username", "user__username"])
def test_a_username_in_any_case_is_looked_up_through_an_index(db, field):
    """Sign-up's check for a username taken in another case, sign-in from a name typed in
    another case, and a club's member named so (``accounts.usernames.find``) ask for the
    username in any case: PostgreSQL finds it through the index of the usernames in upper
    case, not by reading the whole user table."""
    assert migration.NAME in plan(field)


def valid() -> bool | None:
    """Whether the index is valid; None when there is none."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_index.indisvalid FROM pg_index "
            "JOIN pg_class ON pg_class.oid = pg_index.indexrelid WHERE pg_class.relname = %s",
            [migration.NAME],
        )
        row = cursor.fetchone()
    return None if row is None else bool(row[0])


@pytest.mark.django_db(transaction=True)
def test_an_index_left_invalid_by_an_interrupted_build_is_built_again():
    """A concurrent build that fails leaves an invalid index under its name, which ``IF NOT
    EXISTS`` alone would keep for ever, unused: the migration run again drops it first."""
    users = get_user_model().objects
    users.create_user("ann")
    users.create_user("ben")  # neither staff: a unique index on is_staff cannot be built
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX CONCURRENTLY {migration.NAME}")
        with pytest.raises(IntegrityError):
            cursor.execute(
                f"CREATE UNIQUE INDEX CONCURRENTLY {migration.NAME} ON auth_user (is_staff)"
            )
    assert valid() is False
    with connection.schema_editor(atomic=False) as editor:
        migration.create(apps, editor)
    assert valid() is True
    assert migration.NAME in plan("username")


@pytest.fixture
def ascii_only_database(db):
    """A database of the test server whose LC_CTYPE is "C", reached as Django connects, then
    dropped."""
    import psycopg
    from django.db.utils import ConnectionHandler

    from tests.database import server_url

    name = f"{connection.settings_dict['NAME']}_ctype_c"
    server = server_url(connection.settings_dict, "postgres")
    with psycopg.connect(server, autocommit=True) as admin:  # outside the test's transaction
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 LC_CTYPE 'C' LC_COLLATE 'C'")
    options = {k: v for k, v in connection.settings_dict["OPTIONS"].items() if k != "pool"}
    # An alias of its own: a pool is kept per alias, and the test database's would be reused.
    handler = ConnectionHandler(
        {
            "default": {"ENGINE": "django.db.backends.dummy"},  # one the handler must have
            "ascii_only": {**connection.settings_dict, "NAME": name, "OPTIONS": options},
        }
    )
    try:
        yield handler
    finally:  # dropped whatever the test did
        handler.close_all()
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


def test_check_deploy_warns_of_a_database_that_folds_the_case_of_ascii_alone(
    ascii_only_database, monkeypatch
):
    """Names compare in upper case in the database: under LC_CTYPE "C" its UPPER leaves `é` as
    it is, so `Émile` and `émile` would be two accounts. The deployment check says so, and
    says nothing of the test database, whose LC_CTYPE knows the letter."""
    from arlington_site import checks

    assert [problem.id for problem in checks.case_folding()] == []
    monkeypatch.setattr(checks, "connections", ascii_only_database)
    assert [problem.id for problem in checks.case_folding()] == ["arlington.W005"]
