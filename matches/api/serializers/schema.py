"""Schemas made from a value's own type: the serializer that describes ``value.to_json()``.

A recorded hand's JSON is produced by its type (``matches.hands.RecordedHand``), and so is a
match's (``matches.state.MatchState``); their schemas are read from the same types, so that an
answer and its description cannot disagree.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import types
import typing
from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from matches import hands, state

# --- hands and matches: the schema made from their types (matches/hands.py, state.py) ------


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
            return schema_of(args[0])(many=True, **kwargs)
        return serializers.ListField(child=_schema_field(args[0], {}), **kwargs)
    if origin is dict:
        if args[1] is Any:
            return serializers.JSONField(**kwargs)
        return serializers.DictField(child=_schema_field(args[1], {}), **kwargs)
    if dataclasses.is_dataclass(origin):
        return schema_of(origin)(**kwargs)
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
    state.MatchState: (
        "HandMatch",
        "The match as a hand's answer gives it: as it now stands (read it for its marks).",
    ),
    hands.ResultLine: ("HandResult", ""),
    hands.MeldLine: ("MeldOut", ""),
    hands.HeldLine: ("HeldOut", ""),
    hands.Confirmation: ("Confirmation", ""),
    state.SeatLine: ("Seat", ""),
}
_SCHEMAS: dict[Any, type[serializers.Serializer]] = {}


def _schema_fields(
    value: Any, leave_out: tuple[str, ...], names: tuple[str, ...]
) -> dict[str, serializers.Field]:
    """The fields of ``value.to_json()``: its JSON ``names`` in order, each typed by its
    annotation (a property's return) and described by its field's metadata (``help``,
    ``choices``) or the property's docstring."""
    hints = typing.get_type_hints(value)
    fields = {field.name: field for field in dataclasses.fields(value)}
    made: dict[str, serializers.Field] = {}
    for key in names:
        if key in leave_out:
            continue
        if key in fields:
            made[key] = _schema_field(hints[key], fields[key].metadata)
        else:
            getter = getattr(value, key).fget
            doc = " ".join((getter.__doc__ or "").split())
            made[key] = _schema_field(
                typing.get_type_hints(getter)["return"], {"help": doc} if doc else {}
            )
    return made


def schema_of(
    value: Any,
    *,
    name: str | None = None,
    leave_out: tuple[str, ...] = (),
    names: tuple[str, ...] | None = None,
) -> type[serializers.Serializer]:
    """A serializer describing ``value.to_json()`` (``_schema_fields``), for the schema only;
    ``names`` are its JSON's when not the type's ``JSON`` (a match answered with its marks).

    Its fields are made whenever it is read, as a ModelSerializer's are, so that choices
    given by a callable (the registry's rulesets) are those of the moment."""
    if value in _SCHEMAS and name is None:
        return _SCHEMAS[value]
    component, doc = SCHEMA_NAMES[value]

    def get_fields(self: serializers.Serializer) -> dict[str, serializers.Field]:
        declared = copy.deepcopy(self._declared_fields)  # a subclass's own, after the type's
        described = value.JSON if names is None else names
        return {**_schema_fields(value, leave_out, described), **declared}

    attrs = {"__doc__": doc if name is None else None, "get_fields": get_fields}
    made = type(f"{name or component}Serializer", (serializers.Serializer,), attrs)
    if name is None:
        _SCHEMAS[value] = made
    return made
