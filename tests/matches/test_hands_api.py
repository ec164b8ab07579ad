"""Recording, reading, correcting and voiding hands: POST/GET/PUT/DELETE matches/{id}/hands/."""

from __future__ import annotations

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Hand, HandRevision, Match, Player, Seat
from tests.factories import (
    LOSER_NET,
    WINNER_NET,
    full_packs,
    record,
    start_match,
    went_out,
    whole_pack_out,
)


@pytest.fixture
def trio(as_carol, club, roster):
    return start_match(as_carol, club, roster[:3])


def test_a_recorded_hand_is_itemised_with_running_totals(as_carol, trio, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    response = record(as_carol, trio["id"], went_out(ben, [ann, ben, cleo]))
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 1
    assert body["dealer"] == ann
    by_player = {r["player"]: r for r in body["results"]}
    assert by_player[ben]["net"] == WINNER_NET
    assert by_player[ben]["bonus"] == 100
    assert by_player[ben]["melds"][0] == {
        "cards": ["AS", "AH", "AD", "AC"],
        "kind": "set",
        "points": 80,
    }
    assert by_player[ann]["net"] == LOSER_NET
    assert by_player[ann]["held"][0] == {"card": "3C", "points": 5}
    assert by_player[ann]["total"] == LOSER_NET
    assert body["match"]["status"] == "in_progress"
    assert body["match"]["next_hand"] == 2
    assert body["match"]["next_dealer"] == ben


def test_the_deal_passes_clockwise_from_the_first_dealer(as_carol, club, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    match = start_match(as_carol, club, roster[:3], first_dealer=cleo)
    dealers = [
        record(as_carol, match["id"], went_out(ann, [ann, ben, cleo])).json()["dealer"]
        for _ in range(2)
    ]
    assert dealers == [cleo, ann]


def test_a_hand_that_breaks_the_rules_is_refused_and_writes_nothing(as_carol, trio, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    body = went_out(ben, [ann, ben, cleo])
    body["results"][0]["melds"][0] = ["5D", "6D", "8D"]
    body["results"][2]["hand"] = []
    response = record(as_carol, trio["id"], body)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert response.json()["type"] == "validation_error"
    assert {(e["code"], e["attr"]) for e in errors} == {
        ("run_not_consecutive", "results.0.melds.0"),
        ("player_without_cards", "results.2.hand"),
        ("too_few_cards", "results.2"),
    }
    assert Hand.objects.count() == 0
    assert HandRevision.objects.count() == 0
    assert set(Seat.objects.values_list("total", flat=True)) == {0}


def test_unseated_or_missing_players_are_refused(as_carol, trio, roster):
    ann, ben, cleo, dev = (p.pk for p in roster[:4])
    body = went_out(ben, [ann, ben, dev])
    response = record(as_carol, trio["id"], body)
    assert response.status_code == 400
    assert {e["code"] for e in response.json()["errors"]} == {"players_mismatch"}


@pytest.mark.parametrize(
    ("language", "named", "stranger"),
    [
        ("en", "{name} is named as going out", "Player {id} is named as going out"),
        ("pt", "{name} é indicado como tendo batido", "Jogador {id} é indicado"),
        ("fr", "{name} est indiqué comme sortant", "Joueur {id} est indiqué"),
    ],
)
def test_a_player_going_out_who_is_not_seated_is_named_in_the_readers_language(
    as_carol, trio, roster, bobs_club, language, named, stranger
):
    """A player of the roster who is not at this table by their name; an id the club has no
    player for as "Player 17", translated (another club's player is not named)."""
    ann, ben, cleo, dev = roster[:4]
    seated = [ann.pk, ben.pk, cleo.pk]
    quentin = Player.objects.create(club=bobs_club, name="Quentin Stranger")
    for player, sentence in ((dev, named.format(name=dev.name)), (quentin, stranger)):
        body = {**went_out(ben.pk, seated), "went_out": player.pk}
        answer = record(as_carol, trio["id"], body, HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 400, answer.content
        (error,) = [e for e in answer.json()["errors"] if e["attr"] == "went_out"]
        assert error["code"] == "went_out_unknown_player"
        assert error["detail"].startswith(sentence.format(id=player.pk)), error["detail"]
        assert "Quentin" not in error["detail"]


def test_unreadable_notation_is_a_400_naming_the_card(as_carol, trio, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    body = went_out(ben, [ann, ben, cleo])
    body["results"][1]["melds"][2][1] = "KX"
    response = record(as_carol, trio["id"], body)
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "code": "invalid_card",
            "attr": "results.1.melds.2.1",
            "detail": response.json()["errors"][0]["detail"],
        }
    ]
    assert "KX" in response.json()["errors"][0]["detail"]


def test_outright_win_and_no_hand_after_the_finish(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2])
    for _ in range(2):
        body = record(as_carol, match["id"], went_out(ann, [ann, ben])).json()
        assert body["match"]["status"] == "in_progress"
    last = record(as_carol, match["id"], went_out(ann, [ann, ben])).json()
    assert {r["player"]: r["total"] for r in last["results"]} == {
        ann: 3 * WINNER_NET,
        ben: 3 * LOSER_NET,
    }
    assert last["match"]["status"] == "finished"
    assert last["match"]["winners"] == [ann]
    assert last["match"]["shared_victory"] is False
    assert last["match"]["next_hand"] is None
    after = record(as_carol, match["id"], went_out(ann, [ann, ben]))
    assert after.status_code == 409
    assert after.json()["errors"][0]["code"] == "match_finished"
    assert Hand.objects.filter(match_id=match["id"]).count() == 3


def test_a_tie_on_the_highest_total_shares_the_victory(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2])
    record(as_carol, match["id"], full_packs(ann, ben))
    body = record(as_carol, match["id"], full_packs(ben, ann)).json()
    assert [s["total"] for s in body["match"]["seats"]] == [1060, 1060]
    assert body["match"]["status"] == "finished"
    assert sorted(body["match"]["winners"]) == sorted([ann, ben])
    assert body["match"]["shared_victory"] is True


def test_a_player_past_1000_loses_to_a_higher_total(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2])
    record(as_carol, match["id"], full_packs(ann, ben, second_holds="KC"))
    body = record(as_carol, match["id"], full_packs(ann, ben, second_holds="KC")).json()
    totals = {s["player"]: s["total"] for s in body["match"]["seats"]}
    assert totals == {ann: 1060, ben: 1040}
    assert body["match"]["winners"] == [ann]
    assert body["match"]["shared_victory"] is False


