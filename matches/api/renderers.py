"""CSV for the tables of the API, made to open cleanly in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import BaseRenderer

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """Text that a spreadsheet would run as a formula is quoted; numbers pass as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class CSVRenderer(BaseRenderer):
    """A list of flat rows as CSV after a header row, UTF-8 with a byte-order mark.

    The header is the view's ``csv_header`` (so an empty table still has one), or else the keys
    of the first row. The mark makes spreadsheet programs read accented names as UTF-8. Views
    that offer CSV answer their errors in JSON (``views.CSVErrorsAsJSON``), so only tables
    reach this renderer.
    """

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        rows = list(data or [])
        view = (renderer_context or {}).get("view")
        header = list(getattr(view, "csv_header", None) or (rows[0] if rows else []))
        out = io.StringIO()
        out.write("\ufeff")
        writer = csv.DictWriter(out, fieldnames=header, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows({key: _cell(value) for key, value in row.items()} for row in rows)
        return out.getvalue().encode(self.charset)


def attachment(*parts: str, day: date) -> str:
    """A ``Content-Disposition`` that saves a CSV answer as ``<parts>-<date>.csv``: each part
    in plain lower-case letters, digits and hyphens, so the name is safe on any system.

    >>> attachment("Café Lisboa", "", "Standings", day=date(2026, 3, 1))
    'attachment; filename="cafe-lisboa-standings-2026-03-01.csv"'
    """
    name = "-".join(slug for slug in (slugify(part) for part in parts) if slug)
    return f'attachment; filename="{name}-{day.isoformat()}.csv"'


DOWNLOAD = OpenApiParameter(
    "Content-Disposition",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='A download: `attachment; filename="<club>-<what>-<date>.csv"` (lower-case '
    "letters, digits and hyphens; the date as YYYY-MM-DD).",
    required=True,
    response=[200],
)
