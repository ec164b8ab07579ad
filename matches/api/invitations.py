"""Invitations over the API.

Owners create, list and revoke a club's invitations (``clubs/{id}/invitations/``). Anyone may
read an invitation's club name and role by its code; a signed-in user accepts it, a newcomer
signs up with it. ``invitations/`` lists the personal invitations addressed to me.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from drf_standardized_errors.openapi_serializers import ErrorResponse403Serializer
from rest_framework import exceptions, generics, serializers, status
from rest_framework.exceptions import ErrorDetail
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from accounts.api import IssuedTokenSerializer, device_name, issue
from accounts.idempotency import idempotent
from matches import invitations, selectors
from matches.api import http
from matches.api.errors import error_response
from matches.api.permissions import MANAGING, requester, require_role
from matches.models import Club, Invitation, Player, Role

GONE = error_response(
    "InvitationGone", ["invitation_expired", "invitation_revoked", "invitation_used_up"]
)
ALREADY = error_response("AlreadyAMember", ["already_a_member"])


def join_url(request: Request, invitation: Invitation) -> str:
    """The web app's page where a person opens the invitation."""
    return request.build_absolute_uri(f"/join/{invitation.code}")


class InvitationSerializer(serializers.ModelSerializer):
    """An invitation as its club's owners see it."""

    url = serializers.SerializerMethodField(help_text="The link to share: the app's join page.")
    state = serializers.SerializerMethodField(
        help_text="`active`, or why it can no longer be used: `expired`, `revoked`, `used_up`."
    )

    class Meta:
        model = Invitation
        fields = [
            "id",
            "code",
            "url",
            "role",
            "expires_at",
            "uses",
            "max_uses",
            "player",
            "state",
            "created_at",
        ]

    def get_url(self, invitation: Invitation) -> str:
        return join_url(self.context["request"], invitation)

    def get_state(self, invitation: Invitation) -> str:
        return str(invitation.state())


class InvitationCreateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)
    expires_at = serializers.DateTimeField(
        required=False, help_text="Default: 7 days from now. Must be in the future."
    )
    max_uses = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=100_000,
        help_text="How many people may use it. Default: no limit until it expires (1 when it "
        "names a player or makes an owner).",
    )
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.none(),
        required=False,
        allow_null=True,
        help_text="The club's player it is for, one without a login (400 `player_has_login` "
        "otherwise): whoever joins with it becomes that player's login (unless someone was "
        "linked to the player meanwhile).",
    )

    def __init__(self, *args: Any, club: Club | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if club is not None:  # only the club's own players can be named
            self.fields["player"].queryset = Player.objects.filter(club=club)  # type: ignore[attr-defined]


class InvitationPreviewSerializer(serializers.Serializer):
    club = serializers.CharField(help_text="The club's name.")
    role = serializers.ChoiceField(choices=Role.choices)
    player = serializers.CharField(
        allow_null=True, help_text="The name of the club's player it is for, if it names one."
    )


class MyInvitationSerializer(serializers.ModelSerializer):
    """A personal invitation addressed to me."""

    club = serializers.IntegerField(source="club_id")
    club_name = serializers.CharField(source="club.name")
    invited_by = serializers.CharField(source="created_by.username", allow_null=True, default=None)

    class Meta:
        model = Invitation
        fields = ["code", "club", "club_name", "role", "invited_by", "expires_at"]


class JoinedSerializer(serializers.Serializer):
    club = serializers.IntegerField(help_text="The club's id.")
    club_name = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @ . + - _ only.",
    )
    password = serializers.CharField(
        write_only=True,
        max_length=128,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="Checked by the site's password rules.",
    )


class OwnersOfTheClub(generics.GenericAPIView if TYPE_CHECKING else object):  # type: ignore[misc]
    """Finds the club in the URL: 404 to outsiders, 403 to members who are not owners."""

    owners_only = True  # the description declares the 403 of every operation, reads included

    def club(self) -> Club:
        club = selectors.club_visible_to(self.request.user, self.kwargs["pk"])
        if club is None:
            raise exceptions.NotFound()
        require_role(self.request, club.pk, MANAGING)
        return club


