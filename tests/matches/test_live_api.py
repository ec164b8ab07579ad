"""A hand played live: POST/GET/DELETE matches/{id}/live/, its events, undo, and the finish."""

from __future__ import annotations

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from matches.models import LiveEvent, LiveHand
from tests.api import openapi
from tests.factories import BEN_13, CLEO_13, ann_goes_out, client_for, start_match


def live_url(match: dict, rest: str = "") -> str:
    return f"/api/v1/matches/{match['id']}/live/{rest}"


class Table:
    """One device at the table: it remembers the last ETag it read, as a client should."""

    def __init__(self, client: APIClient, match: dict) -> None:
        self.client, self.match, self.etag = client, match, None

    def start(self, turned_up: str = "7H"):
        response = self.client.post(live_url(self.match), {"turned_up": turned_up}, format="json")
        self.etag = response.headers.get("ETag")
        return response

    def read(self):
        response = self.client.get(live_url(self.match))
        self.etag = response.headers.get("ETag", self.etag)
        return response

    def send(self, event: dict, **headers):
        if self.etag is not None:
            headers.setdefault("HTTP_IF_MATCH", self.etag)
        response = self.client.post(
            live_url(self.match, "events/"), event, format="json", **headers
        )
        if response.status_code == 200:
            self.etag = response.headers["ETag"]
        return response

    def play(self, *events: dict):
        for event in events:
            response = self.send(event)
            assert response.status_code == 200, (event, response.json())
        return response


@pytest.fixture
def trio(as_carol, club, roster):
    return start_match(as_carol, club, roster[:3])


@pytest.fixture
def players(roster):
    return [p.pk for p in roster[:3]]


@pytest.fixture
def table(as_carol, trio) -> Table:
    table = Table(as_carol, trio)
    assert table.start().status_code == 201
    return table


def test_starting_deals_the_next_hand_left_of_the_dealer(as_carol, trio, players):
    ann, ben, cleo = players
    response = Table(as_carol, trio).start("7h")
    assert response.status_code == 201
    state = response.json()
    assert (state["hand"], state["dealer"], state["turn"], state["phase"]) == (1, ann, ben, "draw")
    assert state["stock"] == 104 - 3 * 13 - 1 and state["discards"] == ["7H"]
    assert state["hand_sizes"] == {str(p): 13 for p in players}
    assert response.headers["ETag"]


def test_a_live_hand_played_to_the_end_is_recorded_with_its_totals(as_carol, table, trio, players):
    ann, ben, cleo = players
    state = table.play(*ann_goes_out(ann, ben, cleo)).json()
    assert (state["phase"], state["ending"], state["went_out"]) == ("ended", "went_out", ann)
    response = table.send({"type": "finish", "held": {str(ben): BEN_13, str(cleo): CLEO_13}})
    assert response.status_code == 201, response.json()
    hand = response.json()
    nets = {r["player"]: r["net"] for r in hand["results"]}
    assert nets == {ann: 30 + 15 + 15 + 15 + 15 + 100, ben: -125, cleo: -140}
    assert hand["number"] == 1 and hand["dealer"] == ann and hand["went_out"] == ann
    match = as_carol.get(f"/api/v1/matches/{trio['id']}/").json()
    assert {s["player"]: s["total"] for s in match["seats"]} == nets
    assert match["next_hand"] == 2
    assert as_carol.get(live_url(trio)).status_code == 404
    log = as_carol.get(f"/api/v1/matches/{trio['id']}/hands/1/live/")
    assert log.status_code == 200
    events = log.json()["events"]
    assert [e["sequence"] for e in events] == list(range(1, 12))
    assert events[-1]["data"]["type"] == "finish" and events[0]["data"]["type"] == "draw"
    assert log.json()["turned_up"] == "7H"


