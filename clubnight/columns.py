"""The standings column this app adds to the matches app's tables: ``rating``.

``settings.ARLINGTON_STANDINGS_COLUMNS`` names it; the matches app reads that list and never
imports this app. The models are imported when a table is computed, not when the column is
named, so that the tables' columns are the same whichever apps a process has loaded.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Subquery

from matches import standings


def _rating_reads(scope: standings.Scope) -> dict[str, Any]:
    """The player's current mu and sigma in the table's ruleset, and whether a replay of the
    club's ratings of that ruleset is pending, read in the table's query."""
    from clubnight.models import PendingReplay, Rating

    kept = Rating.objects.filter(player_id=OuterRef("player_id"), ruleset=scope.ruleset)
    pending = PendingReplay.objects.filter(club_id=scope.club_id, ruleset=scope.ruleset)
    return {
        "rating_mu": Subquery(kept.values("mu")[:1]),
        "rating_sigma": Subquery(kept.values("sigma")[:1]),
        "rating_recomputing": Exists(pending),
    }


def _rating_cell(line: dict[str, Any]) -> int | None:
    from clubnight.ratings import display

    if line["rating_mu"] is None:
        return None
    return display(line["rating_mu"], line["rating_sigma"])


def _rating_settled(line: dict[str, Any]) -> bool:
    return not line["rating_recomputing"]


RATING = standings.Column("rating", _rating_reads, _rating_cell, _rating_settled)
