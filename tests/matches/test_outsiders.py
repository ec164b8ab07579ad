"""Alice and Bob: an outsider never sees, finds or changes anything of a club he is not in.

Bob owns his own club, so he is a fully privileged user, just not in Alice's club. Objects he
may not see are answered 404 (a 403 would confirm they exist); creating something in Alice's
club by naming it in the body is a 400, since that club is not among his.
"""

from __future__ import annotations

import pytest

from tests.factories import record, start_match, went_out
from tests.matches import endpoints
from tests.matches.endpoints import Endpoint, snapshot


@pytest.fixture
def world(alices_world, bobs_club):
    return alices_world


@pytest.mark.parametrize("endpoint", endpoints.READS + endpoints.OBJECT_WRITES, ids=str)
def test_an_outsider_gets_404_for_every_object_of_another_club(endpoint: Endpoint, as_bob, world):
    before = snapshot()
    response = endpoint.call(as_bob, world)
    assert response.status_code == 404, response.content
    assert response.json()["type"] == "client_error"
    assert [e["code"] for e in response.json()["errors"]] == ["not_found"]
    assert snapshot() == before


@pytest.mark.parametrize("endpoint", endpoints.CREATES, ids=str)
def test_an_outsider_cannot_create_anything_in_another_club(endpoint: Endpoint, as_bob, world):
    before = snapshot()
    response = endpoint.call(as_bob, world)
    assert response.status_code == 400, response.content
    assert response.json()["type"] == "validation_error"
    assert [e["attr"] for e in response.json()["errors"]] == ["club"]
    assert {e["code"] for e in response.json()["errors"]} <= {"does_not_exist", "unknown_club"}
    assert snapshot() == before


@pytest.mark.parametrize("endpoint", endpoints.LISTS, ids=str)
def test_an_outsider_never_sees_another_clubs_objects_in_lists(
    endpoint: Endpoint, as_bob, as_alice, world
):
    alices = {row["id"] for row in endpoint.call(as_alice, world).json()["results"]}
    assert alices, "Alice sees her own objects"
    response = endpoint.call(as_bob, world)
    assert response.status_code == 200
    assert alices.isdisjoint(row["id"] for row in response.json()["results"])
    if endpoint.name != "clubs":
        filtered = as_bob.get(endpoint.url(world), {"club": world.club.pk})
        unknown = as_bob.get(endpoint.url(world), {"club": world.club.pk + 1000})
        # Another club's id answers exactly as an id that does not exist: nothing to learn.
        assert filtered.status_code == unknown.status_code == 400
        assert filtered.json()["errors"][0]["code"] == unknown.json()["errors"][0]["code"]


@pytest.mark.parametrize("filter_name", ["club", "season"])
def test_filtering_matches_by_another_clubs_ids_reads_as_unknown(filter_name, as_bob, world):
    value = {"club": world.club.pk, "season": world.season.pk}
    response = as_bob.get("/api/v1/matches/", {filter_name: value[filter_name]})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_choice"


def test_filtering_matches_by_another_clubs_player_shows_nothing(as_bob, world):
    response = as_bob.get("/api/v1/matches/", {"player": world.player.pk})
    assert response.status_code == 200
    assert response.json()["count"] == 0


def test_an_outsider_sees_his_own_club_and_nothing_else(as_bob, bobs_club, world):
    clubs = as_bob.get("/api/v1/clubs/").json()
    assert [(c["id"], c["role"]) for c in clubs["results"]] == [(bobs_club.pk, "owner")]


def test_an_outsider_cannot_seat_another_clubs_players_in_his_own_match(as_bob, bobs_club, world):
    before = snapshot()
    response = as_bob.post(
        "/api/v1/matches/",
        {"club": bobs_club.pk, "players": [p.pk for p in world.players[:2]]},
        format="json",
    )
    assert response.status_code == 400
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [
        ("player_not_in_club", "players.0")
    ]
    assert snapshot() == before


def test_an_outsider_cannot_use_another_clubs_season(as_bob, bobs_club, world):
    from matches.models import Player

    mine = [Player.objects.create(club=bobs_club, name=name) for name in ("Bo", "Bea")]
    response = as_bob.post(
        "/api/v1/matches/",
        {
            "club": bobs_club.pk,
            "players": [p.pk for p in mine],
            "season": world.season.pk,
        },
        format="json",
    )
    assert response.status_code == 400
    assert [e["code"] for e in response.json()["errors"]] == ["season_not_in_club"]


def test_an_idempotency_key_used_in_another_club_means_nothing_to_an_outsider(
    as_bob, as_carol, bobs_club, world
):
    """Bob's own match with the same key and body as Carol's records its own hand."""
    from matches.models import Player

    mine = [Player.objects.create(club=bobs_club, name=name) for name in ("Bo", "Bea")]
    theirs = start_match(as_carol, world.club, world.players[:2])
    ann, ben = theirs["seats"][0]["player"], theirs["seats"][1]["player"]
    assert (
        record(
            as_carol, theirs["id"], went_out(ann, [ann, ben]), HTTP_IDEMPOTENCY_KEY="same"
        ).status_code
        == 201
    )
    match = start_match(as_bob, bobs_club, mine)
    bo, bea = (p.pk for p in mine)
    response = record(as_bob, match["id"], went_out(bo, [bo, bea]), HTTP_IDEMPOTENCY_KEY="same")
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response
    assert {r["player"] for r in response.json()["results"]} == {bo, bea}


@pytest.mark.parametrize(
    "path",
    [
        "clubs/{big}/standings/",
        "matches/{big}/hands/",
        "matches/{big}/hands/1/",
        "matches/{big}/hands/1/revisions/",
    ],
)
def test_an_id_too_large_for_any_row_reads_as_unknown(path, as_alice, world):
    response = as_alice.get("/api/v1/" + path.format(big=2**63))
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


@pytest.mark.parametrize("body", [{"ending": "no such ending"}, [], {"results": "x"}], ids=str)
@pytest.mark.parametrize("key", [None, "k-1", "x" * 300], ids=str)
def test_an_outsider_recording_a_hand_gets_404_whatever_he_sends(body, key, as_bob, world):
    """Refused before his body or key is read: a 400 would confirm that the match exists."""
    before = snapshot()
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    response = record(as_bob, world.match, body, **headers)
    assert response.status_code == 404, response.content
    assert [e["code"] for e in response.json()["errors"]] == ["not_found"]
    assert snapshot() == before


@pytest.mark.parametrize("match_id", [10**9, 2**63], ids=str)
def test_recording_a_hand_into_no_match_is_404(match_id, as_alice, world):
    response = record(as_alice, match_id, {"ending": "no such ending"})
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


@pytest.mark.parametrize("key", [None, "k-1"], ids=str)
def test_an_outsider_sending_a_body_that_is_not_json_gets_404(key, as_bob, world):
    before = snapshot()
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    response = as_bob.post(
        f"/api/v1/matches/{world.match}/hands/",
        "{not json",
        content_type="application/json",
        **headers,
    )
    assert response.status_code == 404, response.content
    assert [e["code"] for e in response.json()["errors"]] == ["not_found"]
    assert snapshot() == before
