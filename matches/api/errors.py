"""How the API answers every error: one envelope, built in one place.

Every error of the API leaves as ``{"type", "errors": [{"code", "detail", "attr"}]}``, built by
``envelope``. The exception handler named in the settings (``ProjectExceptionHandler``) formats
DRF's and the project's exceptions (``matches.errors``) through it, and so do the answers given
before a view runs (a body too large, a URL that matches no view). A rule violation becomes an
envelope error in one place, ``violation_errors``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import django.core.validators
import django.forms
import rest_framework.fields
import rest_framework.relations
import rest_framework.validators
from django.db import InterfaceError, OperationalError
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from drf_standardized_errors.formatter import ExceptionFormatter
from drf_standardized_errors.handler import ExceptionHandler
from drf_standardized_errors.openapi_serializers import ClientErrorEnum, ServerErrorEnum
from drf_standardized_errors.types import (
    CLIENT_ERROR,
    VALIDATION_ERROR,
    Error,
    ErrorResponse,
    ErrorType,
)
from redis.exceptions import RedisError
from rest_framework import exceptions, serializers

from matches.errors import (
    DraftChanged,
    EventRefused,
    GameNotInstalled,
    HandAlreadyRecorded,
    HandRejected,
    MatchError,
    NotAllowed,
)
from scoring import Card, MeldCard, Violation, render
from scoring.rulesets import GameMissing

# --- the API's answers ----------------------------------------------------------------------


def envelope(error_type: ErrorType | str, errors: Sequence[Error]) -> dict[str, Any]:
    """The body of an error answer: its type and every error with its code, sentence and path."""
    return {
        "type": error_type,
        "errors": [{"code": e.code, "detail": str(e.detail), "attr": e.attr} for e in errors],
    }


class EnvelopeError(exceptions.APIException):
    """A DRF exception that carries ready-made envelope errors, and what the answer adds to the
    envelope (``extra``: a 409 ``hand_already_recorded`` gives the recorded hand and the
    differences)."""

    def __init__(
        self,
        status_code: int,
        errors: list[Error],
        error_type: ErrorType,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.status_code = status_code
        self.errors = errors
        self.error_type = error_type
        self.extra = extra or {}
        self.wait: int | None = None  # seconds: DRF answers an exception's ``wait`` as Retry-After
        super().__init__(detail=errors[0].detail if errors else "", code=errors[0].code)


def violation_errors(violations: Sequence[Violation]) -> list[Error]:
    """Rule violations as envelope errors: each with its code, its sentence and its path."""
    return [Error(v.code.value, render(v, gettext), v.path) for v in violations]


def to_envelope_error(exc: MatchError) -> EnvelopeError:
    """Present a domain error; a rejected hand or event lists every violation with its path,
    and a changed draft part comes with the draft as it now stands.

    A refused live event lists its violations grouped by path, in the order the paths first
    appear.
    """
    if isinstance(exc, HandRejected):
        return EnvelopeError(400, violation_errors(exc.violations), VALIDATION_ERROR)
    if isinstance(exc, EventRefused):
        paths = list(dict.fromkeys(v.path for v in exc.violations))
        grouped = sorted(exc.violations, key=lambda v: paths.index(v.path))
        return EnvelopeError(exc.status, violation_errors(grouped), CLIENT_ERROR)
    kind: ErrorType = VALIDATION_ERROR if exc.status == 400 else CLIENT_ERROR
    extra = already_recorded(exc) if isinstance(exc, HandAlreadyRecorded) else None
    if isinstance(exc, DraftChanged):
        extra = {"draft": exc.draft}
    error = EnvelopeError(exc.status, [Error(exc.code, exc.detail, exc.attr)], kind, extra)
    if exc.retry_after is not None:
        error.wait = exc.retry_after
    return error


def already_recorded(exc: HandAlreadyRecorded) -> dict[str, Any]:
    """What a 409 ``hand_already_recorded`` adds: the hand as recorded, and every difference."""
    found = exc.differences

    def codes(cards: Sequence[Card | MeldCard]) -> list[str]:
        return [card.code for card in cards]

    return {
        "recorded": exc.recorded.to_json(with_match=False),  # type: ignore[attr-defined]
        "differences": {
            "ending": None
            if found.ending is None
            else {"recorded": str(found.ending[0]), "submitted": str(found.ending[1])},
            "flags": [
                {"name": f.name, "recorded": f.recorded, "submitted": f.submitted}
                for f in found.flags
            ],
            "players": [
                {
                    "player": d.player,
                    "name": exc.names.get(d.player, str(d.player)),  # type: ignore[call-overload]
                    "melds_only_recorded": [codes(m) for m in d.melds_only_recorded],
                    "melds_only_submitted": [codes(m) for m in d.melds_only_submitted],
                    "held_only_recorded": codes(d.held_only_recorded),
                    "held_only_submitted": codes(d.held_only_submitted),
                    "went_out": None
                    if d.went_out is None
                    else {"recorded": d.went_out[0], "submitted": d.went_out[1]},
                }
                for d in found.players
            ],
        },
    }


class DatabaseUnavailable(exceptions.APIException):
    status_code = 503
    default_detail = _("The database cannot be reached; nothing was saved. Try again shortly.")
    default_code = "database_unavailable"
    wait = 5  # seconds, answered as Retry-After: a restarting database is back within a few


class DatabaseBusy(exceptions.APIException):
    status_code = 503
    default_detail = _(
        "The server is busy with other writes and could not save this in time; nothing was "
        "saved. Send it again in a moment."
    )
    default_code = "database_busy"
    wait = 2  # seconds, answered as Retry-After: the writers ahead of it finish within moments


def database_busy(exc: BaseException) -> bool:
    """Whether a database error is a lock not granted in time, not a database out of reach.

    SQLite says "database is locked" when its busy timeout passes; PostgreSQL raises
    lock_not_available (55P03) when a lock_timeout passes, and deadlock_detected (40P01) when
    it chose this transaction to give way in a cycle of waits: tried again, it goes through.
    """
    cause = exc.__cause__
    if getattr(cause, "sqlstate", None) in ("55P03", "40P01"):
        return True
    return "database is locked" in str(exc) or "database table is locked" in str(exc)


class CacheUnavailable(exceptions.APIException):
    status_code = 503
    default_detail = _("The shared cache cannot be reached; try again shortly.")
    default_code = "cache_unavailable"
    wait = 5  # seconds, answered as Retry-After


class ProjectExceptionHandler(ExceptionHandler):
    """drf-standardized-errors, taught the project's own exceptions and a database that cannot
    be reached, so that none of them becomes a 500. Anything else unexpected, a row a service
    expected and did not find included, is a 500: a bug is not dressed up as a 404."""

    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, OperationalError) and database_busy(exc):
            return DatabaseBusy()
        if isinstance(exc, (OperationalError, InterfaceError)):
            return DatabaseUnavailable()
        if isinstance(exc, NotAllowed):
            return exceptions.PermissionDenied()
        if isinstance(exc, RedisError):  # a use of the cache that does not fall back by itself
            return CacheUnavailable()
        if isinstance(exc, MatchError):
            return to_envelope_error(exc)
        if isinstance(exc, GameMissing):  # a match of a game whose package was uninstalled
            return to_envelope_error(GameNotInstalled(game=exc.name))
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
        return [named(located(error)) for error in errors]

    def format_error_response(self, error_response: ErrorResponse) -> Any:
        body = envelope(error_response.type, error_response.errors)
        if isinstance(self.exc, EnvelopeError):
            body.update(self.exc.extra)
        return body


def located(error: Error) -> Error:
    """The error with ``attr`` the path of what it is about: a nested object's or list's own
    error (``results`` sent as ``{}``) is about ``results``, not ``results.non_field_errors``;
    the body's own errors keep ``non_field_errors``."""
    suffix = ".non_field_errors"
    if error.attr is None or not error.attr.endswith(suffix):
        return error
    return Error(error.code, error.detail, error.attr[: -len(suffix)])


