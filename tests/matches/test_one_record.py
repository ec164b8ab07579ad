"""One played hand, one record: a second entry of a recorded number agrees or is refused.

Carol records, Alice (the owner) enters the same hand on her phone, Victor watches and may
confirm. A hand's number is what tells a second entry from the next hand.
"""

from __future__ import annotations

import random

import pytest

from matches.models import (
    Club,
    Hand,
    HandConfirmation,
    HandRevision,
    IdempotencyRecord,
    LiveHand,
    LiveStatus,
    SecondEntry,
)
from tests.api import openapi
from tests.factories import BEN_13, CLEO_13, ann_goes_out, finish, record, start_match, went_out


@pytest.fixture
def trio(as_carol, club, roster):
    return start_match(as_carol, club, roster[:3])


@pytest.fixture
def players(roster):
    return [p.pk for p in roster[:3]]


def shuffled(body: dict, seed: int = 7) -> dict:
    """The same hand with players, melds and every meld's and hand's cards in another order."""
    rng = random.Random(seed)
    results = []
    for row in body["results"]:
        melds = [rng.sample(meld, len(meld)) for meld in row["melds"]]
        rng.shuffle(melds)
        results.append({**row, "melds": melds, "hand": rng.sample(row["hand"], len(row["hand"]))})
    rng.shuffle(results)
    return {**body, "results": results}


def hands_url(match: dict) -> str:
    return f"/api/v1/matches/{match['id']}/hands/"


def test_the_same_hand_from_a_second_user_in_another_order_confirms_it(
    as_carol, as_alice, trio, players
):
    body = went_out(players[0], players)
    first = record(as_carol, trio["id"], {**body, "number": 1})
    assert first.status_code == 201
    assert first.json()["confirmations"] == []

    second = record(as_alice, trio["id"], {**shuffled(body), "number": 1})
    assert second.status_code == 200
    answer = second.json()
    assert answer["number"] == 1
    assert answer["recorded_by"] == "carol"
    assert [c["by"] for c in answer["confirmations"]] == ["alice"]
    assert answer["match"]["hands_played"] == 1
    assert Hand.objects.filter(match_id=trio["id"]).count() == 1
    assert HandRevision.objects.filter(match_id=trio["id"]).count() == 1
    assert HandConfirmation.objects.filter(hand__match_id=trio["id"]).count() == 1
    listed = as_carol.get(hands_url(trio)).json()["results"][0]
    assert [c["by"] for c in listed["confirmations"]] == ["alice"]


def test_the_same_hand_again_from_its_recorder_on_the_same_device_is_no_confirmation(
    as_carol, trio, players
):
    body = {**went_out(players[0], players), "number": 1}
    assert record(as_carol, trio["id"], body).status_code == 201
    again = record(as_carol, trio["id"], shuffled(body))
    assert again.status_code == 200
    assert again.json()["confirmations"] == []
    assert HandConfirmation.objects.count() == 0


def test_a_different_hand_is_refused_naming_the_player_and_the_card(
    as_carol, as_alice, trio, players
):
    ann, ben, cleo = players
    body = went_out(ann, players)
    assert record(as_carol, trio["id"], {**body, "number": 1}).status_code == 201
    other = went_out(ann, players)
    ben_row = next(row for row in other["results"] if row["player"] == ben)
    ben_row["hand"] = ["KC" if card == "3C" else card for card in ben_row["hand"]]

    response = record(as_alice, trio["id"], {**other, "number": 1})
    assert response.status_code == 409
    answer = response.json()
    assert [e["code"] for e in answer["errors"]] == ["hand_already_recorded"]
    assert answer["errors"][0]["attr"] == "number"
    assert "Ben" in answer["errors"][0]["detail"] and "3C" in answer["errors"][0]["detail"]
    assert answer["recorded"]["number"] == 1
    assert answer["recorded"]["recorded_by"] == "carol"
    assert answer["differences"]["ending"] is None
    assert answer["differences"]["players"] == [
        {
            "player": ben,
            "name": "Ben",
            "melds_only_recorded": [],
            "melds_only_submitted": [],
            "held_only_recorded": ["3C"],
            "held_only_submitted": ["KC"],
            "went_out": None,
        }
    ]
    assert Hand.objects.filter(match_id=trio["id"]).count() == 1
    assert HandConfirmation.objects.count() == 0


