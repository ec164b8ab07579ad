"""Content negotiation: quality values of the Accept header honoured, an unknown format a 406."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.utils.mediatypes import _MediaType


def quality(media_type: _MediaType) -> float:
    """The ``q`` of one Accept entry, 1 when absent or unreadable."""
    try:
        return min(max(float(media_type.params.get("q", "1")), 0.0), 1.0)
    except ValueError:
        return 1.0


class ContentNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, tried on the media types of the highest quality first.

    A media type with ``q=0`` is one the client refuses (RFC 9110, section 12.4.2): it is
    never chosen, and when nothing else is acceptable the answer is 406. Among equal qualities
    DRF's own order applies (the more specific type, then the view's renderer order).
    A ``?format=`` naming no renderer of the view is a 406 too: DRF raises Http404 there,
    which tells a client the resource does not exist when it is the format that is missing.
    """

    def select_renderer(
        self, request: Any, renderers: Any, format_suffix: str | None = None
    ) -> Any:
        accepts = super()._get_parsed_accept_list(request)
        qualities = sorted({quality(m) for m in accepts} - {0.0}, reverse=True)
        for level in qualities:
            self._accepts = [m for m in accepts if quality(m) == level]
            try:
                return super().select_renderer(request, renderers, format_suffix)
            except exceptions.NotAcceptable:
                continue
        raise exceptions.NotAcceptable(available_renderers=renderers)

    def _get_parsed_accept_list(self, request: Any) -> list[_MediaType]:
        accepts: list[_MediaType] = getattr(
            self, "_accepts", None
        ) or super()._get_parsed_accept_list(request)
        return accepts

    def filter_renderers(self, renderers: list[Any], format: str) -> list[Any]:
        # DRF loads this class while it starts, before the error handler's modules can load.
        from drf_standardized_errors.types import CLIENT_ERROR, Error

        from matches.api.errors import EnvelopeError

        found = [renderer for renderer in renderers if renderer.format == format]
        if not found:
            offered = ", ".join(dict.fromkeys(r.format for r in renderers if r.format != "api"))
            detail = _("This format is not offered here; use one of: %(offered)s.") % {
                "offered": offered
            }
            raise EnvelopeError(406, [Error("not_acceptable", detail, "format")], CLIENT_ERROR)
        return found
