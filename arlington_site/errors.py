"""The one exception handler of the API: every error leaves in the same envelope.

drf-standardized-errors does the formatting, through ``matches.api.errors.envelope``; this module
teaches it the project's own exceptions (matches.errors) and a database that cannot be reached,
so that none of them becomes a 500. Anything else unexpected, a row a service expected and did
not find included, is a 500: a bug is not dressed up as a 404.
"""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext_lazy as _
from drf_standardized_errors.formatter import ExceptionFormatter
from drf_standardized_errors.handler import ExceptionHandler
from drf_standardized_errors.types import Error, ErrorResponse, ErrorType
from redis.exceptions import RedisError
from rest_framework import exceptions

from matches.api.errors import EnvelopeError, envelope, error_response, to_envelope_error
from matches.errors import MatchError


class DatabaseUnavailable(exceptions.APIException):
    status_code = 503
    default_detail = _("The database cannot be reached; nothing was saved. Try again shortly.")
    default_code = "database_unavailable"
    wait = 5  # seconds, answered as Retry-After: a restarting database is back within a few


class CacheUnavailable(exceptions.APIException):
    status_code = 503
    default_detail = _("The shared cache cannot be reached; try again shortly.")
    default_code = "cache_unavailable"
    wait = 5  # seconds, answered as Retry-After


class ProjectExceptionHandler(ExceptionHandler):
    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, (OperationalError, InterfaceError)):
            return DatabaseUnavailable()
        if isinstance(exc, RedisError):  # a use of the cache that does not fall back by itself
            return CacheUnavailable()
        if isinstance(exc, MatchError):
            return to_envelope_error(exc)
        converted: Exception = super().convert_known_exceptions(exc)
        return converted


class ProjectExceptionFormatter(ExceptionFormatter):
    def get_error_type(self) -> ErrorType:
        if isinstance(self.exc, EnvelopeError):
            return self.exc.error_type
        return super().get_error_type()

    def get_errors(self) -> list[Error]:
        if isinstance(self.exc, EnvelopeError):
            return self.exc.errors
        errors: list[Error] = super().get_errors()
        return errors

    def format_error_response(self, error_response: ErrorResponse) -> Any:
        return envelope(error_response.type, error_response.errors)


RequestTooLargeResponse = error_response("RequestTooLarge", ["request_too_large"])
DatabaseUnavailableResponse = error_response(
    "DatabaseUnavailable",
    ["database_unavailable", "cache_unavailable", "sign_in_unavailable"],
    error_type="server_error",
)
