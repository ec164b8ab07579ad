"""Every write that waits for a match's lock decides from what is true once it holds it.

Each race is played many times on PostgreSQL by two threads with connections of their own,
started together, and the state is checked after every round: a writer that queued behind
another must see what that other committed (a live hand, a recorded hand, a draft), never what
stood before its wait.
"""

from __future__ import annotations

from collections import Counter

import pytest

from matches.models import Hand, HandDraftPart, LiveHand, LiveStatus, Match
from tests.factories import client_for, start_match, went_out
from tests.matches.test_concurrency import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 16


def live_url(match_id: int) -> str:
    return f"/api/v1/matches/{match_id}/live/"


def draft_part(match_id: int, number: int, player: int) -> str:
    return f"/api/v1/matches/{match_id}/hands/{number}/draft/players/{player}/"


def filled_drafts(match_id: int, number: int) -> int:
    """The draft parts of hand ``number`` that hold something (a discarded one is empty)."""
    parts = HandDraftPart.objects.filter(match_id=match_id, number=number)
    return sum(1 for data in parts.values_list("data", flat=True) if data)


def playing(match_id: int) -> list[int]:
    return list(
        LiveHand.objects.filter(match_id=match_id, status=LiveStatus.PLAYING).values_list(
            "number", flat=True
        )
    )


def test_a_live_start_and_a_whole_entry_of_hand_one_never_both_take_hand_one(carol, club, roster):
    outcomes = Counter()
    for _ in range(ROUNDS):
        match = start_match(client_for(carol), club, roster[:3])
        ids = [seat["player"] for seat in match["seats"]]
        body = {**went_out(ids[0], ids), "number": 1}

        def race(i: int, match_id: int = match["id"], body: dict = body):
            client = client_for(carol)
            if i == 0:
                return client.post(live_url(match_id), {"turned_up": "7H"}, format="json")
            return client.post(f"/api/v1/matches/{match_id}/hands/", body, format="json")

        live, whole = in_parallel(race, count=2)
        recorded = Match.objects.get(pk=match["id"]).hands_played
        if whole.status_code == 201:  # hand 1 recorded: a live hand may only be the next
            assert recorded == 1
            assert live.status_code == 409 or live.json()["hand"] == 2
            assert playing(match["id"]) in ([], [2])
        else:  # the live hand holds number 1: the whole entry of it is refused
            assert (live.status_code, whole.status_code) == (201, 409)
            assert whole.json()["errors"][0]["code"] == "live_hand_in_progress"
            assert recorded == 0 and playing(match["id"]) == [1]
        outcomes[(live.status_code, whole.status_code)] += 1
    assert sum(outcomes.values()) == ROUNDS


def test_a_draft_part_is_never_written_beside_a_live_hand_of_its_number(carol, club, roster):
    for _ in range(ROUNDS):
        match = start_match(client_for(carol), club, roster[:3])
        ann = match["seats"][0]["player"]

        def race(i: int, match_id: int = match["id"], ann: int = ann):
            client = client_for(carol)
            if i == 0:
                return client.post(live_url(match_id), {"turned_up": "7H"}, format="json")
            part = {"melds": [], "hand": ["4H"], "version": 0}
            return client.put(draft_part(match_id, 1, ann), part, format="json")

        live, drafted = (r.status_code for r in in_parallel(race, count=2))
        assert (live, drafted) in {(201, 409), (409, 200)}
        assert not (playing(match["id"]) and filled_drafts(match["id"], 1))


def test_recording_a_hand_never_leaves_a_draft_of_it_behind(carol, club, roster):
    for _ in range(ROUNDS):
        match = start_match(client_for(carol), club, roster[:3])
        ids = [seat["player"] for seat in match["seats"]]
        body = {**went_out(ids[0], ids), "number": 1}

        def race(i: int, match_id: int = match["id"], body: dict = body, ann: int = ids[0]):
            client = client_for(carol)
            if i == 0:
                return client.post(f"/api/v1/matches/{match_id}/hands/", body, format="json")
            part = {"melds": [], "hand": ["4H"], "version": 0}
            return client.put(draft_part(match_id, 1, ann), part, format="json")

        recorded, drafted = (r.status_code for r in in_parallel(race, count=2))
        assert recorded == 201
        assert drafted in (200, 409)
        assert Hand.objects.filter(match_id=match["id"], number=1).exists()
        assert filled_drafts(match["id"], 1) == 0


def test_voiding_a_hand_never_leaves_a_draft_of_the_next_behind(carol, club, roster):
    for _ in range(ROUNDS):
        match = start_match(client_for(carol), club, roster[:3])
        ids = [seat["player"] for seat in match["seats"]]
        client_for(carol).post(
            f"/api/v1/matches/{match['id']}/hands/", went_out(ids[0], ids), format="json"
        )

        def race(i: int, match_id: int = match["id"], ann: int = ids[0]):
            client = client_for(carol)
            if i == 0:
                return client.delete(f"/api/v1/matches/{match_id}/hands/1/")
            part = {"melds": [], "hand": ["4H"], "version": 0}
            return client.put(draft_part(match_id, 2, ann), part, format="json")

        voided, drafted = (r.status_code for r in in_parallel(race, count=2))
        assert voided == 204
        assert drafted in (200, 409)
        assert filled_drafts(match["id"], 1) == filled_drafts(match["id"], 2) == 0
