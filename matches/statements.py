"""The SQL of a hand's writes, written out: the one path that records, corrects and voids.

Building and compiling the ORM's queries cost more than running them (docs/benchmarks.md), so
``hand_record`` locks its match, then reads it with one statement (``locking.lock_match``),
and every write of a hand (recorded, corrected, voided, or finished live) goes through the
statements below: plain ``INSERT ... RETURNING`` and ``UPDATE ... FROM (VALUES ...)``, which
PostgreSQL and SQLite 3.35 or later (``make run``) both run as written
(``arlington_site.checks`` refuses an older SQLite). On PostgreSQL values are bound on the
server and the statements prepared by the database settings (``server_side_binding``,
``prepare_threshold``).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import connection

from matches.models import RevisionAction


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


class Written(NamedTuple):
    """What the database gave the new hand."""

    version: int
    recorded_at: datetime.datetime
    updated_at: datetime.datetime


# The hand's version is its revision number: 1, or one more than the last revision of a hand
# of this number that was voided.
INSERT_HAND = """
INSERT INTO matches_hand (match_id, number, dealer_id, ending, went_out_id, flags, version,
                          recorded_by_id, recorded_at, updated_at)
VALUES (%s, %s, %s, %s, %s, %s,
        (SELECT COALESCE(MAX(revision), 0) + 1 FROM matches_handrevision
         WHERE match_id = %s AND number = %s),
        %s, %s, %s)
RETURNING id, version
"""

INSERT_RESULTS = """
INSERT INTO matches_handresult (hand_id, player_id, position, melds, held, melded_points,
                                hand_penalty, bonus, net, total)
VALUES {rows}
"""
RESULT_ROW = "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"

# The VALUES' columns are column1, column2, ... on both databases; the casts give PostgreSQL
# their types, which a list of bound values does not.
UPDATE_SEATS = """
UPDATE matches_seat SET total = v.column2, winner = v.column3, went_out = v.column4,
                        victory_points = v.column5
FROM (VALUES {rows}) AS v
WHERE matches_seat.id = v.column1
"""
SEAT_ROW = (
    "(CAST(%s AS bigint), CAST(%s AS integer), CAST(%s AS boolean), CAST(%s AS integer), "
    "CAST(%s AS numeric))"
)

UPDATE_TOTALS = """
UPDATE matches_handresult SET total = v.column2
FROM (VALUES {rows}) AS v
WHERE matches_handresult.id = v.column1
"""
TOTAL_ROW = "(CAST(%s AS bigint), CAST(%s AS integer))"

UPDATE_MATCH = """
UPDATE matches_match SET hands_played = %s, status = %s, finished_at = %s WHERE id = %s
"""

UPDATE_HAND = """
UPDATE matches_hand SET ending = %s, went_out_id = %s, flags = %s, version = %s, updated_at = %s
WHERE id = %s
"""

DELETE_RESULTS = "DELETE FROM matches_handresult WHERE hand_id = %s"

INSERT_REVISION = """
INSERT INTO matches_handrevision (match_id, number, revision, action, hand, reason, by_id,
                                  device, at)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
