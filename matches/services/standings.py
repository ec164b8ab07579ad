"""The club's standings stamp, moved on whenever what a table counts changes.

Tables are counted from the finished seats at read time and cached under the club's stamp
(matches/standings.py). ``after_hand`` is the subscriber (``settings.ARLINGTON_AFTER_HAND``)
that moves the stamp on when a hand finishes, changes or un-finishes a match; the match
services move it too when a finished match changes season, and ``Player.save`` when a name
changes. The stamp moves in the caller's transaction, so a table is never served stale.
"""

from __future__ import annotations

from collections.abc import Sequence

from matches import statements
from matches.models import Club, Seat
from matches.subscribers import HandChange


def seat_figures(seats: Sequence[Seat]) -> list[statements.SeatFigures]:
    """The seats' figures as a hand's statement keeps them."""
    return [
        statements.SeatFigures(seat.pk, seat.total, seat.winner, seat.went_out, seat.victory_points)
        for seat in seats
    ]


def after_hand(change: HandChange) -> None:
    """Move the club's standings stamp on when the hand finished, changed or un-finished the
    match (the subscriber in ``settings.ARLINGTON_AFTER_HAND``; in the hand's transaction)."""
    if change.finished_match_changed:
        Club.standings_changed(change.match.club)
