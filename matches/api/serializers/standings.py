"""Serializers of standings: the query that orders and filters a table, and its rows."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from matches import standings
from scoring import rulesets
from scoring.api.fields import RulesetField

# --- standings and records -----------------------------------------------------------------


class StandingsQuerySerializer(serializers.Serializer):
    """The query of a standings request; ``from`` and ``to`` are dates of the matches' finish."""

    ruleset = RulesetField(
        default=rulesets.DEFAULT,
        help_text="Which game's matches to count: a table never adds Arlington and Rummy "
        "results together.",
    )
    ordering = serializers.CharField(
        required=False,
        help_text="Comma-separated fields, '-' for descending, e.g. '-average_net,name'. "
        "Default: -victory_points,-wins,-points.",
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields: dict[str, serializers.Field] = super().get_fields()
        fields["from"] = serializers.DateField(
            required=False, help_text="Matches finished on or after this date."
        )
        fields["to"] = serializers.DateField(
            required=False, help_text="Matches finished on or before this date."
        )
        return fields

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """What a request without query parameters means."""
        empty = cls(data={})
        empty.is_valid(raise_exception=True)
        return dict(empty.validated_data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            attrs["ordering"] = standings.parse_ordering(attrs.get("ordering"))
        except ValueError as unknown:
            raise serializers.ValidationError(
                {
                    "ordering": _("Cannot order by %(key)s; use one of %(fields)s.")
                    % {"key": unknown, "fields": ", ".join(standings.STANDING_FIELDS)}
                },
                code="invalid_ordering",
            ) from None
        if attrs.get("from") and attrs.get("to") and attrs["to"] < attrs["from"]:
            raise serializers.ValidationError(
                {"to": _("The end date is before the start date.")}, code="ends_before_start"
            )
        return attrs


class ClubStandingsQuerySerializer(StandingsQuerySerializer):
    """A club's standings may count only one of its seasons."""

    season = serializers.IntegerField(required=False, help_text="Count only this season.")


def _ratio(places: int, help_text: str) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=12,
        decimal_places=places,
        coerce_to_string=False,
        allow_null=True,
        help_text=help_text,
    )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Players equal on every ordering key share it.")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    matches_played = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="Outright victories.")
    shared_wins = serializers.IntegerField(help_text="Victories shared with tied players.")
    victory_points = _ratio(4, "1 per outright win, 1/k per k-way shared win.")
    hands_played = serializers.IntegerField()
    went_out = serializers.IntegerField(help_text="Hands in which the player went out.")
    points = serializers.IntegerField(help_text="The sum of the player's final totals.")
    average_net = _ratio(2, "Net points per hand.")
    unconfirmed_matches = serializers.IntegerField(
        allow_null=True,
        help_text="When the club asks for a second entry: the counted matches with a hand "
        "nobody has confirmed; else null.",
    )
    rating = serializers.IntegerField(
        allow_null=True,
        help_text="The player's current rating in the table's ruleset over all the club's "
        "matches (docs/standings.md), whatever the season or dates; null before any.",
    )
