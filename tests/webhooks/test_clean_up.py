"""The worker's daily clean-up: what it deletes and keeps, the one chain of clean-ups however
many workers start at once, and the delivery tasks that stopped workers left marked running."""

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


@pytest.mark.django_db
def test_a_task_left_running_by_a_stopped_worker_is_marked_failed_once_its_delivery_is_gone(
    as_carol, club, roster, receiver
):
    deleted = Endpoint.objects.create(club=club, url=receiver.url, events=["hand.recorded"])
    kept = Endpoint.objects.create(club=club, url=receiver.url, events=["hand.recorded"])
    play_a_hand(as_carol, club, roster)
    gone_task = Delivery.objects.get(endpoint=deleted).task_id
    current_task = Delivery.objects.get(endpoint=kept).task_id
    just_taken = tasks.deliver.enqueue(0, 1).id  # a task a worker is running right now
    replay = tasks.deliver.enqueue(0, 1).id  # a long task of another kind: not the clean-up's
    DBTaskResult.objects.filter(pk=replay).update(task_path="clubnight.tasks.replay")
    long_ago = timezone.now() - tasks.lease() - tasks.OVERDUE - timedelta(seconds=5)
    DBTaskResult.objects.filter(pk__in=[gone_task, current_task, replay]).update(
        status=TaskResultStatus.RUNNING, started_at=long_ago
    )
    DBTaskResult.objects.filter(pk=just_taken).update(
        status=TaskResultStatus.RUNNING, started_at=timezone.now()
    )
    deleted.delete()  # its deliveries go with it; its killed worker's task stays marked running

    tasks.clean_up()

    gone = DBTaskResult.objects.get(pk=gone_task)
    assert gone.status == TaskResultStatus.FAILED
    assert gone.finished_at is not None
    assert gone.exception_class_path == "webhooks.tasks.WorkerStopped"
    # its delivery's own task is the sweep's to take up; a task just taken is running
    assert DBTaskResult.objects.get(pk=current_task).status == TaskResultStatus.RUNNING
    assert DBTaskResult.objects.get(pk=just_taken).status == TaskResultStatus.RUNNING
    assert DBTaskResult.objects.get(pk=replay).status == TaskResultStatus.RUNNING


@pytest.mark.django_db
def test_tasks_left_running_after_their_work_ended_are_marked_failed(
    as_carol, club, roster, receiver
):
    """A worker killed after an attempt's outcome was written but before its task was marked
    ended leaves a task running whose delivery succeeded; one killed during a clean-up or a
    ratings replay leaves that task running. The clean-up marks them failed: a delivery's once
    it is long past any attempt, another's once it has been running a day."""
    hook = Endpoint.objects.create(club=club, url=receiver.url, events=["hand.recorded"])
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get(endpoint=hook)
    Delivery.objects.filter(pk=delivery.pk).update(status=DeliveryStatus.SUCCEEDED, attempts=1)
    past_any_attempt = timezone.now() - tasks.lease() - tasks.OVERDUE - timedelta(seconds=5)
    DBTaskResult.objects.filter(pk=delivery.task_id).update(
        status=TaskResultStatus.RUNNING, started_at=past_any_attempt
    )
    tasks.schedule_prune()
    clean_up_killed = DBTaskResult.objects.get(task_path=PRUNE)
    replay_killed, replay_running = (tasks.deliver.enqueue(0, 1).id for _ in range(2))
    DBTaskResult.objects.filter(pk__in=[replay_killed, replay_running]).update(
        task_path="clubnight.tasks.replay"
    )
    two_days_ago = timezone.now() - timedelta(days=2)
    DBTaskResult.objects.filter(pk__in=[clean_up_killed.pk, replay_killed]).update(
        status=TaskResultStatus.RUNNING, started_at=two_days_ago
    )
    DBTaskResult.objects.filter(pk=replay_running).update(
        status=TaskResultStatus.RUNNING, started_at=timezone.now() - timedelta(hours=1)
    )

    tasks.clean_up()

    for stopped in (delivery.task_id, clean_up_killed.pk, replay_killed):
        task = DBTaskResult.objects.get(pk=stopped)
        assert task.status == TaskResultStatus.FAILED
        assert task.exception_class_path == "webhooks.tasks.WorkerStopped"
        assert task.finished_at is not None
    assert DBTaskResult.objects.get(pk=replay_running).status == TaskResultStatus.RUNNING
