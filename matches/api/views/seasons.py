"""Seasons of clubs."""

from __future__ import annotations

from django.db.models import QuerySet

from matches import errors, selectors
from matches.api.filters import SeasonFilter
from matches.api.permissions import MANAGING
from matches.api.serializers import clubs as s
from matches.api.views.base import ClubScopedViewSet, conditional_updates
from matches.models import Club, Season


@conditional_updates(s.SeasonSerializer)
class SeasonViewSet(ClubScopedViewSet):
    """Seasons of your clubs; only owners create and edit them."""

    etag_fields = ("name", "starts_on", "ends_on")
    serializer_class = s.SeasonSerializer
    filterset_class = SeasonFilter
    ordering_fields = ["name", "starts_on", "created_at"]
    write_roles = MANAGING

    def get_queryset(self) -> QuerySet[Season]:
        return selectors.seasons_visible_to(self.request.user)


def season_of(club: Club, season_id: int | None) -> Season | None:
    """The club's season named in a request, or None; any other id is refused (400)."""
    if season_id is None:
        return None
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise errors.InvalidSetup("season_not_in_club", attr="season", season=season_id)
    return season
