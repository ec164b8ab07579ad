"""Serializers of the matches API: input ones read shape and notation, output ones present rows.

None of them decides a rule: the services and the engine do.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import scoring
from matches import hands, services, standings
from matches.models import (
    Club,
    Hand,
    HandResult,
    HandRevision,
    Match,
    Membership,
    Player,
    Role,
    Season,
    Seat,
)
from scoring.api.fields import MAX_CARDS_IN_LIST, CardListField, MeldField
from scoring.api.serializers import MAX_MELDS_PER_PLAYER, MAX_PLAYERS_IN_REQUEST

# --- clubs and people ----------------------------------------------------------------------


class ClubSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="Your role in this club.")

    class Meta:
        model = Club
        fields = ["id", "name", "role", "created_at"]
        read_only_fields = ["id", "role", "created_at"]

    def get_role(self, club: Club) -> str | None:
        user = self.context["request"].user
        roles = {m.user_id: m.role for m in club.memberships.all()}
        return roles.get(user.pk)


class MembershipSerializer(serializers.ModelSerializer):
    user = serializers.SlugRelatedField(
        slug_field="username", queryset=get_user_model().objects.all(),
        help_text="The member's username.",
    )  # fmt: skip
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


class PlayerSerializer(serializers.ModelSerializer):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.none())
    user = serializers.SlugRelatedField(
        slug_field="username", queryset=get_user_model().objects.all(), required=False,
        allow_null=True, help_text="The player's login, if they have one.",
    )  # fmt: skip

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "created_at"]
        read_only_fields = ["id", "created_at"]
        validators: list[Any] = []  # uniqueness is answered by the view as a 409-free 400

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        clubs = self.context.get("member_clubs")
        if clubs is not None:
            self.fields["club"].queryset = clubs
            # Only members of the requester's clubs can be named: other usernames read as
            # unknown, so nobody can probe which accounts exist.
            self.fields["user"].queryset = (
                get_user_model().objects.filter(memberships__club__in=clubs).distinct()
            )
        if self.instance is not None:
            self.fields["club"].read_only = True

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = attrs.get("user")
        if user is None:
            return attrs
        club = attrs.get("club") or getattr(self.instance, "club", None)
        if club is not None and not club.memberships.filter(user=user).exists():
            raise serializers.ValidationError(
                {"user": _("A player's login must be a member of the club.")}, code="not_a_member"
            )
        return attrs


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
            self.fields["club"].queryset = clubs
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


# --- matches -------------------------------------------------------------------------------


class MatchCreateSerializer(serializers.Serializer):
    club = serializers.IntegerField(help_text="The club's id.")
    season = serializers.IntegerField(required=False, allow_null=True)
    table = serializers.CharField(required=False, allow_blank=True, max_length=50, default="")
    players = serializers.ListField(
        child=serializers.IntegerField(), min_length=1, max_length=10,
        help_text="Player ids in clockwise seating order (2 to 5).",
    )  # fmt: skip
    first_dealer = serializers.IntegerField(
        required=False, allow_null=True, help_text="Player id; default the first seat."
    )


class SeatSerializer(serializers.ModelSerializer):
    seat = serializers.IntegerField(source="position")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Seat
        fields = ["seat", "player", "name", "total", "winner"]


class MatchSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True)
    next_hand = serializers.SerializerMethodField()
    next_dealer = serializers.SerializerMethodField()
    winners = serializers.SerializerMethodField()
    shared_victory = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username")

    class Meta:
        model = Match
        fields = [
            "id", "club", "season", "table", "status", "seats", "hands_played", "next_hand",
            "next_dealer", "first_dealer", "winners", "shared_victory", "created_by",
            "created_at", "finished_at",
        ]  # fmt: skip

    def _seats(self, match: Match) -> list[Seat]:
        return sorted(match.seats.all(), key=lambda seat: seat.position)

    def get_next_hand(self, match: Match) -> int | None:
        return None if match.status == "finished" else match.hands_played + 1

    def get_next_dealer(self, match: Match) -> int | None:
        if match.status == "finished":
            return None
        seated = [seat.player_id for seat in self._seats(match)]
        return hands.dealer(match.first_dealer_id, seated, match.hands_played + 1)

    def get_winners(self, match: Match) -> list[int]:
        return [seat.player_id for seat in self._seats(match) if seat.winner]

    def get_shared_victory(self, match: Match) -> bool:
        return len(self.get_winners(match)) > 1


# --- hands ---------------------------------------------------------------------------------


class PlayerEntrySerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The player's id.")
    melds = serializers.ListField(child=MeldField(), max_length=MAX_MELDS_PER_PLAYER)
    hand = CardListField(help_text="The cards left in hand.")


class HandInputSerializer(serializers.Serializer):
    ending = serializers.ChoiceField(choices=[e.value for e in scoring.Ending])
    went_out = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="Id of the player who went out; null when the stock ran out.",
    )  # fmt: skip
    results = PlayerEntrySerializer(many=True, max_length=MAX_PLAYERS_IN_REQUEST)

    def to_entry(self) -> services.HandEntry:
        data = self.validated_data
        return services.HandEntry(
            ending=scoring.Ending(data["ending"]),
            went_out=data["went_out"],
            results=tuple(
                services.PlayerEntry(r["player"], tuple(r["melds"]), r["hand"])
                for r in data["results"]
            ),
        )


def read_hand(data: Any) -> services.HandEntry:
    """A hand's body read into an entry, or a 400 worded by ``HandInputSerializer``.

    A body in the plain form clients send (a JSON object with a known ending, integers for
    players, lists of strings for cards) is read here directly, through the same notation
    readers, without building the serializer's fields anew for each request: that took about a
    quarter of the Python time recording a hand adds to a request (docs/benchmarks.md). Anything
    else, every error included, goes through the serializer, which stays the one definition of
    the body; tests/matches/test_hand_body.py holds the two to the same entry.
    """
    entry = _plain_entry(data)
    if entry is not None:
        return entry
    incoming = HandInputSerializer(data=data)
    incoming.is_valid(raise_exception=True)
    return incoming.to_entry()


_ENDINGS = {ending.value: ending for ending in scoring.Ending}


def _plain_cards(cards: Any) -> bool:
    return (type(cards) is list and len(cards) <= MAX_CARDS_IN_LIST
            and all(type(card) is str for card in cards))  # fmt: skip


def _plain_entry(data: Any) -> services.HandEntry | None:
    """The entry of a body in plain form, as HandInputSerializer reads it; None otherwise."""
    if type(data) is not dict:
        return None
    ending, went_out, results = data.get("ending"), data.get("went_out"), data.get("results")
    if (type(ending) is not str or ending not in _ENDINGS
            or (went_out is not None and type(went_out) is not int)
            or type(results) is not list or len(results) > MAX_PLAYERS_IN_REQUEST):  # fmt: skip
        return None
    entries = []
    for result in results:
        if type(result) is not dict:
            return None
        player, melds, held = result.get("player"), result.get("melds"), result.get("hand")
        if (type(player) is not int or type(melds) is not list
                or len(melds) > MAX_MELDS_PER_PLAYER or not _plain_cards(held)
                or not all(_plain_cards(meld) for meld in melds)):  # fmt: skip
            return None
        try:
            read = services.PlayerEntry(player, tuple(scoring.parse_meld(m) for m in melds),
                                        scoring.parse_cards(held))  # fmt: skip
        except scoring.NotationError:
            return None
        entries.append(read)
    return services.HandEntry(ending=_ENDINGS[ending], went_out=went_out, results=tuple(entries))


class VoidQuerySerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="",
                                   help_text="Why the hand is voided; kept in its revisions.")


class HandCorrectionSerializer(HandInputSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")


class MeldOutSerializer(serializers.Serializer):
    cards = serializers.ListField(child=serializers.CharField())
    kind = serializers.ChoiceField(choices=[k.value for k in scoring.MeldKind])
    points = serializers.IntegerField()


class HeldOutSerializer(serializers.Serializer):
    card = serializers.CharField()
    points = serializers.IntegerField()


class HandResultSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name")
    melds = MeldOutSerializer(many=True)
    held = HeldOutSerializer(many=True)

    class Meta:
        model = HandResult
        fields = ["player", "name", "melds", "held", "melded_points", "hand_penalty", "bonus",
                  "net", "total"]  # fmt: skip


class HandSerializer(serializers.ModelSerializer):
    results = HandResultSerializer(many=True)
    recorded_by = serializers.CharField(source="recorded_by.username")

    class Meta:
        model = Hand
        fields = ["number", "dealer", "ending", "went_out", "version", "results",
                  "recorded_by", "recorded_at", "updated_at"]  # fmt: skip


class HandWithMatchSerializer(HandSerializer):
    match = serializers.SerializerMethodField()

    class Meta(HandSerializer.Meta):
        fields = [*HandSerializer.Meta.fields, "match"]

    @extend_schema_field(MatchSerializer)
    def get_match(self, hand: Hand) -> Any:
        return MatchSerializer(hand.match, context=self.context).data


class RevisionEntrySerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The player's id.")
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    hand = serializers.ListField(child=serializers.CharField(), help_text="Cards left in hand.")


class RevisionHandSerializer(serializers.Serializer):
    """The hand as entered, in canonical notation; empty (no field) in a void's revision."""

    ending = serializers.ChoiceField(choices=[e.value for e in scoring.Ending], required=False)
    went_out = serializers.IntegerField(allow_null=True, required=False)
    results = RevisionEntrySerializer(many=True, required=False)


class RevisionSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="by.username")
    hand = serializers.SerializerMethodField()

    class Meta:
        model = HandRevision
        fields = ["number", "revision", "action", "hand", "reason", "by", "at"]

    @extend_schema_field(RevisionHandSerializer)
    def get_hand(self, revision: HandRevision) -> Any:
        return revision.hand


# --- standings and records -----------------------------------------------------------------


class StandingsQuerySerializer(serializers.Serializer):
    """The query of a standings request; ``from`` and ``to`` are dates of the matches' finish."""

    ordering = serializers.CharField(
        required=False,
        help_text="Comma-separated fields, '-' for descending, e.g. '-average_net,name'. "
                  "Default: -victory_points,-wins,-points.",
    )  # fmt: skip

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
                {"ordering": _("Cannot order by %(key)s; use one of %(fields)s.") % {
                    "key": unknown, "fields": ", ".join(standings.STANDING_FIELDS)}},
                code="invalid_ordering",
            ) from None  # fmt: skip
        if attrs.get("from") and attrs.get("to") and attrs["to"] < attrs["from"]:
            raise serializers.ValidationError(
                {"to": _("The end date is before the start date.")}, code="ends_before_start"
            )
        return attrs


class ClubStandingsQuerySerializer(StandingsQuerySerializer):
    """A club's standings may count only one of its seasons."""

    season = serializers.IntegerField(required=False, help_text="Count only this season.")


