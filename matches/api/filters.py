"""Filters of the list endpoints (django-filter)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q, QuerySet, Value
from django.db.models.functions import Upper
from django.utils.translation import gettext as _
from django_filters.fields import IsoDateTimeField
from rest_framework import exceptions
from rest_framework.filters import OrderingFilter
from rest_framework.request import Request

from matches.models import (
    Club,
    Hand,
    HandConfirmation,
    HandRevision,
    Match,
    MatchStatus,
    Player,
    Season,
)
from matches.selectors import LARGEST_ID, clubs_visible_to, seasons_visible_to


class InstantField(IsoDateTimeField):
    """An ISO 8601 date and time, compared in UTC.

    Python reads offsets up to ±23:59 that PostgreSQL refuses beyond ±15:59 (a 500, not a 400),
    so the instant is converted to UTC before it reaches the database.
    """

    def to_python(self, value: Any) -> dt.datetime | None:
        instant: dt.datetime | None = super().to_python(value)
        if instant is None:
            return None
        try:
            return instant.astimezone(dt.UTC)
        except OverflowError:  # an instant before year 1 or after 9999 once in UTC
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None


class InstantFilter(django_filters.IsoDateTimeFilter):
    field_class = InstantField


def _my_clubs(request: Any) -> QuerySet[Club]:
    """Only the requester's clubs are choices: another club's id reads as unknown (400)."""
    return clubs_visible_to(request.user) if request is not None else Club.objects.none()


def _my_seasons(request: Any) -> QuerySet[Season]:
    return seasons_visible_to(request.user) if request is not None else Season.objects.none()


SYNC_OVERLAP = dt.timedelta(seconds=60)
"""How far before an ``updated_after`` instant the lists look. A change is stamped inside its
transaction, a moment before it commits: one stamped just before a client's sync began and
committed just after would fall behind the instant the client passes next. Looking back this far
(a write's transaction takes milliseconds; a minute is far beyond any) answers such a change
again instead of never; a client that upserts what it reads by id loses nothing."""


class IdFilter(django_filters.NumberFilter):
    """A row's id: a whole number from 1 to the largest a bigint holds (``1.5`` and
    ``9223372036854775808`` are a 400 naming the parameter, never a guess or a 500)."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, min_value=1, max_value=LARGEST_ID, **kwargs)


class ContainsInAnyCase(django_filters.CharFilter):
    """Rows whose field contains the text in any case, in every script: compared in upper case
    by the database. Django's ``icontains`` is SQLite's LIKE, which folds ASCII's letters alone;
    every SQLite connection's UPPER knows them all (``arlington_site/sqlite3``)."""

    def filter(self, qs: QuerySet[Any], value: str) -> QuerySet[Any]:
        if not value:
            return qs
        found: QuerySet[Any] = qs.alias(upper_text=Upper(self.field_name)).filter(
            upper_text__contains=Upper(Value(value))
        )
        return found


class PlayerFilter(django_filters.FilterSet):
    club = django_filters.ModelChoiceFilter(queryset=_my_clubs)
    name = ContainsInAnyCase()

    class Meta:
        model = Player
        fields = ["club", "name"]


class SeasonFilter(django_filters.FilterSet):
    club = django_filters.ModelChoiceFilter(queryset=_my_clubs)

    class Meta:
        model = Season
        fields = ["club"]


class MatchFilter(django_filters.FilterSet):
    club = django_filters.ModelChoiceFilter(queryset=_my_clubs)
    season = django_filters.ModelChoiceFilter(queryset=_my_seasons)
    status = django_filters.ChoiceFilter(choices=MatchStatus.choices)
    player = IdFilter(field_name="seats__player", distinct=True)
    created_after = InstantFilter(field_name="created_at", lookup_expr="gte")
    created_before = InstantFilter(field_name="created_at", lookup_expr="lt")
    updated_after = InstantFilter(
        method="changed_since",
        label="Only matches changed at or after this instant (ISO 8601): started, finished, or "
        "a hand recorded, corrected, voided or confirmed; and those changed in the minute "
        "before it, so that a change committed just after your last sync began is not missed.",
    )

    class Meta:
        model = Match
        fields = ["club", "season", "status", "player", "table"]

    def changed_since(self, queryset: QuerySet[Match], name: str, value: dt.datetime) -> Any:
        """A match changes with its hands: each version of one is a revision, and voiding
        the last hand writes one too; a confirmation leaves the hand as it was. Looks back
        SYNC_OVERLAP before ``value``."""
        value = value - SYNC_OVERLAP
        revised = HandRevision.objects.filter(match=OuterRef("pk"), at__gte=value)
        confirmed = HandConfirmation.objects.filter(hand__match=OuterRef("pk"), at__gte=value)
        changed = Hand.objects.filter(match=OuterRef("pk"), updated_at__gte=value)
        return queryset.filter(
            Q(created_at__gte=value)
            | Q(finished_at__gte=value)
            | Exists(revised)
            | Exists(changed)
            | Exists(confirmed)
        )


class HandFilter(django_filters.FilterSet):
    updated_after = InstantFilter(
        method="changed_since",
        label="Only hands recorded, corrected or confirmed at or after this instant (ISO 8601), "
        "and in the minute before it (as for matches). A voided hand leaves the list: the "
        "match's `hands_played` says so.",
    )

    class Meta:
        model = Hand
        fields: list[str] = []

    def changed_since(self, queryset: QuerySet[Hand], name: str, value: dt.datetime) -> Any:
        value = value - SYNC_OVERLAP  # as for matches
        confirmed = HandConfirmation.objects.filter(hand=OuterRef("pk"), at__gte=value)
        return queryset.filter(Q(updated_at__gte=value) | Exists(confirmed))


class StrictOrderingFilter(OrderingFilter):
    """``?ordering=`` by the fields a list names, or a 400 ``invalid_ordering`` naming the one it
    cannot order by, as the standings answer. DRF's own filter ignores an unknown field, and the
    list comes back in its default order as if it had been sorted."""

    def get_ordering(self, request: Request, queryset: QuerySet[Any], view: Any) -> Any:
        asked = request.query_params.get(self.ordering_param)
        if asked:
            valid = {name for name, _label in self.get_valid_fields(queryset, view, {})}
            for term in (part.strip() for part in asked.split(",")):
                if term and term.removeprefix("-") not in valid:
                    sentence = _("Cannot order by %(key)s; use one of %(fields)s.") % {
                        "key": term,
                        "fields": ", ".join(sorted(valid)),
                    }
                    raise exceptions.ValidationError(
                        {
                            self.ordering_param: [
                                exceptions.ErrorDetail(sentence, "invalid_ordering")
                            ]
                        }
                    )
        return super().get_ordering(request, queryset, view)
