"""The webhooks' worker side, run by ``python manage.py worker`` (django-tasks' database backend).

A delivery's attempts are tasks on the queue: ``queue`` puts one there, in the caller's
transaction; the worker runs ``deliver``, which makes the attempt (``attempt``) and, when it
fails, queues the next after the next of ``RETRY_DELAYS``. The request side
(``webhooks.services``) queues through this module and this module never imports it, so the
two read one way.
"""

from __future__ import annotations

import time
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone
from django_tasks import TaskContext, task

from matches.models import Club, Event
from webhooks import sending
from webhooks.models import Attempt, Delivery, DeliveryStatus, Endpoint

RETRY_DELAYS = (
    timedelta(seconds=5),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=5),
    timedelta(hours=10),
    timedelta(hours=10),
)
"""After each failed attempt, the wait before the next (Svix's schedule): 8 attempts in all,
over about 28 hours."""
DISABLE_AFTER = len(RETRY_DELAYS) + 1
"""Failed attempts in a row, ending a delivery's last, that disable an endpoint."""

CLUB_IN_FLIGHT = 2
"""Attempts to one club's webhooks made at once, at most: its slow receivers never hold more
of the workers than this. A webhook has one attempt at a time, and the club's untried webhooks
(``UNTRIED``: their last attempt failed, or none has ever succeeded) share one place among them
all, so that receivers that hang, new or known to fail, hold one of the club's places, never
both, and its webhooks known to answer go on in the other."""
UNTRIED = Q(endpoint__failure_count__gt=0) | Q(endpoint__succeeded_at__isnull=True)
"""A delivery's webhook is failing (its last attempt failed) or new (none has ever succeeded)."""
WAITING = "waiting"
"""The ``task_id`` of a delivery that waits for a place in its club (``_lease`` found the club
at CLUB_IN_FLIGHT, or its webhook or the club's untried ones busy): it has no task on the
queue. An attempt that ends wakes the club's longest-waiting ones at once (``_wake_next``), and
each sweep wakes them too, should no attempt end (its worker was killed). So a busy club's
backlog costs nothing while it waits: it is not taken up and put back ahead of other clubs' new
deliveries, and the sweep does not take it for lost."""
OVERDUE = timedelta(seconds=60)
"""A pending delivery not attempted this long after it was due is queued again by the sweep
(the worker's ``--overdue-after``)."""
SWEEP_EVERY = timedelta(seconds=30)
"""How often each running worker sweeps for overdue deliveries."""


LEASE_MARGIN = timedelta(seconds=10)
"""What a lease holds beyond the attempt's longest (to connect, then to answer): time to write
its outcome on a busy database."""


def lease() -> timedelta:
    """How long an attempt may run (to connect, then to answer, and a margin) before the sweep
    may hand it to another worker: 30 s with the default 10 s timeout."""
    return timedelta(seconds=2 * sending.timeout_seconds()) + LEASE_MARGIN


@task(takes_context=True)
def deliver(context: TaskContext, delivery_id: int, number: int) -> None:
    """Attempt ``number`` of a delivery, unless this task is a stale copy."""
    attempt(delivery_id=delivery_id, number=number, task_id=str(context.task_result.id))


@task()
def prune() -> None:
    """Delete the events and deliveries past EVENTS_KEPT_DAYS; come back in a day."""
    clean_up()


def queue(delivery: Delivery, at: Any = None) -> None:
    """Put the delivery's next attempt on the queue, in the caller's transaction, to run at
    ``at`` (now when None); a copy queued before is stale from now on, and does nothing when
    it runs.

    The queue takes ready tasks by the time they may run, and one queued without a time sorts
    after all that have one: an attempt due now is given the time now, so that it is taken in
    turn with other clubs' new ones. ``queued_for`` keeps that time: a task not run long after
    it was lost (``requeue_overdue``).
    """
    run_after = timezone.now() if at is None else at
    task = deliver.using(run_after=run_after)
    delivery.task_id = str(task.enqueue(delivery.pk, delivery.attempts + 1).id)
    delivery.queued_for = run_after
    Delivery.objects.filter(pk=delivery.pk).update(task_id=delivery.task_id, queued_for=run_after)


