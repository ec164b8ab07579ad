"""Serializer fields that read card notation through the engine and report its error codes, and
a game's name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import Card, MeldCard, NotationError, render_notation
from scoring.rulesets import RULESETS

MAX_CARDS_IN_LIST = 104
T = TypeVar("T")


def notation_error(error: NotationError) -> serializers.ValidationError:
    """The validation error for unreadable notation: the engine's code and a sentence naming it."""
    return serializers.ValidationError(
        render_notation(error.code, error.text, gettext), code=error.code
    )


def parse_or_fail(parse: Callable[[str], T], data: Any) -> T:
    """Parse notation with the engine, turning its error into a field validation error."""
    try:
        return parse(data)
    except NotationError as error:
        raise notation_error(error) from None


@extend_schema_field({"type": "string", "example": "10H"})
class CardField(serializers.Field):
    """A plain card: ``10H``, ``th``, ``10♥``; written back as canonical ``10H``."""

    def to_internal_value(self, data: Any) -> Card:
        return parse_or_fail(Card.parse, data)

    def to_representation(self, value: Card) -> str:
        return value.code


@extend_schema_field({"type": "string", "example": "2D=QS"})
class MeldCardField(serializers.Field):
    """A card in a meld: ``7H``, or a two standing for another card, ``2D=QS``."""

    def to_internal_value(self, data: Any) -> MeldCard:
        return parse_or_fail(MeldCard.parse, data)

    def to_representation(self, value: MeldCard) -> str:
        return value.code


class MeldField(serializers.ListField):
    """A meld: a list of card strings, read into a tuple of engine cards."""

    child = MeldCardField()

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_CARDS_IN_LIST)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> tuple[MeldCard, ...]:  # type: ignore[override]
        return tuple(super().to_internal_value(data))


class CardListField(serializers.ListField):
    """A list of plain cards, such as the cards left in a hand."""

    child = CardField()

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_CARDS_IN_LIST)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> tuple[Card, ...]:  # type: ignore[override]
        return tuple(super().to_internal_value(data))


class RulesetField(serializers.ChoiceField):
    """A game's name: any ruleset registered when the request is read (``GET rulesets/``).

    The choices are the registry's whenever they are read, also on a field made once and kept
    (a serializer given to ``extend_schema`` at import), so that the OpenAPI document lists the
    games registered when it is built.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(RULESETS), **kwargs)

    @property
    def choices(self) -> dict[Any, Any]:
        if list(self._choices) != list(RULESETS):
            self._set_choices(list(RULESETS))
        return self._choices

    @choices.setter
    def choices(self, choices: Any) -> None:
        self._set_choices(choices)

    def to_internal_value(self, data: Any) -> Any:
        self.choices  # noqa: B018 (reads the registry again)
        return super().to_internal_value(data)
