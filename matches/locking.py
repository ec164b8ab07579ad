"""Locking a match for a write, and reading it under the lock with the writer's role.

Every write of a hand (recorded, corrected, voided, or finished live) and every write of a
draft queues for its match here: ``lock_match`` locks the match and its seats with one
statement, then reads them with another, so that the read sees every write committed before
the lock was granted. ``hold_role`` reads a requester's role with the club's members held
still, for the writes that lock their match otherwise (a correction, a void, a live event, a
confirmation), for a club night's changes, and for making a match or a club night.
PostgreSQL and SQLite run the statements as written.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from matches import errors


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as recording a hand reads it."""

    id: int
    player: int
    name: str
    position: int
    total: int
    went_out: int


@dataclass(frozen=True, slots=True)
class LockedMatch:
    """A match as recording a hand reads it, with its seats in order."""

    id: int
    club: int
    season: int | None
    table: str
    status: str
    hands_played: int
    first_dealer: int
    created_by: str
    created_at: datetime.datetime
    ruleset: str
    options: dict[str, Any]
    seats: tuple[SeatRow, ...]
    live_number: int | None = None
    """The number of the hand being played live, if one is: it holds that number."""
    has_drafts: bool = False
    """Whether the match has draft parts (matches/drafts.py), written or emptied: recording a
    hand empties them."""
    role: str | None = None
    """The role in the match's club of the user named to ``lock_match``, read under the lock:
    None for someone who is no member (any more), or when no user was named."""


LOCK_MATCH = """
SELECT m.club_id, m.season_id, m."table", m.status, m.hands_played, m.first_dealer_id,
       m.created_at, u.username, m.ruleset, m.options,
       (SELECT l.number FROM matches_livehand l WHERE l.match_id = m.id AND l.status = 'playing'),
       EXISTS (SELECT 1 FROM matches_handdraftpart d WHERE d.match_id = m.id),
       (SELECT ms.role FROM matches_membership ms WHERE ms.club_id = m.club_id AND ms.user_id = %s),
       s.id, s.player_id, p.name, s.position, s.total, s.went_out
FROM matches_match m
JOIN auth_user u ON u.id = m.created_by_id
JOIN matches_seat s ON s.match_id = m.id
JOIN matches_player p ON p.id = s.player_id
WHERE m.id = %s
ORDER BY s.position
"""
# The match and its seats are locked first, by a statement of their own, and read afterwards.
# A statement that waits for a lock on PostgreSQL rereads the rows it locks once it gets them,
# but reads everything else (the live hand, the drafts) as it stood when the statement began,
# before the wait: a writer that queued behind another would decide from what was true before
# that other writer committed. The statement after the lock sees every commit before it.
#
# The club's row is held too, FOR KEY SHARE: a change to the club's members (a role changed, a
# member removed: matches/services/clubs.py) holds it FOR UPDATE (a webhook registered holds it
# FOR NO KEY UPDATE, which does not wait for this), so it waits for the writers
# of the club's matches, or they for it, and the role read after the lock is the one that
# holds while the hand is written. Writers of the club's other rows (a hand's place in the
# feed, a player renamed) hold it FOR NO KEY UPDATE, which does not wait for this.
LOCK = """
SELECT 1 FROM matches_match m JOIN matches_seat s ON s.match_id = m.id
JOIN matches_club c ON c.id = m.club_id
WHERE m.id = %s FOR UPDATE OF m, s FOR KEY SHARE OF c
"""


def lock_match(match_id: int, user_id: int | None = None) -> LockedMatch:
    """Lock a match and its seats, then read them, with ``user_id``'s role in its club;
    raises ``errors.NoSuchMatch`` (404) if it is gone, deleted while this request waited for
    it (a club night's round undone).

    On SQLite the transaction holds the database's write lock from its first statement
    (``transaction_mode`` IMMEDIATE in the settings), so there is no row to lock.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(LOCK, [match_id])
    return read_match(match_id, user_id)


HOLD_ROLE = """
SELECT ms.role FROM matches_club c
LEFT JOIN matches_membership ms ON ms.club_id = c.id AND ms.user_id = %s
WHERE c.id = %s
"""


def hold_role(club_id: int, user_id: int) -> str | None:
    """``user_id``'s role in the club, read once the club's row is held ``FOR KEY SHARE`` (as
    ``LOCK`` holds it): a change to the club's members, which holds the row ``FOR UPDATE``,
    waits for this transaction, or this for it, so the role read is the one that holds until
    the transaction ends. None for someone who is no member (any more). For a write that
    locked its match otherwise than with ``lock_match`` (a correction, a void, a live event,
    a confirmation), a club night's change, and the making of a match or a club night. On
    SQLite the transaction already holds the database's write lock."""
    held = " FOR KEY SHARE OF c" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(HOLD_ROLE + held, [user_id, club_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


def check_role(role: str | None, roles: frozenset[str] | None) -> None:
    """Refuse (``errors.NotAllowed``, 403) a role read under the match's lock that is not one
    of ``roles``: the requester was demoted or removed while their request waited. ``roles``
    None: the caller checked nobody (the admin, the demo, the tests)."""
    if roles is not None and role not in roles:
        raise errors.NotAllowed()


def require_role(club_id: int, user: User | None, roles: frozenset[str] | None) -> None:
    """Refuse (``errors.NotAllowed``, 403) a ``user`` whose role in the club, read with the
    club's members held still (``hold_role``), is not one of ``roles``: demoted or removed
    while the request waited. ``roles`` None: nobody is checked, and nothing is read."""
    if roles is not None:
        check_role(None if user is None else hold_role(club_id, user.pk), roles)


def read_match(match_id: int, user_id: int | None = None) -> LockedMatch:
    """Read a match and its seats as ``lock_match`` does, without locking them (for reads)."""
    with connection.cursor() as cursor:
        cursor.execute(LOCK_MATCH, [user_id, match_id])
        rows = cursor.fetchall()
    if not rows:
        raise errors.NoSuchMatch(match=match_id)
    first_row = rows[0]
    club, season, table, status, played, first, created_at, creator, ruleset, options = first_row[
        :10
    ]
    live, has_drafts, role = first_row[10:13]
    return LockedMatch(
        id=match_id,
        club=club,
        season=season,
        table=table,
        status=status,
        hands_played=played,
        first_dealer=first,
        created_by=creator,
        created_at=_moment(created_at),
        ruleset=ruleset,
        options=options if isinstance(options, dict) else json.loads(options),
        seats=tuple(SeatRow(*row[13:]) for row in rows),
        live_number=live,
        has_drafts=bool(has_drafts),
        role=role,
    )


def _moment(value: Any) -> datetime.datetime:
    """A timestamp as read: PostgreSQL's driver gives a datetime, SQLite's a string in UTC."""
    if isinstance(value, datetime.datetime):
        return value
    parsed = parse_datetime(value)
    assert parsed is not None, value
    return timezone.make_aware(parsed, datetime.UTC)
