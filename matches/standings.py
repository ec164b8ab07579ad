"""Read-side queries for league tables and player records, computed on read in the database.

Only finished matches count. Nothing is cached: a correction shows in the next answer.
Everything is aggregated and ranked in SQL: one query for a table, however many matches or
players; three for a player's record.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import (
    Avg,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.utils import timezone

from matches.models import Club, Hand, HandResult, MatchStatus, Player, Season, Seat

# What `?ordering=` accepts, and the default: victory points, then wins, then points.
STANDING_FIELDS = (
    "name", "matches_played", "wins", "shared_wins", "victory_points", "hands_played",
    "went_out", "points", "average_net",
)  # fmt: skip
DEFAULT_ORDERING = ("-victory_points", "-wins", "-points")


@dataclass(frozen=True)
class Scope:
    """Which finished matches a table counts: a club's, optionally one season's, between dates."""

    club_id: int
    season_id: int | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None

    def matches(self, prefix: str) -> Q:
        """The condition on the match reached through ``prefix`` (such as ``match__``)."""
        q = Q(**{f"{prefix}club_id": self.club_id, f"{prefix}status": MatchStatus.FINISHED})
        if self.season_id is not None:
            q &= Q(**{f"{prefix}season_id": self.season_id})
        if self.date_from is not None:
            q &= Q(**{f"{prefix}finished_at__gte": _start_of(self.date_from)})
        if self.date_to is not None:
            q &= Q(**{f"{prefix}finished_at__lt": _start_of(self.date_to + dt.timedelta(days=1))})
        return q


def _start_of(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=timezone.get_current_timezone())


def _winners_in_match() -> Subquery:
    """How many seats of the seat's match won it: 1 outright, k for a k-way shared victory."""
    return Subquery(
        Seat.objects.filter(match_id=OuterRef("match_id"), winner=True)
        .order_by()
        .values("match_id")
        .annotate(n=Count("pk"))
        .values("n"),
        output_field=IntegerField(),
    )


# One statement, whatever the number of matches or players. The counted seats and the
# went-out counts are querysets (so the scope's dates are adapted by the database backend);
# the winners of each match are counted once, then joined to their seats, which a correlated
# subquery or Django's aggregation over a window cannot do without a pass per seat.
_TABLE_SQL = """
WITH seats AS ({seats}),
winners AS (SELECT match_id, COUNT(*) AS k FROM seats WHERE winner GROUP BY match_id),
outs AS ({outs}),
figures AS (
    SELECT seats.player_id AS player,
           COUNT(*) AS matches_played,
           COUNT(*) FILTER (WHERE winners.k = 1) AS wins,
           COUNT(*) FILTER (WHERE winners.k > 1) AS shared_wins,
           ROUND(COALESCE(SUM(1.0 / winners.k), 0), 4) AS victory_points,
           SUM(seats.hands) AS hands_played,
           SUM(seats.total) AS points,
           ROUND(SUM(seats.total) * 1.0 / NULLIF(SUM(seats.hands), 0), 2) AS average_net
    FROM seats
    LEFT JOIN winners ON winners.match_id = seats.match_id AND seats.winner
    {only_player}
    GROUP BY seats.player_id
),
ranked AS (
    SELECT figures.*, p.name AS name, COALESCE(outs.n, 0) AS went_out
    FROM figures
    JOIN {player_table} AS p ON p.id = figures.player
    LEFT JOIN outs ON outs.went_out_id = figures.player
)
SELECT RANK() OVER (ORDER BY {order}) AS rank, player, name, matches_played, wins, shared_wins,
       victory_points, hands_played, went_out, points, average_net
FROM ranked
ORDER BY {order}, name, player
"""


def parse_ordering(text: str | None) -> tuple[str, ...]:
    """``-average_net,name`` → its keys; ValueError names a key that is not a standing field."""
    if not text:
        return DEFAULT_ORDERING
    keys = tuple(key.strip() for key in text.split(",") if key.strip())
    for key in keys:
        if key.removeprefix("-") not in STANDING_FIELDS:
            raise ValueError(key)
    return keys or DEFAULT_ORDERING


