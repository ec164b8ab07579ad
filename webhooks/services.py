"""Webhook endpoints and deliveries, the request side: each action in one transaction.

Every event the matches app writes reaches ``event_written`` inside that app's transaction: a
delivery per endpoint that wants it, and its task on the queue (django-tasks' database
backend: a row in the same database), commit or roll back with the event. The worker
(``python manage.py worker``) makes the attempts (``webhooks.tasks``).
"""

from __future__ import annotations

import json
import math
import time
import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import OperationalError, connection, transaction
from django.utils import timezone

from matches.models import Club, Event
from matches.values import when
from webhooks import errors, targets, tasks
from webhooks.models import TEST_TYPE, Delivery, DeliveryStatus, Endpoint, new_secret

MAX_WEBHOOKS_PER_CLUB = 20
"""A club's webhooks at most (GitHub's limit per repository); one more is refused (409)."""
ROTATION_OVERLAP = timedelta(hours=24)
"""How long the secret before a rotation still signs, unless the rotation says otherwise."""


def check_target(url: str) -> None:
    """Refuse a URL whose host does not resolve to public addresses only (``errors.UnsafeTarget``,
    400). It asks the name server, which may take seconds: call it before any transaction opens
    (on the embedded SQLite a transaction holds the one write lock from its start, and every
    table's writes would wait for the answer). Every attempt checks the address again as it
    connects (``webhooks.sending``): this check tells the owner at once."""
    try:
        targets.resolve(url)
    except targets.UnsafeTarget as refused:
        raise errors.UnsafeTarget(refused.code, refused.host) from refused


def _payload(type: str, at: Any, data: Any, event: Event | None = None) -> dict[str, Any]:
    """A message's body, as the Standard Webhooks specification shapes one; an event's also
    carries its ``id`` and its ``position`` in the club's feed, so that a receiver can put
    messages that arrive out of order back in order, and knows where to read the feed from."""
    body: dict[str, Any] = {"type": type, "timestamp": when(at)}
    if event is not None:
        body.update(id=event.pk, position=event.position)
    return {**body, "data": data}


# A club's enabled endpoints and the types each wants, read for every event written (every
# recorded hand, in its transaction). Written out once, and read as plain rows: building the
# statement or the model instances with the ORM cost more than running it, and most clubs have
# none. The same endpoints, in the same order, as
# ``Endpoint.objects.filter(club_id=..., disabled_at__isnull=True)``.
ENABLED_ENDPOINTS = f"""
SELECT endpoint.id, endpoint.events FROM {Endpoint._meta.db_table} AS endpoint
WHERE endpoint.club_id = %s AND endpoint.disabled_at IS NULL
ORDER BY endpoint.id
"""
# On PostgreSQL the endpoints read are held (FOR KEY SHARE, which other writers of the club
# share) until the event's transaction ends: an endpoint being deleted at that moment
# (``endpoint_delete``) is either deleted first, and then not read here, or waits for this
# transaction and deletes its deliveries with the rest. Without it the delivery written here
# could point at an endpoint gone by the commit: the hand's write would fail. SQLite runs
# writing transactions one at a time.
ENABLED_ENDPOINTS_HELD = ENABLED_ENDPOINTS + "FOR KEY SHARE OF endpoint\n"


def event_written(sender: Any, *, event: Event, **kwargs: Any) -> None:
    """A delivery of the event to each enabled endpoint of its club that wants its type."""
    held = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute(ENABLED_ENDPOINTS_HELD if held else ENABLED_ENDPOINTS, [event.club_id])
        endpoints = cursor.fetchall()
    for endpoint_id, events in endpoints:
        # a JSON list of types; Django has the databases hand JSON over as text
        if event.type in (json.loads(events) if isinstance(events, str) else events):
            delivery = Delivery.objects.create(
                endpoint_id=endpoint_id,
                event=event,
                message_id=f"evt_{event.pk}",
                type=event.type,
                payload=_payload(event.type, event.created_at, event.data, event),
            )
            tasks.queue_new(delivery, event.club_id)