class ClubInvitationsView(OwnersOfTheClub, generics.ListAPIView):
    """A club's invitations (owners): list them, or create one to share."""

    serializer_class = InvitationSerializer
    permission_classes = [IsAuthenticated]
    queryset = Invitation.objects.none()  # for the schema: the rows come from the club

    def get_queryset(self) -> QuerySet[Invitation]:
        return Invitation.objects.filter(club=self.club(), invitee__isnull=True)

    @extend_schema(
        request=InvitationCreateSerializer,
        responses={201: InvitationSerializer, 422: http.KEY_REUSED},
        parameters=[http.IDEMPOTENCY_KEY, http.REPLAYED],
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        club = self.club()
        incoming = InvitationCreateSerializer(data=request.data, club=club)
        incoming.is_valid(raise_exception=True)
        invitation = invitations.invitation_create(
            club=club, by=requester(request), **incoming.validated_data
        )
        where = reverse("club-invitation", kwargs={"pk": pk, "invitation": invitation.pk})
        return Response(
            InvitationSerializer(invitation, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": request.build_absolute_uri(where)},
        )


class ClubInvitationView(OwnersOfTheClub, generics.RetrieveDestroyAPIView):
    """One of a club's invitations (owners): read it, or revoke it (nobody can use it after)."""

    serializer_class = InvitationSerializer
    permission_classes = [IsAuthenticated]
    queryset = Invitation.objects.none()

    def get_object(self) -> Invitation:
        found: Invitation = generics.get_object_or_404(
            Invitation.objects.filter(club=self.club(), invitee__isnull=True),
            pk=self.kwargs["invitation"],
        )
        return found

    def perform_destroy(self, instance: Invitation) -> None:
        invitations.invitation_revoke(invitation=instance)


class ByCode(APIView):
    """Finds the invitation a code names: 404 for an unknown code, or for a personal invitation
    addressed to someone else. Throttled, so that codes cannot be guessed by trying."""

    throttle_scope = "invitations"  # only this limit: DEFAULT_THROTTLE_CLASSES reads the scope

    def invitation(self, code: str) -> Invitation:
        found = Invitation.objects.select_related("club", "player").filter(code=code).first()
        user = self.request.user
        if found is None or (found.invitee_id is not None and found.invitee_id != user.pk):
            raise exceptions.NotFound()
        return found


class InvitationView(ByCode):
    """What an invitation offers: the club's name and the role, for anyone holding the code
    (GET); declining a personal invitation addressed to me (DELETE)."""

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.request.method == "DELETE" else [AllowAny()]

    @extend_schema(responses={200: InvitationPreviewSerializer, 410: GONE})
    def get(self, request: Request, code: str) -> Response:
        invitation = self.invitation(code)
        invitations.check_usable(invitation)
        named = invitation.player  # who the newcomer becomes, unless someone is them already
        player = None if named is None or named.user_id is not None else named.name
        return Response({"club": invitation.club.name, "role": invitation.role, "player": player})

    @extend_schema(responses={204: None, 403: ErrorResponse403Serializer})
    def delete(self, request: Request, code: str) -> Response:
        """Decline: the club's owners revoke link invitations; the invitee declines theirs."""
        invitation = self.invitation(code)
        if invitation.invitee_id != request.user.pk:
            raise exceptions.PermissionDenied(
                _("Only the person an invitation is addressed to can decline it.")
            )
        invitations.invitation_revoke(invitation=invitation)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationAcceptView(ByCode):
    """Join the club with the invitation's role (signed in)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: JoinedSerializer, 409: ALREADY, 410: GONE})
    def post(self, request: Request, code: str) -> Response:
        membership = invitations.invitation_accept(
            invitation=self.invitation(code), user=requester(request)
        )
        club = membership.club
        body = {"club": club.pk, "club_name": club.name, "role": membership.role}
        where = request.build_absolute_uri(reverse("club-detail", kwargs={"pk": club.pk}))
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": where})


class InvitationSignupView(ByCode):
    """Make an account with the invitation, join the club, and get a device token."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []  # a newcomer has no login; a stale one is ignored

    def invitation(self, code: str) -> Invitation:
        found = super().invitation(code)
        if found.invitee_id is not None:  # a personal invitation is for an existing account
            raise exceptions.NotFound()
        return found

    @extend_schema(
        request=SignupSerializer,
        responses={
            201: OpenApiResponse(IssuedTokenSerializer, description="The new user's device token."),
            410: GONE,
        },
        auth=[],
    )
    def post(self, request: Request, code: str) -> Response:
        invitation = self.invitation(code)
        incoming = SignupSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            user = invitations.invitation_signup(invitation=invitation, **incoming.validated_data)
        except invitations.WeakPassword as weak:
            raise exceptions.ValidationError(
                {
                    "password": [
                        ErrorDetail(message, code=error.code or "invalid")
                        for error in weak.refused.error_list
                        for message in error.messages
                    ]
                }
            ) from None
        return issue(request, user, device_name(request, None))


class MyInvitationsView(generics.ListAPIView):
    """Personal invitations addressed to me, still open: accept one with its code."""

    serializer_class = MyInvitationSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self) -> QuerySet[Invitation]:
        if getattr(self, "swagger_fake_view", False):
            return Invitation.objects.none()
        return Invitation.objects.filter(
            Q(max_uses__isnull=True) | Q(uses__lt=F("max_uses")),
            invitee=requester(self.request),
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        ).select_related("club", "created_by")
