"""Tallies: each player's figures per club, season and ruleset, recounted from finished seats."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from matches import signals, statements
from matches.models import (
    Club,
    Match,
    MatchStatus,
    Seat,
    Tally,
)
from matches.standings import seat_figures
from scoring import rulesets


def _seat_figures(seats: Sequence[Seat]) -> list[statements.SeatFigures]:
    return [
        statements.SeatFigures(seat.pk, seat.total, seat.winner, seat.went_out, seat.victory_points)
        for seat in seats
    ]


def _lock_tallies(club_id: int, season_id: int | None) -> None:
    """Serialise recounts of one season's tallies: two matches finishing together share players.

    A transaction-scoped advisory lock on PostgreSQL; SQLite (make run) serialises writes anyway.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [club_id, season_id or 0])


def retally(
    *,
    club_id: int,
    season_ids: Sequence[int | None],
    player_ids: Sequence[int],
    ruleset: str = rulesets.DEFAULT,
) -> None:
    """Recount these players' tallies of one ruleset for some seasons of a club.

    Tallies are counted from the finished seats of that ruleset's matches only: standings never
    add up the results of two games.

    Every change to a finished match comes through here, so this also moves the club's
    standings stamp on, which retires its cached tables (matches/standings.py). The seasons'
    locks are taken in one order and the club's row last, once, so that two recounts sharing a
    season or the club cannot wait for each other.
    """
    for season_id in sorted(set(season_ids), key=lambda s: s or 0):
        _lock_tallies(club_id, season_id)
        seats = Seat.objects.filter(
            match__club_id=club_id,
            match__season_id=season_id,  # type: ignore[misc]
            match__ruleset=ruleset,
            match__status=MatchStatus.FINISHED,
            player_id__in=player_ids,
        )
        figures = seats.order_by().values("player_id").annotate(**seat_figures())
        Tally.objects.filter(
            club_id=club_id,
            season_id=season_id,
            ruleset=ruleset,  # type: ignore[misc]
            player_id__in=player_ids,
        ).delete()
        Tally.objects.bulk_create(
            Tally(
                club_id=club_id,
                season_id=season_id,
                ruleset=ruleset,
                player_id=row["player_id"],
                matches_played=row["counted"],
                wins=row["outright"],
                shared_wins=row["shared"],
                victory_points=row["shares"],
                hands_played=row["hands"],
                went_out=row["outs"],
                points=row["sum_of_totals"],
            )
            for row in figures
        )
    Club.standings_changed(club_id)


def _retally_if_counted(match: Match, seats: Sequence[Seat], was_finished: bool) -> None:
    if was_finished or match.status == MatchStatus.FINISHED:
        retally(
            club_id=match.club_id,
            season_ids=[match.season_id],
            player_ids=[seat.player_id for seat in seats],
            ruleset=match.ruleset,
        )
        signals.finished_match_changed.send(sender=Match, match_id=match.pk)
