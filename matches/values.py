"""A typed value's JSON: its names (``JSON``) in order, timestamps as DRF renders them."""

from __future__ import annotations

import datetime
from typing import Any

from rest_framework.fields import DateTimeField


def _to_json(value: Any) -> dict[str, Any]:
    """A value's JSON, its names (``JSON``) in order."""
    return {name: _json(getattr(value, name)) for name in value.JSON}


def _json(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return when(value)
    if isinstance(value, tuple):
        return [item.to_json() for item in value]
    if hasattr(value, "JSON"):
        return value.to_json()
    return value


_datetime = DateTimeField()  # DRF's own rendering of a timestamp (ISO 8601, "Z" for UTC)


def when(value: datetime.datetime | None) -> str | None:
    """A timestamp as the API writes every one: ISO 8601, "Z" for UTC (None stays None)."""
    return None if value is None else _datetime.to_representation(value)


def _from_iso(text: Any) -> Any:
    return None if text is None else datetime.datetime.fromisoformat(text)
