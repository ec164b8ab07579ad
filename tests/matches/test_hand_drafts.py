"""GET matches/{id}/hands/{n}/draft/ and PUT .../draft/ending/ and .../draft/players/{id}/:
one hand entered by several phones, part by part, before one of them records it."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from matches.models import HandDraftPart
from tests.factories import client_for, correct, record, start_match, went_out, whole_pack_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(as_carol, club, roster) -> dict:
    """Alice's club's match of Ann, Ben and Cleo, no hand recorded: the next hand is 1."""
    return start_match(as_carol, club, roster[:3])


@pytest.fixture
def seated(roster) -> list[int]:
    return [p.pk for p in roster[:3]]


def draft_url(match_id: int, number: int = 1) -> str:
    return f"/api/v1/matches/{match_id}/hands/{number}/draft/"


def put_ending(client, match_id, body, number=1):
    return client.put(f"{draft_url(match_id, number)}ending/", body, format="json")


def put_player(client, match_id, player, body, number=1):
    return client.put(f"{draft_url(match_id, number)}players/{player}/", body, format="json")


def codes(response) -> list[str]:
    return [error["code"] for error in response.json()["errors"]]


# --- writing and reading parts ------------------------------------------------------------------


def test_a_draft_nobody_has_written_is_empty(as_victor, match):
    response = as_victor.get(draft_url(match["id"]))
    assert response.status_code == 200
    assert response.json() == {"number": 1, "ending": None, "players": []}


def test_a_part_written_by_one_member_is_read_back_by_another(as_carol, as_victor, match, seated):
    ann = seated[0]
    body = {"melds": [["JS", "2D=QS", "KS"]], "hand": ["4H"], "version": 0}
    written = put_player(as_carol, match["id"], ann, body)
    assert written.status_code == 200, written.json()

    read = as_victor.get(draft_url(match["id"])).json()
    assert read["ending"] is None
    (part,) = read["players"]
    assert part["player"] == ann
    assert part["melds"] == [["JS", "2D=QS", "KS"]] and part["hand"] == ["4H"]
    assert part["version"] == 1 and part["by"] == "carol" and part["at"]
    assert written.json() == read


def test_cards_are_answered_in_canonical_notation(as_carol, match, seated):
    body = {"melds": [["10h", "j♥", "2c=qH"]], "hand": ["th", "a♠"], "version": 0}
    answer = put_player(as_carol, match["id"], seated[1], body).json()
    assert answer["players"][0]["melds"] == [["10H", "JH", "2C=QH"]]
    assert answer["players"][0]["hand"] == ["10H", "AS"]


def test_unfinished_melds_are_kept_without_a_ruling(as_carol, match, seated):
    body = {"melds": [["5H", "6H"], ["2C"], ["QS", "QS", "QS", "KD"]], "hand": [], "version": 0}
    answer = put_player(as_carol, match["id"], seated[0], body)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["players"][0]["melds"] == body["melds"]


def test_the_players_parts_come_in_seat_order(as_carol, match, seated):
    for player in reversed(seated):
        assert put_player(as_carol, match["id"], player, {"version": 0}).status_code == 200
    answer = as_carol.get(draft_url(match["id"])).json()
    assert [part["player"] for part in answer["players"]] == seated


def test_the_ending_part_is_kept_with_its_flags(as_alice, match, seated):
    body = {"ending": "went_out", "went_out": seated[2], "flags": {"rummy": True}, "version": 0}
    answer = put_ending(as_alice, match["id"], body)
    assert answer.status_code == 200, answer.json()
    ending = answer.json()["ending"]
    assert (ending["ending"], ending["went_out"], ending["version"]) == ("went_out", seated[2], 1)
    assert ending["flags"] == {}  # Arlington asks no flag of a hand
    assert ending["by"] == "alice"


def test_the_ending_may_leave_out_who_went_out(as_carol, match):
    answer = put_ending(as_carol, match["id"], {"ending": "went_out", "version": 0})
    assert answer.status_code == 200, answer.json()
    assert answer.json()["ending"]["went_out"] is None


# --- versions -------------------------------------------------------------------------------


def test_a_write_from_the_current_version_moves_the_part_on(as_carol, match, seated):
    url_player = seated[0]
    put_player(as_carol, match["id"], url_player, {"hand": ["4H"], "version": 0})
    answer = put_player(as_carol, match["id"], url_player, {"hand": ["5H"], "version": 1})
    assert answer.status_code == 200
    part = answer.json()["players"][0]
    assert (part["hand"], part["version"]) == (["5H"], 2)


def test_a_stale_version_is_refused_with_the_draft_as_it_stands(as_alice, as_carol, match, seated):
    ann = seated[0]
    put_player(as_carol, match["id"], ann, {"hand": ["4H"], "version": 0})
    before = as_carol.get(draft_url(match["id"])).json()

    stale = put_player(as_alice, match["id"], ann, {"hand": ["9C"], "version": 0})
    assert stale.status_code == 409
    assert codes(stale) == ["draft_changed"]
    assert stale.json()["draft"] == before
    assert as_carol.get(draft_url(match["id"])).json() == before


def test_a_stale_ending_is_refused(as_alice, as_carol, match):
    put_ending(as_carol, match["id"], {"ending": "went_out", "version": 0})
    stale = put_ending(as_alice, match["id"], {"ending": "stock_exhausted", "version": 0})
    assert stale.status_code == 409 and codes(stale) == ["draft_changed"]
    assert stale.json()["draft"]["ending"]["ending"] == "went_out"


def test_a_phone_sending_its_own_old_version_is_not_told_another_phone_changed_it(as_carol, match):
    put_ending(as_carol, match["id"], {"ending": "went_out", "version": 0})
    again = put_ending(as_carol, match["id"], {"ending": "stock_exhausted", "version": 0})
    assert again.status_code == 409 and codes(again) == ["draft_changed"]
    assert again.json()["errors"][0]["detail"] == (
        "This part of the draft has changed since the version you sent: the ending of hand 1 "
        "(now at version 1). Read the draft again and reapply your change."
    )


def test_a_version_ahead_of_a_part_never_written_is_refused(as_carol, match, seated):
    response = put_player(as_carol, match["id"], seated[0], {"hand": [], "version": 3})
    assert response.status_code == 409 and codes(response) == ["draft_changed"]
    assert not HandDraftPart.objects.exists()


def test_two_phones_writing_two_players_do_not_conflict(as_alice, as_carol, match, seated):
    first = put_player(as_alice, match["id"], seated[0], {"hand": ["4H"], "version": 0})
    second = put_player(as_carol, match["id"], seated[1], {"hand": ["5H"], "version": 0})
    ending = put_ending(as_carol, match["id"], {"ending": "went_out", "version": 0})
    assert [first.status_code, second.status_code, ending.status_code] == [200, 200, 200]
    answer = ending.json()
    assert [(p["player"], p["by"]) for p in answer["players"]] == [
        (seated[0], "alice"),
        (seated[1], "carol"),
    ]


# --- what a draft may say -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "attr", "code"),
    [
        ({"melds": [["JS", "QS", "XX"]]}, "melds.0.2", "invalid_card"),
        ({"hand": ["4H", "5H", "6H", "2D=QS"]}, "hand.3", None),
        ({"melds": [["JS"], ["5H", "6H=7H"]]}, "melds.1.1", None),
    ],
)
def test_an_unreadable_card_is_a_400_naming_it(as_carol, match, seated, body, attr, code):
    response = put_player(as_carol, match["id"], seated[0], {**body, "version": 0})
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["attr"] == attr
    if code is not None:
        assert error["code"] == code
    assert not HandDraftPart.objects.exists()


def test_bad_notation_has_the_code_the_hands_api_gives(as_carol, match, seated):
    body = went_out(seated[0], seated)
    body["results"][1]["hand"][0] = "1Z"
    by_hands = record(as_carol, match["id"], body)
    by_draft = put_player(as_carol, match["id"], seated[0], {"hand": ["1Z"], "version": 0})
    assert by_hands.status_code == by_draft.status_code == 400
    assert codes(by_hands) == codes(by_draft)


def test_too_many_melds_are_refused(as_carol, match, seated):
    body = {"melds": [["4H"]] * 41, "version": 0}
    response = put_player(as_carol, match["id"], seated[0], body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "melds"


def test_a_part_holds_no_more_than_two_packs(as_carol, match, seated):
    """Each list within its limit, the whole part beyond two packs' 104 cards: refused."""
    body = {"melds": [["4H", "5H", "6H"]] * 34, "hand": ["KC", "KD", "KS"], "version": 0}
    response = put_player(as_carol, match["id"], seated[0], body)
    assert response.status_code == 400 and codes(response) == ["too_many_cards"]
    (error,) = response.json()["errors"]
    assert error["attr"] == "melds"
    assert "at most 104 cards" in error["detail"] and "holds 105" in error["detail"]
    assert not HandDraftPart.objects.exists()
    body["hand"] = ["KC", "KD"]
    assert put_player(as_carol, match["id"], seated[0], body).status_code == 200