"""


def _rows(template: str, row: str, count: int) -> str:
    return template.format(rows=", ".join([row] * count))


def _moment_value(moment: datetime.datetime | None) -> Any:
    """A timestamp as the database takes it (SQLite: text in UTC)."""
    return connection.ops.adapt_datetimefield_value(moment)


def write_hand(new: NewHand) -> Written:
    """Write a recorded hand and everything it changes: its results, the seats, the match and
    its first revision."""
    at = _moment_value(new.at)
    with connection.cursor() as cursor:
        cursor.execute(
            INSERT_HAND,
            [
                new.match,
                new.number,
                new.dealer,
                new.ending,
                new.went_out,
                json.dumps(new.flags),
                new.match,
                new.number,
                new.recorded_by,
                at,
                at,
            ],
        )
        hand, version = cursor.fetchone()
        _write_results(cursor, hand, new.results)
        _write_seats(cursor, new.seats)
        _write_match(cursor, new.match, new.number, new.status, new.finished_at)
        _write_revision(
            cursor,
            match=new.match,
            number=new.number,
            revision=version,
            action=RevisionAction.RECORDED,
            entry=new.entry,
            by=new.recorded_by,
            device=new.device,
            at=at,
        )
    return Written(version, new.at, new.at)


@dataclass(frozen=True, slots=True)
class Correction:
    """Everything a corrected hand writes: the hand, its results, the totals of the hands after
    it (``later``: result id to total), the seats, the match and the revision."""

    match: int
    hand: int
    number: int
    version: int
    ending: str
    went_out: int | None
    flags: dict[str, bool]
    results: Sequence[ResultRow]
    later: dict[int, int]
    seats: Sequence[SeatFigures]
    hands_played: int
    status: str
    finished_at: datetime.datetime | None
    entry: dict[str, Any]
    by: int
    reason: str
    device: str
    at: datetime.datetime


def correct_hand(fix: Correction) -> None:
    """Write a corrected hand: it becomes version ``fix.version``, its revision of that number."""
    at = _moment_value(fix.at)
    with connection.cursor() as cursor:
        _write_revision(
            cursor,
            match=fix.match,
            number=fix.number,
            revision=fix.version,
            action=RevisionAction.CORRECTED,
            entry=fix.entry,
            by=fix.by,
            reason=fix.reason,
            device=fix.device,
            at=at,
        )
        cursor.execute(
            UPDATE_HAND,
            [fix.ending, fix.went_out, json.dumps(fix.flags), fix.version, at, fix.hand],
        )
        cursor.execute(DELETE_RESULTS, [fix.hand])
        _write_results(cursor, fix.hand, fix.results)
        if fix.later:
            cursor.execute(
                _rows(UPDATE_TOTALS, TOTAL_ROW, len(fix.later)),
                [value for item in fix.later.items() for value in item],
            )
        _write_seats(cursor, fix.seats)
        _write_match(cursor, fix.match, fix.hands_played, fix.status, fix.finished_at)


def void_hand(
    *,
    match: int,
    number: int,
    revision: int,
    seats: Sequence[SeatFigures],
    status: str,
    finished_at: datetime.datetime | None,
    by: int,
    reason: str,
    at: datetime.datetime,
) -> None:
    """Write what voiding the last hand changes, its revision first; the caller deletes it."""
    with connection.cursor() as cursor:
        _write_revision(
            cursor,
            match=match,
            number=number,
            revision=revision,
            action=RevisionAction.VOIDED,
            entry={},
            by=by,
            reason=reason,
            at=_moment_value(at),
        )
        _write_seats(cursor, seats)
        _write_match(cursor, match, number - 1, status, finished_at)


def _write_results(cursor: Any, hand: int, rows: Sequence[ResultRow]) -> None:
    cursor.execute(
        _rows(INSERT_RESULTS, RESULT_ROW, len(rows)),
        [
            value
            for row in rows
            for value in (
                hand,
                row.player,
                row.position,
                json.dumps(row.melds),
                json.dumps(row.held),
                row.melded_points,
                row.hand_penalty,
                row.bonus,
                row.net,
                row.total,
            )
        ],
    )


def _write_seats(cursor: Any, seats: Sequence[SeatFigures]) -> None:
    cursor.execute(
        _rows(UPDATE_SEATS, SEAT_ROW, len(seats)),
        [
            value
            for seat in seats
            for value in (seat.id, seat.total, seat.winner, seat.went_out, seat.victory_points)
        ],
    )


def _write_match(
    cursor: Any, match: int, played: int, status: str, finished_at: datetime.datetime | None
) -> None:
    cursor.execute(UPDATE_MATCH, [played, status, _moment_value(finished_at), match])


def _write_revision(
    cursor: Any,
    *,
    match: int,
    number: int,
    revision: int,
    action: str,
    entry: dict[str, Any],
    by: int,
    at: Any,
    reason: str = "",
    device: str = "",
) -> None:
    cursor.execute(
        INSERT_REVISION,
        [match, number, revision, str(action), json.dumps(entry), reason, by, device, at],
    )
