"""Filters of the tournaments list: only the requester's clubs are choices (another is a 400)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet

from clubnight.models import Tournament
from matches.api.filters import IdFilter
from matches.models import Club
from matches.selectors import clubs_visible_to


def _my_clubs(request: Any) -> QuerySet[Club]:
    return clubs_visible_to(request.user) if request is not None else Club.objects.none()


class TournamentFilter(django_filters.FilterSet):
    club = django_filters.ModelChoiceFilter(queryset=_my_clubs)
    # the night a match is a table of (a match of no night finds none)
    match = IdFilter(field_name="rounds__tables__match", help_text="A match's id.")

    class Meta:
        model = Tournament
        fields = ["club", "match"]
