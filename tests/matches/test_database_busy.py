"""Which database errors are "busy, try again" (503 database_busy) rather than "out of reach"."""

from __future__ import annotations

import psycopg
import pytest
from django.db import OperationalError

from matches.api.errors import database_busy


def raised_from(cause: BaseException) -> OperationalError:
    """An OperationalError as Django raises it, from the driver's own error."""
    try:
        try:
            raise cause
        except BaseException as error:
            raise OperationalError(str(error)) from error
    except OperationalError as wrapped:
        return wrapped


@pytest.mark.parametrize(
    ("cause", "busy"),
    [
        (psycopg.errors.LockNotAvailable("canceling statement due to lock timeout"), True),
        (psycopg.errors.DeadlockDetected("deadlock detected"), True),  # chosen to give way
        (psycopg.OperationalError("connection refused"), False),
    ],
)
def test_a_lock_not_granted_or_a_deadlock_is_busy_a_lost_server_is_not(cause, busy):
    assert database_busy(raised_from(cause)) is busy
