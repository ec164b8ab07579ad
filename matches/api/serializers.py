"""Serializers of the matches API: input ones read shape and notation, output ones present rows.

None of them decides a rule: the services and the engine do.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import types
import typing
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import scoring
from matches import errors, hands, services, standings
from matches.models import (
    Club,
    HandRevision,
    Match,
    Membership,
    Player,
    Role,
    Season,
    Seat,
    SecondEntry,
)
from scoring import rulesets
from scoring.api.fields import CardListField, MeldField, RulesetField
from scoring.api.serializers import MAX_MELDS_PER_PLAYER, MAX_PLAYERS_IN_REQUEST

# --- clubs and people ----------------------------------------------------------------------


class ClubSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="Your role in this club.")

    class Meta:
        model = Club
        fields = ["id", "name", "role", "second_entry", "created_at"]
        read_only_fields = ["id", "role", "created_at"]
        extra_kwargs = {
            "second_entry": {
                "help_text": "`off` (default) or `required`: with `required`, the app asks "
                "another phone to confirm each hand, and matches with unconfirmed hands are "
                "marked (match, standings). It never blocks play."
            }
        }

    def get_role(self, club: Club) -> str | None:
        user = self.context["request"].user
        roles = {m.user_id: m.role for m in club.memberships.all()}
        return roles.get(user.pk)


class MembershipSerializer(serializers.ModelSerializer):
    user = serializers.SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.all(),
        help_text="The member's username.",
    )
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
        slug_field="username",
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
            self.fields["club"].queryset = clubs  # type: ignore[attr-defined]
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
        return hands.match_state(match, self._seats(match)).dealer_after_next

    def get_unconfirmed_hands(self, match: Match) -> list[int] | None:
        if match.club.second_entry != SecondEntry.REQUIRED:
            return None
        return sorted(hand.number for hand in getattr(match, "unconfirmed", None) or [])

    def _seats(self, match: Match) -> list[Seat]:
        return sorted(match.seats.all(), key=lambda seat: seat.position)

    def get_next_hand(self, match: Match) -> int | None:
        return None if match.status == "finished" else match.hands_played + 1

    def get_next_dealer(self, match: Match) -> int | None:
        return hands.match_state(match, self._seats(match)).next_dealer

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
        "by name; those left out take their defaults, those the game does not ask are ignored.",
    )

    def to_entry(self) -> services.HandEntry:
        data = self.validated_data
        return services.HandEntry(
            ending=scoring.Ending(data["ending"]),
            went_out=data["went_out"],
            results=tuple(
                services.PlayerEntry(r["player"], tuple(r["melds"]), r["hand"])
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

    def to_data(self) -> dict[str, Any]:
        data = self.validated_data
        return {
            "melds": [[card.code for card in meld] for meld in data["melds"]],
            "hand": [card.code for card in data["hand"]],
        }


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


class HandDraftPlayerPartSerializer(_DraftStampSerializer):
    player = serializers.IntegerField(help_text="The player's id.")
    melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="In canonical notation, as entered: not ruled on.",
    )
    hand = serializers.ListField(child=serializers.CharField())


class HandDraftSerializer(serializers.Serializer):
    """The draft of a match's next hand: the parts that phones have written, each versioned."""

    number = serializers.IntegerField(help_text="The hand the draft is of: the match's next.")
    ending = HandDraftEndingSerializer(allow_null=True, help_text="Null until someone enters it.")
    players = HandDraftPlayerPartSerializer(
        many=True, help_text="The players' parts written so far, in seat order."
    )


# --- recorded hands: the schema made from their type (matches/hands.py) ---------------------


def _schema_field(hint: Any, meta: Mapping[str, Any], **kwargs: Any) -> serializers.Field:
    """The DRF field that describes a value of type ``hint`` in a value's JSON."""
    if "help" in meta:
        kwargs["help_text"] = meta["help"]
    args = typing.get_args(hint)
    if types.UnionType is typing.get_origin(hint) and type(None) in args:
        (hint,) = [arg for arg in args if arg is not type(None)]
        kwargs["allow_null"] = True
        args = typing.get_args(hint)
    origin = typing.get_origin(hint) or hint
    if "choices" in meta:
        choices = meta["choices"]
        listed = choices() if callable(choices) else choices
        return serializers.ChoiceField(choices=listed, **kwargs)
    if origin in (tuple, list):
        if dataclasses.is_dataclass(args[0]):
            return _schema_of(args[0])(many=True, **kwargs)
        return serializers.ListField(child=_schema_field(args[0], {}), **kwargs)
    if origin is dict:
        if args[1] is Any:
            return serializers.JSONField(**kwargs)
        return serializers.DictField(child=_schema_field(args[1], {}), **kwargs)
    if dataclasses.is_dataclass(origin):
        return _schema_of(origin)(**kwargs)
    simple: dict[Any, type[serializers.Field]] = {
        int: serializers.IntegerField,
        str: serializers.CharField,
        bool: serializers.BooleanField,
        datetime.datetime: serializers.DateTimeField,
    }
    return simple[origin](**kwargs)