def _lock_club(club_id: int) -> None:
    """Hold the club's row until the transaction ends: its webhooks are counted and compared
    by one registration at a time. ``NO KEY UPDATE``: the club's match writes, which hold its
    row ``FOR KEY SHARE`` to read their requester's role, do not wait for a registration."""
    no_key = connection.features.has_select_for_no_key_update
    Club.objects.select_for_update(no_key=no_key).filter(pk=club_id).exists()


def _refuse_duplicate(club_id: int, url: str, events: Sequence[str], *, other_than: int) -> None:
    for existing in Endpoint.objects.filter(club_id=club_id, url=url).exclude(pk=other_than):
        if set(existing.events) == set(events):
            raise errors.DuplicateEndpoint(webhook=existing.pk)


@transaction.atomic
def endpoint_create(
    *, club: Club, url: str, events: Sequence[str], description: str, enabled: bool = True
) -> Endpoint:
    """Register an endpoint, enabled or not; the club may hold MAX_WEBHOOKS_PER_CLUB, and the
    same URL and events once. The caller has checked the URL with ``check_target`` first."""
    _lock_club(club.pk)
    if Endpoint.objects.filter(club=club).count() >= MAX_WEBHOOKS_PER_CLUB:
        raise errors.TooManyEndpoints(limit=MAX_WEBHOOKS_PER_CLUB)
    _refuse_duplicate(club.pk, url, events, other_than=0)
    return Endpoint.objects.create(
        club=club,
        url=url,
        events=list(events),
        description=description,
        disabled_at=None if enabled else timezone.now(),
    )


@transaction.atomic
def endpoint_update(*, endpoint: Endpoint, changes: dict[str, Any]) -> Endpoint:
    """Change an endpoint's URL, events or description; ``enabled: true`` enables it again.

    The endpoint is read again, locked, and only the fields changed are written: what was read
    before (``endpoint``) may be stale, and writing it back whole would undo a secret rotated
    or a disabling by the worker meanwhile. The caller has checked a new URL with
    ``check_target`` first.
    """
    if "url" in changes or "events" in changes:
        _lock_club(endpoint.club_id)
    # NO KEY: a hand's transaction holds the endpoint's key share while it writes a delivery
    no_key = connection.features.has_select_for_no_key_update
    endpoint = Endpoint.objects.select_for_update(no_key=no_key).get(pk=endpoint.pk)
    if "url" in changes or "events" in changes:
        url, events = changes.get("url", endpoint.url), changes.get("events", endpoint.events)
        _refuse_duplicate(endpoint.club_id, url, events, other_than=endpoint.pk)
    fields: list[str] = [name for name in ("url", "events", "description") if name in changes]
    for name in fields:
        setattr(endpoint, name, changes[name])
    if changes.get("enabled") is True:
        endpoint.disabled_at, endpoint.failure_count = None, 0
        fields += ["disabled_at", "failure_count"]
    elif changes.get("enabled") is False and endpoint.disabled_at is None:
        endpoint.disabled_at = timezone.now()
        fields.append("disabled_at")
    endpoint.save(update_fields=[*fields, "updated_at"])
    return endpoint


@transaction.atomic
def secret_rotate(*, endpoint: Endpoint, overlap: timedelta = ROTATION_OVERLAP) -> Endpoint:
    """A new signing secret; attempts are signed with it, and with the old one too for
    ``overlap`` (both signatures in ``webhook-signature``), so receivers can switch over."""
    locked = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
    locked.previous_secret, locked.secret = locked.secret, new_secret()
    locked.previous_secret_until = timezone.now() + overlap
    locked.save(update_fields=["secret", "previous_secret", "previous_secret_until", "updated_at"])
    return locked