def queue_new(delivery: Delivery, club_id: int) -> None:
    """Queue a new delivery's first attempt, unless its club already has CLUB_IN_FLIGHT
    attempts running or queued to run now: then it waits (WAITING), with no task, until an
    attempt of the club ends (``_wake_next``) or a sweep wakes it.

    Without that cap, a club's backlog (hundreds of deliveries written while no worker ran, or
    while its receivers were slow) sat on the queue ahead of every other club's new deliveries:
    the queue takes tasks in the order they are due, and each of the backlog's was taken up
    once, found the club full and put to wait, one at a time, while the other clubs' messages
    waited behind them for a minute or more. The caller writes the delivery in the event's
    transaction, which holds the club's row (the event's place in the feed): two events of the
    club count one after the other."""
    now = timezone.now()
    ahead = (
        Delivery.objects.filter(endpoint__club_id=club_id, status=DeliveryStatus.PENDING)
        .exclude(task_id__in=("", WAITING))
        .filter(Q(leased_until__gt=now) | Q(leased_until__isnull=True, queued_for__lte=now))
    )
    if ahead.count() >= CLUB_IN_FLIGHT:
        delivery.task_id, delivery.queued_for = WAITING, None
        Delivery.objects.filter(pk=delivery.pk).update(task_id=WAITING, queued_for=None)
        return
    queue(delivery)


def _hold_club(club_id: int) -> None:
    """Lock the club's row until the transaction ends: its attempts' places are counted and
    given one at a time. ``NO KEY UPDATE``: a write that only refers to the club (a member
    joining, a match seated) does not wait for it; a write with an event (a hand recorded, a
    match started) does, for a moment: its place in the club's feed updates the same row."""
    no_key = connection.features.has_select_for_no_key_update
    Club.objects.select_for_update(no_key=no_key).filter(pk=club_id).exists()


def _lease(*, delivery_id: int, number: int, task_id: str | None) -> Delivery | None:
    """Take the lease of attempt ``number``, or None: the attempt is made or being made, the
    task is a stale copy, or the club has CLUB_IN_FLIGHT attempts running, or the webhook has
    an attempt running, or it is untried and another untried one of the club has (in these
    three the delivery waits, with no task, to be woken: WAITING)."""
    with transaction.atomic():
        locked = (
            Delivery.objects.select_for_update(of=("self",))
            .select_related("endpoint")
            .filter(pk=delivery_id)
            .first()
        )
        now = timezone.now()
        if (
            locked is None
            or locked.status != DeliveryStatus.PENDING
            or locked.attempts + 1 != number
            or (task_id is not None and locked.task_id not in ("", task_id))
            or (locked.leased_until is not None and locked.leased_until > now)
        ):
            return None
        club_id = locked.endpoint.club_id
        _hold_club(club_id)
        running = Delivery.objects.filter(endpoint__club_id=club_id, leased_until__gt=now)
        endpoint = locked.endpoint
        untried = endpoint.failure_count > 0 or endpoint.succeeded_at is None
        full = running.count() >= CLUB_IN_FLIGHT
        if (
            full
            or running.filter(endpoint_id=locked.endpoint_id).exists()
            or (untried and running.filter(UNTRIED).exists())
        ):
            Delivery.objects.filter(pk=locked.pk).update(task_id=WAITING, queued_for=None)
            if not full:
                # a place is free that this delivery cannot take (its webhook, or the club's
                # untried ones, busy): another waiting delivery that can is queued for it, as
                # an ending attempt would (new deliveries wait behind queued ones: queue_new)
                transaction.on_commit(lambda: _wake_next(club_id, now=timezone.now()))
            return None
        locked.leased_until = now + lease()
        locked.save(update_fields=["leased_until"])
        return locked


