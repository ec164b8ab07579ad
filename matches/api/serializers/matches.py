"""Serializers of matches: the request that seats one, and the match as the API answers it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches import errors, state
from matches.models import (
    Match,
    Seat,
    SecondEntry,
)
from scoring import rulesets
from scoring.api.fields import RulesetField

# --- matches -------------------------------------------------------------------------------


class MatchCreateSerializer(serializers.Serializer):
    club = serializers.IntegerField(help_text="The club's id.")
    season = serializers.IntegerField(required=False, allow_null=True)
    table = serializers.CharField(required=False, allow_blank=True, max_length=50, default="")
    players = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=1,
        max_length=10,
        help_text="Player ids in clockwise seating order, as many as the game seats "
        "(GET rulesets/: players).",
    )
    first_dealer = serializers.IntegerField(
        required=False, allow_null=True, help_text="Player id; default the first seat."
    )
    ruleset = RulesetField(
        default=rulesets.DEFAULT,
        help_text='The game, a name of GET rulesets/: "arlington" (the default) or "rummy" '
        "(classic Rummy).",
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="The ruleset's options, fixed for the match; those left out take their "
        'defaults. Rummy: "target" (1 to 100000, default 100) and "ace" '
        '("low", the default, or "high_or_low"). Arlington has none.',
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        rules = rulesets.ruleset(attrs["ruleset"])
        known = {option.name: option for option in rules.options}
        read: dict[str, object] = {}
        problems: dict[str, list[serializers.ErrorDetail]] = {}
        for name, value in attrs["options"].items():
            option = known.get(name)
            if option is None:
                sentence = errors.SETUP_MESSAGES["unknown_option"].format(
                    option=name,
                    ruleset=rules.name,
                    options=", ".join(known) or "-",
                )
                problems[name] = [serializers.ErrorDetail(sentence, code="unknown_option")]
                continue
            try:
                read[name] = _option_field(option).run_validation(value)
            except serializers.ValidationError as error:
                problems[name] = error.detail  # type: ignore[assignment]
        if problems:
            raise serializers.ValidationError({"options": problems})
        attrs["options"] = read
        return attrs


def _option_field(option: rulesets.Option) -> serializers.Field:
    """The field that reads one of a ruleset's options: one of its words, or a bounded integer."""
    if option.choices:
        return serializers.ChoiceField(choices=list(option.choices))
    if option.minimum is not None and option.maximum is not None:
        return serializers.IntegerField(min_value=option.minimum, max_value=option.maximum)
    return serializers.IntegerField()


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
    dealer_after_next = serializers.SerializerMethodField(
        help_text="Who deals the hand after the next one, by the id of the player who goes out "
        'of the next (`"none"`: the stock runs out), so that a client can move on past a hand '
        "it has not sent yet; null once the match is finished."
    )
    unconfirmed_hands = serializers.SerializerMethodField(
        help_text="When the club asks for a second entry (`second_entry: required`): the "
        "numbers of the hands nobody has confirmed yet, as they stand; else null."
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "club",
            "season",
            "table",
            "ruleset",
            "options",
            "status",
            "seats",
            "hands_played",
            "next_hand",
            "next_dealer",
            "dealer_after_next",
            "first_dealer",
            "winners",
            "shared_victory",
            "unconfirmed_hands",
            "created_by",
            "created_at",
            "finished_at",
        ]

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField(), allow_null=True))
    def get_dealer_after_next(self, match: Match) -> dict[str, int] | None:
        return state.match_state(match, self._seats(match)).dealer_after_next

    def get_unconfirmed_hands(self, match: Match) -> list[int] | None:
        if match.club.second_entry != SecondEntry.REQUIRED:
            return None
        return sorted(hand.number for hand in getattr(match, "unconfirmed", None) or [])

    def _seats(self, match: Match) -> list[Seat]:
        return sorted(match.seats.all(), key=lambda seat: seat.position)

    def get_next_hand(self, match: Match) -> int | None:
        return None if match.status == "finished" else match.hands_played + 1

    def get_next_dealer(self, match: Match) -> int | None:
        return state.match_state(match, self._seats(match)).next_dealer

    def get_winners(self, match: Match) -> list[int]:
        return [seat.player_id for seat in self._seats(match) if seat.winner]

    def get_shared_victory(self, match: Match) -> bool:
        return len(self.get_winners(match)) > 1
