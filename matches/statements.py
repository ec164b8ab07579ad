"""The SQL of recording a hand, the API's busiest write, written out.

Building and compiling the ORM's queries cost more than running them (docs/benchmarks.md), so
``hand_record`` reads its match with one statement (``lock_match``) and, on PostgreSQL, writes
the hand's rows with one more (``write_hand``). SQLite (``make run``) takes the ORM's
``bulk_create`` and ``bulk_update`` for the writes. Values are bound on the server and the
statements prepared by the database settings (``server_side_binding``, ``prepare_threshold``).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Max
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from matches.models import Hand, HandResult, HandRevision, Match, RevisionAction, Seat


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


LOCK_MATCH = """
SELECT m.club_id, m.season_id, m."table", m.status, m.hands_played, m.first_dealer_id,
       m.created_at, u.username, m.ruleset, m.options,
       (SELECT l.number FROM matches_livehand l WHERE l.match_id = m.id AND l.status = 'playing'),
       s.id, s.player_id, p.name, s.position, s.total, s.went_out
FROM matches_match m
JOIN auth_user u ON u.id = m.created_by_id
JOIN matches_seat s ON s.match_id = m.id
JOIN matches_player p ON p.id = s.player_id
WHERE m.id = %s
ORDER BY s.position
"""
# The seats are locked with the match so that, once another writer's lock is released, the
# statement returns the seats as that writer left them: PostgreSQL rereads every row it locks
# at its latest version, and only those.
FOR_UPDATE = "FOR UPDATE OF m, s"


def lock_match(match_id: int) -> LockedMatch:
    """Lock a match and its seats and read them; raises ``Match.DoesNotExist`` if it is gone."""
    sql = LOCK_MATCH + FOR_UPDATE if connection.vendor == "postgresql" else LOCK_MATCH
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id])
        rows = cursor.fetchall()
    if not rows:
        raise Match.DoesNotExist(f"match {match_id}")
    first_row = rows[0]
    club, season, table, status, played, first, created_at, creator, ruleset, options = first_row[
        :10
    ]
    live = first_row[10]
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
        seats=tuple(SeatRow(*row[11:]) for row in rows),
        live_number=live,
    )


def _moment(value: Any) -> datetime.datetime:
    """A timestamp as read: PostgreSQL's driver gives a datetime, SQLite's a string in UTC."""
    if isinstance(value, datetime.datetime):
        return value
    parsed = parse_datetime(value)
    assert parsed is not None, value
    return timezone.make_aware(parsed, datetime.UTC)


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """A seat's figures after a hand."""

    id: int
    total: int
    winner: bool
    went_out: int
    victory_points: Decimal


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A player's result in a new hand."""

    player: int
    position: int
    melds: list[dict[str, Any]]
    held: list[dict[str, Any]]
    melded_points: int
    hand_penalty: int
    bonus: int
    net: int
    total: int


@dataclass(frozen=True, slots=True)
class NewHand:
    """Everything a recorded hand writes: the hand, its results, its seats, its match, its
    first revision (``entry``, the hand as entered)."""

    match: int
    number: int
    dealer: int
    ending: str
    went_out: int | None
    recorded_by: int
    at: datetime.datetime
    results: Sequence[ResultRow]
    seats: Sequence[SeatFigures]
    status: str
    finished_at: datetime.datetime | None
    entry: dict[str, Any]
    flags: dict[str, bool] = field(default_factory=dict)
    """The yes/no facts of the hand its match's ruleset asks for (Rummy: ``rummy``)."""
    device: str = ""
    """The device the hand came from, kept on its first revision."""