def test_another_player_going_out_is_a_difference_of_both(as_carol, as_alice, trio, players):
    ann, ben, _ = players
    assert record(as_carol, trio["id"], {**went_out(ann, players), "number": 1}).status_code == 201
    response = record(as_alice, trio["id"], {**went_out(ben, players), "number": 1})
    assert response.status_code == 409
    outs = {d["player"]: d["went_out"] for d in response.json()["differences"]["players"]}
    assert outs[ann] == {"recorded": True, "submitted": False}
    assert outs[ben] == {"recorded": False, "submitted": True}


@pytest.mark.parametrize("number", [0, 3, 99])
def test_a_number_that_is_neither_recorded_nor_next_is_refused(as_carol, trio, players, number):
    assert record(as_carol, trio["id"], went_out(players[0], players)).status_code == 201
    response = record(as_carol, trio["id"], {**went_out(players[1], players), "number": number})
    if number == 0:  # not a hand number at all
        assert response.status_code == 400
        assert response.json()["errors"][0]["attr"] == "number"
    else:
        assert response.status_code == 409
        assert [e["code"] for e in response.json()["errors"]] == ["hand_number_not_next"]
    assert Hand.objects.filter(match_id=trio["id"]).count() == 1


def test_without_a_number_the_next_hand_is_recorded_as_before(as_carol, trio, players):
    body = went_out(players[0], players)
    assert record(as_carol, trio["id"], body).json()["number"] == 1
    assert record(as_carol, trio["id"], body).json()["number"] == 2


def test_the_next_number_records_the_next_hand(as_carol, trio, players):
    body = went_out(players[0], players)
    assert record(as_carol, trio["id"], {**body, "number": 1}).status_code == 201
    second = record(as_carol, trio["id"], {**body, "number": 2})
    assert second.status_code == 201
    assert second.json()["number"] == 2


def test_a_second_entry_of_a_finished_matchs_last_hand_still_confirms_it(
    as_carol, as_alice, trio, players
):
    body = went_out(players[0], players)
    for number in (1, 2, 3):
        assert record(as_carol, trio["id"], {**body, "number": number}).status_code == 201
    assert as_carol.get(f"/api/v1/matches/{trio['id']}/").json()["status"] == "finished"
    again = record(as_alice, trio["id"], {**body, "number": 3})
    assert again.status_code == 200
    assert [c["by"] for c in again.json()["confirmations"]] == ["alice"]
    refused = record(as_alice, trio["id"], {**body, "number": 4})
    assert refused.json()["errors"][0]["code"] == "match_finished"


def test_a_replayed_key_of_an_agreeing_entry_answers_200_again(as_carol, as_alice, trio, players):
    body = {**went_out(players[0], players), "number": 1}
    assert record(as_carol, trio["id"], body).status_code == 201
    first = record(as_alice, trio["id"], body, HTTP_IDEMPOTENCY_KEY="phone-b-1")
    replay = record(as_alice, trio["id"], body, HTTP_IDEMPOTENCY_KEY="phone-b-1")
    assert (first.status_code, replay.status_code) == (200, 200)
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json() == first.json()
    assert IdempotencyRecord.objects.filter(match_id=trio["id"]).count() == 1


def test_two_users_sending_the_same_key_each_get_their_own_answer(
    as_carol, as_alice, trio, players
):
    """Keys are per user: a second phone whose key happens to be the first's is not answered
    with the first phone's hand, and its entry still counts as a confirmation."""
    body = {**went_out(players[0], players), "number": 1}
    first = record(as_carol, trio["id"], body, HTTP_IDEMPOTENCY_KEY="hand-1")
    assert first.status_code == 201
    second = record(as_alice, trio["id"], shuffled(body), HTTP_IDEMPOTENCY_KEY="hand-1")
    assert second.status_code == 200  # not 422: Alice never used this key
    assert "Idempotent-Replayed" not in second
    assert [c["by"] for c in second.json()["confirmations"]] == ["alice"]
    again = record(as_alice, trio["id"], shuffled(body), HTTP_IDEMPOTENCY_KEY="hand-1")
    assert (again.status_code, again["Idempotent-Replayed"]) == (200, "true")
    kept = IdempotencyRecord.objects.filter(match_id=trio["id"])
    assert sorted(r.user.username for r in kept) == ["alice", "carol"]
    assert "hand-1" not in {r.key for r in kept}  # a digest, not the key as sent