def test_an_empty_meld_is_left_out(as_carol, match, seated):
    body = {"melds": [[], ["4H", "5H", "6H"], []], "hand": ["KC"], "version": 0}
    answer = put_player(as_carol, match["id"], seated[0], body)
    assert answer.status_code == 200
    assert answer.json()["players"][0]["melds"] == [["4H", "5H", "6H"]]


def test_the_version_is_required(as_carol, match, seated):
    response = put_player(as_carol, match["id"], seated[0], {"hand": []})
    assert response.status_code == 400 and codes(response) == ["required"]


def test_a_player_not_seated_has_no_part(as_carol, match, roster):
    dev = roster[3]
    response = put_player(as_carol, match["id"], dev.pk, {"hand": [], "version": 0})
    assert response.status_code == 404 and codes(response) == ["not_found"]
    # named as the club's roster names them; an id the roster does not have, by its number
    assert response.json()["errors"][0]["detail"] == f"{dev.name} is not seated at this match."
    unknown = put_player(as_carol, match["id"], 987654, {"hand": [], "version": 0})
    assert unknown.json()["errors"][0]["detail"] == "Player 987654 is not seated at this match."


def test_who_went_out_must_be_seated(as_carol, match, roster):
    body = {"ending": "went_out", "went_out": roster[3].pk, "version": 0}
    response = put_ending(as_carol, match["id"], body)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["code"], error["attr"]) == ("player_not_seated", "went_out")
    assert error["detail"] == f"{roster[3].name} is not seated at this match."


