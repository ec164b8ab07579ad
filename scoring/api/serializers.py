"""Input serializers read the rulings' requests; output serializers present the engine's answers.

They translate shape and notation only: every decision is the engine's.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from scoring import Ending, MeldKind, MeldRuling, Violation, label, render
from scoring.api.fields import CardField, CardListField, MeldCardField, MeldField
from scoring.games.arlington import RULESET as ARLINGTON
from scoring.rulesets import Ruleset

MAX_PLAYERS_IN_REQUEST = 10
MAX_MELDS_PER_PLAYER = 40


# --- input -----------------------------------------------------------------------------------


class MeldRequestSerializer(serializers.Serializer):
    cards = MeldField(help_text='The meld\'s cards in any order, e.g. ["JS", "2D=QS", "KS"].')


class PlayerHandSerializer(serializers.Serializer):
    melds = serializers.ListField(
        child=MeldField(),
        max_length=MAX_MELDS_PER_PLAYER,
        help_text="The player's melds on the table at the end of the hand.",
    )
    hand = CardListField(help_text="The cards left in the player's hand (no declarations).")


class LabelledPlayerHandSerializer(PlayerHandSerializer):
    player = serializers.CharField(max_length=100, help_text="Any label for the player.")


def flags_field() -> serializers.DictField:
    return serializers.DictField(
        child=serializers.BooleanField(),
        required=False,
        help_text="The hand's yes/no facts by name, as a recorded hand states them "
        '(`"flags": {"rummy": true}`); a flag also given at the top level takes that value. '
        "A name the game does not have is 400 `unknown_flag` (`rummy` passes in any game).",
    )


UNKNOWN_FLAG = gettext_lazy("{flag} is not a flag of {ruleset} hands; their flags are: {flags}.")
UNKNOWN_FLAG_NONE = gettext_lazy("{flag} is not a flag of {ruleset} hands, which have none.")


def flags_validator(rules: Ruleset) -> Any:
    """A hand ruling body's ``validate``: its flags as one dict, each stated.

    A flag reads the same at the top level (``"rummy": true``) and in ``flags``, as a recorded
    hand's body states it, so that a client can send either body to either place. The top level
    wins where both are given. A name the game does not have is refused, as on a recorded hand:
    a misspelt flag would otherwise be ruled as its default, unseen.
    """

    def validate(self: serializers.Serializer, attrs: dict[str, Any]) -> dict[str, Any]:
        known = [flag.name for flag in rules.flags]
        named: dict[str, bool] = attrs.get("flags", {})
        for name in named:
            if name not in known and name != "rummy":
                sentence = UNKNOWN_FLAG if known else UNKNOWN_FLAG_NONE
                label = translation.gettext(rules.label)
                text = str(sentence).format(flag=name, ruleset=label, flags=", ".join(known))
                raise serializers.ValidationError(
                    {"flags": {name: [ErrorDetail(text, code="unknown_flag")]}}
                )
        sent = self.initial_data if isinstance(self.initial_data, dict) else {}
        attrs["flags"] = {
            flag.name: bool(
                attrs[flag.name] if flag.name in sent else named.get(flag.name, flag.default)
            )
            for flag in rules.flags
        }
        return attrs

    return validate


class HandRequestSerializer(serializers.Serializer):
    ending = serializers.ChoiceField(choices=[e.value for e in Ending])
    went_out = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=100,
        help_text="The label of the player who went out; null when the stock ran out.",
    )
    results = LabelledPlayerHandSerializer(many=True, max_length=MAX_PLAYERS_IN_REQUEST)  # type: ignore[call-arg]
    flags = flags_field()

    validate = flags_validator(ARLINGTON)


class DiscardRequestSerializer(serializers.Serializer):
    card = CardField(help_text="The card to discard.")


class TakeDiscardsRequestSerializer(serializers.Serializer):
    top_card = MeldCardField(help_text="The top card of the discard pile, as it would be melded.")
    from_hand = MeldField(help_text="The cards from hand that would meld with it.")


class ExtendRequestSerializer(serializers.Serializer):
    meld = MeldField(help_text="The meld on the table, as it was melded.")
    add = MeldField(min_length=1, help_text="The cards to add to it.")
    player = serializers.CharField(
        required=False, max_length=100, help_text="Who wants to add the cards (optional)."
    )
    owner = serializers.CharField(
        required=False, max_length=100, help_text="Who melded the meld (optional)."
    )


# --- output ----------------------------------------------------------------------------------


class ViolationSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable code, listed in docs/rules.md.")
    detail = serializers.SerializerMethodField(help_text="A human sentence naming the card.")

    def get_detail(self, item: Violation) -> str:
        return render(item, gettext)


class PathViolationSerializer(ViolationSerializer):
    attr = serializers.CharField(
        source="path", allow_null=True, help_text="Where: e.g. results.1.melds.0."
    )


class MeldCardOutSerializer(serializers.Serializer):
    card = serializers.CharField(source="card.code", help_text="The physical card.")
    represents = serializers.CharField(source="represents.code", help_text="What it stands for.")
    wild = serializers.BooleanField(help_text="A two standing for another card.")
    points = serializers.IntegerField(help_text="The value of the card it stands for.")


class MeldRulingSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    kind = serializers.ChoiceField(
        choices=[k.value for k in MeldKind], allow_null=True, help_text="Stable code of the kind."
    )
    kind_label = serializers.SerializerMethodField(
        help_text="What players call the kind, in the language of the request."
    )
    points = serializers.IntegerField(help_text="Sum of the values of the declared cards.")
    cards = MeldCardOutSerializer(many=True)
    violations = ViolationSerializer(many=True)

    def get_kind_label(self, ruling: MeldRuling) -> str | None:
        return label(ruling.kind, gettext) if ruling.kind else None


class MeldAnswerSerializer(MeldRulingSerializer):
    suggestions = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Legal melds made by declaring what a bare two stands for; never assumed.",
    )


class HeldCardSerializer(serializers.Serializer):
    card = serializers.CharField(source="code")
    points = serializers.IntegerField()


class PlayerResultSerializer(serializers.Serializer):
    player = serializers.CharField()
    melded_points = serializers.IntegerField()
    hand_penalty = serializers.IntegerField(help_text="Points of the cards left in hand.")
    bonus = serializers.IntegerField(help_text="100 to the player who went out.")
    net = serializers.IntegerField(help_text="melded_points - hand_penalty + bonus.")
    melds = MeldRulingSerializer(many=True)
    held = HeldCardSerializer(many=True)


class HandAnswerSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    results = PlayerResultSerializer(many=True)
    violations = PathViolationSerializer(many=True)


class DiscardAnswerSerializer(serializers.Serializer):
    allowed = serializers.BooleanField()
    violations = ViolationSerializer(many=True)


class MeldMoveAnswerSerializer(DiscardAnswerSerializer):
    meld = serializers.ListField(child=MeldCardField(), allow_null=True)
