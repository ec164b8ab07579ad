"""Serializers of ratings, tournaments and public links: they read shapes and present rows."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from clubnight.models import PublicLink, Round, Scope, Seating, Tournament
from clubnight.tournaments import MAX_SEED
from matches.api.serializers.names import WrittenNameField
from matches.selectors import LARGEST_ID
from scoring import rulesets
from scoring.api.fields import RulesetField

MAX_ENTRANTS = 200


def _ruleset(help_text: str = "Which game: Arlington (the default) or Rummy.") -> Any:
    return RulesetField(default=rulesets.DEFAULT, help_text=help_text)


def _decimal(places: int, help_text: str) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=12, decimal_places=places, coerce_to_string=False, help_text=help_text
    )


def _id(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=LARGEST_ID, **kwargs)


# --- ratings -------------------------------------------------------------------------------


class RulesetQuerySerializer(serializers.Serializer):
    ruleset = _ruleset("Which game's ratings: each ruleset has its own.")


class RatingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Players with the same rating share it.")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    rating = serializers.IntegerField(help_text="1000 + 40 × (mu − 3 × sigma), rounded.")
    mu = serializers.FloatField(help_text="The estimated skill (a newcomer's is 25).")
    sigma = serializers.FloatField(help_text="Its uncertainty (a newcomer's is 25/3).")
    matches = serializers.IntegerField(help_text="Finished matches rated.")


class RatingStepSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    table = serializers.CharField(source="match.table")
    finished_at = serializers.DateTimeField()
    place = serializers.IntegerField(help_text="1 for the winners; ties share a place.")
    rating_before = serializers.IntegerField()
    rating = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


# --- tournaments ---------------------------------------------------------------------------


class TournamentCreateSerializer(serializers.Serializer):
    club = _id(help_text="The club's id.")
    name = WrittenNameField(max_length=100)
    ruleset = _ruleset()
    season = _id(required=False, allow_null=True, help_text="A season of the club, if any.")
    players = serializers.ListField(  # too few for a table: the sentence names the game's least
        child=_id(), max_length=MAX_ENTRANTS, help_text="Player ids of the roster."
    )


class EntrantSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


class EntrantLineSerializer(EntrantSerializer):
    withdrawn = serializers.BooleanField(
        help_text="Withdrawn after playing: their results stay on the leaderboard, and no "
        "later round seats them."
    )


class EntrantCreateSerializer(serializers.Serializer):
    player = _id(help_text="A player of the tournament's club (a withdrawn entrant comes back).")


class RoundSummarySerializer(serializers.ModelSerializer):
    matches = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["number", "seating", "seed", "created_at", "matches"]
        extra_kwargs = {"seating": {"help_text": "`random`, `rating` or `director`."}}

    def get_matches(self, round_: Round) -> list[int]:
        return [table.match_id for table in round_.tables.all()]


class TournamentSerializer(serializers.ModelSerializer):
    ruleset = RulesetField()
    entrants = EntrantSerializer(many=True, read_only=True)
    rounds = RoundSummarySerializer(many=True, read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "club", "name", "ruleset", "season", "created_at", "entrants", "rounds"]


class RoundCreateSerializer(serializers.Serializer):
    seating = serializers.ChoiceField(
        choices=[Seating.RANDOM, Seating.RATING],
        default=Seating.RANDOM,
        help_text="`random`: shuffled from `seed`; `rating`: tables of even strength. "
        "Ignored when `tables` is given.",
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text="Reproduces a draw; a fresh random seed when left out (kept with the round).",
    )
    tables = serializers.ListField(  # too few or none: the draw's own sentences say what is wrong
        # as long as the whole list may be: a table too large for the game is the draw's
        # table_size, which says how many the game seats
        child=serializers.ListField(child=_id(), max_length=MAX_ENTRANTS),
        required=False,
        max_length=MAX_ENTRANTS,
        help_text="The director's own tables: player ids, clockwise, seating every entrant once.",
    )
    names = serializers.ListField(
        child=WrittenNameField(max_length=50),
        required=False,
        max_length=MAX_ENTRANTS,
        help_text="Table names, in order, at most one a table and no two alike (default "
        '"Table 1", "Table 2", ...).',
    )


class SeatLineSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    winner = serializers.BooleanField()


class TableSerializer(serializers.Serializer):
    table = serializers.IntegerField(help_text="The table's number in its round.")
    name = serializers.CharField()
    match = serializers.IntegerField()
    status = serializers.CharField()
    hands_played = serializers.IntegerField()
    went_out_last = serializers.IntegerField(
        allow_null=True, help_text="Who went out in the table's last hand (a player id)."
    )
    seats = SeatLineSerializer(many=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    etag = serializers.CharField(
        help_text="This drawing of the round, as an ETag: send it in If-Match to undo the "
        "round, so that a round undone and drawn again on another phone is not undone too."
    )
    seating = serializers.CharField(
        help_text="`random`, `rating`, or `director` (the director's own tables)."
    )
    seed = serializers.IntegerField(allow_null=True)
    matches = serializers.ListField(child=serializers.IntegerField())
    tables = TableSerializer(many=True)


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    victory_points = _decimal(4, "Summed over the tournament's finished matches.")
    points = serializers.IntegerField(help_text="The sum of the player's totals, so far.")
    matches = serializers.IntegerField(
        help_text="The tables the player sat at, a match in progress included."
    )
    finished = serializers.IntegerField(help_text="Those of the player's matches that ended.")
    wins = serializers.IntegerField()
    rounds = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="The player's total in each round, first round first; null for a round "
        "they did not play.",
    )
    withdrawn = serializers.BooleanField(
        help_text="Withdrawn from the tournament: the results they had stay on the board."
    )


class ReopenedTableSerializer(TableSerializer):
    round = serializers.IntegerField(help_text="The round the table is of.")


class BoardSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    round = RoundSerializer(allow_null=True, help_text="The latest round; null before the first.")
    reopened = ReopenedTableSerializer(
        many=True,
        help_text="Tables of earlier rounds being played again (a correction reopened their "
        "match): the next round waits for them as for the latest round's. Usually empty.",
    )
    leaderboard = LeaderboardRowSerializer(many=True)


# --- public links --------------------------------------------------------------------------


class PublicLinkCreateSerializer(serializers.Serializer):
    scope = serializers.ChoiceField(choices=Scope.choices)
    ruleset = _ruleset("For `standings`: which game's table.")
    season = _id(required=False, allow_null=True, help_text="For `standings`: one season's.")
    match = _id(required=False, help_text="For `match`: the match's id.")
    tournament = _id(required=False, help_text="For `tournament`: the tournament's id.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        needed = {Scope.MATCH: "match", Scope.TOURNAMENT: "tournament"}.get(attrs["scope"])
        if needed is not None and needed not in attrs:
            raise serializers.ValidationError(
                {needed: serializers.Field.default_error_messages["required"]}, code="required"
            )
        return attrs


class PublicLinkSerializer(serializers.ModelSerializer):
    ruleset = RulesetField()
    url = serializers.SerializerMethodField(help_text="The page anyone may open, read only.")

    class Meta:
        model = PublicLink
        fields = ["id", "url", "scope", "ruleset", "season", "match", "tournament", "created_at"]

    def get_url(self, link: PublicLink) -> str:
        path = reverse("public-results", kwargs={"token": link.token})
        return str(self.context["request"].build_absolute_uri(path))