def test_an_ending_that_is_no_ending_is_refused(as_carol, match):
    response = put_ending(as_carol, match["id"], {"ending": "gave_up", "version": 0})
    assert response.status_code == 400 and codes(response) == ["invalid_choice"]


def test_a_stock_run_out_names_nobody_going_out(as_carol, match, seated, roster):
    """A draft that could never be recorded is refused as the hand itself would be."""
    body = {"ending": "stock_exhausted", "went_out": seated[1], "version": 0}
    refused = put_ending(as_carol, match["id"], body)
    assert refused.status_code == 400
    (error,) = refused.json()["errors"]
    assert (error["code"], error["attr"]) == ("went_out_not_allowed", "went_out")
    assert roster[1].name in error["detail"]
    assert as_carol.get(draft_url(match["id"])).json()["ending"] is None
    nobody = put_ending(as_carol, match["id"], {"ending": "stock_exhausted", "version": 0})
    assert nobody.status_code == 200, nobody.json()


def test_a_rummy_hand_never_ends_by_the_stock_running_out(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:3], ruleset="rummy")
    refused = put_ending(as_carol, match["id"], {"ending": "stock_exhausted", "version": 0})
    assert refused.status_code == 400
    (error,) = refused.json()["errors"]
    assert (error["code"], error["attr"]) == ("invalid_choice", "ending")

    body = {"ending": "went_out", "went_out": roster[0].pk, "flags": {"rummy": True}, "version": 0}
    accepted = put_ending(as_carol, match["id"], body)
    assert accepted.status_code == 200, accepted.json()
    assert accepted.json()["ending"]["flags"] == {"rummy": True}