def _order_sql(ordering: Sequence[str]) -> str:
    terms = []
    for key in ordering:
        name = key.removeprefix("-")
        if name not in STANDING_FIELDS:  # the only text that reaches the SQL unquoted
            raise ValueError(key)
        direction = "DESC" if key.startswith("-") else "ASC"
        # NULLS LAST in both directions, written so that SQLite (make run) reads it too.
        terms.append(f"{name} IS NULL, {name} {direction}")
    return ", ".join(terms)


def standings(*, scope: Scope, ordering: Sequence[str] = DEFAULT_ORDERING,
              player: Player | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """The table: one row per player with a counted match, ranked on the ordering's keys.

    Players equal on every key share a rank, and the next rank skips (1, 2, 2, 4); among
    equals, rows are listed by name. ``player`` keeps only that player's row.
    """
    seats = Seat.objects.filter(scope.matches("match__"))
    hands = Hand.objects.filter(scope.matches("match__"), went_out__isnull=False)
    only_player, player_params = "", []
    if player is not None:  # every seat still counts towards how many won each match
        only_player, player_params = "WHERE seats.player_id = %s", [player.pk]
        hands = hands.filter(went_out_id=player.pk)
    seats_sql, seats_params = (
        seats.order_by()
        .values("player_id", "match_id", "total", "winner", hands=F("match__hands_played"))
        .query.sql_with_params()
    )
    outs_sql, outs_params = (
        hands.order_by().values("went_out_id").annotate(n=Count("pk")).query.sql_with_params()
    )
    statement = _TABLE_SQL.format(
        seats=seats_sql, outs=outs_sql, order=_order_sql(ordering), only_player=only_player,
        player_table=connection.ops.quote_name(Player._meta.db_table),
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(statement, (*seats_params, *outs_params, *player_params))
        columns = [column[0] for column in cursor.description]
        return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def standings_for_club(
    *,
    club: Club,
    season: Season | None = None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    ordering: Sequence[str] = DEFAULT_ORDERING,
) -> list[dict[str, Any]]:
    """A club's table, all-time or for one season, optionally between two dates (inclusive)."""
    scope = Scope(club.pk, season.pk if season else None, date_from, date_to)
    return standings(scope=scope, ordering=ordering)


def standings_for_season(
    *,
    season: Season,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    ordering: Sequence[str] = DEFAULT_ORDERING,
) -> list[dict[str, Any]]:
    """A season's table, optionally between two dates (inclusive)."""
    scope = Scope(season.club_id, season.pk, date_from, date_to)
    return standings(scope=scope, ordering=ordering)


# --- a player's record ---------------------------------------------------------------------

# A wild two in canonical notation is the only card written with "=": "2D=QS".
_WILD_TWOS_SQL = (
    "SELECT count(*) FROM jsonb_array_elements({table}.{melds}) AS meld, "
    "jsonb_array_elements_text(meld -> 'cards') AS card WHERE card LIKE %s"
)


def _card_figures() -> dict[str, Any]:
    """Figures read from the melds and held cards stored as JSON; PostgreSQL only (else null)."""
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


def player_record(*, player: Player) -> dict[str, Any]:
    """A player's record over the finished matches of their club (three queries).

    The match-level figures are their row of the club's all-time table; the hand-level ones
    come from their hand results, including what they melded and were caught holding.
    """
    scope = Scope(player.club_id)
    row = next(iter(standings(scope=scope, player=player)), {})
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
        "wild_twos_melded": hands.get("wild_twos_melded"),
        "queen_of_spades_held": hands.get("queen_of_spades_held"),
        "average_hand_penalty": _rounded(hands["average_hand_penalty"], "0.01"),
    }


def _rounded(value: float | Decimal | None, places: str) -> Decimal | None:
    if value is None:
        return None
    return Decimal(str(value)).quantize(Decimal(places))


def matches_of(*, player: Player) -> QuerySet[Seat]:
    """The player's seats, newest match first, each with the match and how many won it."""
    return (
        Seat.objects.filter(player_id=player.pk)
        .select_related("match")
        .annotate(winner_count=Coalesce(_winners_in_match(), 0))
        .order_by("-match__created_at", "-match_id")
    )