def test_a_correction_recomputes_later_totals_and_keeps_every_version(as_carol, trio, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    players = [ann, ben, cleo]
    record(as_carol, trio["id"], went_out(ann, players))
    record(as_carol, trio["id"], went_out(ben, players))
    corrected = went_out(cleo, players)
    etag = as_carol.get(f"/api/v1/matches/{trio['id']}/hands/1/")["ETag"]
    response = as_carol.put(
        f"/api/v1/matches/{trio['id']}/hands/1/",
        {**corrected, "reason": "Cleo went out, not Ann"},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    assert response.status_code == 200, response.json()
    assert response.json()["went_out"] == cleo
    assert response.json()["version"] == 2
    hand2 = as_carol.get(f"/api/v1/matches/{trio['id']}/hands/2/").json()
    totals = {r["player"]: r["total"] for r in hand2["results"]}
    assert totals == {ann: 2 * LOSER_NET, ben: LOSER_NET + WINNER_NET, cleo: WINNER_NET + LOSER_NET}
    seats = {s["player"]: s["total"] for s in hand2["match"]["seats"]}
    assert seats == totals
    revisions = as_carol.get(f"/api/v1/matches/{trio['id']}/hands/1/revisions/").json()
    assert [(r["revision"], r["action"]) for r in revisions["results"]] == [
        (1, "recorded"),
        (2, "corrected"),
    ]
    assert revisions["results"][0]["hand"]["went_out"] == ann
    assert revisions["results"][1]["reason"] == "Cleo went out, not Ann"


def test_a_correction_that_changes_nothing_makes_no_version(as_carol, trio, roster):
    """Saved again as it stands (a corrector who changed their mind): no new version, no event,
    the hand's ETag unchanged; the answer is the hand as it stands, its impact without change."""
    from matches.models import Event

    players = [p.pk for p in roster[:3]]
    record(as_carol, trio["id"], went_out(players[0], players))
    url = f"/api/v1/matches/{trio['id']}/hands/1/"
    etag = as_carol.get(url)["ETag"]
    events = Event.objects.count()
    response = as_carol.put(
        url,
        {**went_out(players[0], players), "reason": "checked"},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    assert response.status_code == 200, response.json()
    assert response.json()["version"] == 1
    impact = response.json()["impact"]
    assert all(line["before"] == line["after"] for line in impact["totals"])
    assert (impact["finish_changed"], impact["winners_changed"]) == (False, False)
    assert HandRevision.objects.filter(match_id=trio["id"]).count() == 1
    assert Event.objects.count() == events
    assert as_carol.get(url)["ETag"] == etag
    assert response["ETag"] == etag  # the hand's tag, as a read of it gives


def test_a_corrections_etag_is_the_one_a_read_of_the_hand_gives(as_carol, trio, roster):
    """Polling the hand with the tag the correction answered gets 304 while it stays so: the
    answer's impact is the correction's alone, not part of the hand's tag."""
    players = [p.pk for p in roster[:3]]
    record(as_carol, trio["id"], went_out(players[0], players))
    url = f"/api/v1/matches/{trio['id']}/hands/1/"
    corrected = as_carol.put(
        url,
        {**went_out(players[1], players), "reason": "Ben went out"},
        format="json",
        HTTP_IF_MATCH=as_carol.get(url)["ETag"],
    )
    assert corrected.status_code == 200 and corrected.json()["version"] == 2
    assert corrected["ETag"] == as_carol.get(url)["ETag"]
    assert as_carol.get(url, HTTP_IF_NONE_MATCH=corrected["ETag"]).status_code == 304


def test_a_correction_that_would_end_the_match_early_is_refused(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2])
    for winner in (ann, ann, ben, ben):
        record(as_carol, match["id"], went_out(winner, [ann, ben]))
    # Hand 3 corrected to Ann melding a whole pack: 680 + 640 = 1,320 after hand 3 of 4.
    response = as_carol.put(
        f"/api/v1/matches/{match['id']}/hands/3/",
        whole_pack_out(ann, ben),
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "correction_ends_match_early"
    assert Hand.objects.get(match_id=match["id"], number=3).version == 1
    assert Hand.objects.get(match_id=match["id"], number=3).went_out_id == ben


def test_a_correction_can_finish_or_unfinish_at_the_last_hand(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2])
    record(as_carol, match["id"], full_packs(ann, ben))
    finished = record(as_carol, match["id"], full_packs(ann, ben)).json()
    assert finished["match"]["status"] == "finished"
    response = as_carol.put(
        f"/api/v1/matches/{match['id']}/hands/2/",
        went_out(ann, [ann, ben]),
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.json()["match"]["status"] == "in_progress"
    assert response.json()["match"]["winners"] == []
    assert Match.objects.get(pk=match["id"]).finished_at is None


def test_only_the_last_hand_can_be_voided_and_its_revisions_stay(as_carol, trio, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    players = [ann, ben, cleo]
    record(as_carol, trio["id"], went_out(ann, players))
    record(as_carol, trio["id"], went_out(ben, players))
    refused = as_carol.delete(f"/api/v1/matches/{trio['id']}/hands/1/")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["code"] == "not_last_hand"
    voided = as_carol.delete(f"/api/v1/matches/{trio['id']}/hands/2/?reason=typo")
    assert voided.status_code == 204
    match = as_carol.get(f"/api/v1/matches/{trio['id']}/").json()
    assert {s["player"]: s["total"] for s in match["seats"]} == {
        ann: WINNER_NET,
        ben: LOSER_NET,
        cleo: LOSER_NET,
    }
    assert match["next_hand"] == 2
    assert as_carol.get(f"/api/v1/matches/{trio['id']}/hands/2/").status_code == 404
    revisions = as_carol.get(f"/api/v1/matches/{trio['id']}/hands/2/revisions/").json()
    assert [r["action"] for r in revisions["results"]] == ["recorded", "voided"]
    again = record(as_carol, trio["id"], went_out(cleo, players))
    assert again.json()["number"] == 2


def test_idempotent_retry_returns_the_first_answer_and_records_nothing(as_carol, trio, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    body = went_out(ann, [ann, ben, cleo])
    first = record(as_carol, trio["id"], body, HTTP_IDEMPOTENCY_KEY="k-1")
    retry = record(as_carol, trio["id"], copy.deepcopy(body), HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(match_id=trio["id"]).count() == 1
    other = went_out(ben, [ann, ben, cleo])
    reused = record(as_carol, trio["id"], other, HTTP_IDEMPOTENCY_KEY="k-1")
    assert reused.status_code == 422
    assert reused.json()["errors"][0]["code"] == "idempotency_key_reused"
    assert Hand.objects.filter(match_id=trio["id"]).count() == 1


def test_queries_to_record_a_hand_do_not_grow_with_the_match(as_carol, club, roster):
    players = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])

    def queries_to_record(winner: int) -> int:
        with CaptureQueriesContext(connection) as captured:
            response = record(as_carol, match["id"], went_out(winner, players))
        assert response.status_code == 201
        return len(captured.captured_queries)

    second = queries_to_record(players[0]) and queries_to_record(players[1])
    for _ in range(2):
        queries_to_record(players[2])
    assert second >= 5  # the capture saw the hand's queries
    assert queries_to_record(players[0]) == second


def hand_url(match_id: int, number: int) -> str:
    return f"/api/v1/matches/{match_id}/hands/{number}/"


def test_hands_carry_an_etag_that_moves_with_every_version(as_carol, trio, roster):
    players = [p.pk for p in roster[:3]]
    created = record(as_carol, trio["id"], went_out(players[0], players))
    assert created["ETag"].startswith('"1.')
    read = as_carol.get(hand_url(trio["id"], 1))["ETag"]
    assert read.startswith('"1.')
    corrected = as_carol.put(
        hand_url(trio["id"], 1), went_out(players[1], players), format="json", HTTP_IF_MATCH=read
    )
    assert corrected.status_code == 200, corrected.json()
    assert corrected["ETag"].startswith('"2.')
    assert as_carol.delete(hand_url(trio["id"], 1), HTTP_IF_MATCH='"2"').status_code == 204
    again = record(as_carol, trio["id"], went_out(players[2], players))
    assert again["ETag"].startswith('"4.')  # recorded, corrected, voided: a re-recorded hand


def test_a_hand_read_again_with_its_etag_is_not_modified_until_it_changes(
    as_carol, as_alice, trio, roster
):
    players = [p.pk for p in roster[:3]]
    record(as_carol, trio["id"], went_out(players[0], players))
    first = as_carol.get(hand_url(trio["id"], 1))
    again = as_carol.get(hand_url(trio["id"], 1), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    # a confirmation changes the answer, not the version: the tag moves, If-Match still holds
    confirmed = as_alice.post(f"{hand_url(trio['id'], 1)}confirmations/")
    assert confirmed.status_code == 201, confirmed.json()
    changed = as_carol.get(hand_url(trio["id"], 1), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed.json()["confirmations"]
    stale_but_same_version = as_carol.put(
        hand_url(trio["id"], 1),
        went_out(players[1], players),
        format="json",
        HTTP_IF_MATCH=first["ETag"],
    )
    assert stale_but_same_version.status_code == 200


def test_a_correction_without_if_match_is_refused_with_428(as_carol, trio, roster):
    players = [p.pk for p in roster[:3]]
    record(as_carol, trio["id"], went_out(players[0], players))
    response = as_carol.put(hand_url(trio["id"], 1), went_out(players[1], players), format="json")
    assert response.status_code == 428
    assert response.json()["errors"][0]["code"] == "precondition_required"
    assert Hand.objects.get(match_id=trio["id"], number=1).went_out_id == players[0]


def test_a_correction_with_a_stale_etag_is_refused_with_412(as_carol, trio, roster):
    players = [p.pk for p in roster[:3]]
    record(as_carol, trio["id"], went_out(players[0], players))
    first = as_carol.put(
        hand_url(trio["id"], 1), went_out(players[1], players), format="json", HTTP_IF_MATCH='"1"'
    )
    assert first.status_code == 200
    second = as_carol.put(
        hand_url(trio["id"], 1), went_out(players[2], players), format="json", HTTP_IF_MATCH='"1"'
    )
    assert second.status_code == 412
    assert second.json()["errors"][0]["code"] == "precondition_failed"
    assert Hand.objects.get(match_id=trio["id"], number=1).went_out_id == players[1]
    stale_void = as_carol.delete(hand_url(trio["id"], 1), HTTP_IF_MATCH='"1"')
    assert stale_void.status_code == 412
    sentence = stale_void.json()["errors"][0]["detail"]  # fits a void as well as a correction
    assert sentence == (
        "Hand 1 is at version 2, not the version your If-Match names: it has changed since you "
        "read it. Read it again before you change it."
    )


def test_a_correction_answers_with_its_impact(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2])
    record(as_carol, match["id"], full_packs(ann, ben))
    record(as_carol, match["id"], full_packs(ann, ben, second_holds="KC"))
    # Ann won 1060 to 1050; corrected, Ben holds the 3 of clubs too: a tie at 1060.
    response = as_carol.put(
        hand_url(match["id"], 2), full_packs(ann, ben), format="json", HTTP_IF_MATCH='"1"'
    )
    impact = response.json()["impact"]
    assert impact["totals"] == [
        {"player": ann, "before": 1060, "after": 1060},
        {"player": ben, "before": 1050, "after": 1060},
    ]
    assert (impact["status_before"], impact["status_after"]) == ("finished", "finished")
    assert impact["finish_changed"] is False
    assert impact["winners_before"] == [ann]
    assert sorted(impact["winners_after"]) == sorted([ann, ben])
    assert impact["winners_changed"] is True


def test_an_idempotency_record_expires(as_carol, trio, roster, settings):
    players = [p.pk for p in roster[:3]]
    settings.IDEMPOTENCY_KEY_TTL_SECONDS = 0
    record(as_carol, trio["id"], went_out(players[0], players), HTTP_IDEMPOTENCY_KEY="old")
    again = record(as_carol, trio["id"], went_out(players[0], players), HTTP_IDEMPOTENCY_KEY="old")
    assert again.status_code == 201
    assert again.json()["number"] == 2


def test_an_unusable_idempotency_key_is_a_400(as_carol, trio, roster):
    players = [p.pk for p in roster[:3]]
    for key in ["k" * 256, "clé-à-accents"]:
        response = record(
            as_carol, trio["id"], went_out(players[0], players), HTTP_IDEMPOTENCY_KEY=key
        )
        assert response.status_code == 400
        assert response.json()["errors"][0]["code"] == "invalid_idempotency_key"
    assert Hand.objects.filter(match_id=trio["id"]).count() == 0


def test_a_replayed_answer_carries_the_hands_etag(as_carol, trio, roster):
    players = [p.pk for p in roster[:3]]
    body = went_out(players[0], players)
    record(as_carol, trio["id"], body, HTTP_IDEMPOTENCY_KEY="again")
    replay = record(as_carol, trio["id"], body, HTTP_IDEMPOTENCY_KEY="again")
    assert replay["ETag"].startswith('"1.')


@pytest.mark.parametrize(
    ("if_match", "status"),
    [
        ('"\u00b2"', 412),
        ('W/"1"', 412),
        ('"01"', 412),
        ('"7", "1"', 200),
        ('"1",,', 200),
        ("*", 200),
        ('"1"', 200),
    ],
)
def test_if_match_compares_strong_etags(as_carol, trio, roster, if_match, status):
    players = [p.pk for p in roster[:3]]
    record(as_carol, trio["id"], went_out(players[0], players))
    response = as_carol.put(
        hand_url(trio["id"], 1),
        went_out(players[1], players),
        format="json",
        HTTP_IF_MATCH=if_match,
    )
    assert response.status_code == status


@pytest.mark.parametrize("if_match", ["1", "", "'1'", '"1', '"1"x', '"1" "2"', '"1 "'])
def test_a_malformed_if_match_is_a_400_that_says_how_to_write_it(as_carol, trio, roster, if_match):
    players = [p.pk for p in roster[:3]]
    record(as_carol, trio["id"], went_out(players[0], players))
    for response in [
        as_carol.put(
            hand_url(trio["id"], 1),
            went_out(players[1], players),
            format="json",
            HTTP_IF_MATCH=if_match,
        ),
        as_carol.delete(hand_url(trio["id"], 1), HTTP_IF_MATCH=if_match),
    ]:
        assert response.status_code == 400
        error = response.json()["errors"][0]
        assert (error["code"], error["attr"]) == ("invalid_if_match", "If-Match")
    assert Hand.objects.get(match_id=trio["id"], number=1).version == 1


def test_a_void_reason_is_validated(as_carol, trio, roster):
    players = [p.pk for p in roster[:3]]
    record(as_carol, trio["id"], went_out(players[0], players))
    response = as_carol.delete(hand_url(trio["id"], 1) + "?reason=%00")
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "reason"
    assert Hand.objects.filter(match_id=trio["id"]).count() == 1
