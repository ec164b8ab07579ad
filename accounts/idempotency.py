"""Idempotency-Key on every POST that creates something: a retry gets the first answer.

A client on a flaky network may send a creating request twice. With the same
``Idempotency-Key`` and the same body, the second gets the first answer again, marked
``Idempotent-Replayed: true``, and nothing new is created; the same key with another body is
refused (422). While the first is still running, a retry is told so at once (409); once it has
committed, every retry, however many arrive together, gets its answer.

Answers are kept per requester and route for IDEMPOTENCY_KEY_TTL_SECONDS, under a digest of
the key; the answer itself is encrypted with a keystream drawn from the key (HMAC-SHA256 in
counter mode, keyed by the key and SECRET_KEY), so that a copy of the table gives away no
device token it keeps for a retry.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from accounts.models import IdempotentAnswer

MAX_KEY = 255
# The header as ``key_of`` reads it, for the OpenAPI description: any other is a 400.
KEY_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_KEY, "pattern": "^[ -~]+$"}
KEPT_HEADERS = ("Location", "ETag")


class InvalidIdempotencyKey(exceptions.ValidationError):
    """A malformed header: a 400 in the validation envelope, its ``attr`` the header's name,
    like every other malformed header the API reads (If-Match, If-None-Match)."""

    def __init__(self) -> None:
        message = _("An Idempotency-Key is 1 to {limit} printable ASCII characters.")
        detail = str(message).format(limit=MAX_KEY)
        super().__init__({"Idempotency-Key": [detail]}, code="invalid_idempotency_key")


class IdempotencyKeyInProgress(exceptions.APIException):
    status_code = 409
    default_code = "idempotency_key_in_progress"
    default_detail = _(
        "A request with this Idempotency-Key is still being recorded; retry in a moment to "
        "receive its answer."
    )


class IdempotencyKeyReused(exceptions.APIException):
    status_code = 422
    default_code = "idempotency_key_reused"
    default_detail = _("This Idempotency-Key was already used with a different request body.")


def key_of(request: Request) -> str | None:
    """The request's Idempotency-Key, if any: 1 to 255 printable ASCII characters."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 0 < len(key) <= MAX_KEY or not (key.isascii() and key.isprintable()):
        raise InvalidIdempotencyKey()
    return key


def _secret(key: str) -> bytes:
    """What the key and SECRET_KEY make together: nothing kept in the table gives it away."""
    return hmac.new(settings.SECRET_KEY.encode(), b"idempotency:" + key.encode(), "sha256").digest()


def fingerprint(key: str, data: Any) -> str:
    """A keyed digest of a request body, to tell a retry from another request with the same key
    (keyed, so that a body holding a password cannot be guessed back from it)."""
    body = json.dumps(data, sort_keys=True, default=str).encode()
    return hmac.new(_secret(key), body, "sha256").hexdigest()


def _keystream(key: str, length: int) -> bytes:
    pad = _secret(key)
    blocks = (
        hmac.new(pad, counter.to_bytes(8, "big"), "sha256").digest()
        for counter in range(length // 32 + 1)
    )
    return b"".join(blocks)[:length]


def _xor(data: bytes, key: str) -> bytes:
    stream = _keystream(key, len(data))
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def _seal(key: str, answer: dict[str, Any]) -> str:
    plain = json.dumps(answer, cls=JSONEncoder).encode()
    return base64.b64encode(_xor(plain, key)).decode()


def _open(key: str, sealed: str) -> dict[str, Any]:
    opened: dict[str, Any] = json.loads(_xor(base64.b64decode(sealed), key))
    return opened


def _replay(found: IdempotentAnswer, key: str, print_: str) -> Response:
    if found.fingerprint != print_:
        raise IdempotencyKeyReused()
    kept = _open(key, found.answer)
    response = Response(kept["body"], status=found.status_code, headers=kept["headers"])
    response["Idempotent-Replayed"] = "true"
    return response


def _stored(user: User, route: str, digest: str) -> IdempotentAnswer | None:
    cutoff = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL_SECONDS)
    IdempotentAnswer.objects.filter(user=user, created_at__lt=cutoff).delete()
    return IdempotentAnswer.objects.filter(user=user, route=route, key_digest=digest).first()


def _claim(user: User, route: str, digest: str) -> None:
    """Mark the key as in flight for this transaction (PostgreSQL); a second claim gets 409."""
    if connection.vendor != "postgresql":
        return  # SQLite (make run) serialises writes anyway
    lock = int.from_bytes(hashlib.sha256(f"{user.pk}:{route}:{digest}".encode()).digest()[:8])
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [lock - 2**63])
        (claimed,) = cursor.fetchone()
    if not claimed:
        raise IdempotencyKeyInProgress()


def answer_once(
    *,
    request: Request,
    user: User,
    create: Callable[[], Response],
    prepare: Callable[[], None] | None = None,
) -> Response:
    """Answer a creating POST by ``create``, once per Idempotency-Key of ``user`` on its route.

    Without the header, ``prepare`` (if any) then ``create`` simply run. With it, a committed
    first answer is replayed (without waiting for any lock, and without ``prepare``);
    otherwise ``prepare`` runs, then the key is claimed, ``create`` runs and its answer, if a
    success, is kept in the same transaction as what it created. ``prepare`` runs outside that
    transaction: a slow step there (asking a name server) holds no lock.
    """
    key = key_of(request)
    if key is None:
        if prepare is not None:
            prepare()
        return create()
    route, digest = request.path, hashlib.sha256(key.encode()).hexdigest()
    print_ = fingerprint(key, request.data)
    found = _stored(user, route, digest)
    if found is not None:
        return _replay(found, key, print_)
    if prepare is not None:
        prepare()
    with transaction.atomic():
        _claim(user, route, digest)
        found = _stored(user, route, digest)
        if found is not None:
            return _replay(found, key, print_)
        response = create()
        if response.status_code < 300:
            headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
            IdempotentAnswer.objects.create(
                user=user,
                route=route,
                key_digest=digest,
                fingerprint=print_,
                status_code=response.status_code,
                answer=_seal(key, {"body": response.data, "headers": headers}),
            )
    return response


def idempotent(method: Callable[..., Response]) -> Callable[..., Response]:
    """Make a view's creating method (``create``, ``post``) honour Idempotency-Key."""

    def honouring_the_key(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        user = cast(User, request.user)  # the view admits only signed-in requesters
        return answer_once(
            request=request, user=user, create=lambda: method(view, request, *args, **kwargs)
        )

    honouring_the_key.__name__ = method.__name__
    honouring_the_key.__doc__ = method.__doc__
    return honouring_the_key
