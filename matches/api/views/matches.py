"""Matches: list, read, and start one."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.idempotency import idempotent
from matches import errors, selectors
from matches.api import http
from matches.api.filters import MatchFilter, StrictOrderingFilter
from matches.api.permissions import SCOREKEEPING, ClubRole, requester, require_role
from matches.api.serializers import matches as s
from matches.api.views.base import location
from matches.models import Match
from matches.services import matches as match_services

WATCH = http.IF_NONE_MATCH_MATCH


@extend_schema_view(
    create=extend_schema(
        request=s.MatchCreateSerializer,
        responses={201: s.MatchSerializer, 409: http.KEY_IN_PROGRESS, 422: http.KEY_REUSED},
        parameters=[http.IDEMPOTENCY_KEY, http.REPLAYED],
    ),
    retrieve=extend_schema(
        parameters=[WATCH, http.ETAG_MATCH],
        responses={200: s.MatchSerializer, 304: OpenApiResponse(description="Not modified.")},
    ),
)
class MatchViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Matches of your clubs. Scorekeepers and owners start them."""

    serializer_class = s.MatchSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    filter_backends = [DjangoFilterBackend, StrictOrderingFilter]
    filterset_class = MatchFilter
    ordering_fields = ["created_at", "finished_at", "hands_played"]

    def get_queryset(self) -> QuerySet[Match]:
        return selectors.matches_visible_to(self.request.user)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The match, with an ETag that moves whenever a hand is recorded, corrected, voided or
        confirmed: polled with If-None-Match, it answers 304 while nothing changed."""
        match = self.get_object()
        data = s.MatchSerializer(match, context=self.get_serializer_context()).data
        hands = match.hands.aggregate(changed=Max("updated_at"), confirmed=Count("confirmations"))
        tag = http.digest_etag([data, hands["changed"], hands["confirmed"]])
        if http.not_modified(request, tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        return Response(data, headers={"ETag": tag})

    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = s.MatchCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        club_id = data.pop("club")
        club = selectors.clubs_visible_to(request.user).filter(pk=club_id).first()
        if club is None:
            raise errors.InvalidSetup("unknown_club", attr="club", club=club_id)
        require_role(request, club.pk)
        match = match_services.match_create(
            club=club,
            user=requester(request),
            roles=SCOREKEEPING,  # read again as the match is made
            **data,
        )
        match = self.get_queryset().get(pk=match.pk)
        return Response(
            s.MatchSerializer(match).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location(request, "match-detail", pk=match.pk)},
        )
