"""Filters of the list endpoints (django-filter)."""

from __future__ import annotations

import django_filters

from matches.models import Match, MatchStatus, Player, Season


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["club", "name"]


class SeasonFilter(django_filters.FilterSet):
    class Meta:
        model = Season
        fields = ["club"]


class MatchFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=MatchStatus.choices)
    player = django_filters.NumberFilter(field_name="seats__player", distinct=True)
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")

    class Meta:
        model = Match
        fields = ["club", "season", "status", "player", "table"]
