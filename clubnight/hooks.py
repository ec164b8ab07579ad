"""How this app hangs on the matches app, which never imports it: connected when it starts.

- Every service that finishes a match or changes a finished one sends
  ``matches.signals.finished_match_changed`` inside its transaction; the ratings replay from
  that match on, in the same transaction.
- The league tables (``matches.standings``) take extra columns; the ratings add ``rating``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Subquery

from clubnight import ratings
from clubnight.models import Rating
from matches import signals, standings


def _rate(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    ratings.match_changed(match_id=match_id)


def _rating_reads(scope: standings.Scope) -> dict[str, Any]:
    """The player's current mu and sigma in the table's ruleset, read in the table's query."""
    kept = Rating.objects.filter(player_id=OuterRef("player_id"), ruleset=scope.ruleset)
    return {
        "rating_mu": Subquery(kept.values("mu")[:1]),
        "rating_sigma": Subquery(kept.values("sigma")[:1]),
    }


def _rating_cell(line: dict[str, Any]) -> int | None:
    if line["rating_mu"] is None:
        return None
    return ratings.display(line["rating_mu"], line["rating_sigma"])


RATING = standings.Column("rating", _rating_reads, _rating_cell)


def connect() -> None:
    signals.finished_match_changed.connect(_rate, dispatch_uid="clubnight.ratings")
    if RATING not in standings.COLUMNS:
        standings.COLUMNS.append(RATING)