# One statement: PostgreSQL runs its parts on one snapshot, taken once the match is locked. The
# results and the seats travel as JSON documents, so that hands of two to five players are one
# statement with the same parameters, prepared once per connection.
WRITE_HAND = """
WITH revision AS (
    SELECT COALESCE(MAX(revision), 0) + 1 AS number FROM matches_handrevision
    WHERE match_id = %(match)s AND number = %(number)s
), hand AS (
    INSERT INTO matches_hand (match_id, number, dealer_id, ending, went_out_id, flags, version,
                              recorded_by_id, recorded_at, updated_at)
    SELECT %(match)s, %(number)s, %(dealer)s, %(ending)s, %(went_out)s, %(flags)s::jsonb,
           revision.number, %(user)s, %(at)s, %(at)s
    FROM revision
    RETURNING id, version
), results AS (
    INSERT INTO matches_handresult (hand_id, player_id, position, melds, held, melded_points,
                                    hand_penalty, bonus, net, total)
    SELECT hand.id, r.player, r.position, r.melds, r.held, r.melded_points, r.hand_penalty,
           r.bonus, r.net, r.total
    FROM hand, jsonb_to_recordset(%(results)s::jsonb) AS r(
        player bigint, position smallint, melds jsonb, held jsonb, melded_points integer,
        hand_penalty integer, bonus integer, net integer, total integer)
), seats AS (
    UPDATE matches_seat SET total = s.total, winner = s.winner, went_out = s.went_out,
                            victory_points = s.victory_points
    FROM jsonb_to_recordset(%(seats)s::jsonb) AS s(
        id bigint, total integer, winner boolean, went_out integer, victory_points numeric)
    WHERE matches_seat.id = s.id
), match AS (
    UPDATE matches_match SET hands_played = %(number)s, status = %(status)s,
                             finished_at = %(finished_at)s
    WHERE id = %(match)s
), kept AS (
    INSERT INTO matches_handrevision (match_id, number, revision, action, hand, reason, by_id,
                                      device, at)
    SELECT %(match)s, %(number)s, revision.number, 'recorded', %(entry)s::jsonb, '', %(user)s,
           %(device)s, %(at)s
    FROM revision
)
SELECT version FROM hand
"""


class Written(NamedTuple):
    """What the database gave the new hand."""

    version: int
    recorded_at: datetime.datetime
    updated_at: datetime.datetime


def write_hand(new: NewHand) -> Written:
    """Write a recorded hand and everything it changes.

    The hand's version is its revision number: 1, or one more than the last revision of a hand
    of this number that was voided.
    """
    if connection.vendor != "postgresql":
        return _write_hand_with_the_orm(new)
    params: dict[str, Any] = {
        "match": new.match,
        "number": new.number,
        "dealer": new.dealer,
        "ending": new.ending,
        "went_out": new.went_out,
        "user": new.recorded_by,
        "at": new.at,
        "results": json.dumps([_fields(row) for row in new.results]),
        "seats": json.dumps([_fields(seat) for seat in new.seats], default=str),
        "status": new.status,
        "finished_at": new.finished_at,
        "entry": json.dumps(new.entry),
        "flags": json.dumps(new.flags),
        "device": new.device,
    }
    with connection.cursor() as cursor:
        cursor.execute(WRITE_HAND, params)
        (version,) = cursor.fetchone()
    return Written(version, new.at, new.at)


def _fields(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in row.__slots__}


def _write_hand_with_the_orm(new: NewHand) -> Written:
    """``write_hand`` for SQLite, one statement a table."""
    last = HandRevision.objects.filter(match_id=new.match, number=new.number).aggregate(
        last=Max("revision")
    )["last"]
    version = (last or 0) + 1
    hand = Hand.objects.create(
        match_id=new.match,
        number=new.number,
        dealer_id=new.dealer,
        ending=new.ending,
        went_out_id=new.went_out,
        flags=new.flags,
        version=version,
        recorded_by_id=new.recorded_by,
    )
    HandResult.objects.bulk_create(
        HandResult(
            hand=hand,
            player_id=row.player,
            **{name: getattr(row, name) for name in row.__slots__ if name != "player"},
        )
        for row in new.results
    )
    Seat.objects.bulk_update(
        [
            Seat(
                pk=s.id,
                total=s.total,
                winner=s.winner,
                went_out=s.went_out,
                victory_points=s.victory_points,
            )
            for s in new.seats
        ],
        ["total", "winner", "went_out", "victory_points"],
    )
    Match.objects.filter(pk=new.match).update(
        hands_played=new.number, status=new.status, finished_at=new.finished_at
    )
    HandRevision.objects.create(
        match_id=new.match,
        number=new.number,
        revision=version,
        action=RevisionAction.RECORDED,
        hand=new.entry,
        by_id=new.recorded_by,
        device=new.device,
    )
    return Written(version, hand.recorded_at, hand.updated_at)
