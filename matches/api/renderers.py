"""CSV for the tables of the API, made to open cleanly in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# ``?separator=``: what goes between two cells. Spreadsheets set to French, Portuguese and
# most of continental Europe read ``;`` between cells and a decimal comma; the rest ``,``.
SEPARATORS = {"comma": ",", "semicolon": ";"}


class SeparatorQuery(serializers.Serializer):
    separator = serializers.ChoiceField(
        choices=list(SEPARATORS),
        default="comma",
        error_messages={
            "invalid_choice": _('Cells are separated by "comma" or "semicolon", not "{input}".')
        },
    )


def separator(request: Request) -> str:
    """The request's ``?separator=`` (``comma`` when absent); 400 ``invalid_choice`` else."""
    query = SeparatorQuery(data={"separator": request.query_params.get("separator", "comma")})
    query.is_valid(raise_exception=True)
    chosen: str = query.validated_data["separator"]
    return chosen


SEPARATOR = OpenApiParameter(
    "separator",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    enum=list(SEPARATORS),
    default="comma",
    description="What goes between two cells: `comma` (the default), or `semicolon`, which "
    "also writes decimals with a comma (`0,5000`), as spreadsheets set to French, Portuguese "
    "or German read them.",
)


def _cell(value: Any, decimal_comma: bool = False) -> Any:
    """Text that a spreadsheet would run as a formula is quoted; numbers pass as they are,
    a decimal's point written as a comma when ``decimal_comma``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    if decimal_comma and isinstance(value, Decimal | float):
        return str(value).replace(".", ",")
    return value


class CSVRenderer(BaseRenderer):
    """A list of flat rows as CSV after a header row, UTF-8 with a byte-order mark; cells
    apart by commas, or by semicolons with decimal commas (``?separator=semicolon``).

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
        request = (renderer_context or {}).get("request")
        header = list(getattr(view, "csv_header", None) or (rows[0] if rows else []))
        # checked by the view before any work (``separator``), so a 400 leaves in JSON
        chosen = request.query_params.get("separator", "comma") if request else "comma"
        semicolon = SEPARATORS.get(chosen) == ";"
        out = io.StringIO()
        out.write("\ufeff")
        writer = csv.DictWriter(
            out, fieldnames=header, lineterminator="\r\n", delimiter=";" if semicolon else ","
        )
        writer.writeheader()
        writer.writerows(
            {key: _cell(value, decimal_comma=semicolon) for key, value in row.items()}
            for row in rows
        )
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
