"""Serializers of a club's players: the roster, each player's record and matches."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied

from matches import records
from matches.api.serializers.names import UsernameField
from matches.api.serializers.standings import _ratio
from matches.models import (
    Club,
    Membership,
    Player,
    Role,
    Seat,
    name_key,
    written_name,
)
from matches.selectors import role_in
from matches.services import clubs


class PlayerSerializer(serializers.ModelSerializer):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.none())
    user = UsernameField(
        queryset=get_user_model().objects.all(),
        required=False,
        allow_null=True,
        help_text="The player's login, if they have one.",
    )

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "created_at"]
        read_only_fields = ["id", "created_at"]
        validators: list[Any] = []  # uniqueness is answered by the view as a 409-free 400

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        clubs = self.context.get("member_clubs")
        if clubs is not None:
            self.fields["club"].queryset = clubs  # type: ignore[attr-defined]
            # Only members of the requester's clubs can be named: other usernames read as
            # unknown, so nobody can probe which accounts exist.
            self.fields["user"].queryset = (  # type: ignore[attr-defined]
                get_user_model().objects.filter(memberships__club__in=clubs).distinct()
            )
        if self.instance is not None:
            self.fields["club"].read_only = True

    def validate_name(self, name: str) -> str:
        written = written_name(name)
        if not written:
            raise serializers.ValidationError(_("A name needs a visible letter."), code="blank")
        return written

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        club_id = attrs["club"].pk if attrs.get("club") else getattr(self.instance, "club_id", None)
        if "name" in attrs and club_id is not None:
            # the same name in any case or script ("Straße", "STRASSE") is taken; the database
            # holds the rule for names in ASCII, whose case every database folds, and the
            # club's lock the rest: two players named alike at once wait for each other
            clubs.hold_links(club_id)
            key = name_key(attrs["name"])
            others = Player.objects.filter(club_id=club_id)
            if self.instance is not None:
                others = others.exclude(pk=self.instance.pk)
            if any(name_key(n) == key for n in others.values_list("name", flat=True)):
                raise serializers.ValidationError(
                    {"name": _("This name is already taken in this club.")}, code="unique"
                )
        if "user" in attrs:
            self._check_link(attrs, club_id)
        return attrs

    def _check_link(self, attrs: dict[str, Any], club_id: int | None) -> None:
        """Whose login a player is decides who enters their part of a hand: only the club's
        owners set it, to a member of the club who is no other player of its roster."""
        user = attrs["user"]
        linked_now = self.instance.user_id if self.instance is not None else None
        unchanged = linked_now == (user.pk if user else None)  # `null` on a new player too
        if unchanged or club_id is None:
            return
        clubs.hold_links(club_id)  # what follows is read as no other change can move it
        request = self.context.get("request")
        if request is not None and role_in(request.user, club_id) != Role.OWNER:
            raise PermissionDenied(
                _("Only the club's owners link a player to a login, or unlink them.")
            )
        if user is None:
            return
        if not Membership.objects.filter(club_id=club_id, user=user).exists():
            raise serializers.ValidationError(
                {"user": _("A player's login must be a member of the club.")}, code="not_a_member"
            )
        other = Player.objects.filter(club_id=club_id, user=user)
        if self.instance is not None:
            other = other.exclude(pk=self.instance.pk)
        linked = other.values_list("name", flat=True).first()
        if linked is not None:
            raise serializers.ValidationError(
                {
                    "user": _(
                        "%(user)s is already %(player)s on this club's roster: unlink them "
                        "there first."
                    )
                    % {"user": user.get_username(), "player": linked}
                },
                code="login_taken",
            )


class BestHandSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    number = serializers.IntegerField()
    net = serializers.IntegerField()


class PlayerRecordSerializer(serializers.Serializer):
    matches_played = serializers.IntegerField()
    wins = serializers.IntegerField()
    shared_wins = serializers.IntegerField()
    victory_points = _ratio(4, "1 per outright win, 1/k per k-way shared win.")
    hands_played = serializers.IntegerField()
    went_out = serializers.IntegerField()
    went_out_rate = _ratio(4, "Hands gone out in per hand played; null before any hand.")
    average_net = _ratio(2, "Net points per hand; null before any hand.")
    best_hand = BestHandSerializer(allow_null=True, help_text="The hand with the highest net.")
    wild_twos_melded = serializers.IntegerField(
        help_text="Twos melded standing for another card; 0 before any hand."
    )
    queen_of_spades_held = serializers.IntegerField(
        help_text="Hands ended holding Q♠; 0 before any hand."
    )
    average_hand_penalty = _ratio(2, "Points held in hand at the end, per hand.")


class PlayerDetailSerializer(PlayerSerializer):
    """A player with their record over their club's finished matches."""

    record = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "record"]

    @extend_schema_field(PlayerRecordSerializer)
    def get_record(self, player: Player) -> Any:
        return PlayerRecordSerializer(records.player_record(player=player)).data


class PlayerMatchSerializer(serializers.ModelSerializer):
    """One of a player's matches, from their seat."""

    match = serializers.IntegerField(source="match_id")
    season = serializers.IntegerField(source="match.season_id", allow_null=True)
    table = serializers.CharField(source="match.table")
    status = serializers.CharField(source="match.status")
    seat = serializers.IntegerField(source="position")
    total = serializers.IntegerField(help_text="Their total: final once the match is finished.")
    won = serializers.BooleanField(source="winner")
    shared_victory = serializers.SerializerMethodField()
    hands_played = serializers.IntegerField(source="match.hands_played")
    ruleset = serializers.CharField(
        source="match.ruleset", help_text="The match's game (GET rulesets/: `name`)."
    )
    created_at = serializers.DateTimeField(source="match.created_at")
    finished_at = serializers.DateTimeField(source="match.finished_at", allow_null=True)

    class Meta:
        model = Seat
        fields = [
            "match",
            "season",
            "table",
            "status",
            "seat",
            "total",
            "won",
            "shared_victory",
            "hands_played",
            "ruleset",
            "created_at",
            "finished_at",
        ]

    def get_shared_victory(self, seat: Seat) -> bool:
        return bool(seat.winner and seat.victory_points < 1)
