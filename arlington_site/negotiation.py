"""Content negotiation that answers a format it does not offer with 406, not 404."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.negotiation import DefaultContentNegotiation


class ContentNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, except that ``?format=`` naming no renderer of the view is a 406.

    DRF raises Http404 there, which tells a client the resource does not exist, when it is the
    format that is missing.
    """

    def filter_renderers(self, renderers: list[Any], format: str) -> list[Any]:
        # DRF loads this class while it starts, before the error handler's modules can load.
        from drf_standardized_errors.types import Error

        from arlington_site.errors import EnvelopeError

        found = [renderer for renderer in renderers if renderer.format == format]
        if not found:
            offered = ", ".join(dict.fromkeys(r.format for r in renderers if r.format != "api"))
            detail = _("This format is not offered here; use one of: %(offered)s.") % {
                "offered": offered
            }
            raise EnvelopeError(406, [Error("not_acceptable", detail, "format")],
                                validation=False)  # fmt: skip
        return found
