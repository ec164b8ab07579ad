"""Racing requests on PostgreSQL: the event a test waits for before it lets the other side go.

A test that races two writers holds one of them (a gate, or a connection of its own holding a
row) and waits until the other has either finished or is waiting for a lock: then the order it
wants is fixed, whatever the machine's load. PostgreSQL says who waits in pg_stat_activity.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection, connections

from tests import harness


def waiting_for_a_lock() -> int:
    """How many other sessions of the test database are waiting for a lock right now.

    PostgreSQL keeps the list of sessions a transaction first read from ``pg_stat_activity``
    until the transaction ends (what each waits for is read afresh): a test asking again from
    inside ``transaction.atomic()`` would never see a session that connected after its first
    look, such as a racing thread's. The list is read afresh at each look."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def finished_or_waiting(thread: threading.Thread, *, waiting: int = 1) -> None:
    """Return once ``thread`` has ended, or ``waiting`` sessions wait for a lock."""
    harness.wait_until(
        lambda: not thread.is_alive() or waiting_for_a_lock() >= waiting,
        what=f"{thread.name} finished or waiting for a lock",
    )


def until_waiting(count: int) -> None:
    """Return once ``count`` other sessions wait for a lock."""
    harness.wait_until(
        lambda: waiting_for_a_lock() >= count, what=f"{count} sessions waiting for a lock"
    )


def started(name: str, task: Callable[[], Any], results: dict[str, Any]) -> threading.Thread:
    """``task`` run in a thread named ``name``, on database connections of its own (closed as
    it ends), its result kept as ``results[name]``: the thread, started."""

    def body() -> None:
        try:
            results[name] = task()
        finally:
            connections.close_all()

    thread = threading.Thread(target=body, name=name)
    thread.start()
    return thread


def paused_before(
    marker: str, name: str, task: Callable[[], Any], results: dict[str, Any]
) -> tuple[threading.Thread, threading.Event]:
    """``task`` started as ``started`` starts it, stopped just before the first statement it
    sends whose SQL contains ``marker``: the thread, and the event that lets it go on. Returns
    once the thread has stopped there, or has ended without sending such a statement."""
    reached, release = threading.Event(), threading.Event()

    def pause(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        if marker in sql and not reached.is_set():
            reached.set()
            release.wait(60)
        return execute(sql, params, many, context)

    def body() -> Any:
        with connection.execute_wrapper(pause):
            return task()

    thread = started(name, body, results)
    harness.wait_until(
        lambda: reached.is_set() or not thread.is_alive(), what=f"{name} reaching {marker!r}"
    )
    return thread, release
