"""The rehearsal's invariant checker (bench/cluster.py) finds nothing in sound data, and finds
each kind of damage it is shown."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from bench.cluster import violations
from matches.models import Hand, Match, Seat
from tests.factories import client_for, record, start_match, went_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(carol, club, roster) -> Match:
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    for winner in (players[0], players[1], players[0]):
        assert record(client_for(carol), match["id"], went_out(winner, players)).status_code == 201
    return Match.objects.get(pk=match["id"])


def broken(found: dict[str, int]) -> dict[str, int]:
    return {name: count for name, count in found.items() if count}


def test_sound_matches_break_no_invariant(played):
    with connection.cursor() as cursor:
        found = violations(cursor)
    assert len(found) >= 13
    assert broken(found) == {}


def test_a_seat_total_off_by_one_is_found(played):
    seat = Seat.objects.filter(match=played).first()
    Seat.objects.filter(pk=seat.pk).update(total=seat.total + 1)
    with connection.cursor() as cursor:
        assert broken(violations(cursor)) == {"seat totals equal the sum of their nets": 1}


def test_a_gap_in_the_hand_numbers_is_found(played):
    Hand.objects.filter(match=played, number=2).update(number=7)
    with connection.cursor() as cursor:
        found = broken(violations(cursor))
    assert found["hand numbers are 1..n without a gap"] == 1


def test_a_finished_match_without_winners_is_found(played):
    Match.objects.filter(pk=played.pk).update(status="finished", finished_at=timezone.now())
    with connection.cursor() as cursor:
        found = broken(violations(cursor))
    assert found["a match is finished if and only if it has winners"] == 1
