"""GET /healthz: whether this app server can reach its database, for load balancers."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe


@csrf_exempt  # nothing to protect: any other method than GET or HEAD is a 405
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when a trivial query succeeds, 503 otherwise; never cached."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        response = JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    else:
        response = JsonResponse({"status": "ok", "database": "ok"})
    response["Cache-Control"] = "no-store"
    return response
