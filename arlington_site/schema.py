"""The OpenAPI schema class: drf-standardized-errors' error answers, plus the language choice."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from drf_standardized_errors.openapi import AutoSchema as ErrorsAutoSchema

LANGUAGE_CODES = [code for code, _ in settings.LANGUAGES]

LANGUAGE_PARAMETERS = [
    OpenApiParameter(
        "Accept-Language", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
        description=(
            "The language of the human sentences (`detail`) and labels: "
            f"{', '.join(LANGUAGE_CODES)}; English when absent or not offered. "
            "Codes never change with the language. The answer's Content-Language says "
            "which one was used."
        ),
    ),
    OpenApiParameter(
        "lang", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False, enum=LANGUAGE_CODES,
        description=(
            "Overrides Accept-Language, for clients that cannot set headers; an unknown value "
            "is ignored."
        ),
    ),
]  # fmt: skip


class AutoSchema(ErrorsAutoSchema):
    """Documents ``Accept-Language`` and ``lang`` on every operation."""

    def get_override_parameters(self) -> list[Any]:
        return [*super().get_override_parameters(), *LANGUAGE_PARAMETERS]