# --- which hand -----------------------------------------------------------------------------


@pytest.mark.parametrize("number", [0, 2, 7])
def test_only_the_next_hand_has_a_draft(as_carol, match, seated, number):
    read = as_carol.get(draft_url(match["id"], number))
    written = put_player(as_carol, match["id"], seated[0], {"version": 0}, number=number)
    assert read.status_code == written.status_code == 409
    assert codes(read) == codes(written) == ["hand_number_not_next"]
    # a draft is not a recording: the sentence says which hand is being entered
    assert written.json()["errors"][0]["detail"] == (
        f"Hand {number} is not the hand being entered: this match has 0 hands recorded, so its "
        "draft is hand 1's."
    )
    assert not HandDraftPart.objects.exists()


def test_a_finished_match_has_no_draft(as_carol, club, roster):
    ann, ben = roster[0].pk, roster[1].pk
    match = start_match(as_carol, club, roster[:2])
    for _ in range(2):  # 640 each time: finished after the second
        assert record(as_carol, match["id"], whole_pack_out(ann, ben)).status_code == 201
    read = as_carol.get(draft_url(match["id"], 3))
    written = put_ending(as_carol, match["id"], {"ending": "went_out", "version": 0}, number=3)
    assert read.status_code == written.status_code == 409
    assert codes(read) == codes(written) == ["match_finished"]


def test_a_hand_being_played_live_takes_no_draft(as_carol, match, seated):
    live = as_carol.post(f"/api/v1/matches/{match['id']}/live/", {"turned_up": "7H"}, format="json")
    assert live.status_code == 201
    response = put_player(as_carol, match["id"], seated[0], {"version": 0})
    assert response.status_code == 409 and codes(response) == ["live_hand_in_progress"]
    assert not HandDraftPart.objects.exists()
    # throwing the draft away is a write too: refused alike, not a 204 that did nothing
    thrown = as_carol.delete(draft_url(match["id"], 1))
    assert thrown.status_code == 409 and codes(thrown) == ["live_hand_in_progress"]


def filled() -> list[dict]:
    """What the draft parts of every match hold (an emptied part holds nothing)."""
    return [data for data in HandDraftPart.objects.values_list("data", flat=True) if data]


def test_recording_the_hand_empties_its_draft(as_carol, match, seated):
    put_player(as_carol, match["id"], seated[0], {"hand": ["4H"], "version": 0})
    put_ending(as_carol, match["id"], {"ending": "went_out", "version": 0})
    assert record(as_carol, match["id"], went_out(seated[0], seated)).status_code == 201

    assert filled() == []
    gone = as_carol.get(draft_url(match["id"], 1))  # a phone still polling hand 1 learns of it
    assert gone.status_code == 409 and codes(gone) == ["hand_number_not_next"]
    assert as_carol.get(draft_url(match["id"], 2)).json()["players"] == []


def test_voiding_a_hand_empties_the_drafts(as_carol, match, seated):
    assert record(as_carol, match["id"], went_out(seated[0], seated)).status_code == 201
    put_player(as_carol, match["id"], seated[0], {"hand": ["4H"], "version": 0}, number=2)
    assert filled() == [{"melds": [], "hand": ["4H"]}]

    voided = as_carol.delete(f"/api/v1/matches/{match['id']}/hands/1/")
    assert voided.status_code == 204
    assert filled() == []
    assert as_carol.get(draft_url(match["id"], 1)).json() == {
        "number": 1,
        "ending": None,
        "players": [],
    }


def test_correcting_a_hand_leaves_the_draft_alone(as_carol, match, seated):
    assert record(as_carol, match["id"], went_out(seated[0], seated)).status_code == 201
    put_player(as_carol, match["id"], seated[0], {"hand": ["4H"], "version": 0}, number=2)
    correction = {**went_out(seated[1], seated), "reason": "dispute"}
    assert correct(as_carol, match["id"], 1, correction).status_code == 200
    assert filled() == [{"melds": [], "hand": ["4H"]}]


