"""Classic Rummy's stateless rulings at /api/v1/rulings/rummy/, as documented in the schema.

Each is the generic ruling of ``scoring.api.rulings`` with the game fixed and its body and
answer described: requests read like Arlington's, with the match option ``ace`` and, on a
hand, the flag ``rummy`` (the winner went out all at once); answers name each card's pip value.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers

from scoring import Ending, rummy
from scoring.api import rulings
from scoring.api.fields import CardField, MeldField
from scoring.api.serializers import (
    MAX_PLAYERS_IN_REQUEST,
    DiscardAnswerSerializer,
    LabelledPlayerHandSerializer,
    MeldMoveAnswerSerializer,
    PathViolationSerializer,
    ViolationSerializer,
)
from scoring.api.views import ruling_schema

ACE_HELP = (
    'Where an ace may stand in a run: "low" (A-2-3 only, the default) or "high_or_low" '
    "(A-2-3 or Q-K-A, never K-A-2)."
)


def ace_field() -> serializers.ChoiceField:
    """The match option ``ace``, low by default."""
    return serializers.ChoiceField(
        choices=[a.value for a in rummy.Ace], default=rummy.Ace.LOW.value, help_text=ACE_HELP
    )


# --- input -----------------------------------------------------------------------------------


class RummyMeldRequestSerializer(serializers.Serializer[Any]):
    cards = MeldField(help_text='The meld\'s cards in any order, e.g. ["5H", "6H", "7H"].')
    ace = ace_field()


class RummyHandRequestSerializer(serializers.Serializer[Any]):
    ending = serializers.ChoiceField(
        choices=[e.value for e in Ending],
        help_text='Always "went_out" in Rummy: the discard pile is turned over as a new stock.',
    )
    went_out = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=100,
        help_text="The label of the player who went out.",
    )
    rummy = serializers.BooleanField(
        default=False,
        help_text="The winner went out all at once, without having melded, laid off or "
        "discarded before: every other player pays double.",
    )
    # many=True makes a ListSerializer, which takes max_length; the stubs do not follow that.
    results = LabelledPlayerHandSerializer(  # type: ignore[call-arg]
        many=True, max_length=MAX_PLAYERS_IN_REQUEST
    )
    ace = ace_field()


class RummyLayOffRequestSerializer(serializers.Serializer[Any]):
    meld = MeldField(help_text="A meld on the table, whoever melded it.")
    add = MeldField(min_length=1, help_text="The cards to lay off on it.")
    ace = ace_field()


class RummyDiscardRequestSerializer(serializers.Serializer[Any]):
    card = CardField(help_text="The card to discard.")
    taken_from_discards = CardField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The card taken from the discard pile this turn, if the player took one.",
    )


# --- output ----------------------------------------------------------------------------------


class PipCardSerializer(serializers.Serializer[Any]):
    card = serializers.CharField(help_text="The card, canonical.")
    points = serializers.IntegerField(help_text="Its pip value: face cards 10, aces 1.")


class RummyMeldAnswerSerializer(serializers.Serializer[Any]):
    valid = serializers.BooleanField()
    kind = serializers.CharField(allow_null=True, help_text='"set" or "run"; null when illegal.')
    kind_label = serializers.CharField(allow_null=True, help_text="In the request's language.")
    points = serializers.IntegerField(help_text="The pip value of its cards.")
    cards = PipCardSerializer(many=True)
    violations = ViolationSerializer(many=True)


class RummyPlayerResultSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    melded_points = serializers.IntegerField(help_text="Always 0: melds score nothing in Rummy.")
    hand_penalty = serializers.IntegerField(
        help_text="What the player pays the winner: the pip value of the cards left in hand, "
        "doubled on a rummy."
    )
    bonus = serializers.IntegerField(help_text="What the winner collects from the others.")
    net = serializers.IntegerField(
        help_text="What the player collects (the winner, positive) or pays (negative)."
    )
    melds = RummyMeldAnswerSerializer(many=True)
    held = PipCardSerializer(many=True)


class RummyHandAnswerSerializer(serializers.Serializer[Any]):
    valid = serializers.BooleanField()
    rummy = serializers.BooleanField(help_text="Whether the others pay double.")
    results = RummyPlayerResultSerializer(many=True)
    violations = PathViolationSerializer(many=True)


# --- views -----------------------------------------------------------------------------------


@extend_schema_view(
    post=ruling_schema(
        summary="Rummy: is this meld legal, and what kind is it?",
        request=RummyMeldRequestSerializer,
        response=RummyMeldAnswerSerializer,
        body={"cards": ["QH", "KH", "AH"], "ace": "high_or_low"},
        answer={
            "valid": True,
            "kind": "run",
            "kind_label": "run",
            "points": 21,
            "cards": [
                {"card": "QH", "points": 10},
                {"card": "KH", "points": 10},
                {"card": "AH", "points": 1},
            ],
            "violations": [],
        },
    )
)
class RummyMeldRulingView(rulings.MeldRuling):
    ruleset_name = "rummy"
    request_serializer = RummyMeldRequestSerializer


@extend_schema_view(
    post=ruling_schema(
        summary="Rummy: who pays the winner what for this hand?",
        request=RummyHandRequestSerializer,
        response=RummyHandAnswerSerializer,
        body={
            "ending": "went_out",
            "went_out": "ann",
            "rummy": False,
            "results": [
                {
                    "player": "ann",
                    "melds": [["7H", "7D", "7C"], ["5S", "6S", "7S", "8S"]],
                    "hand": [],
                },
                {"player": "bob", "melds": [], "hand": ["KD", "4H", "AS"]},
            ],
        },
        answer={
            "valid": True,
            "rummy": False,
            "results": [
                {
                    "player": "ann",
                    "melded_points": 0,
                    "hand_penalty": 0,
                    "bonus": 15,
                    "net": 15,
                    "melds": [],
                    "held": [],
                },
                {
                    "player": "bob",
                    "melded_points": 0,
                    "hand_penalty": 15,
                    "bonus": 0,
                    "net": -15,
                    "melds": [],
                    "held": [
                        {"card": "KD", "points": 10},
                        {"card": "4H", "points": 4},
                        {"card": "AS", "points": 1},
                    ],
                },
            ],
            "violations": [],
        },
    )
)
class RummyHandRulingView(rulings.HandRuling):
    ruleset_name = "rummy"
    request_serializer = RummyHandRequestSerializer


@extend_schema_view(
    post=ruling_schema(
        summary="Rummy: may I lay off these cards on this meld (anyone's)?",
        request=RummyLayOffRequestSerializer,
        response=MeldMoveAnswerSerializer,
        body={"meld": ["10H", "9H", "8H"], "add": ["JH", "QH"]},
        answer={"allowed": True, "meld": ["10H", "9H", "8H", "JH", "QH"], "violations": []},
    )
)
class RummyLayOffRulingView(rulings.LayOffRuling):
    ruleset_name = "rummy"
    request_serializer = RummyLayOffRequestSerializer


@extend_schema_view(
    post=ruling_schema(
        summary="Rummy: may this card be discarded?",
        request=RummyDiscardRequestSerializer,
        response=DiscardAnswerSerializer,
        body={"card": "7H", "taken_from_discards": "7H"},
        answer={
            "allowed": False,
            "violations": [
                {
                    "code": "discard_taken_card",
                    "detail": "The seven of hearts (7H) was just taken from the discard pile: "
                    "it cannot be discarded in the same turn.",
                }
            ],
        },
    )
)
class RummyDiscardRulingView(rulings.DiscardRuling):
    ruleset_name = "rummy"
    request_serializer = RummyDiscardRequestSerializer
