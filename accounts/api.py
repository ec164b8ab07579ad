"""Device tokens over the API: sign in for one, list mine, revoke one, sign out.

``POST auth/tokens/`` answers a new token once; only its digest is kept. The legacy
``POST auth/token/`` (one unhashed token per user, no expiry) still answers old clients.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from knox.settings import knox_settings
from rest_framework import generics, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.idempotency import KEY_SCHEMA, answer_once
from accounts.models import DeviceToken
from accounts.throttles import AccountSignInThrottle, AddressSignInThrottle, forgive, settle

NAME_LENGTH = DeviceToken._meta.get_field("name").max_length


class SignInSerializer(AuthTokenSerializer):
    """A username and password, and a name for the device (its User-Agent if none)."""

    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=NAME_LENGTH,
        help_text="What this token is for, as the user will see it in their list: "
        "\"Ana's phone\". Default: the client's User-Agent.",
    )


class IssuedTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Names the token in auth/tokens/{id}/.")
    token = serializers.CharField(
        help_text="Send as `Authorization: Token <token>`. Shown only this once."
    )
    expiry = serializers.DateTimeField(
        help_text="When it expires unless used: every use moves it on (see docs/api.md)."
    )
    name = serializers.CharField()


class DeviceTokenSerializer(serializers.ModelSerializer):
    current = serializers.SerializerMethodField(help_text="Whether this request used it.")

    class Meta:
        model = DeviceToken
        fields = ["id", "name", "created", "expiry", "last_used", "current"]

    def get_current(self, token: DeviceToken) -> bool:
        used = getattr(self.context["request"], "auth", None)
        return isinstance(used, DeviceToken) and used.pk == token.pk


def issue(request: Request, user: Any, name: str) -> Response:
    """A new device token for ``user``: 201 with the key, shown this once."""
    token, key = DeviceToken.objects.create(user=user, expiry=knox_settings.TOKEN_TTL, name=name)
    user_logged_in.send(sender=type(user), request=request, user=user)
    body = {"id": token.pk, "token": key, "expiry": token.expiry, "name": token.name}
    where = request.build_absolute_uri(reverse("auth-token-detail", kwargs={"pk": token.pk}))
    return Response(
        IssuedTokenSerializer(body).data,
        status=status.HTTP_201_CREATED,
        headers={"Location": where},
    )


def device_name(request: Request, given: str | None) -> str:
    """The name the client gave, or else its User-Agent, cut to fit."""
    name = (given or "").strip() or request.headers.get("User-Agent", "").strip()
    return name[:NAME_LENGTH]


class TokensView(generics.ListAPIView):
    """Sign in for a device token (POST, no login), or list your device tokens (GET)."""

    serializer_class = DeviceTokenSerializer
    # Signing in counts like the legacy token endpoint and the admin's login: every attempt
    # per address, failed ones per account.
    sign_in_throttles = [AddressSignInThrottle, AccountSignInThrottle]

    def get_queryset(self) -> QuerySet[DeviceToken]:
        if getattr(self, "swagger_fake_view", False):  # the schema's mock request has no user
            return DeviceToken.objects.none()
        return DeviceToken.objects.filter(user=self.request.user)

    def signing_in(self) -> bool:
        return getattr(self.request, "method", None) == "POST"

    def get_authenticators(self) -> list[Any]:
        # A stale token in the header must not stop a client from getting a new one.
        return [] if self.signing_in() else super().get_authenticators()

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.signing_in() else [IsAuthenticated()]

    def get_throttles(self) -> list[Any]:
        if not self.signing_in():
            return super().get_throttles()
        if not hasattr(self, "_throttles"):  # kept, so that a failure is counted by the same
            self._throttles = [throttle() for throttle in self.sign_in_throttles]
        return self._throttles

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        if hasattr(self, "_throttles"):  # a sign-in attempt: one not forgiven counts as failed
            settle(self._throttles)
        result: Response = super().finalize_response(request, response, *args, **kwargs)
        return result

    @extend_schema(
        request=SignInSerializer,
        responses={201: IssuedTokenSerializer},
        auth=[],
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                KEY_SCHEMA,
                OpenApiParameter.HEADER,
                required=False,
                description="1 to 255 printable ASCII characters. "
                "A retry with the same key and body (credentials checked again) "
                "gets the first answer, the same token, and creates none; the same key with "
                "another body is refused (422).",
            ),
            OpenApiParameter(
                "Idempotent-Replayed",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                response=[201],
                enum=["true"],
                description="`true` when this is the first answer to an earlier sign-in with "
                "the same Idempotency-Key, sent again; absent otherwise.",
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        incoming = SignInSerializer(data=request.data, context={"request": request})
        incoming.is_valid(raise_exception=True)
        forgive(self.get_throttles())
        data = incoming.validated_data
        return answer_once(
            request=request,
            user=data["user"],
            create=lambda: issue(request, data["user"], device_name(request, data.get("name"))),
        )


class TokenDetailView(generics.RetrieveDestroyAPIView):
    """One of your device tokens: read it, or revoke it (that device is signed out)."""

    serializer_class = DeviceTokenSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self) -> QuerySet[DeviceToken]:
        if getattr(self, "swagger_fake_view", False):  # the schema's mock request has no user
            return DeviceToken.objects.none()
        return DeviceToken.objects.filter(user=self.request.user)


class LogoutView(APIView):
    """Revoke the token this request is made with (a device or legacy token), or end the
    session of a browser."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, (DeviceToken, Token)):
            request.auth.delete()
        else:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
