"""The games the service scores, described for clients: GET /api/v1/rulesets/."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.hands import Ending
from scoring.rulesets import RULESETS, Take, describe


class RangeSerializer(serializers.Serializer[Any]):
    min = serializers.IntegerField()
    max = serializers.IntegerField(allow_null=True, help_text="null: no upper limit.")


class FlagSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The key a recorded hand states it under.")
    # The metaclass moves declared fields out of the class; the stubs see Field.label.
    label = serializers.CharField(help_text="In the request's language.")  # type: ignore[assignment]
    default = serializers.BooleanField()


class OptionSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The key in a match's `options`.")
    default = serializers.JSONField(help_text="The value when a match is created without it.")
    min = serializers.IntegerField(required=False, help_text="An integer option's least value.")
    max = serializers.IntegerField(required=False, help_text="An integer option's greatest value.")
    choices = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="A word option's values."
    )


class LiveSerializer(serializers.Serializer[Any]):
    take = serializers.ChoiceField(
        choices=[t.value for t in Take],
        help_text='What a turn may take instead of drawing: "pile", the whole discard pile with '
        'a new meld of its top card (`take_pile`), or "discard", the top discard only '
        "(`take_discard`).",
    )


class RulesetSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The stable name a match's `ruleset` holds.")
    label = serializers.CharField(help_text="In the request's language.")  # type: ignore[assignment]
    description = serializers.CharField(help_text="One sentence, in the request's language.")
    players = RangeSerializer(help_text="How many players a match seats.")
    packs = serializers.IntegerField(help_text="52-card packs in the deck: copies of each card.")
    wild_rank = serializers.CharField(
        allow_null=True, help_text='The rank that is wild, e.g. "2"; null: none.'
    )
    meld_sizes = RangeSerializer(help_text="How many cards a meld holds.")
    target = serializers.IntegerField(help_text="The total that ends a match by default.")
    endings = serializers.ListField(
        child=serializers.ChoiceField(choices=[e.value for e in Ending]),
        help_text="How a hand may end: the `ending` values a recorded hand may state.",
    )
    flags = FlagSerializer(many=True, help_text="Yes/no facts a recorded hand states.")
    options = OptionSerializer(many=True, help_text="What a match is created with.")
    live = LiveSerializer(allow_null=True, help_text="The live table; null: no live play.")


EXAMPLE = describe(RULESETS["rummy"])


class RulesetListView(APIView):
    """Every game the service scores, the default first."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="Which games can be played, and by what rules?",
        responses={200: RulesetSerializer(many=True)},
        examples=[OpenApiExample("Answer", value=EXAMPLE, response_only=True)],  # one row
        tags=["rulesets"],
    )
    def get(self, request: Request) -> Response:
        return Response([describe(rules, gettext) for rules in RULESETS.values()])


class RulesetDetailView(APIView):
    """One game, by its name."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="One game and its rules, by name.",
        responses={200: RulesetSerializer},
        examples=[OpenApiExample("Answer", value=EXAMPLE, response_only=True)],
        tags=["rulesets"],
    )
    def get(self, request: Request, name: str) -> Response:
        rules = RULESETS.get(name)
        if rules is None:
            raise NotFound()
        return Response(describe(rules, gettext))