# The component each value's JSON is named by, and what it says.
SCHEMA_NAMES: dict[Any, tuple[str, str]] = {
    hands.RecordedHand: ("Hand", ""),
    hands.MatchState: (
        "HandMatch",
        "The match as a hand's answer gives it: as it now stands (read it for its marks).",
    ),
    hands.ResultLine: ("HandResult", ""),
    hands.MeldLine: ("MeldOut", ""),
    hands.HeldLine: ("HeldOut", ""),
    hands.Confirmation: ("Confirmation", ""),
}
_SCHEMAS: dict[Any, type[serializers.Serializer]] = {}


def _schema_fields(value: Any, leave_out: tuple[str, ...]) -> dict[str, serializers.Field]:
    """The fields of ``value.to_json()``: its ``JSON`` names in order, each typed by its
    annotation (a property's return) and described by its field's metadata (``help``,
    ``choices``) or the property's docstring."""
    hints = typing.get_type_hints(value)
    fields = {field.name: field for field in dataclasses.fields(value)}
    made: dict[str, serializers.Field] = {}
    for key in value.JSON:
        if key in leave_out:
            continue
        if (value, key) == (hands.MatchState, "seats"):  # the seats of every match's answer
            made[key] = SeatSerializer(many=True)
        elif key in fields:
            made[key] = _schema_field(hints[key], fields[key].metadata)
        else:
            getter = getattr(value, key).fget
            doc = " ".join((getter.__doc__ or "").split())
            made[key] = _schema_field(
                typing.get_type_hints(getter)["return"], {"help": doc} if doc else {}
            )
    return made


def _schema_of(
    value: Any, *, name: str | None = None, leave_out: tuple[str, ...] = ()
) -> type[serializers.Serializer]:
    """A serializer describing ``value.to_json()`` (``_schema_fields``), for the schema only.

    Its fields are made whenever it is read, as a ModelSerializer's are, so that choices
    given by a callable (the registry's rulesets) are those of the moment."""
    if value in _SCHEMAS and name is None:
        return _SCHEMAS[value]
    component, doc = SCHEMA_NAMES[value]

    def get_fields(self: serializers.Serializer) -> dict[str, serializers.Field]:
        declared = copy.deepcopy(self._declared_fields)  # a subclass's own, after the type's
        return {**_schema_fields(value, leave_out), **declared}

    attrs = {"__doc__": doc if name is None else None, "get_fields": get_fields}
    made = type(f"{name or component}Serializer", (serializers.Serializer,), attrs)
    if name is None:
        _SCHEMAS[value] = made
    return made


HandSerializer = _schema_of(hands.RecordedHand, name="Hand", leave_out=("match",))
"""A hand as the API answers it without its match (``RecordedHand.to_json(with_match=False)``)."""
HandWithMatchSerializer = _schema_of(hands.RecordedHand, name="HandWithMatch")
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


# --- standings and records -----------------------------------------------------------------


class StandingsQuerySerializer(serializers.Serializer):
    """The query of a standings request; ``from`` and ``to`` are dates of the matches' finish."""

    ruleset = RulesetField(
        default=rulesets.DEFAULT,
        help_text="Which game's matches to count: a table never adds Arlington and Rummy "
        "results together.",
    )
    ordering = serializers.CharField(
        required=False,
        help_text="Comma-separated fields, '-' for descending, e.g. '-average_net,name'. "
        "Default: -victory_points,-wins,-points.",
    )

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
                {
                    "ordering": _("Cannot order by %(key)s; use one of %(fields)s.")
                    % {"key": unknown, "fields": ", ".join(standings.STANDING_FIELDS)}
                },
                code="invalid_ordering",
            ) from None
        if attrs.get("from") and attrs.get("to") and attrs["to"] < attrs["from"]:
            raise serializers.ValidationError(
                {"to": _("The end date is before the start date.")}, code="ends_before_start"
            )
        return attrs


class ClubStandingsQuerySerializer(StandingsQuerySerializer):
    """A club's standings may count only one of its seasons."""

    season = serializers.IntegerField(required=False, help_text="Count only this season.")


def _ratio(places: int, help_text: str) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=12,
        decimal_places=places,
        coerce_to_string=False,
        allow_null=True,
        help_text=help_text,
    )


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
    unconfirmed_matches = serializers.IntegerField(
        allow_null=True,
        help_text="When the club asks for a second entry: the counted matches with a hand "
        "nobody has confirmed; else null.",
    )
    rating = serializers.IntegerField(
        allow_null=True,
        help_text="The player's current rating in the table's ruleset over all the club's "
        "matches (docs/standings.md), whatever the season or dates; null before any.",
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
            "created_at",
            "finished_at",
        ]

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


class CorrectedHandSerializer(HandWithMatchSerializer):  # type: ignore[misc,valid-type]
    """A corrected hand, with the impact of the correction."""

    impact = ImpactSerializer()