# --- a live hand holds its number ----------------------------------------------------------


def live_url(match: dict, rest: str = "") -> str:
    return f"/api/v1/matches/{match['id']}/live/{rest}"


def play_live(client, match: dict, events: list[dict]):
    answer = client.post(live_url(match), {"turned_up": "7H"}, format="json")
    assert answer.status_code == 201, answer.json()
    etag = answer.headers["ETag"]
    for event in events:
        answer = client.post(live_url(match, "events/"), event, format="json", HTTP_IF_MATCH=etag)
        assert answer.status_code == 200, (event, answer.json())
        etag = answer.headers["ETag"]
    return etag


def whole(ann: int, ben: int, cleo: int) -> dict:
    """The live hand of ``factories.ann_goes_out``, entered whole."""
    return {
        "ending": "went_out",
        "went_out": ann,
        "results": [
            {
                "player": ann,
                "melds": [
                    ["8D", "8C", "2C=8H"],
                    ["3C", "3D", "3H"],
                    ["4C", "4D", "4H"],
                    ["5C", "5D", "5H"],
                    ["7H", "7D", "7C"],
                ],
                "hand": [],
            },
            {"player": ben, "melds": [], "hand": BEN_13},
            {"player": cleo, "melds": [], "hand": CLEO_13},
        ],
    }


@pytest.mark.parametrize("number", [1, None])
def test_a_live_hand_in_play_blocks_a_whole_entry_of_its_number(as_carol, trio, players, number):
    play_live(as_carol, trio, [])
    body = whole(*players) if number is None else {**whole(*players), "number": number}
    response = record(as_carol, trio["id"], body)
    assert response.status_code == 409
    assert [e["code"] for e in response.json()["errors"]] == ["live_hand_in_progress"]
    assert Hand.objects.filter(match_id=trio["id"]).count() == 0


def recorded_while_the_live_hand_was_dealt(client, match: dict, body: dict) -> None:
    """Hand 1 entered whole while the live hand 1 was being dealt: the live hand was started
    on a read from before the entry committed (the hold is lifted for the entry, as if the
    live hand were not there yet, then put back)."""
    live = LiveHand.objects.get(match_id=match["id"], status=LiveStatus.PLAYING)
    LiveHand.objects.filter(pk=live.pk).update(status=LiveStatus.ABANDONED)
    assert record(client, match["id"], {**body, "number": 1}).status_code == 201
    LiveHand.objects.filter(pk=live.pk).update(status=LiveStatus.PLAYING)


def test_a_live_finish_after_the_same_whole_entry_attaches_its_log_as_a_confirmation(
    as_carol, as_alice, trio, players
):
    ann, ben, cleo = players
    etag = play_live(as_alice, trio, ann_goes_out(ann, ben, cleo))
    recorded_while_the_live_hand_was_dealt(as_carol, trio, whole(ann, ben, cleo))
    done = as_alice.post(
        live_url(trio, "events/"), finish(ben, cleo), format="json", HTTP_IF_MATCH=etag
    )
    assert done.status_code == 200, done.json()
    assert done.json()["number"] == 1
    assert [c["by"] for c in done.json()["confirmations"]] == ["alice"]
    assert Hand.objects.filter(match_id=trio["id"]).count() == 1
    live = LiveHand.objects.get(match_id=trio["id"])
    assert live.status == LiveStatus.RECORDED
    assert live.hand_id == Hand.objects.get(match_id=trio["id"]).pk
    assert as_carol.get(f"/api/v1/matches/{trio['id']}/hands/1/live/").status_code == 200


