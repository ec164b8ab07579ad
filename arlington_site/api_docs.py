"""The OpenAPI document and its page (Swagger UI), served quickly and from here only.

Building the document walks every view and serializer (seconds, a megabyte of JSON), and it
only changes with the code: each process builds it once per format and language, on the first
request that asks, and answers every later one from memory with an ETag (a digest of the
bytes), so a client that has it gets a 304. The page loads nothing from another origin: its
assets come from drf-spectacular-sidecar, and a Content-Security-Policy says so to the browser.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any, ClassVar

from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.request import Request

from matches.api import http

# The page's own inline start-up script and styles, everything else from this origin.
DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
    ]
)


class Built:
    """One rendering of the document: its bytes, media type, file name and ETag."""

    def __init__(self, response: Any, request: Request, context: dict[str, Any]) -> None:
        response.accepted_renderer = request.accepted_renderer
        response.accepted_media_type = request.accepted_media_type
        response.renderer_context = context
        response.render()
        self.body: bytes = response.content
        self.content_type: str = response["Content-Type"]
        self.disposition: str = response["Content-Disposition"]
        self.etag = f'"{hashlib.sha256(self.body).hexdigest()[:32]}"'


class SchemaView(SpectacularAPIView):
    """``GET /api/schema/``: the OpenAPI document, built once per process, with an ETag."""

    built: ClassVar[dict[tuple[str, str], Built]] = {}
    building: ClassVar[threading.Lock] = threading.Lock()

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        key = (request.accepted_renderer.format, translation.get_language())
        found = self.built.get(key)
        if found is None:
            with self.building:  # one build at a time: a second request waits for the first
                found = self.built.get(key)
                if found is None:
                    answer = super().get(request, *args, **kwargs)
                    found = Built(answer, request, self.get_renderer_context())
                    self.built[key] = found
        if http.not_modified(request, found.etag):
            return HttpResponse(status=304, headers={"ETag": found.etag})
        return HttpResponse(
            found.body,
            content_type=found.content_type,
            headers={
                "ETag": found.etag,
                "Cache-Control": "no-cache",
                "Content-Disposition": found.disposition,
            },
        )


class DocsPolicy:
    """Sends DOCS_POLICY with a documentation page."""

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        response.headers.setdefault("Content-Security-Policy", DOCS_POLICY)
        return response


class SwaggerView(DocsPolicy, SpectacularSwaggerView):
    """Swagger UI over the document."""
