"""Serializers of matches: the request that seats one, and the match as the API answers it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches import errors, state
from matches.api.serializers.names import WrittenNameField
from matches.api.serializers.schema import schema_of
from matches.models import (
    Match,
)
from scoring import rulesets
from scoring.api.fields import RulesetField

# --- matches -------------------------------------------------------------------------------


class MatchCreateSerializer(serializers.Serializer):
    club = serializers.IntegerField(help_text="The club's id.")
    season = serializers.IntegerField(required=False, allow_null=True)
    table = WrittenNameField(required=False, allow_blank=True, max_length=50, default="")
    players = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=1,
        max_length=10,
        error_messages={
            "min_length": _("players is empty: list the players in clockwise seating order."),
            "max_length": _(
                "players lists more than {max_length} players; no game seats that many."
            ),
        },
        help_text="Player ids in clockwise seating order, as many as the game seats "
        "(GET rulesets/: players).",
    )
    first_dealer = serializers.IntegerField(
        required=False, allow_null=True, help_text="Player id; default the first seat."
    )
    ruleset = RulesetField(
        default=rulesets.DEFAULT,
        help_text='The game, a name of GET rulesets/: "arlington" (the default), "rummy" '
        "(classic Rummy) or another game installed.",
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
                message = "unknown_option" if known else "unknown_option_none"
                sentence = errors.SETUP_MESSAGES[message].format(
                    option=name, ruleset=rules.name, options=", ".join(known)
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


# A match as the API answers it: its state's own JSON, with its marks (``from_match``). The
# fields are read from ``state.MatchState`` for the schema; the answer is the value's
# ``to_json``, so that a match's answer has one producer, as a hand's has.
_MATCH = schema_of(state.MatchState, name="Match", names=state.MatchState.JSON_WITH_MARKS)


class MatchSerializer(_MATCH):  # type: ignore[misc,valid-type]
    def to_representation(self, instance: Match) -> dict[str, Any]:
        return state.from_match(instance).to_json(with_marks=True)
