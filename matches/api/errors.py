"""The API's error answers: one envelope, built by ``envelope``, and its OpenAPI schema.

Every error of the API leaves as ``{"type", "errors": [{"code", "detail", "attr"}]}``: the
exception handler named in the settings formats DRF's and the project's exceptions through
``envelope``, and so do the answers given before a view runs (a body too large, a URL that
matches no view). ``to_envelope_error`` presents the matches app's domain errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext
from drf_standardized_errors.openapi_serializers import ClientErrorEnum, ServerErrorEnum
from drf_standardized_errors.types import CLIENT_ERROR, VALIDATION_ERROR, Error, ErrorType
from rest_framework import exceptions, serializers

from matches.errors import HandRejected, MatchError
from scoring import render


def envelope(error_type: ErrorType | str, errors: Sequence[Error]) -> dict[str, Any]:
    """The body of an error answer: its type and every error with its code, sentence and path."""
    return {
        "type": error_type,
        "errors": [{"code": e.code, "detail": str(e.detail), "attr": e.attr} for e in errors],
    }


class EnvelopeError(exceptions.APIException):
    """A DRF exception that carries ready-made envelope errors."""

    def __init__(self, status_code: int, errors: list[Error], error_type: ErrorType) -> None:
        self.status_code = status_code
        self.errors = errors
        self.error_type = error_type
        super().__init__(detail=errors[0].detail if errors else "", code=errors[0].code)


def to_envelope_error(exc: MatchError) -> EnvelopeError:
    """Present a domain error; a rejected hand lists every violation with its path."""
    if isinstance(exc, HandRejected):
        found = [Error(v.code.value, render(v, gettext), v.path) for v in exc.violations]
        return EnvelopeError(400, found, VALIDATION_ERROR)
    kind: ErrorType = VALIDATION_ERROR if exc.status == 400 else CLIENT_ERROR
    return EnvelopeError(exc.status, [Error(exc.code, exc.detail, exc.attr)], kind)


class _ErrorItemSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


def error_response(
    name: str, codes: list[str], error_type: str = "client_error"
) -> type[serializers.Serializer]:
    """An OpenAPI schema for an error answer that carries one of ``codes``."""
    enum = ClientErrorEnum if error_type == "client_error" else ServerErrorEnum
    item = type(
        f"{name}ErrorItem",
        (_ErrorItemSerializer,),
        {
            "code": serializers.ChoiceField(choices=codes),
        },
    )
    return type(
        f"{name}ErrorResponse",
        (serializers.Serializer,),
        {
            "type": serializers.ChoiceField(choices=enum.choices),
            "errors": item(many=True),
        },
    )
