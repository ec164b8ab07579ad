"""Signing in: the legacy token exchange (device tokens live in accounts.api)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import CharField, Serializer
from rest_framework.settings import api_settings

from accounts.throttles import AccountSignInThrottle, AddressSignInThrottle, forgive, settle


class TokenSerializer(Serializer):
    """The token issued for a username and password."""

    token = CharField(read_only=True)


# Deprecated since device tokens came (RFC 9745: an @-timestamp); answered until the sunset
# (RFC 8594: an HTTP date), a year's notice.
DEPRECATED_AT = datetime(2026, 12, 1, tzinfo=UTC)
SUNSET_AT = datetime(2027, 12, 1, tzinfo=UTC)
DEPRECATION_HEADERS = {
    "Deprecation": f"@{int(DEPRECATED_AT.timestamp())}",
    "Sunset": http_date(SUNSET_AT.timestamp()),
    "Link": '</api/v1/auth/tokens/>; rel="successor-version"',
}
DEPRECATION_PARAMETERS = [
    OpenApiParameter(
        name,
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=True,
        response=[200, 400],
        description=description,
    )
    for name, description in [
        (
            "Deprecation",
            f"When this operation was deprecated: `{DEPRECATION_HEADERS['Deprecation']}`.",
        ),
        ("Sunset", f"When it stops answering: `{DEPRECATION_HEADERS['Sunset']}`."),
        ("Link", 'Its successor, `POST auth/tokens/` (`rel="successor-version"`).'),
    ]
]


class ObtainTokenView(ObtainAuthToken):
    """Exchange a username and password for an API token."""

    authentication_classes = []
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]
    renderer_classes = [JSONRenderer]
    # Slow password guessing: every attempt per address, failed ones per account.
    throttle_classes = [AddressSignInThrottle, AccountSignInThrottle]

    def get_throttles(self) -> list[Any]:
        if not hasattr(self, "_throttles"):  # kept, so that a failure is counted by the same
            self._throttles = super().get_throttles()
        return self._throttles

    @extend_schema(
        operation_id="auth_token_create",
        request=AuthTokenSerializer,
        responses={200: TokenSerializer},
        tags=["auth"],
        deprecated=True,
        parameters=DEPRECATION_PARAMETERS,
        description="Legacy: one token per user, the same on every call, never expiring. "
        "Use `POST auth/tokens/` for a device token (docs/api.md).",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        answer = super().post(request, *args, **kwargs)
        forgive(self.get_throttles())
        return answer

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        """Every answer says the endpoint is deprecated, its errors included."""
        for name, value in DEPRECATION_HEADERS.items():
            response[name] = value
        settle(self.get_throttles())  # an attempt not forgiven counts as failed
        result: Response = super().finalize_response(request, response, *args, **kwargs)
        return result
