"""A hand's Idempotency-Key: the answer kept under it, and the mark of a first submission in
flight.

``hand_record`` answers a retry with the same key and body as it answered the first
submission (``stored_hand``, looked for before and again after the match is locked), refuses a
retry while the first is still being recorded (``claim``) and keeps each new answer under its
key (``keep_answer``) for IDEMPOTENCY_KEY_TTL_SECONDS. What is kept of a key is its digest.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import F, Q
from django.utils import timezone

from matches import errors, hands
from matches.models import IdempotencyRecord


def key_digest(key: str) -> str:
    """What is kept of an Idempotency-Key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_lock_id(match_id: int, user_id: int, key: str) -> int:
    """The advisory lock that marks this user's submission with this key as in flight."""
    digest = hashlib.sha256(f"{match_id}:{user_id}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def claim(match_id: int, user_id: int, key: str) -> None:
    """Refuse a retry while the first submission with its key is still being recorded.

    On PostgreSQL a transaction-scoped advisory lock marks the key as in flight: a second
    request gets 409 at once instead of waiting, and the lock ends with the transaction.
    """
    if connection.vendor != "postgresql":
        return  # SQLite (make run) serialises writes anyway
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_try_advisory_xact_lock(%s)", [key_lock_id(match_id, user_id, key)]
        )
        (claimed,) = cursor.fetchone()
    if not claimed:
        raise errors.IdempotencyKeyInProgress()


def stored_hand(
    match_id: int, user: User, key: str, fingerprint: str, *, locked: bool
) -> hands.RecordedHand | None:
    """The hand ``user`` first recorded under ``key``, if its record has not expired. Records
    kept before keys were per user have no user and answer anyone.

    Expired records of the match are deleted only once the match is ``locked``: a request
    that deleted one before it queued for the match held that row while the request holding
    the match came to delete it too, and each waited for the other (a deadlock, a 503).
    """
    cutoff = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL_SECONDS)
    if locked:
        IdempotencyRecord.objects.filter(match_id=match_id, created_at__lt=cutoff).delete()
    stored = (
        IdempotencyRecord.objects.filter(
            match_id=match_id, key=key_digest(key), created_at__gte=cutoff
        )
        .filter(Q(user=user) | Q(user__isnull=True))
        .order_by(F("user").asc(nulls_last=True))
        .first()
    )
    if stored is None:
        return None
    if stored.fingerprint != fingerprint:
        raise errors.IdempotencyKeyReused()
    # records kept before the answer's status was kept beside it carry it in the answer
    agreed = stored.agreed or bool(stored.response.get("agreed"))
    return hands.RecordedHand.from_json(stored.response, replayed=True, agreed=agreed)


def keep_answer(
    match_id: int, user: User, key: str | None, fingerprint: str, recorded: hands.RecordedHand
) -> None:
    """Keep the answer under the user's Idempotency-Key, if the submission has one."""
    if key:
        IdempotencyRecord.objects.create(
            match_id=match_id,
            user=user,
            key=key_digest(key),
            fingerprint=fingerprint,
            response=recorded.to_json(),
            agreed=recorded.agreed,
        )