def attempt(*, delivery_id: int, number: int, task_id: str | None = None) -> None:
    """Make attempt ``number`` of a delivery, if it is still due; queue the next if it fails.

    The attempt is a lease (``lease()``): taken before the request, given back with its outcome.
    The request is sent outside any transaction; its outcome is written under the delivery's
    lock, so a duplicate task (at-least-once) finds the attempt made and does nothing. A worker
    killed during the attempt leaves the lease to run out; ``requeue_overdue`` then queues the
    attempt again.
    """
    delivery = _lease(delivery_id=delivery_id, number=number, task_id=task_id)
    if delivery is None:
        return
    endpoint = delivery.endpoint
    now = timezone.now()
    started = time.monotonic()
    if endpoint.disabled_at is not None:
        outcome = sending.Outcome(None, error="webhook_disabled")
    else:
        outcome = sending.send(
            url=endpoint.url,
            secrets=endpoint.signing_secrets(now),
            message_id=delivery.message_id,
            payload=delivery.payload,
            at=now,
        )
    duration_ms = round((time.monotonic() - started) * 1000)
    with transaction.atomic():
        locked = Delivery.objects.select_for_update().filter(pk=delivery_id).first()
        if locked is None:  # its webhook was deleted during the attempt: nothing to write
            return
        if locked.status != DeliveryStatus.PENDING or locked.attempts + 1 != number:
            return
        locked.attempts, locked.last_attempt_at, locked.leased_until = number, now, None
        locked.response_status, locked.error = outcome.status, outcome.error
        locked.response_excerpt = outcome.excerpt
        Attempt.objects.create(
            delivery=locked,
            number=number,
            at=now,
            duration_ms=duration_ms,
            response_status=outcome.status,
            response_excerpt=outcome.excerpt,
            error=outcome.error,
        )
        endpoints = Endpoint.objects.filter(pk=endpoint.pk)
        in_schedule = number - locked.schedule_from
        if outcome.succeeded:
            locked.status, locked.next_attempt_at = DeliveryStatus.SUCCEEDED, None
            endpoints.update(failure_count=0, succeeded_at=now)
        elif endpoint.disabled_at is None and in_schedule <= len(RETRY_DELAYS):
            endpoints.update(failure_count=F("failure_count") + 1)
            locked.next_attempt_at = timezone.now() + RETRY_DELAYS[in_schedule - 1]
            queue(locked, at=locked.next_attempt_at)
        else:
            locked.status, locked.next_attempt_at = DeliveryStatus.FAILED, None
            if endpoint.disabled_at is None:
                endpoints.update(failure_count=F("failure_count") + 1)
                endpoints.filter(failure_count__gte=DISABLE_AFTER).update(disabled_at=now)
        locked.save()
        # once the place is free for everyone to see: a waiting attempt woken before the commit
        # could find the club still full and wait again
        club_id = endpoint.club_id
        transaction.on_commit(lambda: _wake_next(club_id, now=timezone.now()))


def _wake_next(club_id: int, *, now: Any) -> int:
    """An attempt of the club ended and freed its place (or the sweep looks for waiting ones):
    queue now the club's longest-waiting delivery (WAITING) that can take it, of a webhook known
    to answer and of an untried one (they hold places apart). Nothing while the club's places
    are all taken. A delivery of a webhook with an attempt running is passed over (it could not
    go: a webhook has one attempt at a time), and so is an untried one while another untried
    webhook of the club has one; so is one whose lease ran out, which the sweep records as cut off
    before its next attempt. One woken that still finds no place waits again.

    The club's lock is taken and let go first: an attempt that found the club full before the
    ending one freed its place holds that lock until its wait is committed, so that it is read
    here as waiting. Without it, that attempt waited for the next sweep with the place free."""
    with transaction.atomic():
        _hold_club(club_id)
        now = max(now, timezone.now())
    running = Delivery.objects.filter(endpoint__club_id=club_id, leased_until__gt=now)
    if running.count() >= CLUB_IN_FLIGHT:
        return 0
    busy = Exists(running.filter(endpoint_id=OuterRef("endpoint_id")))
    due = (
        Delivery.objects.filter(
            leased_until__isnull=True,
            task_id=WAITING,
            endpoint__club_id=club_id,
            status=DeliveryStatus.PENDING,
            next_attempt_at__lte=now,
        )
        .exclude(busy)
        .order_by("next_attempt_at", "pk")
    )
    known = due.exclude(UNTRIED).first()
    untried = None if running.filter(UNTRIED).exists() else due.filter(UNTRIED).first()
    return sum(_wake(waiting.pk) for waiting in (known, untried) if waiting is not None)