def void(client, match_id: int, number: int) -> None:
    assert client.delete(f"/api/v1/matches/{match_id}/hands/{number}/").status_code == 204


def test_a_phone_writing_from_before_a_record_and_its_void_never_overwrites_the_new_part(
    as_alice, as_carol, match, seated
):
    """Hand 1 is drafted, recorded and voided, so hand 1 is next again; another phone writes
    Ann's part anew. A phone that still holds the version it read before the record is refused
    (it would otherwise match the new part's version and lay its old cards over it)."""
    ann, ids = seated[0], match["id"]
    old = put_player(as_alice, ids, ann, {"melds": [["3S", "4S", "5S"]], "hand": [], "version": 0})
    seen = old.json()["players"][0]["version"]
    assert record(as_carol, ids, went_out(seated[1], seated)).status_code == 201
    void(as_carol, ids, 1)
    anew = put_player(as_carol, ids, ann, {"melds": [], "hand": ["KH", "KD"], "version": 0})
    assert anew.status_code == 200, anew.json()

    stale = put_player(as_alice, ids, ann, {"melds": [], "hand": ["3C"], "version": seen})
    assert stale.status_code == 409 and codes(stale) == ["draft_changed"]
    assert stale.json()["draft"]["players"][0]["hand"] == ["KH", "KD"]
    assert as_carol.get(draft_url(ids)).json()["players"][0]["by"] == "carol"


def test_an_ending_written_before_a_record_and_its_void_never_overwrites_the_new_one(
    as_alice, as_carol, match, seated
):
    ids = match["id"]
    old = put_ending(as_alice, ids, {"ending": "went_out", "went_out": seated[0], "version": 0})
    seen = old.json()["ending"]["version"]
    assert record(as_carol, ids, went_out(seated[0], seated)).status_code == 201
    void(as_carol, ids, 1)
    body = {"ending": "went_out", "went_out": seated[2], "version": 0}
    assert put_ending(as_carol, ids, body).status_code == 200

    stale = put_ending(as_alice, ids, {"ending": "went_out", "version": seen})
    assert stale.status_code == 409 and codes(stale) == ["draft_changed"]
    assert as_carol.get(draft_url(ids)).json()["ending"]["went_out"] == seated[2]


def test_a_part_from_two_hands_back_never_comes_back_after_two_voids(
    as_alice, as_carol, match, seated
):
    """Hands 1 and 2 recorded, both voided: hand 1 is next again, and a phone's version of
    Ann's part read before hand 1 was recorded still names a version the part has left."""
    ann, ids = seated[0], match["id"]
    old = put_player(as_alice, ids, ann, {"melds": [], "hand": ["4H"], "version": 0})
    seen = old.json()["players"][0]["version"]
    assert record(as_carol, ids, went_out(seated[1], seated)).status_code == 201
    put_player(as_carol, ids, ann, {"melds": [], "hand": ["9D"], "version": 0}, number=2)
    assert record(as_carol, ids, went_out(seated[1], seated)).status_code == 201
    void(as_carol, ids, 2)
    void(as_carol, ids, 1)
    assert (
        put_player(as_carol, ids, ann, {"melds": [], "hand": ["5C"], "version": 0}).status_code
        == 200
    )

    stale = put_player(as_alice, ids, ann, {"melds": [], "hand": ["4H"], "version": seen})
    assert stale.status_code == 409 and codes(stale) == ["draft_changed"]
    assert stale.json()["draft"]["players"][0]["hand"] == ["5C"]


