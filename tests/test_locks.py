"""The helper racing tests wait with (tests/locks.py) sees who waits, as they start waiting."""

from __future__ import annotations

import threading

import psycopg
import pytest
from django.db import connection, transaction

from tests import harness, locks
from tests.database import server_url

KEY = 364_21  # an advisory lock no code of the project takes


@pytest.mark.django_db(transaction=True)
def test_a_look_from_inside_a_transaction_sees_a_session_that_began_to_wait_after_the_first():
    url = server_url(connection.settings_dict, connection.settings_dict["NAME"])
    with (
        psycopg.connect(url, autocommit=True) as holder,
        psycopg.connect(url, autocommit=True) as observer,
        transaction.atomic(),  # the test's own transaction, as in a test holding a row
    ):
        assert locks.waiting_for_a_lock() == 0  # the first look, before anyone waits
        holder.execute("SELECT pg_advisory_lock(%s)", [KEY])
        waiter = psycopg.connect(url, autocommit=True)  # a session that did not exist then
        thread = threading.Thread(
            target=lambda: waiter.execute("SELECT pg_advisory_lock(%s)", [KEY]), daemon=True
        )
        thread.start()
        try:
            harness.wait_until(  # seen from a connection with no transaction of its own
                lambda: (
                    observer.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND datname = current_database()"
                    ).fetchone()[0]
                    == 1
                ),
                what="the second session waiting for the advisory lock",
            )

            assert locks.waiting_for_a_lock() == 1
        finally:
            holder.execute("SELECT pg_advisory_unlock(%s)", [KEY])
            thread.join(timeout=60)
            waiter.close()  # its session ends, and its lock with it
