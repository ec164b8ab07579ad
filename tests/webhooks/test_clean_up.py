"""The worker's daily clean-up: what it deletes and keeps, and the one chain of clean-ups
however many workers start at once."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connections, transaction
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from matches.models import Event
from tests import locks
from tests.factories import record, start_match, went_out
from webhooks import tasks
from webhooks.models import Delivery, DeliveryStatus, Endpoint

PRUNE = "webhooks.tasks.prune"


def waiting_clean_ups() -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=PRUNE, status=TaskResultStatus.READY))


def play_a_hand(client, club, roster) -> None:
    seated = [p.pk for p in roster[:3]]
    match = start_match(client, club, roster[:3])
    assert record(client, match["id"], went_out(seated[0], seated)).status_code == 201


@pytest.mark.django_db
def test_the_clean_up_deletes_what_is_past_its_days_and_keeps_the_rest(
    as_carol, club, roster, receiver, settings
):
    settings.EVENTS_KEPT_DAYS = 7
    Endpoint.objects.create(club=club, url=receiver.url, events=["hand.recorded"])
    play_a_hand(as_carol, club, roster)
    play_a_hand(as_carol, club, roster)
    old = timezone.now() - timedelta(days=8)
    first, second = Delivery.objects.order_by("pk")
    Delivery.objects.filter(pk=first.pk).update(created_at=old, status=DeliveryStatus.SUCCEEDED)
    Delivery.objects.filter(pk=second.pk).update(created_at=old)  # pending: still to send
    Event.objects.filter(pk=first.event_id).update(created_at=old)
    DBTaskResult.objects.filter(pk=first.task_id).update(
        status=TaskResultStatus.SUCCESSFUL, finished_at=old
    )

    tasks.clean_up()

    assert list(Delivery.objects.values_list("pk", flat=True)) == [second.pk]
    assert not Event.objects.filter(pk=first.event_id).exists()
    assert Event.objects.filter(pk=second.event_id).exists()
    assert not DBTaskResult.objects.filter(pk=first.task_id).exists()
    assert DBTaskResult.objects.filter(pk=second.task_id).exists()
    [following] = waiting_clean_ups()  # the next, a day from now
    assert timedelta(hours=23) < following.run_after - timezone.now() <= timedelta(days=1)


@pytest.mark.django_db
def test_a_clean_up_that_finds_one_waiting_queues_no_second():
    tasks.schedule_prune()  # a worker started while this clean-up ran
    tasks.clean_up()
    tasks.schedule_prune()  # and another
    assert len(waiting_clean_ups()) == 1


@pytest.mark.django_db
def test_the_sweep_queues_the_next_clean_up_when_a_stopped_worker_left_none():
    """A worker killed during a clean-up leaves it marked running and queues no next one: the
    sweep queues it, a day later, and only once."""
    tasks.schedule_prune()
    DBTaskResult.objects.filter(task_path=PRUNE).update(
        status=TaskResultStatus.RUNNING, started_at=timezone.now() - timedelta(hours=1)
    )
    assert waiting_clean_ups() == []
    tasks.keep_prune_queued()
    tasks.keep_prune_queued()  # the next sweep
    [following] = waiting_clean_ups()
    assert timedelta(hours=23) < following.run_after - timezone.now() <= timedelta(days=1)


@pytest.mark.django_db(transaction=True)
def test_two_workers_starting_at_once_queue_one_clean_up():
    """The second worker's look waits for the first's queueing to commit, and then finds it."""
    results: dict[str, Any] = {}

    def second_worker() -> None:
        try:
            tasks.schedule_prune()
            results["second"] = "done"
        except Exception as error:  # noqa: BLE001 - reported to the test
            results["second"] = error
        finally:
            connections.close_all()

    second = threading.Thread(target=second_worker, name="second worker", daemon=True)
    with transaction.atomic():  # the first worker's queueing, not yet committed
        tasks.schedule_prune()
        second.start()
        locks.finished_or_waiting(second)
    second.join(timeout=60)
    assert results.get("second") == "done"
    assert len(waiting_clean_ups()) == 1