def test_a_draft_polled_before_the_record_is_news_after_the_void(
    as_carol, as_victor, match, seated
):
    """The ETag a phone kept from hand 1's draft before the record does not match the empty
    draft of hand 1 after the void: the phone reads it again and drops the recorded cards."""
    ids = match["id"]
    put_player(as_carol, ids, seated[0], {"melds": [], "hand": ["4H"], "version": 0})
    etag = as_victor.get(draft_url(ids))["ETag"]
    assert record(as_carol, ids, went_out(seated[0], seated)).status_code == 201
    void(as_carol, ids, 1)

    again = as_victor.get(draft_url(ids), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert again.json() == {"number": 1, "ending": None, "players": []}


# --- polling with the ETag --------------------------------------------------------------------


def test_the_etag_answers_304_until_a_part_changes(as_carol, as_victor, match, seated):
    first = as_victor.get(draft_url(match["id"]))
    tag = first["ETag"]
    assert tag.startswith('"') and tag.endswith('"')
    unchanged = as_victor.get(draft_url(match["id"]), HTTP_IF_NONE_MATCH=tag)
    assert unchanged.status_code == 304 and unchanged["ETag"] == tag

    written = put_player(as_carol, match["id"], seated[0], {"hand": ["4H"], "version": 0})
    assert written["ETag"] != tag
    changed = as_victor.get(draft_url(match["id"]), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] == written["ETag"]


def test_a_draft_emptied_by_a_discard_is_news_to_a_phone_that_last_read_it_empty(
    as_carol, as_victor, match, seated
):
    """A phone read the draft before anything was written, then learnt of a part another way
    (a refused write answers the draft); the part is thrown away. The draft reads empty again,
    as when the phone last polled, but its ETag moved: the phone hears of the discard."""
    empty = as_victor.get(draft_url(match["id"]))["ETag"]
    put_player(as_carol, match["id"], seated[0], {"hand": ["4H"], "version": 0})
    assert as_carol.delete(draft_url(match["id"])).status_code == 204
    after = as_victor.get(draft_url(match["id"]), HTTP_IF_NONE_MATCH=empty)
    assert after.status_code == 200
    assert after.json()["players"] == []
    assert after["ETag"] != empty
    again = as_victor.get(draft_url(match["id"]), HTTP_IF_NONE_MATCH=after["ETag"])
    assert again.status_code == 304
    written = put_player(as_carol, match["id"], seated[0], {"hand": ["5H"], "version": 0})
    assert written["ETag"] not in (empty, after["ETag"])
    assert as_carol.get(draft_url(match["id"]))["ETag"] == written["ETag"]


def test_a_malformed_if_none_match_is_a_400(as_carol, match):
    response = as_carol.get(draft_url(match["id"]), HTTP_IF_NONE_MATCH="abc")
    assert response.status_code == 400 and codes(response) == ["invalid_if_none_match"]


# --- who may ----------------------------------------------------------------------------------


def test_a_viewer_reads_the_draft_but_may_not_write_it(as_victor, match, seated):
    assert as_victor.get(draft_url(match["id"])).status_code == 200
    ending = put_ending(as_victor, match["id"], {"ending": "went_out", "version": 0})
    player = put_player(as_victor, match["id"], seated[0], {"version": 0})
    assert ending.status_code == player.status_code == 403
    assert codes(player) == codes(ending) == ["permission_denied"]
    # why, in a sentence: their login is no player's here (the ending: for their role)
    assert player.json()["errors"][0]["detail"].startswith("Your login is no player's at this")
    assert not HandDraftPart.objects.exists()


def test_a_viewer_who_is_a_seated_player_writes_their_own_part(as_victor, victor, match, roster):
    ben = roster[1]
    ben.user = victor
    ben.save()
    body = {"melds": [["5H", "6H", "7H"], ["QD", "QC", "2S=QH"]], "hand": ["9C"], "version": 0}
    answer = put_player(as_victor, match["id"], ben.pk, body)
    assert answer.status_code == 200, answer.json()
    (part,) = answer.json()["players"]
    assert (part["player"], part["by"], part["version"]) == (ben.pk, "victor", 1)
    assert part["melds"] == body["melds"] and part["hand"] == ["9C"]
    again = put_player(as_victor, match["id"], ben.pk, {**body, "hand": [], "version": 1})
    assert again.status_code == 200 and again.json()["players"][0]["version"] == 2


def test_a_linked_viewer_writes_no_other_players_part_nor_the_ending(
    as_victor, victor, match, roster
):
    roster[1].user = victor
    roster[1].save()
    other = put_player(as_victor, match["id"], roster[0].pk, {"hand": ["4H"], "version": 0})
    ending = put_ending(as_victor, match["id"], {"ending": "went_out", "version": 0})
    assert other.status_code == ending.status_code == 403
    assert codes(other) == codes(ending) == ["permission_denied"]
    # the sentence names whose part they may enter, and whose they tried
    ben, ann = roster[1].name, roster[0].name
    assert other.json()["errors"][0]["detail"] == (
        f"You may enter only your own part of the hand ({ben}), not {ann}'s: a scorekeeper "
        "enters the others."
    )
    assert not HandDraftPart.objects.exists()


def test_a_player_of_another_match_is_not_a_part_of_this_one(as_victor, victor, match, roster):
    dev = roster[3]  # on the roster, not seated at this table
    dev.user = victor
    dev.save()
    answer = put_player(as_victor, match["id"], dev.pk, {"hand": ["4H"], "version": 0})
    assert answer.status_code == 404
    assert not HandDraftPart.objects.exists()


def test_a_scorekeeper_writes_any_part_linked_or_not(as_carol, carol, match, roster):
    roster[0].user = carol
    roster[0].save()
    for player in roster[:3]:
        answer = put_player(as_carol, match["id"], player.pk, {"hand": ["4H"], "version": 0})
        assert answer.status_code == 200, answer.json()
    assert HandDraftPart.objects.count() == 3


def test_a_scorekeepers_part_and_the_linked_players_merge_by_version(
    as_carol, as_victor, victor, match, roster
):
    ben = roster[1]
    ben.user = victor
    ben.save()
    put_player(as_carol, match["id"], ben.pk, {"hand": ["4H"], "version": 0})
    stale = put_player(as_victor, match["id"], ben.pk, {"hand": ["9C"], "version": 0})
    assert stale.status_code == 409 and codes(stale) == ["draft_changed"]
    fresh = put_player(as_victor, match["id"], ben.pk, {"hand": ["4H", "9C"], "version": 1})
    assert fresh.status_code == 200 and fresh.json()["players"][0]["by"] == "victor"


def test_a_viewer_unlinked_meanwhile_no_longer_writes(as_victor, victor, match, roster):
    ben = roster[1]
    ben.user = victor
    ben.save()
    assert put_player(as_victor, match["id"], ben.pk, {"version": 0}).status_code == 200
    ben.user = None
    ben.save()
    assert put_player(as_victor, match["id"], ben.pk, {"version": 1}).status_code == 403
    assert HandDraftPart.objects.get().version == 1


def test_an_outsider_finds_no_draft(as_bob, bobs_club, match, seated):
    assert as_bob.get(draft_url(match["id"])).status_code == 404
    assert put_ending(as_bob, match["id"], {"ending": "went_out", "version": 0}).status_code == 404
    assert put_player(as_bob, match["id"], seated[0], {"version": 0}).status_code == 404
    assert not HandDraftPart.objects.exists()


def test_anonymous_callers_are_asked_to_sign_in(api_client_plain, match, seated):
    assert api_client_plain.get(draft_url(match["id"])).status_code == 401
    response = put_player(api_client_plain, match["id"], seated[0], {"version": 0})
    assert response.status_code == 401


# --- two phones at once -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_phones_writing_one_part_at_once_one_wins(carol, alice, club, roster):
    match = start_match(client_for(carol), club, roster[:3])
    ann = roster[0].pk
    barrier = threading.Barrier(2)
    statuses: list[object] = [None, None]

    def write(i: int, user) -> None:
        try:
            barrier.wait(timeout=10)
            body = {"hand": [["4H"], ["9C"]][i], "version": 0}
            statuses[i] = put_player(client_for(user), match["id"], ann, body).status_code
        except Exception as error:  # noqa: BLE001 - reported below
            statuses[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(i, u)) for i, u in enumerate([carol, alice])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [200, 409]  # type: ignore[type-var]
    (part,) = HandDraftPart.objects.all()
    assert part.version == 1


def test_options_describes_the_body_of_a_part(as_carol, match, seated):
    response = as_carol.options(f"{draft_url(match['id'])}players/{seated[0]}/")
    assert response.status_code == 200
    assert {"melds", "hand", "version"} <= set(response.json()["actions"]["PUT"])


# --- throwing a draft away ----------------------------------------------------------------------


def test_throwing_the_draft_away_empties_it_for_every_phone(as_carol, as_victor, match, seated):
    put_ending(as_carol, match["id"], {"ending": "went_out", "went_out": seated[0], "version": 0})
    put_player(as_carol, match["id"], seated[0], {"melds": [], "hand": ["4H"], "version": 0})
    put_player(as_carol, match["id"], seated[1], {"melds": [], "hand": ["5H"], "version": 0})
    tag = as_victor.get(draft_url(match["id"]))["ETag"]

    response = as_carol.delete(draft_url(match["id"]))
    assert response.status_code == 204
    read = as_victor.get(draft_url(match["id"]), HTTP_IF_NONE_MATCH=tag)
    assert read.status_code == 200  # the phones polling see the change
    assert read.json() == {"number": 1, "ending": None, "players": []}


def test_after_a_discard_a_part_starts_again_from_version_0(as_carol, match, seated):
    ann = seated[0]
    put_player(as_carol, match["id"], ann, {"melds": [], "hand": ["4H"], "version": 0})
    assert as_carol.delete(draft_url(match["id"])).status_code == 204
    written = put_player(as_carol, match["id"], ann, {"melds": [], "hand": ["5H"], "version": 0})
    assert written.status_code == 200, written.json()
    (part,) = written.json()["players"]
    assert part["hand"] == ["5H"]


def test_a_phone_writing_from_before_the_discard_never_brings_the_old_part_back(
    as_alice, as_carol, match, seated
):
    """The phone saw version 1 before the discard; another phone has since written the part
    anew: the old phone's write is refused, not laid over the new part."""
    ann = seated[0]
    old = put_player(as_alice, match["id"], ann, {"melds": [], "hand": ["4H"], "version": 0})
    seen = old.json()["players"][0]["version"]
    assert as_carol.delete(draft_url(match["id"])).status_code == 204
    put_player(as_carol, match["id"], ann, {"melds": [], "hand": ["9C"], "version": 0})
    stale = put_player(as_alice, match["id"], ann, {"melds": [], "hand": ["4H"], "version": seen})
    assert stale.status_code == 409
    assert codes(stale) == ["draft_changed"]
    assert stale.json()["draft"]["players"][0]["hand"] == ["9C"]


def test_only_scorekeepers_and_owners_throw_a_draft_away(as_victor, match, seated):
    response = as_victor.delete(draft_url(match["id"]))
    assert response.status_code == 403


def test_an_outsider_cannot_throw_a_draft_away(as_bob, match):
    assert as_bob.delete(draft_url(match["id"])).status_code == 404


def test_only_the_next_hand_s_draft_can_be_thrown_away(as_carol, match):
    response = as_carol.delete(draft_url(match["id"], 2))
    assert response.status_code == 409
    assert codes(response) == ["hand_number_not_next"]


def test_a_live_start_is_refused_while_phones_hold_a_draft_and_allowed_after_a_discard(
    as_carol, match, seated
):
    put_player(as_carol, match["id"], seated[0], {"melds": [], "hand": ["4H"], "version": 0})
    live = f"/api/v1/matches/{match['id']}/live/"
    refused = as_carol.post(live, {"turned_up": "7H"}, format="json")
    assert refused.status_code == 409
    assert codes(refused) == ["hand_draft_in_progress"]
    assert as_carol.delete(draft_url(match["id"])).status_code == 204
    assert as_carol.post(live, {"turned_up": "7H"}, format="json").status_code == 201
