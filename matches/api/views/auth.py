"""Signing in: the legacy token exchange (device tokens live in accounts.api)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import CharField, Serializer
from rest_framework.settings import api_settings

from accounts.throttles import AccountSignInThrottle, AddressSignInThrottle, forgive


class TokenSerializer(Serializer):
    """The token issued for a username and password."""

    token = CharField(read_only=True)


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
        description="Legacy: one token per user, the same on every call, never expiring. "
        "Use `POST auth/tokens/` for a device token (docs/api.md).",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        answer = super().post(request, *args, **kwargs)
        forgive(self.get_throttles())
        return answer
