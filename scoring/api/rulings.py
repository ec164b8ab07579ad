"""The stateless rulings of every game, one set of views keyed by ruleset.

``rulings/<ruleset>/meld/``, ``…/hand/`` and the turn rulings the game has
(:func:`scoring.rulesets.turn_rulings`) read the body, ask the ruleset and present its answer.
A game's request bodies take its options and, on a hand, its flags. Bodies and answers are
built from the game's description (:func:`scoring.rulesets.describe`'s attributes), for
reading requests and for the schema alike: a game brings no serializer of its own.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final, cast

from django.http import Http404
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from scoring import HandInput, PlayerInput
from scoring.api import presenters
from scoring.api import serializers as s
from scoring.api.fields import CardField, MeldCardField, MeldField
from scoring.hands import Ending
from scoring.rulesets import (
    DEFAULT,
    RULESETS,
    Extends,
    Option,
    Ruleset,
    Take,
    rule_hand,
    turn_rulings,
)
from scoring.turns import TurnRuling


class RulingView(APIView):
    """A POST that reads a body for one game's ruling and answers 200 with that ruling.

    ``ruleset_name`` fixes the game (the documented routes); otherwise the URL names it.
    """

    permission_classes = [AllowAny]
    throttle_scope = "rulings"  # only this limit: DEFAULT_THROTTLE_CLASSES reads the scope
    ruling: str
    ruleset_name: str | None = None
    request_serializer: type[serializers.Serializer] | None = None

    def post(self, request: Request, ruleset: str | None = None) -> Response:
        rules = RULESETS.get(self.ruleset_name or ruleset or "")
        if rules is None or not offers(rules, self.ruling):
            raise Http404
        serializer = self.request_serializer or built_request(rules.name, self.ruling)
        incoming = serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        given = {o.name: data[o.name] for o in rules.options if o.name in data}
        return Response(self.answer(rules, rules.options_with_defaults(given), data))

    def answer(self, rules: Ruleset, options: dict[str, object], data: dict[str, Any]) -> Any:
        raise NotImplementedError


def offers(rules: Ruleset, ruling: str) -> bool:
    """Whether the game has this ruling: a meld, a hand, or one of its turn rulings."""
    return ruling in ("meld", "hand", *turn_rulings(rules))


def _move(ruling: TurnRuling) -> dict[str, Any]:
    return {
        "allowed": ruling.allowed,
        "meld": None if ruling.meld is None else [c.code for c in ruling.meld],
        "violations": [presenters.violation(v) for v in ruling.violations],
    }


class MeldRuling(RulingView):
    ruling = "meld"

    def answer(self, rules: Ruleset, options: dict[str, object], data: dict[str, Any]) -> Any:
        ruling = rules.rule_meld(data["cards"], options)
        body = presenters.meld_ruling(ruling, rules)
        if rules.wild_rank is not None:
            found = rules.suggest(data["cards"], options)
            body["suggestions"] = [[c.code for c in meld] for meld in found]
        return body


class HandRuling(RulingView):
    ruling = "hand"

    def answer(self, rules: Ruleset, options: dict[str, object], data: dict[str, Any]) -> Any:
        hand = HandInput(
            ending=Ending(data["ending"]),
            went_out=data["went_out"],
            results=tuple(
                PlayerInput(entry["player"], tuple(entry["melds"]), entry["hand"])
                for entry in data["results"]
            ),
        )
        flags = data["flags"]
        ruling = rule_hand(rules, hand, options, flags=flags)
        return presenters.hand_answer(ruling, rules, flags)


class DiscardRuling(RulingView):
    ruling = "discard"

    def answer(self, rules: Ruleset, options: dict[str, object], data: dict[str, Any]) -> Any:
        taken = data.get("taken_from_discards")
        ruling = rules.rule_discard(data["card"], options, taken_from_discards=taken)
        return {
            "allowed": ruling.allowed,
            "violations": [presenters.violation(v) for v in ruling.violations],
        }


class TakeRuling(RulingView):
    ruling = "take-discards"

    def answer(self, rules: Ruleset, options: dict[str, object], data: dict[str, Any]) -> Any:
        return _move(rules.rule_take(data["top_card"], data["from_hand"], options))


class AddRuling(RulingView):
    ruling = "extend"

    def answer(self, rules: Ruleset, options: dict[str, object], data: dict[str, Any]) -> Any:
        ruling = rules.rule_add(
            data["meld"], data["add"], options, player=data.get("player"), owner=data.get("owner")
        )
        return _move(ruling)


class LayOffRuling(AddRuling):
    ruling = "lay-off"


VIEWS: dict[str, type[RulingView]] = {
    view.ruling: view for view in (MeldRuling, HandRuling, DiscardRuling, TakeRuling, AddRuling)
}
VIEWS["lay-off"] = LayOffRuling


# --- request bodies built from a game's description ----------------------------------------


def option_field(option: Option) -> serializers.Field:
    """A match option as a body field, with its default."""
    if option.choices:
        words = ", ".join(f'"{choice}"' for choice in option.choices)
        return serializers.ChoiceField(
            choices=list(option.choices),
            default=option.default,
            help_text=option.description
            or f'The match option `{option.name}`: {words}; "{option.default}" if absent.',
        )
    help_text = (
        option.description
        or f"The match option `{option.name}`, a whole number; {option.default} if absent."
    )
    field = serializers.IntegerField(default=int(option.default), help_text=help_text)
    if option.minimum is not None:
        field = serializers.IntegerField(
            default=int(option.default), min_value=option.minimum, help_text=help_text
        )
    if option.minimum is not None and option.maximum is not None:
        field = serializers.IntegerField(
            default=int(option.default),
            min_value=option.minimum,
            max_value=option.maximum,
            help_text=help_text,
        )
    return field


@lru_cache(maxsize=64)
def built_request(name: str, ruling: str) -> type[serializers.Serializer]:
    """The body of one of a game's rulings, from its description: cards, options and flags."""
    rules = RULESETS[name]
    fields: dict[str, Any] = {option.name: option_field(option) for option in rules.options}
    if ruling == "meld":
        fields["cards"] = MeldField(help_text="The meld's cards in any order.")
    elif ruling == "hand":
        # Every ending is read: one the game does not have is a rule broken, which the
        # game's answer reports, not a body that cannot be read.
        endings = ", ".join(f'"{ending.value}"' for ending in rules.endings)
        fields["ending"] = serializers.ChoiceField(
            choices=[e.value for e in Ending], help_text=f"How the hand ended: {endings}."
        )
        fields["went_out"] = serializers.CharField(
            required=False,
            allow_null=True,
            default=None,
            max_length=100,
            help_text="The label of the player who went out.",
        )
        # many=True makes a ListSerializer, which takes max_length; the stubs do not follow that.
        fields["results"] = s.LabelledPlayerHandSerializer(  # type: ignore[call-arg]
            many=True, max_length=s.MAX_PLAYERS_IN_REQUEST
        )
        fields.update(
            {
                flag.name: serializers.BooleanField(default=flag.default, help_text=flag.label)
                for flag in rules.flags
            }
        )
        fields["flags"] = s.flags_field()
        fields["validate"] = s.flags_validator(rules)
    elif ruling == "discard":
        fields["card"] = CardField(help_text="The card to discard.")
        if rules.take is Take.DISCARD:
            fields["taken_from_discards"] = CardField(
                required=False,
                allow_null=True,
                default=None,
                help_text="The card taken from the discard pile this turn, if one was.",
            )
    elif ruling == "take-discards":
        fields["top_card"] = MeldCardField()
        fields["from_hand"] = MeldField()
    else:
        fields["meld"] = MeldField(help_text="A meld on the table, as it was melded.")
        fields["add"] = MeldField(min_length=1, help_text="The cards to add to it.")
        if rules.extends is Extends.OWN:
            fields["player"] = serializers.CharField(
                required=False, max_length=100, help_text="Who adds the cards (optional)."
            )
            fields["owner"] = serializers.CharField(
                required=False, max_length=100, help_text="Who melded the meld (optional)."
            )
    return type(_title(name, ruling, "Request"), (serializers.Serializer,), fields)


