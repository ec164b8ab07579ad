"""Refuse requests that cannot be read faithfully, before any view does work on them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _


def envelope(status: int, code: str, detail: str, attr: str | None = None) -> JsonResponse:
    """An error answer in the API's envelope, for answers given before DRF is reached."""
    error_type = "validation_error" if status == 400 else "client_error"
    body = {"type": error_type, "errors": [{"code": code, "detail": detail, "attr": attr}]}
    return JsonResponse(body, status=status)


class RequestGuardMiddleware:
    """Answer 411 to a body without a length and 400 to a NUL in the path or the query.

    - A chunked body (``Transfer-Encoding``) comes without ``Content-Length``, and Django reads
      such a body as empty: the view would answer as if nothing had been sent (``required``).
      It is refused with 411 ``length_required`` instead, which every HTTP client can act on.
    - PostgreSQL cannot store or compare text holding a NUL, so a NUL in a path parameter or a
      query parameter is refused with 400 ``null_characters_not_allowed``, naming it in
      ``attr``, as the JSON parser does for bodies (arlington_site/parsers.py).

    Under ``/api/`` the answer is the API's error envelope; elsewhere a plain 400 or 411.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chunked = "HTTP_TRANSFER_ENCODING" in request.META
        if chunked and not request.META.get("CONTENT_LENGTH"):
            detail = _(
                "Send the request body with a Content-Length header; a body sent in "
                "chunks without one is not read."
            )
            if self.api(request):
                return envelope(411, "length_required", detail)
            return HttpResponse(detail, status=411, content_type="text/plain; charset=utf-8")
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                return self.refuse_nul(request, name.replace("\x00", "\\x00"))
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        for name, value in kwargs.items():
            if isinstance(value, str) and "\x00" in value:
                return self.refuse_nul(request, name)
        if "\x00" in request.path:
            return self.refuse_nul(request, None)
        return None

    @staticmethod
    def api(request: HttpRequest) -> bool:
        return request.path.startswith("/api/")

    def refuse_nul(self, request: HttpRequest, attr: str | None) -> HttpResponse:
        detail = str(ProhibitNullCharactersValidator.message)
        if self.api(request):
            return envelope(400, ProhibitNullCharactersValidator.code, detail, attr)
        return HttpResponseBadRequest(detail, content_type="text/plain; charset=utf-8")
