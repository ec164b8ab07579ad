"""Refuse request bodies over a documented size before anything reads them (413).

Two guards, one limit (MAX_REQUEST_BODY_BYTES): ``BodySizeLimit`` wraps the ASGI application
(the production server), where Django would otherwise read the whole body into a file before
any middleware runs; ``RequestSizeLimitMiddleware`` covers WSGI and the tests' client.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from drf_standardized_errors.types import CLIENT_ERROR, Error

from matches.api.errors import envelope


def _too_large(detail: str) -> bytes:
    return json.dumps(envelope(CLIENT_ERROR, [Error("request_too_large", detail, None)])).encode()


Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodySizeLimit:
    """An ASGI wrapper that answers 413 as soon as a body's declared size (Content-Length) or
    the bytes received so far (a chunked or lying body) pass the limit: nothing more of the
    body is read, and the application sees the client gone and answers nothing."""

    def __init__(self, app: Callable[[Message, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit: int = settings.MAX_REQUEST_BODY_BYTES
        declared = dict(scope["headers"]).get(b"content-length", b"")
        size = int(declared) if declared.isdigit() else 0
        if size > limit:
            detail = _("The request body is %(size)d bytes; the limit is %(limit)d bytes.")
            await self._refuse(send, detail % {"size": size, "limit": limit})
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    detail = _("The request body is over the limit of %(limit)d bytes.")
                    await self._refuse(send, detail % {"limit": limit})
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, counted, send)

    @staticmethod
    async def _refuse(send: Send, detail: str) -> None:
        body = _too_large(detail)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


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