def _title(name: str, *words: str) -> str:
    """A schema component's name for a game: ``RummyLayOffRequest``."""
    return "".join(word.title().replace("-", "").replace("_", "") for word in (name, *words))


# --- answers described from a game's description --------------------------------------------


@lru_cache(maxsize=64)
def _card_answer(name: str) -> type[serializers.Serializer]:
    rules = RULESETS[name]
    fields: dict[str, Any] = {"card": serializers.CharField(help_text="The card, canonical.")}
    if rules.wild_rank is not None:
        fields["represents"] = serializers.CharField(help_text="What it stands for.")
        fields["wild"] = serializers.BooleanField(help_text="A wild card standing for another.")
    fields["points"] = serializers.IntegerField(help_text="What the card counts in this game.")
    return type(_title(name, "Card"), (serializers.Serializer,), fields)


@lru_cache(maxsize=64)
def _meld_answer(name: str) -> type[serializers.Serializer]:
    rules = RULESETS[name]
    fields: dict[str, Any] = {
        "valid": serializers.BooleanField(),
        "kind": serializers.CharField(allow_null=True, help_text="Stable code; null: illegal."),
        "kind_label": serializers.CharField(
            allow_null=True, help_text="In the request's language."
        ),
        "points": serializers.IntegerField(help_text="What the meld scores."),
        "cards": _card_answer(name)(many=True),
        "violations": s.ViolationSerializer(many=True),
    }
    if rules.wild_rank is not None:
        fields["suggestions"] = serializers.ListField(
            child=serializers.ListField(child=serializers.CharField()),
            help_text="Legal melds made by declaring what a bare wild card stands for.",
        )
    return type(_title(name, "Meld", "Answer"), (serializers.Serializer,), fields)


