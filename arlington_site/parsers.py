"""The API's JSON parser: refuses bodies built to break a parser, a renderer or a database.

One place for every body of every endpoint, so that no field can be forgotten:

- nesting deeper than ``MAX_JSON_DEPTH`` is a ``parse_error``, found by a flat scan of the text
  before anything recursive (the json module, a serializer, the error formatter) touches it;
- a number JSON cannot carry as a finite value (``1e999``, ``NaN``, ``Infinity``) or an integer
  too long to read is a ``parse_error``;
- a lone surrogate (``"\\ud800"``, which no UTF-8 text can hold) anywhere, key or value, is
  ``surrogate_characters_not_allowed``, and a NUL (``"\\u0000"``, which PostgreSQL cannot
  store) is ``null_characters_not_allowed``, each with the path of the string in ``attr``, as
  text fields already answer. The sentence names the code point, never the character itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.settings import api_settings
from rest_framework.validators import ProhibitSurrogateCharactersValidator

# The deepest body the API reads is a hand: object, results, result, melds, meld (5 levels).
MAX_JSON_DEPTH = 32

# A string (skipped whole, escapes included) or a bracket; everything else cannot nest.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
# Only an escape can put a NUL or a surrogate into a decoded string: raw ones are refused by
# the UTF-8 decoder and by JSON itself. A match is checked precisely by walking the value.
_SUSPECT_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")

_SURROGATE = re.compile("[\ud800-\udfff]")


def too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text nests arrays and objects deeper than ``limit``, without recursing.

    >>> too_deep('{"a": [[1], "[[[["]}', limit=2)
    False
    >>> too_deep('[[[]]]', limit=2)
    True
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return True
        elif bracket in "]}":
            depth -= 1
    return False


def _finite(number: str) -> float:
    value = float(number)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"Out of range float values are not JSON compliant: {number}")
    return value


def _strings(value: Any) -> Iterator[tuple[list[str], str]]:
    """Every string in a decoded body, keys included, with its path; iterative, not recursive."""
    stack: list[tuple[list[str], Any]] = [([], value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            yield path, item
        elif isinstance(item, dict):
            for key, child in item.items():
                yield [*path, key], key
                stack.append(([*path, key], child))
        elif isinstance(item, list):
            stack.extend(([*path, str(index)], child) for index, child in enumerate(item))


def _attr(path: list[str]) -> str:
    """A path as the error envelope's ``attr``, with any surrogate in a key written escaped."""
    return ".".join(part.encode("utf-8", "backslashreplace").decode("utf-8") for part in path)


def refuse_unstorable_text(data: Any) -> None:
    """Raise a 400 naming the first string that holds a lone surrogate or a NUL."""
    for path, text in _strings(data):
        surrogate = _SURROGATE.search(text)
        if surrogate is not None:
            code = ProhibitSurrogateCharactersValidator.code
            message = str(ProhibitSurrogateCharactersValidator.message).format(
                code_point=ord(surrogate.group())
            )
        elif "\x00" in text:
            code = ProhibitNullCharactersValidator.code
            message = str(ProhibitNullCharactersValidator.message)
        else:
            continue
        attr = _attr(path)
        raise ValidationError({attr: [message]} if attr else [message], code=code)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with the refusals above; the default parser of the API."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            text = stream.read().decode(encoding)
        except (UnicodeError, LookupError) as error:  # punycode's UnicodeError included
            raise ParseError(f"JSON parse error - {error}") from None
        if too_deep(text):
            raise ParseError(
                _("The JSON body nests deeper than %(limit)d levels.") % {"limit": MAX_JSON_DEPTH}
            )
        try:
            data = json.loads(
                text,
                parse_float=_finite,
                parse_constant=_refuse_constant if api_settings.STRICT_JSON else None,
            )
        except (ValueError, RecursionError) as error:
            raise ParseError(f"JSON parse error - {error}") from None
        if _SUSPECT_ESCAPE.search(text):
            refuse_unstorable_text(data)
        return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"Out of range float values are not JSON compliant: {name}")
