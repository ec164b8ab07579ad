"""Serializers of hands: the entry read from notation, the answers, corrections and revisions."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import scoring
from matches import hands
from matches.api.serializers.schema import schema_of
from matches.models import (
    HandRevision,
)
from matches.services import hands as hand_services
from scoring.api.fields import CardListField, MeldField
from scoring.api.serializers import MAX_MELDS_PER_PLAYER, MAX_PLAYERS_IN_REQUEST

# --- hands ---------------------------------------------------------------------------------


class PlayerEntrySerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The player's id.")
    melds = serializers.ListField(child=MeldField(), max_length=MAX_MELDS_PER_PLAYER)
    hand = CardListField(help_text="The cards left in hand.")


class HandInputSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="The hand you mean to record (the app always sends it). The next number "
        "records it (201); a number already recorded compares your entry with it: the same "
        "hand answers 200 and counts as a confirmation, a different one is 409 "
        "`hand_already_recorded`; any other number is 409 `hand_number_not_next`. Without it, "
        "the next hand is recorded.",
    )
    ending = serializers.ChoiceField(choices=[e.value for e in scoring.Ending])
    went_out = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Id of the player who went out; null when the stock ran out.",
    )
    results = PlayerEntrySerializer(many=True, max_length=MAX_PLAYERS_IN_REQUEST)  # type: ignore[call-arg]
    rummy = serializers.BooleanField(
        required=False,
        help_text="Rummy matches: the winner went out all at once, without having melded, laid "
        "off or discarded before, so every other player pays double (default false). "
        'Arlington matches do not read it. The same as "flags": {"rummy": …}.',
    )
    flags = serializers.DictField(
        child=serializers.BooleanField(),
        required=False,
        help_text="The yes/no facts the match's game asks of a hand (GET rulesets/: flags), "
        "by name; those left out take their defaults. A name the game does not have is 400 "
        "`unknown_flag` (`rummy` passes in any game, as the older top-level field).",
    )

    def to_entry(self) -> hand_services.HandEntry:
        data = self.validated_data
        return hand_services.HandEntry(
            ending=scoring.Ending(data["ending"]),
            went_out=data["went_out"],
            results=tuple(
                hand_services.PlayerEntry(r["player"], tuple(r["melds"]), r["hand"])
                for r in data["results"]
            ),
            flags={
                **data.get("flags", {}),
                **({"rummy": data["rummy"]} if "rummy" in data else {}),
            },
        )


class VoidQuerySerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        default="",
        help_text="Why the hand is voided; kept in its revisions.",
    )


class HandCorrectionSerializer(HandInputSerializer):
    number = None  # type: ignore[assignment]  # the URL names the hand
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")


HandSerializer = schema_of(hands.RecordedHand, name="Hand", leave_out=("match",))
"""A hand as the API answers it without its match (``RecordedHand.to_json(with_match=False)``)."""
HandWithMatchSerializer = schema_of(hands.RecordedHand, name="HandWithMatch")
"""A hand as the API answers it with its match as it now stands (``RecordedHand.to_json``)."""


class _Both(serializers.Serializer):
    recorded = serializers.CharField()
    submitted = serializers.CharField()


class _BothTrue(serializers.Serializer):
    recorded = serializers.BooleanField()
    submitted = serializers.BooleanField()


class FlagDifferenceSerializer(_BothTrue):
    name = serializers.CharField()


class PlayerDifferenceSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    melds_only_recorded = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField())
    )
    melds_only_submitted = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField())
    )
    held_only_recorded = serializers.ListField(child=serializers.CharField())
    held_only_submitted = serializers.ListField(child=serializers.CharField())
    went_out = _BothTrue(allow_null=True, help_text="When the entries disagree on it; else null.")


class DifferencesSerializer(serializers.Serializer):
    """What differs between the recorded hand and a submission of its number."""

    ending = _Both(allow_null=True, help_text="When the endings differ; else null.")
    flags = FlagDifferenceSerializer(many=True)
    players = PlayerDifferenceSerializer(many=True, help_text="Each player whose part differs.")


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


class CorrectedHandSerializer(HandWithMatchSerializer):  # type: ignore[misc,valid-type]
    """A corrected hand, with the impact of the correction."""

    impact = ImpactSerializer()
