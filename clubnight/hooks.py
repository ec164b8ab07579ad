"""How this app hangs on the matches app, which never imports it: connected when it starts.

- Every service that finishes a match or changes a finished one sends
  ``matches.signals.finished_match_changed`` inside its transaction; the ratings replay from
  that match on, in the same transaction.
- The league tables (``matches.standings``) take extra columns; the ratings add ``rating``.
"""

from __future__ import annotations

from typing import Any

from clubnight import ratings
from matches import signals, standings


def _rate(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    ratings.match_changed(match_id=match_id)


def _rating_column(scope: standings.Scope, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    shown = ratings.displayed(ruleset=scope.ruleset, player_ids=[row["player"] for row in rows])
    for row in rows:
        row["rating"] = shown.get(row["player"])


def connect() -> None:
    signals.finished_match_changed.connect(_rate, dispatch_uid="clubnight.ratings")
    if _rating_column not in standings.COLUMNS:
        standings.COLUMNS.append(_rating_column)
