"""GET /healthz: whether this app server reaches its database and its cache (load balancers)."""

from __future__ import annotations

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from redis.exceptions import RedisError

PROBE_KEY = "healthz:probe"


def database_reachable() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True


def cache_reachable() -> bool:
    """Whether the shared cache (Redis, or the database's table) answers a read."""
    try:
        cache.get(PROBE_KEY)
    except (RedisError, DatabaseError, OSError):
        return False
    return True


@csrf_exempt  # nothing to protect: any other method than GET or HEAD is a 405
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the cache answer, 503 naming what does not; never cached."""
    parts = {
        "database": "ok" if database_reachable() else "unreachable",
        "cache": "ok" if cache_reachable() else "unreachable",
    }
    healthy = all(state == "ok" for state in parts.values())
    response = JsonResponse(
        {"status": "ok" if healthy else "unavailable", **parts}, status=200 if healthy else 503
    )
    response["Cache-Control"] = "no-store"
    return response