def test_the_finish_answers_the_hands_url_and_etag_replayed_too(as_carol, table, trio, players):
    """The finish's 201 is the recorded hand: Location and ETag as POST hands/ gives them, and
    the same again when the same finish is replayed by its Idempotency-Key."""
    ann, ben, cleo = players
    table.play(*ann_goes_out(ann, ben, cleo))
    finish = {"type": "finish", "held": {str(ben): BEN_13, str(cleo): CLEO_13}}
    first = table.send(finish, HTTP_IDEMPOTENCY_KEY="finish-1")
    assert first.status_code == 201, first.json()
    hand_url = f"http://testserver/api/v1/matches/{trio['id']}/hands/1/"
    assert first.headers["Location"] == hand_url
    read = as_carol.get(hand_url)
    assert first.headers["ETag"] == read.headers["ETag"]
    assert as_carol.get(hand_url, HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 304
    again = table.send(finish, HTTP_IDEMPOTENCY_KEY="finish-1")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == hand_url
    assert again.headers["ETag"] == first.headers["ETag"]


def test_a_refused_finish_names_each_players_part_by_id_as_the_body_did(as_carol, table, players):
    ann, ben, cleo = players
    table.play(*ann_goes_out(ann, ben, cleo))
    response = table.send({"type": "finish", "held": {str(ben): BEN_13[:12]}})
    assert response.status_code == 409, response.json()
    errors = {(e["code"], e["attr"]) for e in response.json()["errors"]}
    assert errors == {
        ("held_count_mismatch", f"held.{ben}"),
        ("held_count_mismatch", f"held.{cleo}"),
    }


def test_the_finish_records_the_hand_as_a_hand_entered_whole_would(
    as_carol, table, trio, players, club, roster
):
    ann, ben, cleo = players
    table.play(*ann_goes_out(ann, ben, cleo))
    live = table.send({"type": "finish", "held": {str(ben): BEN_13, str(cleo): CLEO_13}}).json()
    other = start_match(as_carol, club, roster[:3])
    whole = as_carol.post(
        f"/api/v1/matches/{other['id']}/hands/",
        {
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
        },
        format="json",
    ).json()
    assert live["results"] == whole["results"]


def test_a_refused_event_is_a_conflict_with_its_codes_and_changes_nothing(
    as_carol, table, trio, players
):
    ann, ben, cleo = players
    before = table.read()
    response = table.send({"type": "discard", "player": ben, "card": "9C"})
    assert response.status_code == 409
    assert [e["code"] for e in response.json()["errors"]] == ["draw_first"]
    response = table.send({"type": "draw", "player": cleo})
    assert [e["code"] for e in response.json()["errors"]] == ["not_your_turn"]
    after = table.read()
    assert after.json() == before.json() and after.headers["ETag"] == before.headers["ETag"]
    table.play({"type": "draw", "player": ben})
    response = table.send({"type": "discard", "player": ben, "card": "QS"})
    assert response.status_code == 409
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [
        ("queen_of_spades_discard", "card")
    ]
    assert LiveEvent.objects.count() == 1


@pytest.mark.parametrize(
    ("event", "code", "attr"),
    [
        ({"type": "shuffle", "player": 1}, "invalid_choice", "type"),
        ({"type": "discard", "card": "9C"}, "required", "player"),
        ({"type": "discard", "player": 1, "card": "ZZ"}, "invalid_card", "card"),
        ({"type": "meld", "player": 1, "cards": "JS QS KS"}, "not_a_list", "cards"),
        ({"type": "finish", "held": {"ben": ["2D"]}}, "invalid", "held"),
    ],
)
def test_an_unreadable_event_is_a_bad_request(table, event, code, attr):
    response = table.send(event)
    assert response.status_code == 400
    assert (response.json()["errors"][0]["code"], response.json()["errors"][0]["attr"]) == (
        code,
        attr,
    )


def test_an_event_for_someone_not_seated_is_a_bad_request(table, roster):
    response = table.send({"type": "draw", "player": roster[4].pk})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "player_not_seated"
    # named as the club's roster names them, not by an id the scorekeeper never sees
    assert (
        response.json()["errors"][0]["detail"] == f"{roster[4].name} is not seated at this match."
    )


def test_appending_needs_the_current_etag(table, players):
    ben = players[1]
    stale = table.etag
    response = table.client.post(
        live_url(table.match, "events/"), {"type": "draw", "player": ben}, format="json"
    )
    assert response.status_code == 428
    assert response.json()["errors"][0]["code"] == "precondition_required"
    table.play({"type": "draw", "player": ben})
    response = table.send({"type": "discard", "player": ben, "card": "9C"}, HTTP_IF_MATCH=stale)
    assert response.status_code == 412
    assert response.json()["errors"][0]["code"] == "precondition_failed"
    response = table.send({"type": "discard", "player": ben, "card": "9C"}, HTTP_IF_MATCH="4")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_if_match"


def test_a_device_that_read_the_state_gets_304_until_it_changes(as_victor, table, trio, players):
    first = as_victor.get(live_url(trio))
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert as_victor.get(live_url(trio), HTTP_IF_NONE_MATCH=tag).status_code == 304
    malformed = as_victor.get(live_url(trio), HTTP_IF_NONE_MATCH="1.1")
    assert malformed.status_code == 400
    assert malformed.json()["errors"][0]["code"] == "invalid_if_none_match"
    table.play({"type": "draw", "player": players[1]})
    changed = as_victor.get(live_url(trio), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.json()["version"] == 2


def test_a_retried_append_gets_the_first_answer_and_adds_one_event(table, players):
    ben = players[1]
    event = {"type": "draw", "player": ben}
    first = table.send(event, HTTP_IDEMPOTENCY_KEY="tap-1")
    again = table.send(event, HTTP_IDEMPOTENCY_KEY="tap-1", HTTP_IF_MATCH='"0.0"')
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again.headers["Idempotent-Replayed"] == "true"
    assert LiveEvent.objects.count() == 1
    other = table.send(
        {"type": "discard", "player": ben, "card": "9C"}, HTTP_IDEMPOTENCY_KEY="tap-1"
    )
    assert other.status_code == 422
    assert other.json()["errors"][0]["code"] == "idempotency_key_reused"


def test_an_idempotency_key_is_each_users_own(as_alice, table, trio, players):
    """Two phones numbering their events alike ("t1-e1"): the second's event is its own, not
    the first's answer replayed nor refused as a key used with another body."""
    ben = players[1]
    drawn = table.send({"type": "draw", "player": ben}, HTTP_IDEMPOTENCY_KEY="t1-e1")
    assert drawn.status_code == 200
    other_phone = Table(as_alice, trio)
    other_phone.read()
    discarded = other_phone.send(
        {"type": "discard", "player": ben, "card": "9C"}, HTTP_IDEMPOTENCY_KEY="t1-e1"
    )
    assert discarded.status_code == 200, discarded.json()
    assert "Idempotent-Replayed" not in discarded.headers
    assert discarded.json()["version"] == drawn.json()["version"] + 1
    assert LiveEvent.objects.count() == 2
    replayed = other_phone.send(
        {"type": "discard", "player": ben, "card": "9C"}, HTTP_IDEMPOTENCY_KEY="t1-e1"
    )
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert LiveEvent.objects.count() == 2


def test_undo_takes_back_the_last_event_and_keeps_it_in_the_log(table, trio, players):
    ben = players[1]
    dealt = table.read().json()
    table.play({"type": "draw", "player": ben})
    response = table.client.delete(live_url(trio, "events/last/"), HTTP_IF_MATCH=table.etag)
    assert response.status_code == 200
    undone = response.json()
    assert undone["version"] == 3 and undone["phase"] == "draw" and undone["events"] == 0
    assert {k: v for k, v in undone.items() if k != "version"} == {
        k: v for k, v in dealt.items() if k != "version"
    }
    assert LiveEvent.objects.get().undone
    table.etag = response.headers["ETag"]
    again = table.client.delete(live_url(trio, "events/last/"), HTTP_IF_MATCH=table.etag)
    assert again.status_code == 409
    assert again.json()["errors"][0]["code"] == "nothing_to_undo"
    table.play({"type": "draw", "player": ben})
    assert LiveEvent.objects.order_by("sequence").last().sequence == 2


def test_one_live_hand_at_a_time_and_abandoning_frees_the_match(as_carol, table, trio):
    response = Table(as_carol, trio).start()
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "live_hand_in_progress"
    assert as_carol.delete(live_url(trio)).status_code == 204
    assert as_carol.get(live_url(trio)).status_code == 404
    assert Table(as_carol, trio).start("KD").json()["discards"] == ["KD"]
    assert LiveHand.objects.filter(match_id=trio["id"]).count() == 2


def test_viewers_read_scorekeepers_and_owners_act_outsiders_see_nothing(
    as_alice, as_victor, as_bob, table, trio, players
):
    ben = players[1]
    assert as_victor.get(live_url(trio)).status_code == 200
    viewer = Table(as_victor, trio)
    viewer.etag = table.etag
    assert viewer.send({"type": "draw", "player": ben}).status_code == 403
    assert as_victor.delete(live_url(trio)).status_code == 403
    assert as_bob.get(live_url(trio)).status_code == 404
    assert (
        as_bob.post(
            live_url(trio, "events/"), {"type": "draw", "player": ben}, format="json"
        ).status_code
        == 404
    )
    owner = Table(as_alice, trio)
    owner.etag = table.etag
    assert owner.send({"type": "draw", "player": ben}).status_code == 200


def test_a_finished_match_cannot_start_a_live_hand(as_carol, club, roster):
    from tests.factories import record, whole_pack_out

    match = start_match(as_carol, club, roster[:2])
    ann, ben = roster[0].pk, roster[1].pk
    for _ in range(2):
        assert record(as_carol, match["id"], whole_pack_out(ann, ben)).status_code == 201
    response = Table(as_carol, match).start()
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "match_finished"


@pytest.mark.django_db(transaction=True)
def test_two_devices_appending_at_once_one_wins_one_is_told(carol, club, roster):
    match = start_match(client_for(carol), club, roster[:3])
    first = Table(client_for(carol), match)
    first.start()
    ben = roster[1].pk
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def device() -> None:
        table = Table(client_for(carol), match)
        table.etag = first.etag
        try:
            barrier.wait(timeout=10)
            codes.append(table.send({"type": "draw", "player": ben}).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=device) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(codes) == [200, 412]
    assert LiveEvent.objects.filter(live__match_id=match["id"]).count() == 1


def test_a_hand_voided_meanwhile_overtakes_the_live_hand(as_carol, trio, players):
    from tests.factories import record, went_out

    assert record(as_carol, trio["id"], went_out(players[0], players)).status_code == 201
    table = Table(as_carol, trio)
    assert table.start().json()["hand"] == 2
    assert as_carol.delete(f"/api/v1/matches/{trio['id']}/hands/1/").status_code == 204
    response = table.send({"type": "draw", "player": players[1]})
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "live_hand_overtaken"
    declared = openapi.declared_codes("/api/v1/matches/{match_pk}/live/events/", "post", 409)
    assert "live_hand_overtaken" in declared  # a generated client reads the answer
    assert as_carol.delete(live_url(trio)).status_code == 204
    assert Table(as_carol, trio).start().json()["hand"] == 1


def test_voiding_a_hand_played_live_detaches_its_log(as_carol, table, trio, players):
    ann, ben, cleo = players
    table.play(*ann_goes_out(ann, ben, cleo))
    finished = table.send({"type": "finish", "held": {str(ben): BEN_13, str(cleo): CLEO_13}})
    assert finished.status_code == 201
    log = f"/api/v1/matches/{trio['id']}/hands/1/live/"
    assert as_carol.get(log).status_code == 200
    assert as_carol.delete(f"/api/v1/matches/{trio['id']}/hands/1/").status_code == 204
    assert as_carol.get(log).status_code == 404
    assert LiveEvent.objects.filter(live__match_id=trio["id"]).count() == 11
