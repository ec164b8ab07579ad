"""``?updated_after=`` on the matches and hands lists: what changed since the last sync.

The lists look back a minute before the instant passed (``filters.SYNC_OVERLAP``), so the
tests date what was written before the last sync well before it, as a real sync's would be.
"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connections
from django.utils import timezone

from matches import subscribers
from matches.api.filters import SYNC_OVERLAP
from matches.models import Hand, HandConfirmation, HandRevision, Match
from tests.factories import client_for, record, start_match, went_out


def ids(response) -> list[int]:
    assert response.status_code == 200, response.json()
    return [row.get("id", row.get("number")) for row in response.json()["results"]]


def earlier(minutes: int = 5) -> str:
    """Everything written so far is dated ``minutes`` ago; the instant a sync then starts."""
    then = timezone.now() - dt.timedelta(minutes=minutes)
    Match.objects.update(created_at=then)
    Match.objects.filter(finished_at__isnull=False).update(finished_at=then)
    Hand.objects.update(updated_at=then)
    HandRevision.objects.update(at=then)
    HandConfirmation.objects.update(at=then)
    return timezone.now().isoformat()


def test_only_matches_changed_since_the_instant_are_listed(as_carol, club, roster):
    quiet = start_match(as_carol, club, roster[:2])
    busy = start_match(as_carol, club, roster[2:4])
    since = earlier()
    assert ids(as_carol.get("/api/v1/matches/", {"updated_after": since})) == []
    players = [p.pk for p in roster[2:4]]
    assert record(as_carol, busy["id"], went_out(players[0], players)).status_code == 201
    assert ids(as_carol.get("/api/v1/matches/", {"updated_after": since})) == [busy["id"]]
    everything = ids(as_carol.get("/api/v1/matches/"))
    assert {quiet["id"], busy["id"]} <= set(everything)


def test_voiding_the_last_hand_counts_as_a_change(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:2])
    players = [p.pk for p in roster[:2]]
    assert record(as_carol, match["id"], went_out(players[0], players)).status_code == 201
    since = earlier()
    assert ids(as_carol.get("/api/v1/matches/", {"updated_after": since})) == []
    voided = as_carol.delete(f"/api/v1/matches/{match['id']}/hands/1/", HTTP_IF_MATCH='"1"')
    assert voided.status_code in (200, 204), voided.content
    assert ids(as_carol.get("/api/v1/matches/", {"updated_after": since})) == [match["id"]]


def test_only_hands_changed_since_the_instant_are_listed(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:2])
    players = [p.pk for p in roster[:2]]
    assert record(as_carol, match["id"], went_out(players[0], players)).status_code == 201
    since = earlier()
    assert record(as_carol, match["id"], went_out(players[1], players)).status_code == 201
    url = f"/api/v1/matches/{match['id']}/hands/"
    assert ids(as_carol.get(url, {"updated_after": since})) == [2]
    assert ids(as_carol.get(url)) == [1, 2]


def test_a_change_made_just_before_the_instant_is_listed_again(as_carol, club, roster):
    """Within the overlap, before the instant passed: listed (a sync gets it twice); before it,
    not."""
    match = start_match(as_carol, club, roster[:2])
    players = [p.pk for p in roster[:2]]
    assert record(as_carol, match["id"], went_out(players[0], players)).status_code == 201
    url = f"/api/v1/matches/{match['id']}/hands/"
    for before, listed in ((SYNC_OVERLAP / 2, [1]), (SYNC_OVERLAP * 2, [])):
        earlier(0)
        since = (timezone.now() + before).isoformat()
        assert ids(as_carol.get(url, {"updated_after": since})) == listed
        assert ids(as_carol.get("/api/v1/matches/", {"updated_after": since})) == (
            [match["id"]] if listed else []
        )


@pytest.mark.django_db(transaction=True)
def test_a_hand_committed_just_after_a_sync_began_is_in_the_next(carol, club, roster, monkeypatch):
    """A hand is stamped inside its transaction and held there, uncommitted, while a sync
    begins and reads; it commits after. The next sync, from the instant the first began,
    lists it. Real transactions on PostgreSQL."""
    match = start_match(client_for(carol), club, roster[:2])
    players = [p.pk for p in roster[:2]]
    earlier()
    stamped, held, after_hand = threading.Event(), threading.Event(), subscribers.after_hand

    def after_hand_once_released(change):
        after_hand(change)
        if threading.current_thread().name == "hand":
            stamped.set()
            held.wait(timeout=60)

    monkeypatch.setattr(subscribers, "after_hand", after_hand_once_released)
    answers: list[int] = []

    def write() -> None:
        try:
            answers.append(
                record(client_for(carol), match["id"], went_out(players[0], players)).status_code
            )
        finally:
            connections.close_all()

    hand = threading.Thread(target=write, name="hand", daemon=True)
    hand.start()
    assert stamped.wait(timeout=60), "the hand was never written"
    began = timezone.now().isoformat()  # the first sync begins: the hand is not visible yet
    reader = client_for(carol)
    assert ids(reader.get("/api/v1/matches/", {"updated_after": began})) == []
    held.set()
    hand.join(timeout=60)
    assert answers == [201]
    assert ids(reader.get("/api/v1/matches/", {"updated_after": began})) == [match["id"]]
    url = f"/api/v1/matches/{match['id']}/hands/"
    assert ids(reader.get(url, {"updated_after": began})) == [1]


def test_an_unreadable_instant_is_a_400_naming_the_parameter(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:2])
    for url in ("/api/v1/matches/", f"/api/v1/matches/{match['id']}/hands/"):
        answer = as_carol.get(url, {"updated_after": "yesterday"})
        assert answer.status_code == 400
        assert answer.json()["errors"][0]["attr"] == "updated_after"