DELETE_LOCK_WAIT_MS = 200
"""How long one try of ``endpoint_delete`` waits for each lock (PostgreSQL's lock_timeout): well
under the server's deadlock_timeout (1 s), so that when the deletion closes a cycle of waits
with a club's writes and the worker, the deletion gives way, never a hand or an attempt."""
DELETE_TRIES = 25


def endpoint_delete(*, endpoint: Endpoint) -> None:
    """Delete an endpoint with its deliveries and their attempts.

    The endpoint's row is locked first, so that a write adding a delivery for it is either done
    (its deliveries are deleted too) or waits and then adds none (``event_written``); then its
    deliveries, so that an attempt whose outcome is being written finishes first. Each lock is
    waited for DELETE_LOCK_WAIT_MS at most, and the deletion tried again (DELETE_TRIES times,
    seconds in all): the club's writes and the worker go first. Deleting one already gone
    changes nothing. Raises OperationalError (lock_not_available: a 503, try again) when the
    tries run out.
    """
    for attempt in range(1, DELETE_TRIES + 1):
        try:
            _delete_once(endpoint)
            return
        except OperationalError as error:
            waited = getattr(error.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE
            if not waited or attempt == DELETE_TRIES:
                raise
            time.sleep(0.02 * attempt)  # the writes in its way are a few milliseconds long


LOCK_NOT_AVAILABLE = "55P03"


@transaction.atomic
def _delete_once(endpoint: Endpoint) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = {DELETE_LOCK_WAIT_MS}")
    locked = Endpoint.objects.select_for_update().filter(pk=endpoint.pk).first()
    if locked is None:
        return
    list(Delivery.objects.select_for_update().filter(endpoint=locked).values_list("pk"))
    locked.delete()


@transaction.atomic
def test_send(*, endpoint: Endpoint) -> Delivery:
    """Queue a ``webhook.test`` message to the endpoint, retried as any other."""
    no_key = connection.features.has_select_for_no_key_update
    locked = Endpoint.objects.select_for_update(no_key=no_key).filter(pk=endpoint.pk)
    found = locked.values("disabled_at").first()  # as it is now, not as the request read it
    if found is None:
        raise Endpoint.DoesNotExist()  # deleted a moment ago: not found
    if found["disabled_at"] is not None:
        raise errors.EndpointDisabled(endpoint=endpoint.pk)
    now = timezone.now()
    delivery = Delivery.objects.create(
        endpoint=endpoint,
        message_id=f"test_{uuid.uuid4().hex}",
        type=TEST_TYPE,
        payload=_payload(TEST_TYPE, now, {"club": endpoint.club_id, "webhook": endpoint.pk}),
    )
    tasks.queue(delivery)
    return delivery


@transaction.atomic
def redeliver(*, delivery: Delivery) -> Delivery:
    """Send a delivery again, with the same ``webhook-id``; its retry schedule starts over,
    and the attempts made so far stay in its history. Refused while an attempt of it is being
    made (``errors.AttemptInProgress``): that attempt's outcome would settle it unsent."""
    locked = Delivery.objects.select_for_update().select_related("endpoint").get(pk=delivery.pk)
    if locked.endpoint.disabled_at is not None:
        raise errors.EndpointDisabled(endpoint=locked.endpoint_id)
    now = timezone.now()
    if locked.leased_until is not None and locked.leased_until > now:
        # an attempt is on its way: its outcome would settle the redelivery unsent; it ends
        # when its request does (the lease's margin is for writing its outcome)
        ends = locked.leased_until - tasks.LEASE_MARGIN
        seconds = max(1, math.ceil((ends - now).total_seconds()))
        raise errors.AttemptInProgress(delivery=locked.pk, seconds=seconds)
    locked.status, locked.schedule_from = DeliveryStatus.PENDING, locked.attempts
    locked.next_attempt_at = timezone.now()
    locked.save(update_fields=["status", "schedule_from", "next_attempt_at"])
    tasks.queue(locked)
    return locked
