"""The one exception handler of the API: every error leaves in the same envelope.

drf-standardized-errors does the formatting; this module teaches it the project's own
exceptions (matches.errors) and Django's "not found", so that none of them becomes a 500.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_standardized_errors.formatter import ExceptionFormatter
from drf_standardized_errors.handler import ExceptionHandler
from drf_standardized_errors.openapi_serializers import ClientErrorEnum, ServerErrorEnum
from drf_standardized_errors.types import CLIENT_ERROR, VALIDATION_ERROR, Error, ErrorType
from rest_framework import exceptions, serializers

from matches.errors import HandRejected, MatchError
from scoring import render


class EnvelopeError(exceptions.APIException):
    """A DRF exception that carries ready-made envelope errors: (code, detail, attr)."""

    def __init__(self, status_code: int, errors: list[Error], validation: bool) -> None:
        self.status_code = status_code
        self.errors = errors
        self.validation = validation
        super().__init__(detail=errors[0].detail if errors else "", code=errors[0].code)


def to_envelope_error(exc: MatchError) -> EnvelopeError:
    """Present a domain error; a rejected hand lists every violation with its path."""
    if isinstance(exc, HandRejected):
        found = [Error(v.code.value, render(v, gettext), v.path) for v in exc.violations]
        return EnvelopeError(400, found, validation=True)
    return EnvelopeError(exc.status, [Error(exc.code, exc.detail, exc.attr)],
                         validation=exc.status == 400)  # fmt: skip


class DatabaseUnavailable(exceptions.APIException):
    status_code = 503
    default_detail = _("The database cannot be reached; nothing was saved. Try again shortly.")
    default_code = "database_unavailable"
    wait = 5  # seconds, answered as Retry-After: a restarting database is back within a few


class ProjectExceptionHandler(ExceptionHandler):
    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, (OperationalError, InterfaceError)):
            return DatabaseUnavailable()
        if isinstance(exc, MatchError):
            return to_envelope_error(exc)
        if isinstance(exc, ObjectDoesNotExist):
            return exceptions.NotFound()
        return super().convert_known_exceptions(exc)


class ProjectExceptionFormatter(ExceptionFormatter):
    def get_error_type(self) -> ErrorType:
        if isinstance(self.exc, EnvelopeError):
            return VALIDATION_ERROR if self.exc.validation else CLIENT_ERROR
        return super().get_error_type()

    def get_errors(self) -> list[Error]:
        if isinstance(self.exc, EnvelopeError):
            return self.exc.errors
        errors: list[Error] = super().get_errors()
        return errors



class _ErrorItemSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


def error_response(
    name: str, codes: list[str], error_type: str = "client_error"
) -> type[serializers.Serializer]:
    """An OpenAPI schema for an error answer that carries one of ``codes``."""
    enum = ClientErrorEnum if error_type == "client_error" else ServerErrorEnum
    item = type(f"{name}ErrorItem", (_ErrorItemSerializer,), {
        "code": serializers.ChoiceField(choices=codes),
    })  # fmt: skip
    return type(f"{name}ErrorResponse", (serializers.Serializer,), {
        "type": serializers.ChoiceField(choices=enum.choices),
        "errors": item(many=True),
    })  # fmt: skip


RequestTooLargeResponse = error_response("RequestTooLarge", ["request_too_large"])
DatabaseUnavailableResponse = error_response(
    "DatabaseUnavailable", ["database_unavailable"], error_type="server_error"
)