def test_a_live_finish_after_a_different_whole_entry_is_refused_and_kept(
    as_carol, as_alice, trio, players
):
    ann, ben, cleo = players
    etag = play_live(as_alice, trio, ann_goes_out(ann, ben, cleo))
    entered = whole(ann, ben, cleo)
    entered["results"][1]["hand"] = ["KS" if c == "KC" else c for c in BEN_13]
    recorded_while_the_live_hand_was_dealt(as_carol, trio, entered)
    done = as_alice.post(
        live_url(trio, "events/"), finish(ben, cleo), format="json", HTTP_IF_MATCH=etag
    )
    assert done.status_code == 409
    answer = done.json()
    assert answer["errors"][0]["code"] == "hand_already_recorded"
    # as the description of POST live/events/ declares it, for a generated client
    events = "/api/v1/matches/{match_pk}/live/events/"
    assert "hand_already_recorded" in openapi.declared_codes(events, "post", 409)
    declared = openapi.resolved(openapi.operation(events, "post")["responses"]["409"])
    envelope = openapi.resolved(declared["content"]["application/json"]["schema"])
    assert {"recorded", "differences"} <= envelope["properties"].keys()
    (ben_differs,) = answer["differences"]["players"]
    assert ben_differs["player"] == ben
    assert (ben_differs["held_only_recorded"], ben_differs["held_only_submitted"]) == (
        ["KS"],
        ["KC"],
    )
    assert LiveHand.objects.get(match_id=trio["id"]).status == LiveStatus.PLAYING
    assert as_alice.delete(live_url(trio)).status_code == 204
    assert Hand.objects.filter(match_id=trio["id"]).count() == 1


# --- confirming a hand as it stands ---------------------------------------------------------


def confirm(client, match: dict, number: int, **headers):
    return client.post(f"{hands_url(match)}{number}/confirmations/", {}, format="json", **headers)


def test_another_member_confirms_a_hand_once_and_a_viewer_may(
    as_carol, as_alice, as_victor, trio, players
):
    assert record(as_carol, trio["id"], went_out(players[0], players)).status_code == 201
    first = confirm(as_victor, trio, 1, HTTP_IF_MATCH='"1"')
    assert first.status_code == 201
    assert [c["by"] for c in first.json()["confirmations"]] == ["victor"]
    again = confirm(as_victor, trio, 1)
    assert again.status_code == 200
    assert confirm(as_alice, trio, 1).status_code == 201
    assert HandConfirmation.objects.filter(hand__match_id=trio["id"]).count() == 2


def test_the_recorder_cannot_confirm_their_own_hand(as_carol, trio, players):
    assert record(as_carol, trio["id"], went_out(players[0], players)).status_code == 201
    response = confirm(as_carol, trio, 1)
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "confirmation_by_recorder"


def test_confirming_a_hand_that_changed_since_it_was_read_is_stale(
    as_carol, as_victor, trio, players
):
    assert record(as_carol, trio["id"], went_out(players[0], players)).status_code == 201
    response = confirm(as_victor, trio, 1, HTTP_IF_MATCH='"7"')
    assert response.status_code == 412
    assert confirm(as_victor, trio, 2).status_code == 404
    assert HandConfirmation.objects.count() == 0


def test_outsiders_cannot_confirm(as_carol, as_bob, trio, players):
    assert record(as_carol, trio["id"], went_out(players[0], players)).status_code == 201
    assert confirm(as_bob, trio, 1).status_code == 404


def test_a_correction_clears_the_confirmations_of_the_version_it_replaces(
    as_carol, as_alice, as_victor, trio, players
):
    assert record(as_carol, trio["id"], went_out(players[0], players)).status_code == 201
    assert confirm(as_victor, trio, 1).status_code == 201
    corrected = as_alice.put(
        f"{hands_url(trio)}1/", went_out(players[1], players), format="json", HTTP_IF_MATCH='"1"'
    )
    assert corrected.status_code == 200
    assert corrected.json()["confirmations"] == []
    assert as_carol.get(f"{hands_url(trio)}1/").json()["confirmations"] == []
    # the corrector is the new version's author: the recorder of the first may confirm it
    assert confirm(as_alice, trio, 1).status_code == 409
    assert confirm(as_carol, trio, 1).status_code == 201


