"""Refuse request bodies over a documented size before anything reads them (413)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from drf_standardized_errors.types import CLIENT_ERROR, Error

from matches.errors import envelope


class RequestSizeLimitMiddleware:
    """Answer 413 with the error envelope when Content-Length exceeds MAX_REQUEST_BODY_BYTES.

    Django's own DATA_UPLOAD_MAX_MEMORY_SIZE is not applied to bodies that a parser reads as a
    stream, which is how the JSON API reads them; this check covers every request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit: int = settings.MAX_REQUEST_BODY_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            detail = _("The request body is %(size)d bytes; the limit is %(limit)d bytes.") % {
                "size": length,
                "limit": limit,
            }
            body = envelope(CLIENT_ERROR, [Error("request_too_large", detail, None)])
            return JsonResponse(body, status=413)
        return self.get_response(request)
