"""Deleting a webhook while its club is busy: a hand recorded at that moment, an attempt of
one of its deliveries, the sweep for overdue ones; and the worker's own races on a delivery
whose attempt is being written (the sweep, waking it). Real transactions on PostgreSQL, each
side in a thread with its own connection or a connection of the test's own holding a row's
lock. Nothing answers 500, nothing is left pointing at the deleted webhook, and nothing is
queued from a stale read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.db import connection, connections
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from matches import events
from matches.models import EventType
from tests import locks
from tests.factories import client_for, record, start_match, went_out
from webhooks import sending, tasks
from webhooks.models import Delivery, DeliveryStatus, Endpoint

pytestmark = pytest.mark.django_db(transaction=True)


def in_thread(task: Callable[[], Any], results: dict[str, Any], name: str) -> threading.Thread:
    def run() -> None:
        try:
            results[name] = task()
        except Exception as error:  # noqa: BLE001 - reported to the test
            results[name] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


def while_held(delivery_id: int, task: Callable[[], Any], sql: str, params: list[Any]) -> Any:
    """Run ``task`` in a thread while a connection of the test's own holds the delivery's row
    (as the worker does while it writes an attempt's outcome, or a deletion); once the task
    has finished or waits for that row, run ``sql`` on the connection and commit. Returns
    what the task returned (or raised)."""
    results: dict[str, Any] = {}
    with psycopg.connect(**connection.get_connection_params(), autocommit=False) as holder:
        holder.execute("SELECT 1 FROM webhooks_delivery WHERE id = %s FOR UPDATE", [delivery_id])
        thread = in_thread(task, results, "task")
        locks.finished_or_waiting(thread)
        holder.execute(sql, params)
        holder.commit()
    thread.join(timeout=60)
    assert "task" in results, "the task did not end within a minute of the row's release"
    return results["task"]


@pytest.fixture
def webhook(club, settings) -> Endpoint:
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    return Endpoint.objects.create(
        club=club, url="http://127.0.0.1:9/hooks", events=["hand.recorded"]
    )


def test_a_webhook_deleted_while_a_hand_is_written_for_it(
    alice, carol, club, roster, webhook, monkeypatch
):
    """The hand's transaction has written a delivery for the webhook and not committed when
    the owner deletes the webhook: the deletion waits for the hand, then deletes its delivery
    too. Before, the deletion went first and the hand failed at its commit (500)."""
    players = [p.pk for p in roster[:2]]
    match = start_match(client_for(carol), club, roster[:2])
    reached, held, queue = threading.Event(), threading.Event(), tasks.queue

    def queue_once_released(delivery, at=None):
        if threading.current_thread().name == "hand":
            reached.set()  # the delivery written, the transaction open
            held.wait(timeout=60)
        return queue(delivery, at)

    monkeypatch.setattr(tasks, "queue", queue_once_released)
    results: dict[str, Any] = {}
    hand = in_thread(
        lambda: record(client_for(carol), match["id"], went_out(players[0], players)).status_code,
        results,
        "hand",
    )
    assert reached.wait(timeout=60), "the hand never wrote its delivery"
    url = f"/api/v1/clubs/{club.pk}/webhooks/{webhook.pk}/"
    deletion = in_thread(lambda: client_for(alice).delete(url).status_code, results, "delete")
    locks.finished_or_waiting(deletion)
    held.set()
    hand.join(timeout=60)
    deletion.join(timeout=60)
    assert results == {"hand": 201, "delete": 204}
    assert not Endpoint.objects.filter(pk=webhook.pk).exists()
    assert not Delivery.objects.exists()


def test_a_hand_written_while_a_webhook_is_being_deleted_skips_it(carol, club, roster, webhook):
    """The deletion holds the webhook's row when a hand is recorded: the hand waits for it,
    then writes no delivery for the webhook gone. Before, it wrote one and failed at its
    commit (500)."""
    players = [p.pk for p in roster[:2]]
    match = start_match(client_for(carol), club, roster[:2])
    params = connection.get_connection_params()
    results: dict[str, Any] = {}
    with psycopg.connect(**params, autocommit=False) as deleting:
        deleting.execute("SELECT 1 FROM webhooks_endpoint WHERE id = %s FOR UPDATE", [webhook.pk])
        hand = in_thread(
            lambda: (
                record(client_for(carol), match["id"], went_out(players[0], players)).status_code
            ),
            results,
            "hand",
        )
        locks.finished_or_waiting(hand)
        deleting.execute("DELETE FROM webhooks_endpoint WHERE id = %s", [webhook.pk])
        deleting.commit()
    hand.join(timeout=60)
    assert results == {"hand": 201}
    assert not Delivery.objects.exists()


def test_an_attempt_whose_webhook_is_deleted_meanwhile_ends_quietly(club, webhook, monkeypatch):
    """The owner deletes the webhook while its receiver is being called: the attempt's outcome
    has nowhere to go and is dropped; before, the task failed with DoesNotExist."""
    events.write(club_id=club.pk, type=EventType.HAND_RECORDED, data={"match": 1})
    delivery = Delivery.objects.get()

    def send_while_deleted(**message: Any) -> sending.Outcome:
        Endpoint.objects.filter(pk=webhook.pk).delete()  # with its deliveries
        return sending.Outcome(204)

    monkeypatch.setattr(sending, "send", send_while_deleted)
    tasks.attempt(delivery_id=delivery.pk, number=1)
    assert not Endpoint.objects.exists() and not Delivery.objects.exists()


def test_the_sweep_passes_over_a_delivery_deleted_while_it_waited(club, webhook):
    """The sweep lists two overdue deliveries; the first is locked by the deletion of its
    webhook, which commits while the sweep waits for it. The sweep goes on with the second;
    before, it stopped with DoesNotExist, and its thread in the worker with it."""
    other = Endpoint.objects.create(
        club=club, url="http://127.0.0.1:9/other", events=["hand.recorded"]
    )
    events.write(club_id=club.pk, type=EventType.HAND_RECORDED, data={"match": 1})
    long_ago = timezone.now() - timedelta(minutes=10)
    Delivery.objects.update(next_attempt_at=long_ago, queued_for=long_ago, leased_until=None)
    DBTaskResult.objects.all().delete()  # their tasks lost
    doomed = Delivery.objects.get(endpoint=webhook)
    kept = Delivery.objects.get(endpoint=other)
    deleting = "DELETE FROM webhooks_delivery WHERE id = %s"
    assert while_held(doomed.pk, tasks.requeue_overdue, deleting, [doomed.pk]) == 1
    queued_before = kept.task_id
    kept.refresh_from_db()
    assert kept.status == DeliveryStatus.PENDING
    assert kept.task_id != queued_before  # queued again
    assert DBTaskResult.objects.filter(pk=kept.task_id).exists()


def test_the_sweep_leaves_a_delivery_an_attempt_rescheduled_while_it_waited(club, webhook):
    """The sweep lists an overdue delivery; before it locks it, an attempt fails and schedules
    the next retry in five minutes. The sweep finds it no longer overdue and leaves it: before,
    it took the retry for a lost task and queued it at once, ahead of the backoff."""
    events.write(club_id=club.pk, type=EventType.HAND_RECORDED, data={"match": 1})
    Delivery.objects.update(next_attempt_at=timezone.now() - timedelta(minutes=10))
    delivery = Delivery.objects.get()
    retry_at = timezone.now() + timedelta(minutes=5)
    failed = (  # the attempt failed: attempt 1 written, the next one in five minutes
        "UPDATE webhooks_delivery SET attempts = 1, next_attempt_at = %s, "
        "leased_until = NULL WHERE id = %s"
    )
    assert while_held(delivery.pk, tasks.requeue_overdue, failed, [retry_at, delivery.pk]) == 0
    delivery.refresh_from_db()
    assert (delivery.next_attempt_at, delivery.attempts) == (retry_at, 1)


def test_waking_a_delivery_does_not_replace_the_task_of_its_next_attempt(club, webhook):
    """An attempt of the club ends and wakes a waiting delivery; meanwhile that delivery's own
    attempt (its outcome being written, its row locked) fails and queues its retry for later.
    The wake must not queue it again from what it read before: that replaced the retry's task
    with one for the attempt already made, which did nothing, and the delivery waited for the
    sweep."""
    events.write(club_id=club.pk, type=EventType.HAND_RECORDED, data={"match": 1})
    Delivery.objects.update(  # it waits for a place in its club
        next_attempt_at=timezone.now() - timedelta(seconds=1), task_id=tasks.WAITING
    )
    delivery = Delivery.objects.get()
    failed = (  # attempt 1 failed; attempt 2 queued for five minutes from now
        "UPDATE webhooks_delivery SET attempts = 1, next_attempt_at = %s, "
        "leased_until = NULL, task_id = 'retry-task' WHERE id = %s"
    )
    retry_at = timezone.now() + timedelta(minutes=5)
    woken = while_held(
        delivery.pk,
        lambda: tasks._wake_next(club.pk, now=timezone.now()),
        failed,
        [retry_at, delivery.pk],
    )
    assert woken == 0  # it raised nothing, and woke nothing
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.task_id) == (1, "retry-task")


def test_a_deletion_caught_in_a_cycle_of_waits_gives_way_to_the_worker(alice, club, webhook):
    """The worker writes an attempt's outcome: it holds the delivery and then updates its
    webhook's failure count. The owner's deletion has locked the webhook and waits for the
    delivery: a cycle. The deletion waits for each lock a moment only (DELETE_LOCK_WAIT_MS),
    so it gives way, and tries again once the worker is done, instead of PostgreSQL breaking
    the cycle after a second by failing one of the two (the deletion or the attempt)."""
    events.write(club_id=club.pk, type=EventType.HAND_RECORDED, data={"match": 1})
    delivery = Delivery.objects.get()
    params = connection.get_connection_params()
    results: dict[str, Any] = {}
    with psycopg.connect(**params, autocommit=False) as worker:
        worker.execute("SELECT 1 FROM webhooks_delivery WHERE id = %s FOR UPDATE", [delivery.pk])
        url = f"/api/v1/clubs/{club.pk}/webhooks/{webhook.pk}/"
        deletion = in_thread(lambda: client_for(alice).delete(url).status_code, results, "delete")
        locks.finished_or_waiting(deletion)

        def outcome() -> str:
            worker.execute(
                "UPDATE webhooks_endpoint SET failure_count = failure_count + 1 WHERE id = %s",
                [webhook.pk],
            )
            worker.commit()
            return "written"

        writing = in_thread(outcome, results, "outcome")
        writing.join(timeout=60)
    deletion.join(timeout=60)
    assert results == {"delete": 204, "outcome": "written"}
    assert not Endpoint.objects.exists() and not Delivery.objects.exists()


def test_an_attempt_that_finds_the_club_full_as_a_place_frees_is_woken(club, monkeypatch):
    """An attempt counted the club's places all taken, one of them by an attempt about to end;
    that attempt ended and woke the club's waiting ones before the first one's wait was
    committed. The wake must still find it: it waits for the club's lock, which the first one
    holds until its wait is committed. Before, the wake found nobody waiting, and the delivery
    waited for the next sweep (up to half a minute) with a place free."""
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    hooks = Endpoint.objects.bulk_create(  # each known to answer
        Endpoint(
            club=club,
            url=f"http://127.0.0.1:9/{i}",
            events=["match.started"],
            succeeded_at=timezone.now(),
        )
        for i in range(tasks.CLUB_IN_FLIGHT + 1)
    )
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    ending, *running, late = (Delivery.objects.get(endpoint=hook) for hook in hooks)
    later = timezone.now() + tasks.lease()
    Delivery.objects.filter(pk__in=[d.pk for d in running]).update(leased_until=later)

    sent, answer = threading.Event(), threading.Event()

    def send(**message: Any) -> sending.Outcome:
        sent.set()
        answer.wait(60)
        return sending.Outcome(204)

    monkeypatch.setattr(sending, "send", send)
    results: dict[str, Any] = {}
    ender = in_thread(
        lambda: tasks.attempt(delivery_id=ending.pk, number=1, task_id=ending.task_id),
        results,
        "ending",
    )
    assert sent.wait(60)  # its lease taken: the club's places are all taken

    waits, go = threading.Event(), threading.Event()

    def pause_once_waiting(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.startswith('UPDATE "webhooks_delivery" SET "task_id"') and not waits.is_set():
            waits.set()  # it found the club full and waits: not committed yet
            go.wait(60)
        return result

    def attempt_late() -> None:
        with connection.execute_wrapper(pause_once_waiting):
            tasks.attempt(delivery_id=late.pk, number=1, task_id=late.task_id)

    waiter = in_thread(attempt_late, results, "late")
    assert waits.wait(60)
    answer.set()  # the ending attempt's outcome is written, and its wake follows
    locks.finished_or_waiting(ender)
    go.set()
    ender.join(timeout=60)
    waiter.join(timeout=60)
    assert results == {"ending": None, "late": None}

    late.refresh_from_db()
    assert late.task_id != tasks.WAITING  # woken by the attempt that ended
    task = DBTaskResult.objects.get(pk=late.task_id)
    assert task.status == TaskResultStatus.READY
    assert (task.run_after - timezone.now()).total_seconds() <= 1
