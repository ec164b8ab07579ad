"""Deployment checks of the site (`manage.py check --deploy`)."""

from __future__ import annotations

import sqlite3
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.db import DatabaseError, connections

from scoring import rulesets

PER_PROCESS_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}


def per_process_cache() -> bool:
    """Whether the default cache is kept by each process alone (or not kept at all)."""
    return settings.CACHES["default"]["BACKEND"] in PER_PROCESS_CACHES


PER_PROCESS_CACHE = Error(
    "The cache is kept by each process: every rate limit (password guesses included) would be "
    "multiplied by the number of workers.",
    hint="Set REDIS_URL, or CACHE_BACKEND=database and run `manage.py createcachetable` "
    "(docs/deployment.md).",
    id="arlington.E001",
)


# A hand's writes (matches/statements.py) use RETURNING (SQLite 3.35) and UPDATE ... FROM
# (SQLite 3.33).
SQLITE_LEAST = (3, 35, 0)


@register()
def sqlite_version(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """An embedded SQLite database (make run) is new enough for the statements of a hand."""
    found = sqlite3.sqlite_version_info
    if found >= SQLITE_LEAST or all(
        not database["ENGINE"].endswith("sqlite3") for database in settings.DATABASES.values()
    ):
        return []
    return [
        Error(
            f"SQLite {sqlite3.sqlite_version} is too old to record hands: it needs 3.35 or later "
            "(INSERT ... RETURNING).",
            hint="Use a Python built with SQLite 3.35 or later, or set DATABASE_URL to "
            "PostgreSQL (docs/deployment.md).",
            id="arlington.E002",
        )
    ]


@register()
def game_groups(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """A package that names its game in a misspelt entry point group is said, not ignored."""
    return [
        Warning(
            f"The package {package} names entry points in the group {group!r}, which the "
            f"service does not read: a game named there is not served.",
            hint=f"Name the game in the group {rulesets.ENTRY_POINT_GROUP!r} and install the "
            "package again (docs/games.md).",
            id="arlington.W004",
        )
        for package, group in rulesets.near_groups()
    ]


@register(deploy=True)
def shared_cache(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Production shares its cache among workers, so that the rate limits hold."""
    return [PER_PROCESS_CACHE] if per_process_cache() else []


def connection_budget(alias: str) -> tuple[int, int] | None:
    """The connections this deployment may open to ``alias``, and what its server takes.

    None when the alias is not pooled PostgreSQL, or its server cannot be asked.
    """
    database = settings.DATABASES[alias]
    pool = database.get("OPTIONS", {}).get("pool")
    if database["ENGINE"] != "django.db.backends.postgresql" or not pool:
        return None
    wanted = settings.APP_SERVERS * settings.WEB_CONCURRENCY * int(pool["max_size"])
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute(
                "SELECT current_setting('max_connections')::int"
                " - current_setting('superuser_reserved_connections')::int"
            )
            (available,) = cursor.fetchone()
    except DatabaseError:
        return None
    return wanted, int(available)


@register(Tags.database, deploy=True)
def bounded_connections(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Every worker's pool fits in the database server's connections, with room for the others."""
    problems: list[CheckMessage] = []
    for alias, database in settings.DATABASES.items():
        if database["ENGINE"] != "django.db.backends.postgresql":
            continue
        if not database.get("OPTIONS", {}).get("pool"):
            problems.append(
                Warning(
                    f"Database {alias!r} has no connection pool: under an ASGI server every "
                    "request thread may keep a connection of its own.",
                    hint="Set DATABASE_POOL_SIZE above 0 (docs/deployment.md).",
                    id="arlington.W002",
                )
            )
            continue
        budget = connection_budget(alias)
        if budget is not None and budget[0] > budget[1]:
            problems.append(
                Warning(
                    f"Database {alias!r}: {settings.APP_SERVERS} app server(s) x "
                    f"{settings.WEB_CONCURRENCY} worker(s) x a pool of "
                    f"{database['OPTIONS']['pool']['max_size']} can open {budget[0]} "
                    f"connections; the server takes {budget[1]}.",
                    hint="Lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, raise max_connections, "
                    "or put PgBouncer in front (docs/deployment.md).",
                    id="arlington.W003",
                )
            )
    return problems


# A letter beyond ASCII and its upper case: PostgreSQL's UPPER maps one to the other only when
# the database's LC_CTYPE (or its ICU locale) knows the letter; under "C" or "POSIX" it knows
# ASCII's alone.
FOLDED = ("émile", "ÉMILE")


@register(Tags.database, deploy=True)
def case_folding(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Every PostgreSQL database folds case beyond ASCII, as usernames and names compare.

    Sign-up, sign-in and the players' name search compare names in upper case in the database
    (``accounts.usernames``). Under a database whose LC_CTYPE is "C" or "POSIX", PostgreSQL's
    UPPER leaves every letter beyond ASCII as it is, so ``Émile`` and ``émile`` would be two
    accounts and a search for ``é`` would miss ``É``.
    """
    problems: list[CheckMessage] = []
    for alias in connections:
        connection = connections[alias]
        if connection.vendor != "postgresql":
            continue
        try:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT UPPER(%s) = %s, datctype FROM pg_database "
                    "WHERE datname = current_database()",
                    list(FOLDED),
                )
                folds, ctype = cursor.fetchone()
        except DatabaseError:  # a database that cannot be reached is said elsewhere
            continue
        if not folds:
            problems.append(
                Warning(
                    f"Database {alias!r} (LC_CTYPE {ctype!r}) folds the case of ASCII letters "
                    "alone: usernames such as 'Émile' and 'émile' would name two accounts.",
                    hint="Create the database with a UTF-8 LC_CTYPE, such as "
                    "CREATE DATABASE … TEMPLATE template0 LC_CTYPE 'C.UTF-8', and load a dump "
                    "into it (docs/deployment.md).",
                    id="arlington.W005",
                )
            )
    return problems