def _ratio(places: int, help_text: str) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=12, decimal_places=places, coerce_to_string=False,
                                    allow_null=True, help_text=help_text)  # fmt: skip


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
        allow_null=True, help_text="Twos melded standing for another card (null on SQLite)."
    )
    queen_of_spades_held = serializers.IntegerField(
        allow_null=True, help_text="Hands ended holding Q♠ (null on SQLite)."
    )
    average_hand_penalty = _ratio(2, "Points held in hand at the end, per hand.")


class PlayerDetailSerializer(PlayerSerializer):
    """A player with their record over their club's finished matches."""

    record = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "record"]

    @extend_schema_field(PlayerRecordSerializer)
    def get_record(self, player: Player) -> Any:
        return PlayerRecordSerializer(standings.player_record(player=player)).data


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
    created_at = serializers.DateTimeField(source="match.created_at")
    finished_at = serializers.DateTimeField(source="match.finished_at", allow_null=True)

    class Meta:
        model = Seat
        fields = ["match", "season", "table", "status", "seat", "total", "won", "shared_victory",
                  "hands_played", "created_at", "finished_at"]  # fmt: skip

    def get_shared_victory(self, seat: Seat) -> bool:
        return bool(seat.winner and seat.victory_points < 1)


class TotalChangeSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    before = serializers.IntegerField()
    after = serializers.IntegerField()


class ImpactSerializer(serializers.Serializer):
    """What a correction changed, so the scorekeeper sees it before walking away."""

    totals = serializers.SerializerMethodField()
    status_before = serializers.CharField()
    status_after = serializers.CharField()
    winners_before = serializers.ListField(child=serializers.IntegerField())
    winners_after = serializers.ListField(child=serializers.IntegerField())
    finish_changed = serializers.BooleanField()
    winners_changed = serializers.BooleanField()

    @extend_schema_field(TotalChangeSerializer(many=True))
    def get_totals(self, impact: Any) -> list[dict[str, int]]:
        return [
            {"player": player, "before": before, "after": impact.totals_after[player]}
            for player, before in impact.totals_before.items()
        ]


class CorrectedHandSerializer(HandWithMatchSerializer):
    """A corrected hand, with the impact of the correction."""

    impact = ImpactSerializer()

    class Meta(HandWithMatchSerializer.Meta):
        fields = [*HandWithMatchSerializer.Meta.fields, "impact"]
