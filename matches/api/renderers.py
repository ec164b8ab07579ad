"""CSV for the tables of the API, made to open cleanly in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

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
