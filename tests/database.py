"""Emptying the test database after a test whose writes were committed, cheaply.

A test that uses ``transactional_db`` (or ``live_server``, or ``django_db(transaction=True)``)
commits its rows, so Django empties the database after it with ``manage.py flush``: one
TRUNCATE of every table, then the ``post_migrate`` signal, which writes the content types and
permissions back. On PostgreSQL that costs 0.2 to 0.7 s a test (new files for every table and
index), the better part of such a test's time. TRUNCATE also needs every table to itself, so it
waits for, or deadlocks with, a request that a server is still answering.

Here the same tables are emptied with DELETE, in one transaction whose foreign keys are checked
at its end, and the content types and permissions are kept: they are what the migrations wrote,
unless the test changed them. Their digest, taken before the first such test, tells; when it
differs, or the database is not PostgreSQL, or the test asks for what only Django's flush does
(``available_apps``, ``serialized_rollback``), Django's flush runs as before.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from django.db import connections, transaction
from django.test import TransactionTestCase

ROOT = Path(__file__).resolve().parents[1]
KEPT = ("django_content_type", "auth_permission")  # what post_migrate writes back after a flush

_digests: dict[str, str] = {}


def server_url(settings: Mapping[str, Any], name: str | None = None) -> str:
    """A ``postgres://`` URL for the server a connection's settings name, and the database
    ``name`` (else theirs), for a process the tests start: host, user and password quoted, so
    that a Unix socket's directory (the embedded server's) stays the host."""
    host = urllib.parse.quote(settings["HOST"] or "127.0.0.1", safe="")
    user = urllib.parse.quote(settings["USER"] or "", safe="")
    if settings["PASSWORD"]:
        user += ":" + urllib.parse.quote(settings["PASSWORD"], safe="")
    return f"postgres://{user}@{host}:{settings['PORT'] or 5432}/{name or settings['NAME']}"


def digest(alias: str) -> str:
    """One value that changes when any row of the kept tables does."""
    parts = " || ".join(
        f"(SELECT coalesce(md5(string_agg(t::text, ',' ORDER BY t.id)), '') FROM {table} t)"
        for table in KEPT
    )
    with connections[alias].cursor() as cursor:
        cursor.execute(f"SELECT {parts}")
        (value,) = cursor.fetchone()
    return str(value)


def remember(alias: str) -> None:
    """Take the digest of the kept rows as they are now, the state to keep them in."""
    _digests[alias] = digest(alias)


def emptied(alias: str) -> bool:
    """Delete every row of the project's tables but the kept ones; False, having changed
    nothing, when that would not leave the database as Django's flush leaves it."""
    connection = connections[alias]
    if connection.vendor != "postgresql" or alias not in _digests:
        return False
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    quote = connection.ops.quote_name
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        if digest(alias) != _digests[alias]:
            return False
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table in sorted(set(tables) - set(KEPT)):
            cursor.execute(f"DELETE FROM {quote(table)}")
    return True


def install() -> None:
    """Make Django's transactional tests empty the database with :func:`emptied`."""
    setup: Callable[..., Any] = TransactionTestCase._fixture_setup.__func__  # type: ignore[attr-defined]
    flush = TransactionTestCase._fixture_teardown

    def fixture_setup(cls: type[TransactionTestCase]) -> None:
        setup(cls)
        for alias in cls._databases_names(include_mirrors=False):  # type: ignore[attr-defined]
            if connections[alias].vendor == "postgresql" and alias not in _digests:
                remember(alias)

    def fixture_teardown(self: TransactionTestCase) -> None:
        if self.available_apps is not None or self.serialized_rollback:
            flush(self)
            return
        names = self._databases_names(include_mirrors=False)  # type: ignore[attr-defined]
        if not all([emptied(alias) for alias in names]):
            flush(self)
            for alias in names:  # post_migrate wrote the kept rows again, under new ids
                if alias in _digests:
                    remember(alias)

    TransactionTestCase._fixture_setup = classmethod(fixture_setup)  # type: ignore[method-assign,assignment]
    TransactionTestCase._fixture_teardown = fixture_teardown  # type: ignore[method-assign]
