"""Players on the rosters of clubs, and each player's matches."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from matches import records, selectors
from matches.api.filters import PlayerFilter
from matches.api.permissions import SCOREKEEPING
from matches.api.serializers import players as s
from matches.api.views.base import ClubScopedViewSet, conditional_updates
from matches.models import Player


@conditional_updates(s.PlayerSerializer, read=s.PlayerDetailSerializer)
class PlayerViewSet(ClubScopedViewSet):
    """Players on the rosters of your clubs; a player need not have a login."""

    etag_fields = ("name", "user_id")
    read_serializer_class = s.PlayerDetailSerializer
    serializer_class = s.PlayerSerializer
    filterset_class = PlayerFilter
    ordering_fields = ["name", "created_at"]
    write_roles = SCOREKEEPING

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.players_visible_to(self.request.user)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # one transaction: a new player's login is checked under the club's lock, held until
        # the player is written (PlayerSerializer._check_link)
        with transaction.atomic():
            return super().create(request, *args, **kwargs)

    @extend_schema(responses={200: s.PlayerMatchSerializer(many=True)})
    @action(
        detail=True, methods=["get"], serializer_class=s.PlayerMatchSerializer, filter_backends=[]
    )
    def matches(self, request: Request, pk: str | None = None) -> Response:
        """The player's matches, newest first, with their total and whether they won."""
        page = self.paginate_queryset(records.matches_of(player=self.get_object()))
        return self.get_paginated_response(s.PlayerMatchSerializer(page, many=True).data)