# --- a club that asks for a second entry ----------------------------------------------------


def test_a_club_asking_for_a_second_entry_marks_unconfirmed_hands_and_never_blocks_play(
    as_alice, as_carol, as_victor, club, trio, players
):
    detail = f"/api/v1/matches/{trio['id']}/"
    assert as_carol.get(detail).json()["unconfirmed_hands"] is None
    changed = as_alice.patch(
        f"/api/v1/clubs/{club.pk}/", {"second_entry": "required"}, format="json"
    )
    assert changed.status_code == 200
    assert changed.json()["second_entry"] == "required"
    assert Club.objects.get(pk=club.pk).second_entry == SecondEntry.REQUIRED
    body = went_out(players[0], players)
    for number in (1, 2, 3):
        assert record(as_carol, trio["id"], {**body, "number": number}).status_code == 201
    assert as_carol.get(detail).json()["unconfirmed_hands"] == [1, 2, 3]
    standings = f"/api/v1/clubs/{club.pk}/standings/"
    rows = as_victor.get(standings).json()
    assert {row["unconfirmed_matches"] for row in rows} == {1}

    assert confirm(as_victor, trio, 1).status_code == 201
    assert confirm(as_victor, trio, 2).status_code == 201
    assert as_carol.get(detail).json()["unconfirmed_hands"] == [3]
    assert record(as_alice, trio["id"], {**shuffled(body), "number": 3}).status_code == 200
    assert as_carol.get(detail).json()["unconfirmed_hands"] == []
    assert {row["unconfirmed_matches"] for row in as_victor.get(standings).json()} == {0}
    text = as_victor.get(standings, {"format": "csv"}).content.decode().splitlines()
    column = text[0].split(",").index("unconfirmed_matches")
    assert {line.split(",")[column] for line in text[1:]} == {"0"}


def test_the_second_entry_setting_takes_only_off_or_required(as_alice, as_carol, club):
    response = as_alice.patch(
        f"/api/v1/clubs/{club.pk}/", {"second_entry": "always"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "second_entry"
    assert (
        as_carol.patch(
            f"/api/v1/clubs/{club.pk}/", {"second_entry": "required"}, format="json"
        ).status_code
        == 403
    )


def test_the_match_answers_304_until_another_phone_records_or_confirms_a_hand(
    as_carol, as_victor, trio, players
):
    url = f"/api/v1/matches/{trio['id']}/"
    first = as_victor.get(url)
    tag = first["ETag"]
    assert as_victor.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert record(as_carol, trio["id"], went_out(players[0], players)).status_code == 201
    after_hand = as_victor.get(url, HTTP_IF_NONE_MATCH=tag)
    assert after_hand.status_code == 200
    assert after_hand.json()["next_hand"] == 2
    tag = after_hand["ETag"]
    assert as_victor.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert confirm(as_victor, trio, 1).status_code == 201
    assert as_victor.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_a_device_token_and_a_session_are_devices(alice, as_carol, trio, players, client):
    """The same user on two devices: the second device's agreeing entry is a confirmation."""
    from rest_framework.test import APIClient

    from tests.factories import client_for

    body = {**went_out(players[0], players), "number": 1}
    assert record(client_for(alice), trio["id"], body).status_code == 201  # no device known
    token = APIClient().post(
        "/api/v1/auth/tokens/", {"username": "alice", "password": "alice-pw-1234"}, format="json"
    )
    phone = APIClient(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    again = record(phone, trio["id"], body)
    assert again.status_code == 200
    assert again.json()["confirmations"][0]["by"] == "alice"
    assert again.json()["confirmations"][0]["device"] == f"token:{token.json()['id']}"
    client.force_login(alice)
    browser = record(client, trio["id"], body, content_type="application/json")
    devices = [c["device"] for c in browser.json()["confirmations"]]
    assert devices[1].startswith("session:") and len(devices[1]) == len("session:") + 12
