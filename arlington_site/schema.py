"""The OpenAPI schema class: drf-standardized-errors' error answers, the language choice shared
by every operation, and the headers every answer carries."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from drf_standardized_errors.openapi import AutoSchema as ErrorsAutoSchema
from drf_standardized_errors.openapi_serializers import ValidationErrorEnum
from rest_framework import serializers

LANGUAGE_CODES = [code for code, _ in settings.LANGUAGES]

LANGUAGE_PARAMETERS = [
    OpenApiParameter(
        "Accept-Language",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=False,
        description=(
            "The language of the human sentences (`detail`) and labels: "
            f"{', '.join(LANGUAGE_CODES)}; English when absent or not offered. "
            "Codes never change with the language. The answer's Content-Language says "
            "which one was used."
        ),
    ),
    OpenApiParameter(
        "lang",
        OpenApiTypes.STR,
        OpenApiParameter.QUERY,
        required=False,
        enum=LANGUAGE_CODES,
        description=(
            "Overrides Accept-Language, for clients that cannot set headers; an unknown value "
            "is ignored."
        ),
    ),
]


CONTENT_LANGUAGE = OpenApiParameter(
    "Content-Language",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description=f"The language of the answer's sentences: one of {', '.join(LANGUAGE_CODES)}.",
)
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    required=True,
    description="Seconds to wait before trying again.",
)
# Written by arlington_site.middleware.RateLimitHeadersMiddleware on every counted answer.
RATE_LIMIT_HEADERS = [
    OpenApiParameter(
        name,
        OpenApiTypes.INT,
        OpenApiParameter.HEADER,
        required=False,
        description=description,
    )
    for name, description in [
        ("RateLimit-Limit", "Requests the tightest rate limit of this request takes a window."),
        ("RateLimit-Remaining", "Requests left in that window."),
        ("RateLimit-Reset", "Seconds until that window turns."),
    ]
]
LOCATION = OpenApiParameter(
    "Location",
    OpenApiTypes.URI,
    OpenApiParameter.HEADER,
    required=True,
    description="The absolute URL of what was created.",
)


def share_language_parameters(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Replace each operation's copy of ``lang`` and ``Accept-Language`` by one shared component,
    whose choices are one ``Language`` schema.

    A generated client then has one language type instead of one per operation.
    """
    shared: dict[str, dict[str, Any]] = {}
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "parameters" not in operation:
                continue
            parameters = []
            for parameter in operation["parameters"]:
                if parameter.get("name") in ("lang", "Accept-Language"):
                    key = "Language" if parameter["name"] == "lang" else "AcceptLanguage"
                    shared[key] = parameter
                    parameter = {"$ref": f"#/components/parameters/{key}"}
                parameters.append(parameter)
            operation["parameters"] = parameters
    if shared:
        components = result.setdefault("components", {})
        language = shared["Language"]["schema"]
        components.setdefault("schemas", {})["Language"] = {
            **language,
            "description": "A language the API speaks.",
        }
        shared["Language"] = {
            **shared["Language"],
            "schema": {"$ref": "#/components/schemas/Language"},
        }
        components.setdefault("parameters", {}).update(shared)
    return result


def declare_content_language(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Content-Language on answers the schema class never sees, such as a DELETE's 204."""
    header = {
        "schema": {"type": "string"},
        "description": CONTENT_LANGUAGE.description,
        "required": True,
    }
    for item in result.get("paths", {}).values():
        for operation in item.values():
            for answer in (
                operation.get("responses", {}).values() if isinstance(operation, dict) else ()
            ):
                answer.setdefault("headers", {}).setdefault("Content-Language", header)
    return result


class ValidationErrorItemSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="Stable code: a field's own (`required`, `invalid`, ...), a notation or rule "
        "code of the engine (docs/rules.md), or a request code (docs/api.md).",
    )
    detail = serializers.CharField(help_text="A human sentence, in the language of the request.")
    attr = serializers.CharField(
        allow_null=True, help_text="Where: a field path such as `results.1.melds.0`, or null."
    )


class ValidationErrorResponseSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ValidationErrorEnum.choices)
    errors = ValidationErrorItemSerializer(many=True)


class AutoSchema(ErrorsAutoSchema):
    """Documents ``Accept-Language`` and ``lang`` on every operation, and one 400 envelope.

    drf-standardized-errors would document a 400 per operation with an enum of field paths
    (``cards.INDEX``) and of the fields' own codes; the API answers real paths (``cards.1``) and
    the engine's codes too, so the enums refused true answers. One open envelope says what a
    client can rely on.
    """

    def get_override_parameters(self) -> list[Any]:
        return [*super().get_override_parameters(), *LANGUAGE_PARAMETERS]

    def _get_serializer_name(
        self, serializer: Any, direction: str, bypass_extensions: bool = False
    ) -> str:
        """``MeldRequest``, not ``MeldRequestRequest``, for a serializer only requests use."""
        name: str = super()._get_serializer_name(serializer, direction, bypass_extensions)
        return name.removesuffix("Request") if name.endswith("RequestRequest") else name

    def _get_response_for_code(
        self,
        serializer: Any,
        status_code: str,
        media_types: Any = None,
        direction: str = "response",
    ) -> Any:
        """Errors are JSON in the envelope, even where the answer itself may be CSV."""
        if media_types is None and str(status_code) >= "400":
            media_types = ["application/json"]
        return super()._get_response_for_code(serializer, status_code, media_types, direction)

    def _get_response_headers_for_code(
        self, status_code: str, direction: str = "response"
    ) -> dict[str, Any]:
        """Every answer's Content-Language; Retry-After on 429 and 503; Location on 201; the
        RateLimit-* headers wherever a rate limit counts the request."""
        headers: dict[str, Any] = super()._get_response_headers_for_code(status_code, direction)
        extra = [CONTENT_LANGUAGE]
        if getattr(self.view, "throttle_classes", None):
            extra.extend(RATE_LIMIT_HEADERS)
        if status_code in ("429", "503"):
            extra.append(RETRY_AFTER)
        if status_code == "201":
            extra.append(LOCATION)
        for parameter in extra:
            header: dict[str, Any] = {
                "schema": build_basic_type(parameter.type),
                "description": parameter.description,
            }
            if parameter.required:
                header["required"] = True
            headers.setdefault(parameter.name, header)
        return headers

    def _should_add_validation_error_response(self) -> bool:
        """On every operation: a NUL in the path or the query string is a 400 before any view
        runs (arlington_site.guards), a malformed If-Match, If-None-Match or Idempotency-Key is
        a 400, and a body read as a free object (a ruling named by its ruleset) is validated by
        the game's own fields."""
        return True

    def _get_serializer_for_validation_error_response(self) -> Any:
        return ValidationErrorResponseSerializer
