"""GET clubs/{id}/events/: the club's events oldest first, a page at a time after a cursor."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from matches import events
from matches.models import Event, EventType
from tests.factories import client_for

pytestmark = pytest.mark.django_db


def feed(client, club, **query):
    return client.get(f"/api/v1/clubs/{club.pk}/events/", query)


def write(club, count: int) -> list[int]:
    """Write ``count`` events of the club; their positions in its feed."""
    return [
        events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": i}).position
        for i in range(count)
    ]


def codes(response) -> list[str]:
    return [error["code"] for error in response.json()["errors"]]


def test_the_cursor_pages_through_the_events_oldest_first(as_victor, club):
    ids = write(club, 5)
    assert ids == [1, 2, 3, 4, 5]

    first = feed(as_victor, club, limit=2).json()
    assert [e["position"] for e in first["results"]] == ids[:2]
    assert first["results"][0] == {
        "id": Event.objects.get(club=club, position=1).pk,
        "position": ids[0],
        "type": "match.started",
        "created_at": first["results"][0]["created_at"],
        "data": {"match": 0},
    }
    second = as_victor.get(first["next"]).json()
    assert [e["position"] for e in second["results"]] == ids[2:4]
    last = feed(as_victor, club, after=ids[3], limit=2).json()
    assert [e["position"] for e in last["results"]] == ids[4:]
    assert last["next"] is None
    assert feed(as_victor, club, after=ids[4]).json() == {"results": [], "next": None}


def test_another_clubs_events_are_never_in_the_feed(as_victor, club, bobs_club):
    mine = write(club, 1)
    write(bobs_club, 2)
    assert [e["position"] for e in feed(as_victor, club).json()["results"]] == mine


@pytest.mark.parametrize("after", ["x", "-1", "1.5", "9223372036854775808"])
def test_a_cursor_that_is_not_an_event_id_is_refused(as_victor, club, after):
    response = feed(as_victor, club, after=after)
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "after"
    assert codes(response)[0] in {"invalid", "min_value", "max_value"}


def test_a_cursor_given_twice_is_refused(as_victor, club):
    """Which of the two a server reads is a guess: the client's query is wrong, and is told so."""
    write(club, 4)
    response = as_victor.get(f"/api/v1/clubs/{club.pk}/events/?after=1&after=2")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["attr"], error["code"]) == ("after", "repeated")
    assert error["detail"] == "after is given 2 times: give it once."


@pytest.mark.parametrize("after", ["3.0", " 3", "+3", "1_0", "\uff13", "\u0663", "3\n"])
def test_a_cursor_written_other_than_in_plain_digits_is_refused(as_victor, club, after):
    """Python's int() would read each of these as a number, so a client's garbled cursor
    would page on from some position unseen."""
    write(club, 4)
    response = feed(as_victor, club, after=after)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["attr"], error["code"]) == ("after", "digits_only")
    assert error["detail"].startswith("after is written in the digits 0 to 9 only")
    assert codes(feed(as_victor, club, limit="2.0")) == ["digits_only"]
    # an empty one is one not given, as for every query parameter: from the oldest
    assert len(feed(as_victor, club, after="").json()["results"]) == 4


def test_events_older_than_the_kept_days_leave_the_feed(as_victor, club, settings):
    settings.EVENTS_KEPT_DAYS = 7
    old, new = write(club, 2)
    Event.objects.filter(club=club, position=old).update(
        created_at=timezone.now() - dt.timedelta(days=8)
    )
    assert [e["position"] for e in feed(as_victor, club).json()["results"]] == [new]


def test_only_members_read_the_feed(club, bob, api_client_plain):
    write(club, 1)
    assert feed(client_for(bob), club).status_code == 404
    assert feed(api_client_plain, club).status_code == 401
