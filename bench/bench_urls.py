"""The project's URLs plus the load benchmark's two reference endpoints.

``/bench/baseline/`` answers a constant; ``/bench/baseline/?size=N`` answers N bytes of JSON, kept
from the first request (as large as a standings table, to tell what its size costs);
``/bench/write/`` writes one row in a transaction, the least any recorded hand costs
(bench/load.py creates its table in the throwaway database).
"""

from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseBase
from django.urls import include, path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class Baseline(APIView):
    """DRF defaults of the project (token auth, IsAuthenticated, throttles); a constant answer,
    or with ``?size=N`` N bytes of JSON written once, as the standings serve a kept table."""

    sized: dict[int, bytes] = {}

    def get(self, request: Request) -> HttpResponseBase:
        size = request.query_params.get("size")
        if size is None:
            return Response({"ok": True})
        n = int(size)
        if n not in self.sized:
            self.sized[n] = b'["' + b"x" * max(n - 4, 0) + b'"]'
        return HttpResponse(self.sized[n], content_type="application/json")


class OneRowWrite(APIView):
    """The same defaults, and one row inserted in a transaction: the floor of any write."""

    def post(self, request: Request) -> Response:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO bench_write (body) VALUES (%s) RETURNING id", [str(request.data)]
            )
            (row,) = cursor.fetchone()
        return Response({"id": row}, status=201)


urlpatterns = [
    path("bench/baseline/", Baseline.as_view()),
    path("bench/write/", OneRowWrite.as_view()),
    path("", include("arlington_site.urls")),
]

handler404 = "arlington_site.views.not_found"
handler500 = "arlington_site.views.server_error"
