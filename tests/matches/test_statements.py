"""The hand path's SQL on PostgreSQL: its writes go as one statement, and it is prepared.

matches/statements.py sends the writes of a recorded hand as one statement of data-modifying
``WITH`` parts (``together``), many rows' values as one JSON document, and binds values on the
server so that psycopg prepares its statements after ``prepare_threshold`` runs. SQLite takes
the plain forms, one statement each (tests/matches/test_embedded_database.py).
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches import services, statements
from matches.api.serializers import read_hand
from matches.models import Hand, HandResult, HandRevision, Match, Seat
from tests.matches.builders import went_out
from tests.matches.conftest import client_for, record, start_match

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql",
                                reason="PostgreSQL's forms of the statements")  # fmt: skip


def _writes(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries
            if q["sql"].startswith(("INSERT", "UPDATE", "WITH"))]  # fmt: skip


def _first_hand(club, roster, client) -> tuple[dict, list[int], CaptureQueriesContext]:
    """A new 3-player match, its seated players, and the queries that recorded its first hand."""
    seated = [p.pk for p in roster[:3]]
    match = start_match(client, club, roster[:3])
    with CaptureQueriesContext(connection) as captured:
        answer = record(client, match["id"], went_out(seated[1], seated))
    assert answer.status_code == 201
    return match, seated, captured


def test_recording_a_hand_writes_in_one_statement(club, roster, as_carol):
    match, seated, captured = _first_hand(club, roster, as_carol)
    (write,) = _writes(captured)
    assert write.startswith("WITH ")
    for table in ("matches_hand", "matches_handresult", "matches_seat", "matches_match",
                  "matches_handrevision"):  # fmt: skip
        assert f'"{table}"' in write

    hand = Hand.objects.get(match_id=match["id"], number=1)
    results = list(HandResult.objects.filter(hand=hand).order_by("position"))
    assert [r.player_id for r in results] == seated
    assert [r.net for r in results] == [-65, 340, -65]
    assert [s.total for s in Seat.objects.filter(match_id=match["id"]).order_by("position")] == [
        -65, 340, -65]  # fmt: skip
    assert Match.objects.get(pk=match["id"]).hands_played == 1
    revision = HandRevision.objects.get(match_id=match["id"], number=1)
    assert (revision.revision, revision.action) == (1, "recorded")


def test_recording_a_hand_reads_the_requesters_access_with_the_lock(club, roster, as_carol):
    _, _, captured = _first_hand(club, roster, as_carol)
    (access,) = [q["sql"] for q in captured.captured_queries if "matches_membership" in q["sql"]]
    assert "FOR UPDATE" in access


@pytest.mark.django_db
def test_the_lock_is_taken_for_a_writer_only_and_comes_with_their_role(club, roster, alice, carol,
                                                                       victor, bob):  # fmt: skip
    match = Match.objects.create(club=club, seat_count=2, first_dealer=roster[0], created_by=carol)
    writers = frozenset({"owner", "scorekeeper"})
    with transaction.atomic():
        assert _locked(match.pk, (carol.pk, writers)) == (match.pk, "scorekeeper")
        assert _locked(match.pk, (alice.pk, writers)) == (match.pk, "owner")
        assert _locked(match.pk, (victor.pk, writers)) == (None, None)  # a viewer
        assert _locked(match.pk, (bob.pk, writers)) == (None, None)  # not a member
        assert _locked(match.pk, None) == (match.pk, None)  # the services' own lock
        assert _locked(match.pk + 1000, (carol.pk, writers)) == (None, None)
        assert _locked(2**63, (carol.pk, writers)) == (None, None)
        assert _locked(match.pk, (carol.pk, frozenset())) == (None, None)  # no role may write


@pytest.mark.django_db
def test_a_requester_admitted_on_the_unlocked_read_still_records_under_the_lock(club, roster,
                                                                                carol):
    """The view's check may admit a role the locked read did not let in (say, one promoted
    between the two reads): the hand is then recorded under the plain lock."""
    seated = [p.pk for p in roster[:2]]
    match = start_match(client_for(carol), club, roster[:2])
    admitted = []
    with CaptureQueriesContext(connection) as captured:
        outcome = services.hand_record(
            match_id=match["id"], entry=read_hand(went_out(seated[0], seated)), user=carol,
            render=lambda hand: hand.number, admit=admitted.append, writers=frozenset(),
        )  # fmt: skip
    assert outcome.status == 201 and outcome.body == 1
    assert [a.role if a else None for a in admitted] == ["scorekeeper"]
    assert sum("FOR UPDATE" in q["sql"] for q in captured.captured_queries) == 1


def _locked(match_id: int, writer: tuple[int, frozenset[str]] | None) -> tuple[Any, Any]:
    match, role = statements.lock_match(match_id, writer)
    return (None if match is None else match.pk), role


@pytest.mark.django_db
def test_rows_written_together_get_their_ids_and_exact_values(club, roster, carol):
    match = Match.objects.create(club=club, seat_count=3, first_dealer=roster[0], created_by=carol)
    seats = Seat.objects.bulk_create(
        Seat(match=match, player=p, position=i) for i, p in enumerate(roster[:3]))
    at = timezone.now() - dt.timedelta(days=1)
    hand = Hand(match=match, number=1, dealer=roster[0], ending="went_out", went_out=roster[0],
                recorded_by=carol)  # fmt: skip
    melds = [{"cards": ["5D", "6D", "7D"], "kind": "run", "points": 15}]
    held = [{"card": "QS", "points": 50}]
    rows = [
        HandResult(hand=hand, player=p, position=i, melds=melds, held=held, melded_points=15,
                   hand_penalty=50, bonus=0, net=-35, total=-35)
        for i, p in enumerate(roster[:3])
    ]  # fmt: skip
    revisions = [
        HandRevision(match=match, number=1, revision=n, action="recorded", hand={"n": n, "é": "ü"},
                     reason="", by=carol, at=at)
        for n in (1, 2)
    ]  # fmt: skip
    for seat, share in zip(seats, ("0.3333", "0.3333", "0.3334"), strict=True):
        seat.total, seat.winner, seat.victory_points = -35, True, Decimal(share)

    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        with statements.together():
            statements.insert([hand])
            statements.insert(rows)
            statements.insert(revisions)
            statements.update(seats, ["total", "winner", "victory_points"])
            assert hand.pk is None  # nothing has been sent yet
        assert len(_writes(captured)) == 1

    assert hand.pk == Hand.objects.get(match=match, number=1).pk
    assert [r.hand_id for r in rows] == [hand.pk] * 3
    assert {r.pk for r in rows} == set(HandResult.objects.filter(hand=hand).values_list("pk",
                                                                                          flat=True))
    stored = {r.pk: r for r in HandResult.objects.filter(hand=hand)}
    assert [stored[r.pk].position for r in rows] == [0, 1, 2]  # ids given back in row order
    assert stored[rows[0].pk].melds == melds
    kept = HandRevision.objects.filter(match=match).order_by("revision")
    # ``at`` took the time of the insert, as auto_now_add does, to the microsecond
    assert [(r.pk, r.hand, r.at) for r in kept] == [(r.pk, r.hand, r.at) for r in revisions]
    assert revisions[0].at != at
    assert [(s.total, s.winner, s.victory_points) for s in
            Seat.objects.filter(match=match).order_by("position")] == [
        (-35, True, Decimal("0.3333")), (-35, True, Decimal("0.3333")),
        (-35, True, Decimal("0.3334"))]  # fmt: skip


@pytest.mark.django_db
def test_nothing_is_written_when_the_block_fails(club, roster, carol):
    match = Match.objects.create(club=club, seat_count=2, first_dealer=roster[0], created_by=carol)
    with pytest.raises(RuntimeError), statements.together():
        statements.update([match], ["hands_played"])
        raise RuntimeError("the rules engine refused the hand")
    match.hands_played = 5
    with statements.together():
        statements.update([match], ["hands_played"])
    assert Match.objects.get(pk=match.pk).hands_played == 5


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_hand_path_is_prepared_after_the_threshold(club, roster, as_carol):
    assert connection.settings_dict["OPTIONS"]["prepare_threshold"] == 5
    seated = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    for number in range(7):
        answer = record(as_carol, match["id"], went_out(seated[number % 3], seated))
        assert answer.status_code == 201
    prepared = _prepared()
    assert any("FOR UPDATE" in text for text in prepared)  # the lock
    assert any("jsonb_to_recordset" in text and '"matches_handresult"' in text
               for text in prepared)  # the writes  # fmt: skip
    # the ORM's own queries (the match's creation, the answers' reads) never are: they name
    # their columns "table"."column", where the hand path's statements use aliases
    assert not any(text.startswith('SELECT "') for text in prepared)


def test_prepared_statements_can_be_turned_off_for_a_pooler():
    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.DATABASES['default']['OPTIONS']['prepare_threshold'])")  # fmt: skip
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "arlington_site.settings",
           "DATABASE_PREPARED_STATEMENTS": "false", "SECRET_KEY": "x"}  # fmt: skip
    shown = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                           text=True, check=True)  # fmt: skip
    assert shown.stdout.strip() == "None"


@pytest.mark.django_db
def test_dates_in_a_json_document_keep_their_microseconds():
    moment = dt.datetime(2026, 11, 29, 20, 1, 2, 345678, tzinfo=dt.UTC)
    assert statements._json_value(moment) == "2026-11-29T20:01:02.345678+00:00"
    assert statements._json_value(Decimal("0.3334")) == "0.3334"
    with pytest.raises(TypeError):
        statements._json_value(object())
