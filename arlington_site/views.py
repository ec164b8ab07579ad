"""Site-wide error views: API paths answer with the same JSON envelope as the API."""

from collections.abc import Callable

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from drf_standardized_errors.types import CLIENT_ERROR, SERVER_ERROR, Error

from matches.api.errors import envelope


def _envelope(error_type: str, code: str, detail: str, status: int) -> JsonResponse:
    return JsonResponse(envelope(error_type, [Error(code, detail, None)]), status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Answer 400 with the error envelope under /api/ (a Host the site does not serve, say)."""
    if request.path.startswith("/api/"):
        if isinstance(exception, DisallowedHost):
            detail = _("This site does not answer to the host named in the request.")
            return _envelope("client_error", "disallowed_host", detail, 400)
        return _envelope("client_error", "bad_request", _("The request cannot be read."), 400)
    return defaults.bad_request(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Answer 404 with the error envelope under /api/, with Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return _envelope(CLIENT_ERROR, "not_found", _("Not found."), 404)
    return defaults.page_not_found(request, exception)


def api_not_found(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Middleware: a URL under /api/ that matches nothing answers the envelope under DEBUG too.

    With DEBUG on, as under ``make run``, Django answers such a URL with its own debugging page
    instead of calling ``handler404``, so a client written against a development server would
    get HTML where every other error is JSON. Any other 404 passes as it is.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if (
            response.status_code == 404
            and request.path.startswith("/api/")
            and response.get("Content-Type", "").startswith("text/html")
        ):
            return _envelope(CLIENT_ERROR, "not_found", _("Not found."), 404)
        return response

    return middleware


def server_error(request: HttpRequest) -> HttpResponse:
    """Answer 500 with the error envelope under /api/, with Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return _envelope(SERVER_ERROR, "error", _("A server error occurred."), 500)
    return defaults.server_error(request)
