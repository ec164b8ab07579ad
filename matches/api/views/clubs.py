"""Clubs and their members."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404  # 404 for clubs/abc/
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from accounts import usernames
from matches import selectors
from matches.api.filters import StrictOrderingFilter
from matches.api.permissions import MANAGING, ClubRole, requester, require_role
from matches.api.serializers import clubs as s
from matches.api.views.base import ConditionalUpdateMixin, LocatedCreateMixin, conditional_updates
from matches.invitations import invitation_invite_user
from matches.models import Club, Membership
from matches.services import clubs as club_services


@conditional_updates(s.ClubSerializer)
class ClubViewSet(
    ConditionalUpdateMixin,
    LocatedCreateMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Clubs you belong to. The creator of a club becomes its owner."""

    etag_fields = ("name", "second_entry")
    serializer_class = s.ClubSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_roles = MANAGING
    filter_backends = [StrictOrderingFilter]
    ordering_fields = ["name", "created_at"]

    def get_queryset(self) -> QuerySet[Club]:
        return selectors.clubs_visible_to(self.request.user).prefetch_related("memberships")

    def perform_create(self, serializer: BaseSerializer) -> None:
        club = club_services.club_create(
            name=serializer.validated_data["name"], user=requester(self.request)
        )
        serializer.instance = club

    @extend_schema(methods=["GET"], responses={200: s.MembershipSerializer(many=True)})
    @extend_schema(
        methods=["POST"],
        request=s.MemberRequestSerializer,
        responses={
            200: OpenApiResponse(s.MembershipSerializer, description="A member's new role."),
            202: OpenApiResponse(
                s.MemberInvitedSerializer,
                description=(
                    "Anyone else is invited: if the account exists, it sees a personal "
                    "invitation (`GET invitations/`) and joins by accepting it. The answer is the "
                    "same whether the account exists or not."
                ),
            ),
        },
    )
    @action(
        detail=True,
        methods=["get", "post"],
        serializer_class=s.MembershipSerializer,
        filter_backends=[],  # members come by username; the club list's ordering is not theirs
    )
    def members(self, request: Request, pk: str | None = None) -> Response:
        """List the members (any member); change a member's role, or invite a user (owners)."""
        club = self.get_object_for_read()
        if request.method == "GET":
            page = self.paginate_queryset(club.memberships.select_related("user"))
            return self.get_paginated_response(s.MembershipSerializer(page, many=True).data)
        self.require(club, MANAGING)
        incoming = s.MemberRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        username, role = incoming.validated_data["user"], incoming.validated_data["role"]
        member = named_member(club, username)
        membership = None
        if member is not None:
            membership = club_services.membership_role_change(
                club=club,
                user=member.user,
                role=role,
                by=requester(request),
            )
        if membership is not None:
            return Response(s.MembershipSerializer(membership).data)
        # no member, or removed while this request waited: invited, as any user not a member
        invitation_invite_user(club=club, username=username, role=role, by=requester(request))
        return Response({"role": role, "status": "invited"}, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"members/(?P<username>[^/]+)")
    def remove_member(
        self, request: Request, pk: str | None = None, username: str = ""
    ) -> Response:
        """Remove a member (owners); a club keeps at least one owner."""
        club = self.get_object_for_read()
        self.require(club, MANAGING)
        membership = named_member(club, username)
        if membership is None:
            raise exceptions.NotFound()
        club_services.membership_remove(membership=membership, by=requester(request))
        return Response(status=status.HTTP_204_NO_CONTENT)

    def get_object_for_read(self) -> Club:
        club: Club = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])
        return club

    def require(self, club: Club, roles: frozenset[str]) -> None:
        require_role(self.request, club.pk, roles)


def named_member(club: Club, username: str) -> Membership | None:
    """The club's member with this username, written in any case or width, as sign-in reads it
    (``accounts.usernames``)."""
    return usernames.find(club.memberships.select_related("user"), username, "user__username")