def named(error: Error) -> Error:
    """The error, its sentence led by the field's path when it is one of DRF's own sentences.

    DRF says "This field may not be blank." without saying which field; a list of such
    sentences tells a person nothing without reading ``attr``. They become
    "name: This field may not be blank."; the project's own sentences, which name their card or
    field, are left as they are.
    """
    if error.attr is None or not any(s.fullmatch(str(error.detail)) for s in drf_sentences()):
        return error
    detail = gettext("%(field)s: %(message)s") % {"field": error.attr, "message": error.detail}
    return Error(error.code, detail, error.attr)


def drf_sentences() -> list[re.Pattern[str]]:
    """DRF's own sentences for a field's errors, in the active language, their blanks ``.*``."""
    return _drf_sentences(get_language())


@functools.cache
def _drf_sentences(language: str) -> list[re.Pattern[str]]:
    """DRF's fields' and validators' sentences, and Django's form fields' and validators', which
    the query filters (django-filter) answer with."""
    messages: set[str] = set()
    fields = (rest_framework.fields.Field, django.forms.Field)
    for module in (rest_framework.fields, rest_framework.relations, serializers, django.forms):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, fields):
                messages.update(str(m) for m in value.default_error_messages.values())
    validators = [*vars(rest_framework.validators).values(), *vars(django.core.validators).values()]
    for value in validators:
        message = getattr(value, "message", None) if isinstance(value, type) else None
        if isinstance(message, Promise):
            messages.add(str(message))
    blank = re.compile(r"\\\{\w+\\\}|%\\\(\w+\\\)[sd]")  # {name} or %(name)s, escaped
    return [re.compile(blank.sub(".*", re.escape(m)), re.DOTALL) for m in sorted(messages) if m]


# --- their OpenAPI schemas ------------------------------------------------------------------


class _ErrorItemSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


def error_response(
    name: str,
    codes: list[str],
    error_type: str = "client_error",
    extra: dict[str, serializers.Field] | None = None,
) -> type[serializers.Serializer]:
    """An OpenAPI schema for an error answer that carries one of ``codes`` (and ``extra``
    members beside the envelope's)."""
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
            **(extra or {}),
        },
    )


RequestTooLargeResponse = error_response("RequestTooLarge", ["request_too_large"])
DatabaseUnavailableResponse = error_response(
    "DatabaseUnavailable",
    ["database_unavailable", "database_busy", "cache_unavailable", "sign_in_unavailable"],
    error_type="server_error",
)
