"""A player's record over their club's finished matches, and their matches, newest first.

The match-level figures are the player's row of the club's all-time table
(``matches.standings``); the hand-level ones come from their hand results, including what
they melded and were caught holding. Not cached.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Avg, Count, F, IntegerField, Q, QuerySet, Sum
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce

from matches import standings
from matches.models import HandResult, Player, Seat

# A wild two in canonical notation is the only card written with "=": "2D=QS".
_WILD_TWOS_SQL = (
    "SELECT count(*) FROM jsonb_array_elements({table}.{melds}) AS meld, "
    "jsonb_array_elements_text(meld -> 'cards') AS card WHERE card LIKE %s"
)


def _card_figures() -> dict[str, Any]:
    """Figures read by PostgreSQL from the melds and held cards stored as JSON (elsewhere
    :func:`card_figures_read` reads them)."""
    if connection.vendor != "postgresql":
        return {}
    quote = connection.ops.quote_name
    wild_twos = RawSQL(
        _WILD_TWOS_SQL.format(table=quote(HandResult._meta.db_table), melds=quote("melds")),
        ["2_=%"],
    )
    return {
        "wild_twos_melded": Coalesce(Sum(wild_twos, output_field=IntegerField()), 0),
        "queen_of_spades_held": Count("pk", filter=Q(held__contains=[{"card": "QS"}])),
    }


def card_figures_read(results: QuerySet[HandResult]) -> dict[str, int]:
    """The card figures of :func:`_card_figures` read row by row from the stored JSON, for a
    database without PostgreSQL's JSON functions (the embedded SQLite of ``make run``)."""
    wild_twos = queens = 0
    for melds, held in results.values_list("melds", "held").iterator():
        wild_twos += sum(
            1 for meld in melds for card in meld["cards"] if card.startswith("2") and "=" in card
        )
        queens += any(item["card"] == "QS" for item in held)
    return {"wild_twos_melded": wild_twos, "queen_of_spades_held": queens}


def player_record(*, player: Player) -> dict[str, Any]:
    """A player's record over the finished matches of their club (three queries).

    The match-level figures are their row of the club's all-time table; the hand-level ones
    come from their hand results, including what they melded and were caught holding.
    """
    scope = standings.Scope(player.club_id)
    row = next(iter(standings.standings(scope=scope, player=player)), {})
    results = HandResult.objects.filter(scope.matches("hand__match__"), player_id=player.pk)
    hands = results.aggregate(
        hands_played=Count("pk"),
        went_out=Count("pk", filter=Q(hand__went_out_id=F("player_id"))),
        average_net=Avg("net"),
        average_hand_penalty=Avg("hand_penalty"),
        **_card_figures(),
    )
    best = (
        results.order_by("-net", "hand__match_id", "hand__number")
        .values("net", match=F("hand__match_id"), number=F("hand__number"))
        .first()
    )
    if connection.vendor != "postgresql":
        hands.update(card_figures_read(results))
    played = hands["hands_played"]
    return {
        "matches_played": row.get("matches_played", 0),
        "wins": row.get("wins", 0),
        "shared_wins": row.get("shared_wins", 0),
        "victory_points": row.get("victory_points", Decimal("0.0000")),
        "hands_played": played,
        "went_out": hands["went_out"],
        "went_out_rate": _rounded(hands["went_out"] / played if played else None, "0.0001"),
        "average_net": _rounded(hands["average_net"], "0.01"),
        "best_hand": best,
        "wild_twos_melded": hands["wild_twos_melded"],
        "queen_of_spades_held": hands["queen_of_spades_held"],
        "average_hand_penalty": _rounded(hands["average_hand_penalty"], "0.01"),
    }


def _rounded(value: float | Decimal | None, places: str) -> Decimal | None:
    if value is None:
        return None
    return Decimal(str(value)).quantize(Decimal(places))


def matches_of(*, player: Player) -> QuerySet[Seat]:
    """The player's seats, newest match first, each with its match."""
    return (
        Seat.objects.filter(player_id=player.pk)
        .select_related("match")
        .order_by("-match__created_at", "-match_id")
    )