def _wake(delivery_id: int) -> bool:
    """Queue a delivery found waiting, once it is locked and read again: an attempt of it may
    have ended since it was found (its next one scheduled later, and queued), and queueing it
    from what was read then would replace that task with one for an attempt already made."""
    with transaction.atomic():
        locked = Delivery.objects.select_for_update().filter(pk=delivery_id).first()
        now = timezone.now()
        if (
            locked is not None
            and locked.status == DeliveryStatus.PENDING
            and locked.task_id == WAITING  # not woken meanwhile by another ending attempt
            and locked.leased_until is None
            and locked.next_attempt_at is not None
            and locked.next_attempt_at <= now
        ):
            queue(locked)
            return True
    return False


WORKER_STOPPED = "worker_stopped"
"""The error of an attempt whose worker stopped before writing its outcome."""


def _cut_off(delivery: Delivery, now: Any) -> None:
    """The attempt under ``delivery``'s run-out lease was begun and its worker stopped (killed,
    or its machine lost) before the outcome was written: it goes into the history as made,
    with the error WORKER_STOPPED (whether the receiver got it is not known), so that the next
    attempt has the next number; its duration is the lease it held. Its task, left running by
    the stopped worker, is marked failed. The attempt does not count against the webhook's
    failures in a row. (A worker that was only slow, past its lease, finds the attempt made
    when it comes to write its outcome, and writes nothing, as for a duplicate task.)"""
    number = delivery.attempts + 1
    held = lease()
    began = delivery.leased_until - held if delivery.leased_until else now
    Attempt.objects.create(
        delivery=delivery,
        number=number,
        at=began,
        duration_ms=round(held.total_seconds() * 1000),
        error=WORKER_STOPPED,
    )
    delivery.attempts, delivery.last_attempt_at, delivery.leased_until = number, began, None
    delivery.response_status, delivery.response_excerpt = None, ""
    delivery.error = WORKER_STOPPED
    _stopped(
        delivery.task_id,
        now,
        f"The worker stopped during attempt {number} of delivery {delivery.pk}; the sweep "
        "queued the next attempt.",
    )


def _stopped(task_id: str, now: Any, why: str) -> None:
    """Mark the task ``task_id`` failed if it is still marked running: its worker stopped (the
    sweep found its delivery overdue), and nothing else would ever finish its row."""
    from django_tasks_db.models import DBTaskResult

    try:
        key = uuid.UUID(task_id)
    except ValueError:  # none, or WAITING
        return
    _mark_stopped(DBTaskResult.objects.filter(pk=key), now, why)


def _mark_stopped(tasks: Any, now: Any, why: str) -> int:
    """Mark failed those of ``tasks`` still marked running, their worker stopped; how many."""
    from django_tasks.base import TaskResultStatus

    marked: int = tasks.filter(status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.FAILED,
        finished_at=now,
        exception_class_path="webhooks.tasks.WorkerStopped",
        traceback=why,
    )
    return marked


