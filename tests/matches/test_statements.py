"""The hand path's SQL on PostgreSQL: one locked read, one write a table, all prepared.

matches/locking.py locks a match with its seats in one statement, and matches/statements.py
writes a recorded hand's rows with one plain statement a table; the database settings bind
values on the server, so that psycopg prepares busy statements after ``prepare_threshold``
runs. The same statements run on make run's SQLite (tests/matches/test_embedded_database.py).
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches import errors, locking, statements
from matches.models import Hand, HandResult, HandRevision, Match, Seat
from tests.factories import record, start_match, went_out

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's forms of the statements"
)


def _writes(captured: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].lstrip().startswith(("INSERT", "UPDATE", "DELETE", "WITH"))
    ]


def _first_hand(club, roster, client) -> tuple[dict, list[int], CaptureQueriesContext]:
    """A new 3-player match, its seated players, and the queries that recorded its first hand."""
    seated = [p.pk for p in roster[:3]]
    match = start_match(client, club, roster[:3])
    with CaptureQueriesContext(connection) as captured:
        answer = record(client, match["id"], went_out(seated[1], seated))
    assert answer.status_code == 201
    return match, seated, captured


def test_recording_a_hand_writes_one_plain_statement_a_table(club, roster, as_carol):
    """The hand's rows in one plain statement a table; its event (the outbox) in two more: its
    place in the club's feed, then the event."""
    match, seated, captured = _first_hand(club, roster, as_carol)
    writes = _writes(captured)
    assert [write.split()[:3] for write in writes] == [
        ["INSERT", "INTO", "matches_hand"],
        ["INSERT", "INTO", "matches_handresult"],
        ["UPDATE", "matches_seat", "SET"],
        ["UPDATE", "matches_match", "SET"],
        ["INSERT", "INTO", "matches_handrevision"],
        ["UPDATE", "matches_club", "SET"],  # the club's feed position, in commit order
        ["INSERT", "INTO", '"matches_event"'],
    ]
    assert "RETURNING id, version" in writes[0]
    assert "FROM (VALUES" in writes[2]

    hand = Hand.objects.get(match_id=match["id"], number=1)
    results = list(HandResult.objects.filter(hand=hand).order_by("position"))
    assert [r.player_id for r in results] == seated
    assert [r.net for r in results] == [-65, 340, -65]
    assert [s.total for s in Seat.objects.filter(match_id=match["id"]).order_by("position")] == [
        -65,
        340,
        -65,
    ]
    assert Match.objects.get(pk=match["id"]).hands_played == 1
    revision = HandRevision.objects.get(match_id=match["id"], number=1)
    assert (revision.revision, revision.action) == (1, "recorded")


def test_a_correction_and_a_void_write_through_the_same_statements(club, roster, as_carol):
    match, seated, _ = _first_hand(club, roster, as_carol)
    second = record(as_carol, match["id"], went_out(seated[0], seated))
    assert second.status_code == 201
    url = f"/api/v1/matches/{match['id']}/hands/1/"
    with CaptureQueriesContext(connection) as corrected:
        answer = as_carol.put(url, went_out(seated[2], seated), format="json", HTTP_IF_MATCH='"1"')
    assert answer.status_code == 200
    with CaptureQueriesContext(connection) as voided:
        answer = as_carol.delete(f"/api/v1/matches/{match['id']}/hands/2/", HTTP_IF_MATCH='"1"')
    assert answer.status_code == 204

    assert [write.split()[:3] for write in _writes(corrected)] == [
        ["INSERT", "INTO", "matches_handrevision"],
        ["UPDATE", "matches_hand", "SET"],
        ["DELETE", "FROM", "matches_handresult"],
        ["INSERT", "INTO", "matches_handresult"],
        ["UPDATE", "matches_handresult", "SET"],  # hand 2's totals
        ["UPDATE", "matches_seat", "SET"],
        ["UPDATE", "matches_match", "SET"],
        ["UPDATE", "matches_club", "SET"],  # the club's feed position, in commit order
        ["INSERT", "INTO", '"matches_event"'],  # hand.corrected, in the same transaction
    ]
    seats = [sql for sql in _writes(corrected) + _writes(voided) if "matches_seat" in sql]
    assert len(seats) == 2 and all("FROM (VALUES" in sql for sql in seats)
    assert not any("CASE WHEN" in sql for sql in _writes(corrected) + _writes(voided))
    totals = [s.total for s in Seat.objects.filter(match_id=match["id"]).order_by("position")]
    assert totals == [-65, -65, 340]  # hand 1 now won by the third seat, hand 2 voided
    assert Match.objects.get(pk=match["id"]).hands_played == 1
    assert list(
        HandRevision.objects.filter(match_id=match["id"]).values_list("number", "action")
    ) == [(1, "recorded"), (1, "corrected"), (2, "recorded"), (2, "voided")]


