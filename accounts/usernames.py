"""A username as a person types it: in any case and width, as sign-up compares them.

Sign-up keeps a new username as the sign-in form reads it (Unicode's NFKC, so a full-width
``ｋ`` is ``k``) and refuses one that differs from another only in case. So every spelling a
person may type names at most one account: the one written exactly so, else the only one
written so in another case. Accounts made before that rule may differ only in case; a name
typed in a third case then names neither, rather than either.

Names are compared in upper case by the database (``alike``), in every script: PostgreSQL's
UPPER knows them all under a UTF-8 LC_CTYPE (``check --deploy`` warns of a database whose
LC_CTYPE knows ASCII alone: ``arlington.W005``), and every SQLite connection replaces SQLite's
own UPPER, which knows only ASCII's letters (so ``Émile`` and ``émile`` were two names), by
Python's (``arlington_site/sqlite3``).
"""

from __future__ import annotations

import unicodedata
from typing import TypeVar

from django.db import connection
from django.db.models import Model, QuerySet, Value
from django.db.models.functions import Upper

M = TypeVar("M", bound=Model)


def written(typed: str) -> str:
    """The username as it is kept: NFKC, without white space around it."""
    return unicodedata.normalize("NFKC", typed).strip()


def find(rows: QuerySet[M], typed: str, field: str = "username") -> M | None:
    """The one row of ``rows`` whose username (``field``, such as ``user__username`` for a
    club's memberships) ``typed`` names, or None."""
    name = written(typed)
    if not name:
        return None
    exact = rows.filter(**{field: name}).first()
    if exact is not None:
        return exact
    found = list(alike(rows, name, field)[:2])
    return found[0] if len(found) == 1 else None


def alike(rows: QuerySet[M], name: str, field: str = "username") -> QuerySet[M]:
    """The rows of ``rows`` whose username is ``name`` in any case. On PostgreSQL the index on
    ``UPPER(username)`` (accounts/migrations/0004) serves it."""
    found: QuerySet[M] = rows.alias(upper_name=Upper(field)).filter(upper_name=Upper(Value(name)))
    return found


def one_at_a_time(name: str) -> None:
    """Wait for any other transaction naming an account ``name``, in any case, until it
    commits, so that each finds the other's account (``alike``) before making its own: sign-up
    and the admin's account forms call it before they compare. On PostgreSQL a
    transaction-scoped advisory lock on the name in upper case does it (two invitations'
    sign-ups, or a sign-up and an account renamed in the admin, hold no common row); SQLite
    runs writing transactions one at a time already. Outside a transaction it waits for the
    others and holds nothing."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended('sign-up:' || upper(%s), 0))",
            [name],
        )