def requeue_overdue(*, late: timedelta = OVERDUE) -> int:
    """Queue again the pending deliveries whose task should have run ``late`` ago and has not
    made their attempt (a worker was killed while making it, or its task was lost: gone from
    the queue, or taken and never run), and wake the clubs' deliveries that wait for a place
    (WAITING), should no ending attempt have woken them.

    A task still waiting on the queue for a worker's free loop is late, not lost: it is left in
    its place, and so is one a worker took less than ``late`` ago, about to take its lease. A
    lost one is queued again in the place it had (its time), the longest overdue first. The
    task queued before, if any, becomes stale; one its killed worker left marked running is
    marked failed. An attempt whose lease ran out is kept in the history as cut off
    (``_cut_off``) and counts in the retry schedule: the next one is queued after the
    schedule's delay, and a delivery whose schedule is used up fails. Every worker runs this
    every SWEEP_EVERY. Returns how many were queued."""
    now = timezone.now()
    on_the_queue = _not_lost(late)
    overdue = (
        Delivery.objects.alias(
            queued=Greatest(
                Coalesce("queued_for", "next_attempt_at"), Coalesce("next_attempt_at", "queued_for")
            )
        )
        .filter(
            Q(leased_until__lt=now, next_attempt_at__lt=now - late)
            | (Q(leased_until__isnull=True, queued__lt=now - late) & ~Q(task_id=WAITING)),
            status=DeliveryStatus.PENDING,
        )
        .order_by("queued", "pk")  # the longest overdue first
        .values_list("pk", "task_id", "leased_until")
    )
    count = 0
    for delivery_id, task_id, leased_until in overdue:
        if leased_until is None and task_id in on_the_queue:
            continue  # its task waits for a worker's free loop, or was just taken: not lost
        with transaction.atomic():
            delivery = Delivery.objects.select_for_update().filter(pk=delivery_id).first()
            if delivery is None:  # its webhook was deleted since the list was read
                continue
            # Read again under the lock: an attempt made since the list was read may have
            # rescheduled it (the next retry's task is queued), and it is no longer overdue.
            now = timezone.now()
            if delivery.status == DeliveryStatus.PENDING and _overdue(delivery, now, late):
                if delivery.leased_until is None:
                    if _not_lost(late, delivery.task_id):  # queued again since the list was read
                        continue
                    # its task was lost: queued again in the place it had, ahead of what was
                    # queued after it
                    _stopped(
                        delivery.task_id,
                        now,
                        f"The worker stopped before attempt {delivery.attempts + 1} of delivery "
                        f"{delivery.pk}; the sweep queued it again.",
                    )
                    queue(delivery, at=delivery.queued_for or delivery.next_attempt_at)
                    count += 1
                    continue
                # cut off: it counts in the retry schedule as a failed attempt, so that an
                # attempt that stops its worker every time backs off and ends
                _cut_off(delivery, now)
                in_schedule = delivery.attempts - delivery.schedule_from
                if in_schedule > len(RETRY_DELAYS):
                    delivery.status, delivery.next_attempt_at = DeliveryStatus.FAILED, None
                    delivery.save()
                    continue
                delivery.next_attempt_at = now + RETRY_DELAYS[in_schedule - 1]
                delivery.save()
                queue(delivery, at=delivery.next_attempt_at)
                count += 1
    return count + _wake_waiting()


def _not_lost(late: timedelta, task_id: str | None = None) -> set[str]:
    """The ids of the delivery tasks that are not lost (or of ``task_id`` alone, if it is one of
    them): waiting on the queue for a worker's free loop (READY), however long (on a busy queue,
    longer than the sweep's delay), or taken by a worker less than ``late`` ago and about to
    take their delivery's lease (RUNNING)."""
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    tasks = DBTaskResult.objects.filter(task_path=deliver.module_path).filter(
        Q(status=TaskResultStatus.READY)
        | Q(status=TaskResultStatus.RUNNING, started_at__gte=timezone.now() - late)
    )
    if task_id is not None:
        try:
            tasks = tasks.filter(pk=uuid.UUID(task_id))
        except ValueError:  # no task ("") or none at all (WAITING)
            return set()
    return {str(pk) for pk in tasks.values_list("pk", flat=True)}


def _overdue(delivery: Delivery, now: Any, late: timedelta) -> bool:
    """Whether the sweep takes up a pending delivery: an attempt whose lease ran out and that
    was due ``late`` ago (cut off), or a task that should have run ``late`` ago and has not
    taken its lease (lost). One waiting for a place has no task to lose. The later of when its
    task was to run and when it was due counts: a worker of the release before this field
    schedules a retry without it."""
    if delivery.leased_until is not None:
        due = delivery.next_attempt_at
        return delivery.leased_until < now and due is not None and due < now - late
    known = [at for at in (delivery.queued_for, delivery.next_attempt_at) if at is not None]
    return delivery.task_id != WAITING and bool(known) and max(known) < now - late


