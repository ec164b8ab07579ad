"""Site-wide error views: API paths answer with the same JSON envelope as the API."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from drf_standardized_errors.types import CLIENT_ERROR, SERVER_ERROR, Error

from matches.api.errors import envelope


def _envelope(error_type: str, code: str, detail: str, status: int) -> JsonResponse:
    return JsonResponse(envelope(error_type, [Error(code, detail, None)]), status=status)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Answer 404 with the error envelope under /api/, with Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return _envelope(CLIENT_ERROR, "not_found", _("Not found."), 404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """Answer 500 with the error envelope under /api/, with Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return _envelope(SERVER_ERROR, "error", _("A server error occurred."), 500)
    return defaults.server_error(request)