@lru_cache(maxsize=64)
def _hand_answer(name: str) -> type[serializers.Serializer]:
    rules = RULESETS[name]
    result = type(
        _title(name, "Player", "Result"),
        (serializers.Serializer,),
        {
            "player": serializers.CharField(),
            "melded_points": serializers.IntegerField(),
            "hand_penalty": serializers.IntegerField(),
            "bonus": serializers.IntegerField(),
            "net": serializers.IntegerField(help_text="What the hand adds to the player's total."),
            "melds": _meld_answer(name)(many=True),
            "held": _card_answer(name)(many=True),
        },
    )
    fields: dict[str, Any] = {"valid": serializers.BooleanField()}
    fields.update(
        {flag.name: serializers.BooleanField(help_text=flag.label) for flag in rules.flags}
    )
    fields["results"] = result(many=True)
    fields["violations"] = s.PathViolationSerializer(many=True)
    return type(_title(name, "Hand", "Answer"), (serializers.Serializer,), fields)


def built_answer(name: str, ruling: str) -> type[serializers.Serializer]:
    """The answer of one of a game's rulings, from its description."""
    if ruling == "meld":
        return _meld_answer(name)
    if ruling == "hand":
        return _hand_answer(name)
    if ruling == "discard":
        return s.DiscardAnswerSerializer
    return s.MeldMoveAnswerSerializer


# --- the routes of any game ----------------------------------------------------------------


EXAMPLES: dict[str, object] = {
    "meld": {"cards": ["7H", "7D", "7C"]},
    "hand": {
        "ending": "went_out",
        "went_out": "ann",
        "results": [
            {"player": "ann", "melds": [["7H", "7D", "7C"]], "hand": []},
            {"player": "bob", "melds": [], "hand": ["KD"]},
        ],
    },
    "discard": {"card": "9C"},
    "take-discards": {"top_card": "7H", "from_hand": ["7D", "7C"]},
    "extend": {"meld": ["10H", "9H", "8H"], "add": ["JH"]},
    "lay-off": {"meld": ["10H", "9H", "8H"], "add": ["JH"]},
}
"""A body each game that has the ruling reads (its answer may refuse it, as a ruling)."""


RULING_DESCRIPTION: Final = (
    "Stateless: nothing is stored, and no account is needed. The answer is 200 whether or not "
    "a rule is broken: each rule broken is one of the answer's `violations`, with its stable "
    "`code` and a sentence (`detail`) naming the card or player, in the request's language. "
    "A body that cannot be read is a 400 `validation_error`."
)
"""What every ruling route says of itself in the OpenAPI description, after its game's own
sentence where it has one."""


