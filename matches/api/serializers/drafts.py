"""Serializers of the draft of a match's next hand (matches/drafts.py), part by part."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

import scoring
from scoring.api.fields import MAX_CARDS_IN_LIST, CardListField, MeldField
from scoring.api.serializers import MAX_MELDS_PER_PLAYER

# --- drafts of the next hand (matches/drafts.py) --------------------------------------------

LARGEST_VERSION = 2**31 - 1  # a part's version column holds no more


def _draft_version() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0,
        max_value=LARGEST_VERSION,
        help_text="The part's version as you last read it; 0 if you have not seen it written. "
        "If another phone has changed the part since, the write is refused (409 "
        "`draft_changed`, with the draft as it now stands).",
    )


class HandDraftEndingRequestSerializer(serializers.Serializer):
    """How a hand ended, as far as the scorekeeper has entered it."""

    ending = serializers.ChoiceField(
        choices=[e.value for e in scoring.Ending],
        help_text="One of the match's game's endings (GET rulesets/: endings); Rummy has no "
        "`stock_exhausted`.",
    )
    went_out = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Id of the seated player who went out, or null (not entered yet, or nobody).",
    )
    flags = serializers.DictField(
        child=serializers.BooleanField(),
        required=False,
        default=dict,
        help_text="The yes/no facts the match's game asks of a hand (GET rulesets/: flags), by "
        "name, as in a hand's body; those the game does not ask are not kept.",
    )
    version = _draft_version()

    def to_data(self) -> dict[str, Any]:
        data = self.validated_data
        return {"ending": data["ending"], "went_out": data["went_out"], "flags": data["flags"]}


class HandDraftPlayerRequestSerializer(serializers.Serializer):
    """A player's cards as entered so far: read from notation, not ruled on."""

    melds = serializers.ListField(
        child=MeldField(),
        max_length=MAX_MELDS_PER_PLAYER,
        required=False,
        default=list,
        help_text="The player's melds, each a list of cards (a two may stand for another "
        "card: `2D=QS`). Unfinished work: a meld may be short or break a rule until the hand "
        "is recorded.",
    )
    hand = CardListField(
        required=False, default=list, help_text="The cards left in the player's hand."
    )
    version = _draft_version()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        held = sum(len(meld) for meld in attrs.get("melds", [])) + len(attrs.get("hand", []))
        if held > MAX_CARDS_IN_LIST:
            raise serializers.ValidationError(
                {
                    "melds": serializers.ErrorDetail(
                        _(
                            "A player's part holds at most %(most)d cards, two packs' worth; "
                            "this one holds %(held)d."
                        )
                        % {"most": MAX_CARDS_IN_LIST, "held": held},
                        code="too_many_cards",
                    )
                }
            )
        return attrs

    def to_data(self) -> dict[str, Any]:
        data = self.validated_data
        return {  # an empty meld (one begun on a phone, nothing tapped yet) is left out
            "melds": [[card.code for card in meld] for meld in data["melds"] if meld],
            "hand": [card.code for card in data["hand"]],
        }


class HandDraftContestDropQuerySerializer(serializers.Serializer):
    """Which version of the part is kept over the version offered beside it."""

    version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=LARGEST_VERSION,
        help_text="The part's version as you last read it, the one you keep. If the part has "
        "changed since (another phone chose, or wrote it), nothing is kept: 409 "
        "`draft_changed`, with the draft as it now stands. Left out, not checked.",
    )


class _DraftStampSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The part's version: send it back to change it.")
    by = serializers.CharField(
        allow_null=True, help_text="Who wrote it last (username; null if the account is gone)."
    )
    device = serializers.CharField(help_text="The device it was written from; empty if unknown.")
    at = serializers.DateTimeField(help_text="When it was written last.")


class HandDraftEndingSerializer(_DraftStampSerializer):
    ending = serializers.ChoiceField(choices=[e.value for e in scoring.Ending])
    went_out = serializers.IntegerField(allow_null=True)
    flags = serializers.DictField(child=serializers.BooleanField())


class HandDraftContestSerializer(serializers.Serializer):
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    hand = serializers.ListField(child=serializers.CharField())
    by = serializers.CharField(help_text="Who offered it (username).")
    device = serializers.CharField(help_text="The device it was offered from; empty if unknown.")
    version = serializers.IntegerField(help_text="The part's version it differs from.")


class HandDraftDeclinedSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        help_text="The part's version kept over the version offered beside it (the part then "
        "moved to the next version)."
    )
    by = serializers.CharField(help_text="Who kept it (username).")
    device = serializers.CharField(help_text="The device it was kept from; empty if unknown.")


class HandDraftPlayerPartSerializer(_DraftStampSerializer):
    player = serializers.IntegerField(help_text="The player's id.")
    melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="In canonical notation, as entered: not ruled on.",
    )
    hand = serializers.ListField(child=serializers.CharField())
    contest = HandDraftContestSerializer(
        allow_null=True,
        help_text="Another phone's different version of these cards, offered for a choice "
        "(PUT …/contest/); null when none. Writing the part, or DELETE …/contest/, settles it.",
    )
    declined = HandDraftDeclinedSerializer(
        allow_null=True,
        help_text="The last version offered beside these cards that a phone declined, keeping "
        "the part as written (DELETE …/contest/), kept until another is: the phone that "
        "offered it learns so however far the part has moved on since. Null when none.",
    )


class HandDraftSerializer(serializers.Serializer):
    """The draft of a match's next hand: the parts that phones have written, each versioned."""

    number = serializers.IntegerField(help_text="The hand the draft is of: the match's next.")
    ending = HandDraftEndingSerializer(allow_null=True, help_text="Null until someone enters it.")
    players = HandDraftPlayerPartSerializer(
        many=True, help_text="The players' parts written so far, in seat order."
    )