def test_the_requester_is_admitted_before_the_match_and_its_seats_are_locked(
    club, roster, as_carol
):
    _, _, captured = _first_hand(club, roster, as_carol)
    sqls = [q["sql"] for q in captured.captured_queries]
    access = next(i for i, sql in enumerate(sqls) if "matches_membership" in sql)
    (lock,) = [i for i, sql in enumerate(sqls) if "FOR UPDATE" in sql]
    assert access < lock
    assert "FOR UPDATE" not in sqls[access]
    assert "FOR UPDATE OF m, s" in sqls[lock]


@pytest.mark.django_db
def test_a_hands_writes_keep_their_exact_values(club, roster, carol):
    match = Match.objects.create(club=club, seat_count=3, first_dealer=roster[0], created_by=carol)
    seats = Seat.objects.bulk_create(
        Seat(match=match, player=p, position=i) for i, p in enumerate(roster[:3])
    )
    at = timezone.now() - dt.timedelta(days=1, microseconds=7)
    melds = [{"cards": ["5D", "6D", "7D"], "kind": "run", "points": 15}]
    held = [{"card": "QS", "points": 50}]
    new = statements.NewHand(
        match=match.pk,
        number=1,
        dealer=roster[0].pk,
        ending="stock_exhausted",
        went_out=None,
        recorded_by=carol.pk,
        at=at,
        results=[
            statements.ResultRow(p.pk, i, melds, held, 15, 50, 0, -35, -35)
            for i, p in enumerate(roster[:3])
        ],
        seats=[
            statements.SeatFigures(seat.pk, -35, True, 0, Decimal(share))
            for seat, share in zip(seats, ("0.3333", "0.3333", "0.3334"), strict=True)
        ],
        status="in_progress",
        finished_at=None,
        entry={"é": "ü", "n": [1, 2]},
    )
    with transaction.atomic():
        locking.lock_match(match.pk)
        written = statements.write_hand(new)

    assert written == (1, at, at)
    hand = Hand.objects.get(match=match, number=1)
    assert (hand.version, hand.recorded_at, hand.updated_at) == (1, at, at)
    stored = list(HandResult.objects.filter(hand=hand).order_by("position"))
    assert [(r.player_id, r.melds, r.held, r.total) for r in stored] == [
        (p.pk, melds, held, -35) for p in roster[:3]
    ]
    assert [
        (s.total, s.winner, s.victory_points)
        for s in Seat.objects.filter(match=match).order_by("position")
    ] == [
        (-35, True, Decimal("0.3333")),
        (-35, True, Decimal("0.3333")),
        (-35, True, Decimal("0.3334")),
    ]
    kept = HandRevision.objects.get(match=match, number=1)
    assert (kept.revision, kept.hand, kept.at) == (1, {"é": "ü", "n": [1, 2]}, at)


@pytest.mark.django_db
def test_the_locked_read_gives_the_match_and_its_seats_in_order(club, roster, carol):
    match = Match.objects.create(
        club=club, seat_count=3, first_dealer=roster[1], created_by=carol, table="T1"
    )
    Seat.objects.bulk_create(
        Seat(match=match, player=p, position=i, total=10 * i, went_out=i)
        for i, p in enumerate(reversed(roster[:3]))
    )
    with transaction.atomic():
        locked = locking.lock_match(match.pk)
        with pytest.raises(errors.NoSuchMatch):
            locking.lock_match(match.pk + 1000)
    assert (locked.club, locked.table, locked.first_dealer, locked.created_by) == (
        club.pk,
        "T1",
        roster[1].pk,
        "carol",
    )
    assert locked.created_at == Match.objects.get(pk=match.pk).created_at
    assert [(s.player, s.name, s.position, s.total, s.went_out) for s in locked.seats] == [
        (p.pk, p.name, i, 10 * i, i) for i, p in enumerate(reversed(roster[:3]))
    ]


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_hand_path_is_prepared_after_the_threshold(club, roster, as_carol):
    options = connection.settings_dict["OPTIONS"]
    assert (options["server_side_binding"], options["prepare_threshold"]) == (True, 5)
    seated = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    for number in range(7):
        answer = record(as_carol, match["id"], went_out(seated[number % 3], seated))
        assert answer.status_code == 201
    prepared = _prepared()
    assert any("FOR UPDATE OF m, s" in text for text in prepared)  # the lock
    for write in (
        "INSERT INTO matches_hand ",
        "INSERT INTO matches_handresult",
        "UPDATE matches_seat",
    ):
        assert any(write in " ".join(text.split()) for text in prepared), write  # the writes


def test_prepared_statements_can_be_turned_off_for_a_pooler():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATABASES['default']['OPTIONS']['prepare_threshold'])"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "arlington_site.settings",
        "DATABASE_PREPARED_STATEMENTS": "false",
        "SECRET_KEY": "x",
    }
    shown = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert shown.stdout.strip() == "None"
