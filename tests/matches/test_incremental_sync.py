"""``?updated_after=`` on the matches and hands lists: what changed since the last sync."""

from __future__ import annotations

import time

from django.utils import timezone

from tests.factories import record, start_match, went_out


def ids(response) -> list[int]:
    assert response.status_code == 200, response.json()
    return [row.get("id", row.get("number")) for row in response.json()["results"]]


def test_only_matches_changed_since_the_instant_are_listed(as_carol, club, roster):
    quiet = start_match(as_carol, club, roster[:2])
    busy = start_match(as_carol, club, roster[2:4])
    time.sleep(0.01)
    since = timezone.now().isoformat()
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
    time.sleep(0.01)
    since = timezone.now().isoformat()
    assert ids(as_carol.get("/api/v1/matches/", {"updated_after": since})) == []
    voided = as_carol.delete(f"/api/v1/matches/{match['id']}/hands/1/", HTTP_IF_MATCH='"1"')
    assert voided.status_code in (200, 204), voided.content
    assert ids(as_carol.get("/api/v1/matches/", {"updated_after": since})) == [match["id"]]


def test_only_hands_changed_since_the_instant_are_listed(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:2])
    players = [p.pk for p in roster[:2]]
    assert record(as_carol, match["id"], went_out(players[0], players)).status_code == 201
    time.sleep(0.01)
    since = timezone.now().isoformat()
    assert record(as_carol, match["id"], went_out(players[1], players)).status_code == 201
    url = f"/api/v1/matches/{match['id']}/hands/"
    assert ids(as_carol.get(url, {"updated_after": since})) == [2]
    assert ids(as_carol.get(url)) == [1, 2]


def test_an_unreadable_instant_is_a_400_naming_the_parameter(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:2])
    for url in ("/api/v1/matches/", f"/api/v1/matches/{match['id']}/hands/"):
        answer = as_carol.get(url, {"updated_after": "yesterday"})
        assert answer.status_code == 400
        assert answer.json()["errors"][0]["attr"] == "updated_after"
