"""The feed never skips: an event that commits late is never behind a cursor already returned.

Real transactions on PostgreSQL, each writer in a thread with its own connection; the reader
pages through ``GET clubs/{id}/events/`` as an integrator would.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections, transaction

from matches import events
from matches.models import Event, EventType
from tests import locks
from tests.factories import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def in_thread(task: Callable[[], object]) -> threading.Thread:
    """Run ``task`` in a thread with its own connection, closed when it ends."""

    def run() -> None:
        try:
            task()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def write(club_id: int, match: int) -> int:
    return events.write(club_id=club_id, type=EventType.MATCH_STARTED, data={"match": match}).pk


def read_all(client, club_id: int, after: int) -> tuple[list[int], int]:
    """Every page after the cursor; the positions read and the cursor to keep."""
    read: list[int] = []
    url: str | None = f"/api/v1/clubs/{club_id}/events/?after={after}&limit=7"
    while url:
        page = client.get(url).json()
        read += [event["position"] for event in page["results"]]
        url = page["next"]
    return read, (read[-1] if read else after)


def test_an_event_that_commits_late_is_read_after_the_cursor(club, victor):
    written, release = threading.Event(), threading.Event()
    ids: dict[str, int] = {}

    def late() -> None:
        with transaction.atomic():
            ids["late"] = write(club.pk, 1)
            written.set()
            release.wait(timeout=30)

    def early() -> None:
        ids["early"] = write(club.pk, 2)

    late_thread = in_thread(late)
    assert written.wait(timeout=10)
    early_thread = in_thread(early)
    locks.finished_or_waiting(early_thread)
    reader = client_for(victor)
    first, cursor = read_all(reader, club.pk, 0)

    release.set()
    late_thread.join(timeout=10)
    early_thread.join(timeout=10)
    rest, _ = read_all(reader, club.pk, cursor)

    late_event, early_event = Event.objects.get(pk=ids["late"]), Event.objects.get(pk=ids["early"])
    assert late_event.position < early_event.position
    assert first + rest == [late_event.position, early_event.position]


def test_another_clubs_writer_does_not_wait(club, bobs_club):
    written, release = threading.Event(), threading.Event()

    def holding() -> None:
        with transaction.atomic():
            write(club.pk, 1)
            written.set()
            release.wait(timeout=30)

    holder = in_thread(holding)
    assert written.wait(timeout=10)
    other = in_thread(lambda: write(bobs_club.pk, 1))
    other.join(timeout=10)
    try:
        assert not other.is_alive()
        assert Event.objects.filter(club=bobs_club).count() == 1
    finally:
        release.set()
        holder.join(timeout=10)


def test_parallel_writers_and_a_paging_reader_never_lose_an_event(club, victor):
    writers, each = 3, 25
    done = threading.Event()
    read: list[int] = []

    def writer(number: int) -> None:
        for i in range(each):
            with transaction.atomic():
                write(club.pk, number * 100 + i)
                # Work after the event, before the commit: a window for another writer.
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_sleep(random() * 0.01)")

    def reader() -> None:
        client, cursor = client_for(victor), 0
        while not done.is_set():
            page, cursor = read_all(client, club.pk, cursor)
            read.extend(page)
        page, cursor = read_all(client, club.pk, cursor)
        read.extend(page)

    threads = [in_thread(lambda n=n: writer(n)) for n in range(writers)]
    reading = in_thread(reader)
    for thread in threads:
        thread.join(timeout=60)
    done.set()
    reading.join(timeout=60)

    assert not reading.is_alive()
    assert read == list(range(1, writers * each + 1))
    assert sorted(Event.objects.filter(club=club).values_list("position", flat=True)) == read