def _wake_waiting() -> int:
    """Wake each club's longest-waiting deliveries (``_wake_next``); how many clubs had any."""
    now = timezone.now()
    clubs = (
        Delivery.objects.filter(
            status=DeliveryStatus.PENDING,
            task_id=WAITING,
            leased_until__isnull=True,
            next_attempt_at__lte=now,
        )
        .order_by()
        .values_list("endpoint__club_id", flat=True)
        .distinct()
    )
    woken = 0
    for club_id in list(clubs):
        woken += _wake_next(club_id, now=timezone.now())
    return woken


def clean_up() -> None:
    """Delete what is older than EVENTS_KEPT_DAYS: events, deliveries, finished tasks; mark
    failed the tasks that stopped workers left running (``_stop_left_running``); and queue the
    next clean-up a day from now."""
    from django_tasks_db.models import DBTaskResult

    now = timezone.now()
    before = now - timedelta(days=settings.EVENTS_KEPT_DAYS)
    with transaction.atomic():
        Event.objects.filter(created_at__lt=before).delete()
        Delivery.objects.filter(created_at__lt=before).exclude(
            status=DeliveryStatus.PENDING
        ).delete()
        DBTaskResult.objects.filter(finished_at__lt=before).delete()
        _stop_left_running(now)
        _queue_prune(at=now + timedelta(days=1))


LEFT_RUNNING = timedelta(days=1)
"""How long a task other than an attempt may be marked running before the clean-up takes it for
one whose worker stopped: no clean-up or ratings replay runs that long."""


def _stop_left_running(now: Any) -> int:
    """Mark failed the tasks that stopped workers left marked running, which nothing else would
    ever finish; returns how many.

    A delivery task, once it has been running longer than any attempt could (its lease and the
    sweep's delay), unless it is the task of a pending delivery (the sweep's to take up, through
    ``_stopped``): its delivery has gone since (its webhook deleted), been queued again, or
    ended (the worker stopped after the attempt's outcome was written, before the task's end
    was). Any other task (a clean-up, a ratings replay) once it has been running LEFT_RUNNING.
    """
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    running = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING)
    attempts = running.filter(task_path=deliver.module_path, started_at__lt=now - lease() - OVERDUE)
    ids = {str(pk): pk for pk in attempts.values_list("pk", flat=True)}
    pending = Delivery.objects.filter(task_id__in=ids, status=DeliveryStatus.PENDING)
    current = set(pending.values_list("task_id", flat=True))
    left = [pk for text, pk in ids.items() if text not in current]
    marked = _mark_stopped(
        DBTaskResult.objects.filter(pk__in=left),
        now,
        "The worker stopped during this attempt, and its delivery has been deleted, queued "
        "again or ended since.",
    )
    others = running.exclude(task_path=deliver.module_path).filter(
        started_at__lt=now - LEFT_RUNNING
    )
    return marked + _mark_stopped(
        others, now, "The worker stopped while this task ran: it was still marked running a day on."
    )


PRUNE_LOCK = "webhooks:prune"
"""The advisory lock under which the clean-up is queued (``_queue_prune``)."""


def schedule_prune() -> None:
    """Queue the clean-up unless one is already waiting (each worker does as it starts)."""
    _queue_prune()


def keep_prune_queued() -> None:
    """Queue the clean-up a day from now unless one is already waiting. Each sweep does, so
    that the chain goes on after a clean-up that failed (its next one is queued in its
    transaction) or whose worker was stopped while it ran."""
    _queue_prune(at=timezone.now() + timedelta(days=1))


def _queue_prune(at: Any = None) -> None:
    """Queue the clean-up to run at ``at`` (now when None) unless one is already waiting, so
    that one chain of daily clean-ups runs however many workers start, or clean up, at once.
    The look and the queueing hold a lock: on PostgreSQL a transaction-scoped advisory lock;
    on SQLite the transaction takes the database's write lock with its first statement
    (``transaction_mode`` IMMEDIATE). Without it, two workers starting together would both
    find none waiting and both queue one, and as each clean-up queues the next, the two
    chains would run for ever."""
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [PRUNE_LOCK]
                )
        waiting = DBTaskResult.objects.filter(
            task_path=prune.module_path, status=TaskResultStatus.READY
        ).exists()
        if not waiting:
            (prune if at is None else prune.using(run_after=at)).enqueue()
