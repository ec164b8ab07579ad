"""Serializers of clubs, their members and their seasons."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from rest_framework import serializers

from matches.api.serializers.names import UsernameField
from matches.models import (
    Club,
    Membership,
    Role,
    Season,
)

# --- clubs and people ----------------------------------------------------------------------


class ClubSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="Your role in this club.")

    class Meta:
        model = Club
        fields = ["id", "name", "role", "second_entry", "created_at"]
        read_only_fields = ["id", "role", "created_at"]
        extra_kwargs = {
            "second_entry": {
                "help_text": "`off` (default) or `required`: with `required`, the app asks "
                "another phone to confirm each hand, and matches with unconfirmed hands are "
                "marked (match, standings). It never blocks play."
            }
        }

    def get_role(self, club: Club) -> str | None:
        user = self.context["request"].user
        roles = {m.user_id: m.role for m in club.memberships.all()}
        return roles.get(user.pk)


class MembershipSerializer(serializers.ModelSerializer):
    user = UsernameField(
        queryset=get_user_model().objects.all(),
        help_text="The member's username.",
    )
    role = serializers.ChoiceField(choices=Role.choices)

    class Meta:
        model = Membership
        fields = ["user", "role", "created_at"]
        read_only_fields = ["created_at"]


class MemberRequestSerializer(serializers.Serializer):
    """A member's new role, or an invitation for someone who is not a member yet."""

    user = serializers.CharField(max_length=150, help_text="A username.")
    role = serializers.ChoiceField(choices=Role.choices)


class MemberInvitedSerializer(serializers.Serializer):
    """The same for every name, so that the answer never tells whether an account exists."""

    role = serializers.ChoiceField(choices=Role.choices)
    status = serializers.ChoiceField(choices=["invited"])


class SeasonSerializer(serializers.ModelSerializer):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.none())

    class Meta:
        model = Season
        fields = ["id", "club", "name", "starts_on", "ends_on", "created_at"]
        read_only_fields = ["id", "created_at"]
        validators: list[Any] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        clubs = self.context.get("member_clubs")
        if clubs is not None:
            self.fields["club"].queryset = clubs  # type: ignore[attr-defined]
        if self.instance is not None:
            self.fields["club"].read_only = True

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        starts = attrs.get("starts_on", getattr(self.instance, "starts_on", None))
        ends = attrs.get("ends_on", getattr(self.instance, "ends_on", None))
        if starts and ends and ends < starts:
            raise serializers.ValidationError(
                {"ends_on": _("A season cannot end before it starts.")}, code="ends_before_start"
            )
        return attrs
