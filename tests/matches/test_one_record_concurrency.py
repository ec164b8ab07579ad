"""One played hand, one record, under real concurrency on PostgreSQL: threads, own connections."""

from __future__ import annotations

import pytest

from accounts.models import IdempotentAnswer
from matches.models import Hand, HandConfirmation, HandRevision, LiveHand, LiveStatus, Match
from tests.factories import ann_goes_out, client_for, finish, make_user, record, start_match
from tests.factories import went_out as went_out_hand
from tests.matches.test_concurrency import in_parallel
from tests.matches.test_one_record import whole

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = 20


def test_twenty_phones_sending_one_hand_with_one_number_record_one_hand(club, roster, carol):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    body = {**went_out_hand(players[0], players), "number": 1}

    def send(i: int) -> int:
        response = record(client_for(carol), match["id"], body, HTTP_IDEMPOTENCY_KEY=f"phone-{i}")
        return response.status_code

    statuses = in_parallel(send, count=PHONES)
    assert sorted(statuses) == [200] * (PHONES - 1) + [201]
    assert Hand.objects.filter(match_id=match["id"]).count() == 1
    assert HandRevision.objects.filter(match_id=match["id"]).count() == 1
    assert Match.objects.get(pk=match["id"]).hands_played == 1


def test_twenty_members_sending_one_hand_confirm_it_once_each(club, roster, carol):
    from matches.models import Membership, Role

    members = [make_user(f"member{i}") for i in range(PHONES)]
    Membership.objects.bulk_create(
        Membership(club=club, user=user, role=Role.SCOREKEEPER) for user in members
    )
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    body = {**went_out_hand(players[0], players), "number": 1}
    statuses = in_parallel(
        lambda i: record(client_for(members[i]), match["id"], body).status_code, count=PHONES
    )
    assert sorted(statuses) == [200] * (PHONES - 1) + [201]
    assert Hand.objects.filter(match_id=match["id"]).count() == 1
    assert HandConfirmation.objects.filter(hand__match_id=match["id"]).count() == PHONES - 1


def test_twenty_replays_of_a_committed_hand_key_all_get_the_replay(club, roster, carol):
    players = [p.pk for p in roster[:3]]
    match = start_match(client_for(carol), club, roster[:3])
    body = went_out_hand(players[0], players)
    first = record(client_for(carol), match["id"], body, HTTP_IDEMPOTENCY_KEY="committed")
    assert first.status_code == 201

    def replay(i: int) -> tuple[int, str | None, object]:
        response = record(client_for(carol), match["id"], body, HTTP_IDEMPOTENCY_KEY="committed")
        return response.status_code, response.get("Idempotent-Replayed"), response.json()

    answers = in_parallel(replay, count=PHONES)
    assert [(status, replayed) for status, replayed, _ in answers] == [(201, "true")] * PHONES
    assert all(answer == first.json() for _, _, answer in answers)
    assert Hand.objects.filter(match_id=match["id"]).count() == 1


def test_twenty_replays_of_a_committed_match_key_all_get_the_replay(club, roster, carol):
    url = "/api/v1/matches/"
    body = {"club": club.pk, "players": [p.pk for p in roster[:3]]}
    first = client_for(carol).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="new-match")
    assert first.status_code == 201

    def replay(i: int) -> tuple[int, str | None, object]:
        response = client_for(carol).post(
            url, body, format="json", HTTP_IDEMPOTENCY_KEY="new-match"
        )
        return response.status_code, response.get("Idempotent-Replayed"), response.json()

    answers = in_parallel(replay, count=PHONES)
    assert [(status, replayed) for status, replayed, _ in answers] == [(201, "true")] * PHONES
    assert all(answer == first.json() for _, _, answer in answers)
    assert Match.objects.filter(club=club).count() == 1
    assert IdempotentAnswer.objects.count() == 1


def test_twenty_first_posts_of_a_match_with_one_key_create_one_match(club, roster, carol):
    url = "/api/v1/matches/"
    body = {"club": club.pk, "players": [p.pk for p in roster[:3]]}

    def send(i: int) -> tuple[int, object]:
        response = client_for(carol).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="once")
        return response.status_code, response.json()

    answers = in_parallel(send, count=PHONES)
    assert {status for status, _ in answers} <= {201, 409}
    busy = [answer for status, answer in answers if status == 409]
    assert all(a["errors"][0]["code"] == "idempotency_key_in_progress" for a in busy)
    assert Match.objects.filter(club=club).count() == 1


@pytest.mark.parametrize("race", range(6))
def test_a_live_finish_racing_a_whole_entry_records_one_hand(club, roster, carol, alice, race):
    ann, ben, cleo = (p.pk for p in roster[:3])
    match = start_match(client_for(carol), club, roster[:3])
    live = client_for(alice)
    url = f"/api/v1/matches/{match['id']}/live/"
    answer = live.post(url, {"turned_up": "7H"}, format="json")
    etag = answer.headers["ETag"]
    for event in ann_goes_out(ann, ben, cleo):
        answer = live.post(f"{url}events/", event, format="json", HTTP_IF_MATCH=etag)
        etag = answer.headers["ETag"]

    def go(i: int) -> int:
        if i == 0:
            return (
                client_for(alice)
                .post(f"{url}events/", finish(ben, cleo), format="json", HTTP_IF_MATCH=etag)
                .status_code
            )
        return record(
            client_for(carol), match["id"], {**whole(ann, ben, cleo), "number": 1}
        ).status_code

    finished, entered = in_parallel(go, count=2)
    assert Hand.objects.filter(match_id=match["id"]).count() == 1
    assert finished == 201
    # the whole entry lost the race to the live hand (409 while it held the number) or came
    # after it and agreed with it (200): never a second hand
    assert entered in (200, 409)
    assert LiveHand.objects.get(match_id=match["id"]).status == LiveStatus.RECORDED
