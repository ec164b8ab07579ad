"""``manage.py database``: which database the service uses, and whether it answers.

``make run`` calls it first, so that a ``DATABASE_URL`` left exported in the shell is not used
without a word: it prints the database it will serve from (the embedded SQLite file, or the
server and database that ``DATABASE_URL`` names, without its password), and when that database
cannot be reached it says so in one sentence and exits with status 1, before any migration.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connections


def described(config: dict[str, Any]) -> str:
    """The database of ``config`` in words, without its password."""
    if "sqlite" in config["ENGINE"]:
        return f"the embedded SQLite database {config['NAME']}"
    host = config.get("HOST") or "the local socket"
    port = f":{config['PORT']}" if config.get("PORT") else ""
    return f"PostgreSQL database {config['NAME']!r} at {host}{port}"


class Command(BaseCommand):
    help = "Say which database the service uses, and fail in one sentence if it cannot be reached."

    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections["default"]
        what = described(connection.settings_dict)
        source = (
            "named by DATABASE_URL (unset it to use the embedded SQLite)"
            if os.environ.get("DATABASE_URL")
            else "the default: DATABASE_URL is not set"
        )
        reason = unreachable(connection)
        if reason is not None:
            sentence = f"{what}, {source}, cannot be reached: {reason}"
            raise CommandError(sentence[0].upper() + sentence[1:])
        self.stdout.write(f"Database: {what}, {source}.")


def unreachable(connection: Any) -> str | None:
    """None when the database answers, else why not in one line.

    PostgreSQL is tried with one plain connection (not the pool, which retries for its whole
    timeout), giving up after five seconds.
    """
    config = connection.settings_dict
    if "sqlite" in config["ENGINE"]:
        try:
            connection.ensure_connection()
        except DatabaseError as error:
            return " ".join(str(error).split()) or type(error).__name__
        connection.close()
        return None
    import psycopg

    try:
        psycopg.connect(
            dbname=config["NAME"],
            user=config.get("USER") or None,
            password=config.get("PASSWORD") or None,
            host=config.get("HOST") or None,
            port=config.get("PORT") or None,
            connect_timeout=5,
        ).close()
    except psycopg.Error as error:
        return " ".join(str(error).split()) or type(error).__name__
    return None
