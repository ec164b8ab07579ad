"""Read replicas: reads go to a replica, except right after the same client wrote.

Enabled by DATABASE_REPLICA_URLS (docs/deployment.md). A request that writes, and every
request from the same client for REPLICA_PIN_SECONDS afterwards, reads from the primary, so a
scorekeeper who has just recorded a hand always reads it back. Clients are told apart by their
Authorization header or session cookie; the pin lives in the shared cache (Redis when several
app servers run), so it holds whichever server answers next.
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse
from django.utils.connection import ConnectionDoesNotExist
from redis.exceptions import RedisError

PRIMARY = "default"
# What the cache raises when its store is unreachable: Redis, or the database's cache table.
CACHE_ERRORS = (RedisError, DatabaseError, OSError)
logger = logging.getLogger(__name__)
_pinned: contextvars.ContextVar[bool] = contextvars.ContextVar("pinned_to_primary", default=False)


def replica_aliases() -> list[str]:
    return [alias for alias in settings.DATABASES if alias.startswith("replica")]


# A replica that could not be reached is left alone this long (per worker process).
REPLICA_RETRY_SECONDS = 10
_down_until: dict[str, float] = {}


def reachable(alias: str) -> bool:
    """Whether a replica gives a connection; one that does not is skipped for a while.

    A connection this thread already holds is taken as it is (one that broke since fails its
    query once, with a 503, and is replaced); a new one costs the replica's pool timeout at
    most (``DATABASE_REPLICA_POOL_TIMEOUT``) when the replica is down.
    """
    if _down_until.get(alias, 0.0) > time.monotonic():
        return False
    try:
        connections[alias].ensure_connection()
    except ConnectionDoesNotExist:
        return True  # not configured in this process (tests add aliases): nothing to probe
    except DatabaseError:
        logger.warning("replica %s unreachable; reading the primary for a while", alias)
        _down_until[alias] = time.monotonic() + REPLICA_RETRY_SECONDS
        return False
    return True


def _in_transaction(alias: str) -> bool:
    """Whether this thread has a transaction open on ``alias``."""
    try:
        return connections[alias].in_atomic_block
    except ConnectionDoesNotExist:
        return False  # not configured in this process (tests add aliases)


class PrimaryReplicaRouter:
    """Writes and pinned reads to the primary; other reads to a replica chosen at random.

    A read made inside a transaction on the primary reads the primary too, whoever makes it
    (a request, the webhook worker, a management command such as ``rerate``): a replica sees
    neither the transaction's own writes nor the rows it has locked, and lags behind. A read
    made inside a transaction on a replica (a table read from one snapshot) reads that replica.
    A replica that cannot be reached is skipped, for the primary if it is the last one.
    """

    def db_for_read(self, model: Any, **hints: Any) -> str:
        replicas = replica_aliases()
        # The database cache's counts (CACHE_BACKEND=database) are read where they are written.
        cache = getattr(getattr(model, "_meta", None), "app_label", None) == "django_cache"
        if _pinned.get() or not replicas or cache or connections[PRIMARY].in_atomic_block:
            return PRIMARY
        for alias in replicas:
            # a snapshot open on a replica (``selectors.one_snapshot``): its reads stay there
            if _in_transaction(alias):
                return alias
        for alias in random.sample(replicas, len(replicas)):
            if reachable(alias):
                return alias
        return PRIMARY

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the replicas hold the same rows as the primary

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == PRIMARY


def _client_key(request: HttpRequest) -> str | None:
    identity = request.headers.get("Authorization") or request.COOKIES.get(
        settings.SESSION_COOKIE_NAME
    )
    if not identity:
        return None
    return "replica-pin:" + hashlib.sha256(identity.encode()).hexdigest()


class ReadYourWritesMiddleware:
    """Pins a request to the primary when it writes, or when its client wrote moments ago."""

    SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not replica_aliases():
            return self.get_response(request)
        key = _client_key(request)
        writes = request.method not in self.SAFE_METHODS
        token = _pinned.set(writes or (key is not None and _pin_holds(key)))
        try:
            response = self.get_response(request)
        finally:
            _pinned.reset(token)
        if writes and key is not None and response.status_code < 400:
            try:
                cache.set(key, True, settings.REPLICA_PIN_SECONDS)
            except CACHE_ERRORS:
                logger.warning("replica pin not kept: the cache is unreachable")
        return response


def _pin_holds(key: str) -> bool:
    """Whether the client wrote moments ago; when the cache cannot tell, read the primary.

    Reading the primary is always right, only slower, so a lost cache costs no request.
    """
    try:
        return bool(cache.get(key))
    except CACHE_ERRORS:
        logger.warning("replica pin unknown: the cache is unreachable; reading the primary")
        return True
