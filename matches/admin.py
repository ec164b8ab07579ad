"""Admin for the matches app: clubs and people are editable; scores are read-only.

Hands, their results and revisions change only through the services (the API), which re-rule
the hand and keep every running total and the finish right; the admin shows them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import ModelForm
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from matches import errors
from matches.models import (
    Club,
    Hand,
    HandResult,
    HandRevision,
    IdempotencyRecord,
    Match,
    MatchStatus,
    Membership,
    Player,
    Role,
    Season,
    Seat,
)
from matches.services import clubs as club_services
from matches.services import matches as match_services


def meld_notation(melds: list[dict[str, Any]]) -> str:
    """Melds as a scorekeeper writes them: ``JS 2D=QS KS (run, 70) · 7H 7D 2C=7S (set, 15)``."""
    return " · ".join(f"{' '.join(m['cards'])} ({m['kind']}, {m['points']})" for m in melds)


def held_notation(held: list[dict[str, Any]]) -> str:
    """Cards left in hand, such as ``2D 4H``."""
    return " ".join(card["card"] for card in held)


class ReadOnlyMixin:
    """Viewable by staff with the view permission; never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# --- clubs and people ----------------------------------------------------------------------


class KeepAnOwner(BaseInlineFormSet):
    """The admin keeps the API's rule: an existing club keeps at least one owner."""

    def clean(self) -> None:
        super().clean()
        if self.instance.pk is None:
            return  # a new club gets its creator as owner (ClubAdmin.save_related)
        owners = [
            form
            for form in self.forms
            if form.cleaned_data
            and not form.cleaned_data.get("DELETE")
            and form.cleaned_data.get("role") == Role.OWNER
        ]
        if not owners:
            raise ValidationError(str(errors.SETUP_MESSAGES["last_owner"]), code="last_owner")


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = KeepAnOwner
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "created_by", "created_at"]
    list_select_related = ["created_by"]
    search_fields = ["name"]
    readonly_fields = ["created_by", "created_at"]
    inlines = [MembershipInline]

    def save_model(self, request: HttpRequest, obj: Club, form: ModelForm, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]  # staff only
        super().save_model(request, obj, form, change)

    def save_related(
        self, request: HttpRequest, form: ModelForm, formsets: Any, change: bool
    ) -> None:
        """A new club, like one made through the API, has its creator as owner."""
        super().save_related(request, form, formsets, change)
        club = form.instance
        if not change and not club.memberships.filter(role=Role.OWNER).exists():
            club_services.membership_set(club=club, user=request.user, role=Role.OWNER)  # type: ignore[arg-type]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "created_at"]
    list_select_related = ["club", "user"]
    list_filter = ["club"]
    search_fields = ["name", "user__username"]
    autocomplete_fields = ["user"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """A player stays in their club, as in the API: their matches are that club's."""
        return ["club"] if obj is not None else []


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_select_related = ["club"]
    list_filter = ["club"]
    search_fields = ["name"]

    def has_delete_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        """Not once a match of the season has finished: its tables count those results."""
        if obj is not None and obj.matches.filter(status=MatchStatus.FINISHED).exists():
            return False
        return super().has_delete_permission(request, obj)


# --- matches and scores --------------------------------------------------------------------


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ["position", "player", "total", "winner"]
    readonly_fields = fields  # type: ignore[assignment]
    ordering = ["position"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Seat]:
        return super().get_queryset(request).select_related("player")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Matches start through the API; here only the table and season can be changed."""

    list_display = [
        "id",
        "club",
        "season",
        "table",
        "ruleset",
        "status",
        "hands_played",
        "created_at",
    ]
    list_select_related = ["club", "season"]
    list_filter = ["status", "ruleset", "club", "season"]
    search_fields = ["table"]
    fields = [
        "club",
        "season",
        "table",
        "ruleset",
        "options",
        "status",
        "seat_count",
        "first_dealer",
        "hands_played",
        "created_by",
        "created_at",
        "finished_at",
    ]
    readonly_fields = [f for f in fields if f not in ("season", "table")]  # type: ignore[misc]
    inlines = [SeatInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Never: a match is the club's record, and its tallies and standings count from it.

        A wrong hand is voided or corrected through the API.
        """
        return False

    def save_model(self, request: HttpRequest, obj: Match, form: Any, change: bool) -> None:
        """Through the service, so that a finished match's tallies follow it to its season."""
        match_services.match_update(match=obj, table=obj.table, season=obj.season)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """Offer only the seasons of the match's own club."""
        if db_field.name == "season":
            match_id = getattr(request.resolver_match, "kwargs", {}).get("object_id")
            kwargs["queryset"] = Season.objects.filter(club__matches=match_id)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class HandResultInline(ReadOnlyMixin, admin.TabularInline):
    model = HandResult
    fields = [
        "player",
        "melds_notation",
        "held_notation",
        "melded_points",
        "hand_penalty",
        "bonus",
        "net",
        "total",
    ]
    readonly_fields = fields  # type: ignore[assignment]
    ordering = ["position"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[HandResult]:
        return super().get_queryset(request).select_related("player")

    @admin.display(description="melds")
    def melds_notation(self, result: HandResult) -> str:
        return meld_notation(result.melds)

    @admin.display(description="held")
    def held_notation(self, result: HandResult) -> str:
        return held_notation(result.held)


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["match", "number", "dealer", "ending", "went_out", "version"]
    list_select_related = ["match__club", "dealer", "went_out"]
    list_filter = ["ending", "match__club"]
    search_fields = ["match__id"]
    fields = [
        "match",
        "number",
        "dealer",
        "ending",
        "went_out",
        "version",
        "recorded_by",
        "recorded_at",
        "updated_at",
    ]
    inlines = [HandResultInline]


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["match", "number", "revision", "action", "by", "at"]
    list_select_related = ["match__club", "by"]
    list_filter = ["action"]
    fields = ["match", "number", "revision", "action", "hand", "reason", "by", "at"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["match", "user", "created_at"]
    list_select_related = ["match__club", "user"]
    fields = ["match", "user", "key", "fingerprint", "response", "created_at"]
