"""The project's URLs plus ``/bench/baseline/``, the load benchmark's bare DRF endpoint."""

from django.urls import include, path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class Baseline(APIView):
    """DRF defaults of the project (token auth, IsAuthenticated, throttles); a constant answer."""

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


urlpatterns = [
    path("bench/baseline/", Baseline.as_view()),
    path("", include("arlington_site.urls")),
]

handler404 = "arlington_site.views.not_found"
handler500 = "arlington_site.views.server_error"