def ruling_schema(
    *,
    summary: str,
    request: type,
    response: type,
    body: Any,
    answer: Any,
    description: str = RULING_DESCRIPTION,
) -> Any:
    """Document a ruling endpoint with one example request and its answer."""
    return extend_schema(
        summary=summary,
        description=description,
        request=request,
        responses={200: response},
        examples=[
            OpenApiExample("Request", value=body, request_only=True),
            OpenApiExample("Answer", value=answer, response_only=True, status_codes=["200"]),
        ],
        tags=["rulings"],
    )


QUESTIONS: dict[str, str] = {
    "meld": "is this meld legal, and what kind is it?",
    "hand": "score a finished hand and check it as a whole.",
    "discard": "may this card be discarded?",
    "take-discards": "may I take the discard pile with these cards from my hand?",
    "extend": "may I add these cards to my own meld?",
    "lay-off": "may I lay off these cards on this meld (anyone's)?",
}
"""What each ruling answers, as the summary of a game's documented route says it."""


def documented(rules: Ruleset, ruling: str) -> type[RulingView]:
    """The view of ``rulings/<game>/<ruling>/``, documented from the game's description: its
    body and answer, and an example answered by the game itself (in English)."""
    request = built_request(rules.name, ruling)
    body = {
        **{option.name: option.default for option in rules.options},
        **cast(dict[str, Any], EXAMPLES[ruling]),
        **({flag.name: flag.default for flag in rules.flags} if ruling == "hand" else {}),
    }
    incoming = request(data=body)
    incoming.is_valid(raise_exception=True)
    data = dict(incoming.validated_data)
    given = {o.name: data[o.name] for o in rules.options if o.name in data}
    name = f"{_title(rules.name)}{VIEWS[ruling].__name__}"
    view = type(name, (VIEWS[ruling],), {"ruleset_name": rules.name})
    with translation.override("en"):  # the document's language, whoever reads the URLs first
        answer = view().answer(rules, rules.options_with_defaults(given), data)
        summary = f"{rules.label}: {QUESTIONS[ruling]}"
        about = str(rules.description)
    schema = ruling_schema(
        summary=summary,
        description=f"{about} {RULING_DESCRIPTION}",
        request=request,
        response=built_answer(rules.name, ruling),
        body=body,
        answer=answer,
    )
    decorated: type[RulingView] = extend_schema_view(post=schema)(view)
    return decorated


def game_routes() -> dict[str, type[RulingView]]:
    """Each ruling of each game but the default (whose rulings are at ``rulings/…``), by its
    path below ``rulings/``: the games registered when the URLs are read."""
    return {
        f"{name}/{ruling}": documented(rules, ruling)
        for name, rules in RULESETS.items()
        if name != DEFAULT
        for ruling in ("meld", "hand", *turn_rulings(rules))
    }


class AnyGameSchema(api_settings.DEFAULT_SCHEMA_CLASS):  # type: ignore[name-defined]
    """The schema of a ruling served for any game: the ``ruleset`` path parameter lists the
    games that have the ruling when the document is built, not when this module was imported
    (a game registered or removed since then is counted as it is now)."""

    def get_override_parameters(self) -> list[Any]:
        ruling = getattr(self.view, "ruling", "")
        names = [name for name, rules in RULESETS.items() if offers(rules, ruling)]
        parameter = OpenApiParameter(
            "ruleset",
            str,
            OpenApiParameter.PATH,
            enum=names,
            description="A game of GET rulesets/.",
        )
        return [*super().get_override_parameters(), parameter]


def generic_schema(view: type[RulingView]) -> type[RulingView]:
    """Document a ruling served for any game that has it, the game named in the path."""
    summary = f"Any game's {view.ruling} ruling: the body is the game's (see GET rulesets/)."
    decorated = extend_schema_view(
        post=extend_schema(
            summary=summary,
            description=RULING_DESCRIPTION,
            operation_id=f"rulings_by_ruleset_{view.ruling.replace('-', '_')}_create",
            request=OpenApiTypes.OBJECT,
            responses={200: OpenApiTypes.OBJECT},
            examples=[OpenApiExample("Request", value=EXAMPLES[view.ruling], request_only=True)],
            tags=["rulings"],
        )
    )
    return decorated(type(f"Any{view.__name__}", (view,), {"schema": AnyGameSchema()}))


ROUTES: dict[str, type[RulingView]] = {name: generic_schema(view) for name, view in VIEWS.items()}
"""Each ruling kind's view for ``rulings/<ruleset>/<kind>/``."""
