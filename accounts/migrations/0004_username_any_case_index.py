"""An index on the user table's usernames in upper case, on PostgreSQL.

Sign-up refuses a username that differs from another only in case, and sign-in finds an
account from a username typed in another case (``accounts.usernames``): both compare
``UPPER(username)`` with the name typed in upper case. Without an index on that expression each
sign-up read the whole user table. The index is built
``CONCURRENTLY``, so that sign-ups go on while a large table is indexed, and so outside a
transaction; an interrupted build leaves an invalid index behind, which a new run drops first.
SQLite, the embedded database of a single club's machine, compares through an UPPER its
connections take from Python (``arlington_site/sqlite3``), which such an index would not serve:
it gets none.
"""

from django.conf import settings
from django.db import migrations

NAME = "accounts_username_upper"


def users(apps, schema_editor):
    model = apps.get_model(settings.AUTH_USER_MODEL)
    quote = schema_editor.quote_name
    return quote(model._meta.db_table), quote(model._meta.get_field("username").column)


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    table, column = users(apps, schema_editor)
    with schema_editor.connection.cursor() as cursor:  # an interrupted build's invalid index
        cursor.execute(
            "SELECT 1 FROM pg_index JOIN pg_class ON pg_class.oid = pg_index.indexrelid "
            "WHERE pg_class.relname = %s AND NOT pg_index.indisvalid",
            [NAME],
        )
        if cursor.fetchone():
            schema_editor.execute(f"DROP INDEX CONCURRENTLY {NAME}")
    schema_editor.execute(
        f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {NAME} ON {table} (UPPER({column}::text))"
    )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {NAME}")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("accounts", "0003_idempotent_answers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
