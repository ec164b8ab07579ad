"""Starting and finding matches: /api/v1/matches/ and the hands list of a match."""

from __future__ import annotations

import pytest

from matches.models import Match, Player, Season, Seat
from matches.services import clubs as club_services
from tests.factories import record, start_match, went_out


def codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


def create(client, club, players, **extra):
    return client.post(
        "/api/v1/matches/", {"club": club.pk, "players": players, **extra}, format="json"
    )


def ids(response) -> list[int]:
    return [m["id"] for m in response.json()["results"]]


def test_a_new_match_seats_the_players_clockwise_in_the_order_given(as_carol, club, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    response = create(as_carol, club, [cleo, ann, ben], table="Table 2")
    assert response.status_code == 201
    body = response.json()
    assert Match.objects.filter(pk=body["id"]).exists()
    assert body["club"] == club.pk
    assert body["status"] == "in_progress"
    assert body["table"] == "Table 2"
    assert [(s["seat"], s["player"], s["total"]) for s in body["seats"]] == [
        (0, cleo, 0),
        (1, ann, 0),
        (2, ben, 0),
    ]
    assert body["hands_played"] == 0
    assert body["next_hand"] == 1
    assert body["next_dealer"] == cleo
    assert body["first_dealer"] == cleo
    assert body["winners"] == []
    assert body["shared_victory"] is False
    assert body["created_by"] == "carol"
    assert body["finished_at"] is None


def test_the_first_dealer_may_be_chosen(as_carol, club, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    body = create(as_carol, club, [ann, ben, cleo], first_dealer=ben).json()
    assert body["first_dealer"] == ben
    assert body["next_dealer"] == ben


def test_a_match_may_belong_to_a_season(as_carol, club, roster):
    spring = Season.objects.create(club=club, name="Spring")
    body = create(as_carol, club, [roster[0].pk, roster[1].pk], season=spring.pk).json()
    assert body["season"] == spring.pk


@pytest.mark.parametrize("count", [1, 6])
def test_a_match_seats_two_to_five(as_carol, club, roster, count):
    sixth = Player.objects.create(club=club, name="Fay")
    players = [p.pk for p in [*roster, sixth][:count]]
    response = create(as_carol, club, players)
    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert codes(response) == [("seat_count", "players")]
    assert not Match.objects.exists()


def test_a_player_sits_once(as_carol, club, roster):
    ann, ben = roster[0].pk, roster[1].pk
    response = create(as_carol, club, [ann, ben, ann])
    assert response.status_code == 400
    assert codes(response) == [("duplicate_player", "players.2")]
    assert not Match.objects.exists()


def test_players_come_from_the_clubs_roster(as_carol, club, roster, bobs_club):
    stranger = Player.objects.create(club=bobs_club, name="Bo")
    response = create(as_carol, club, [roster[0].pk, stranger.pk])
    assert response.status_code == 400
    assert codes(response) == [("player_not_in_club", "players.1")]
    assert not Match.objects.exists() and not Seat.objects.exists()


def test_a_player_id_that_does_not_exist_is_not_in_the_club(as_carol, club, roster):
    missing = Player.objects.create(club=club, name="Gone")
    missing_id = missing.pk
    missing.delete()
    response = create(as_carol, club, [roster[0].pk, missing_id])
    assert codes(response) == [("player_not_in_club", "players.1")]


def test_the_first_dealer_must_be_seated(as_carol, club, roster):
    response = create(as_carol, club, [roster[0].pk, roster[1].pk], first_dealer=roster[2].pk)
    assert response.status_code == 400
    assert codes(response) == [("first_dealer_not_seated", "first_dealer")]
    detail = response.json()["errors"][0]["detail"]
    assert detail == f"The first dealer {roster[2].name} is not seated at this match."
    assert not Match.objects.exists()


def test_the_season_must_be_the_clubs(as_carol, club, roster, bobs_club):
    theirs = Season.objects.create(club=bobs_club, name="Bob's season")
    response = create(as_carol, club, [roster[0].pk, roster[1].pk], season=theirs.pk)
    assert response.status_code == 400
    assert codes(response) == [("season_not_in_club", "season")]
    assert not Match.objects.exists()


def test_a_viewer_cannot_start_a_match(as_victor, club, roster):
    response = create(as_victor, club, [roster[0].pk, roster[1].pk])
    assert response.status_code == 403
    assert codes(response) == [("permission_denied", None)]
    assert not Match.objects.exists()


def test_a_club_that_is_not_mine_is_unknown(as_bob, club, roster):
    response = create(as_bob, club, [roster[0].pk, roster[1].pk])
    assert response.status_code == 400
    assert codes(response) == [("unknown_club", "club")]


@pytest.mark.parametrize(
    ("body", "code", "attr"),
    [
        ({"players": [1, 2]}, "required", "club"),
        ({"club": "<club>"}, "required", "players"),
        ({"club": "<club>", "players": []}, "min_length", "players"),
        ({"club": "<club>", "players": list(range(1, 12))}, "max_length", "players"),
        ({"club": "<club>", "players": "1,2"}, "not_a_list", "players"),
        ({"club": "<club>", "players": ["Ann", "Ben"]}, "invalid", "players.0"),
        ({"club": "<club>", "players": [1, 2], "table": "x" * 51}, "max_length", "table"),
        ({"club": "first", "players": [1, 2]}, "invalid", "club"),
        ({"club": None, "players": [1, 2]}, "null", "club"),
    ],
)
def test_an_unreadable_match_is_a_400(as_carol, club, body, code, attr):
    body = {k: club.pk if v == "<club>" else v for k, v in body.items()}
    response = as_carol.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 400
    assert (code, attr) in codes(response)
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("players", "language", "sentence"),
    [
        ([], "en", "players is empty: list the players in clockwise seating order."),
        (
            [],
            "pt",
            "players está vazio: indique os jogadores pela ordem dos lugares, no sentido dos "
            "ponteiros do relógio.",
        ),
        (
            list(range(1, 12)),
            "fr",
            "players indique plus de 10 joueurs\u202f; aucun jeu n'en réunit autant.",
        ),
    ],
)
def test_too_few_or_too_many_players_are_said_in_the_projects_own_words(
    as_carol, club, players, language, sentence
):
    """Not DRF's "Ensure this field has at least 1 elements.", which no catalogue translates."""
    response = as_carol.post(
        "/api/v1/matches/",
        {"club": club.pk, "players": players},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert [error["detail"] for error in response.json()["errors"]] == [sentence]


def test_a_body_that_is_not_json_is_a_parse_error(as_carol, club):
    response = as_carol.post("/api/v1/matches/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert codes(response) == [("parse_error", None)]


# --- finding matches ----------------------------------------------------------------------


@pytest.fixture
def matches(as_carol, club, roster):
    """Three matches of Alice's club: one in a season, one finished, one with Eve."""
    ann, ben, cleo, dev, eve = roster
    spring = Season.objects.create(club=club, name="Spring")
    seasonal = start_match(as_carol, club, [ann, ben], season=spring.pk)
    done = start_match(as_carol, club, [ann, cleo])
    for _ in range(3):  # 3 x 340 = 1,020: finished
        record(as_carol, done["id"], went_out(ann.pk, [ann.pk, cleo.pk]))
    with_eve = start_match(as_carol, club, [dev, eve])
    return {
        "seasonal": seasonal["id"],
        "done": done["id"],
        "with_eve": with_eve["id"],
        "spring": spring,
    }


def test_the_list_is_paginated_newest_first(as_victor, matches):
    response = as_victor.get("/api/v1/matches/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 3
    assert body["next"] is None and body["previous"] is None
    assert ids(response) == [matches["with_eve"], matches["done"], matches["seasonal"]]


def test_a_page_past_the_end_is_not_found(as_victor, matches):
    response = as_victor.get("/api/v1/matches/", {"page": 9})
    assert response.status_code == 404
    assert codes(response) == [("not_found", None)]


def test_matches_are_filtered_by_status(as_victor, matches):
    assert ids(as_victor.get("/api/v1/matches/", {"status": "finished"})) == [matches["done"]]
    assert set(ids(as_victor.get("/api/v1/matches/", {"status": "in_progress"}))) == {
        matches["seasonal"],
        matches["with_eve"],
    }


def test_matches_are_filtered_by_season(as_victor, matches):
    response = as_victor.get("/api/v1/matches/", {"season": matches["spring"].pk})
    assert ids(response) == [matches["seasonal"]]


def test_matches_are_filtered_by_player(as_victor, roster, matches):
    ann, eve = roster[0].pk, roster[4].pk
    assert ids(as_victor.get("/api/v1/matches/", {"player": eve})) == [matches["with_eve"]]
    assert set(ids(as_victor.get("/api/v1/matches/", {"player": ann}))) == {
        matches["seasonal"],
        matches["done"],
    }


def test_matches_are_filtered_by_club(as_alice, alice, club, roster, matches):
    other = club_services.club_create(name="Juniors", user=alice)
    kids = [Player.objects.create(club=other, name=name) for name in ("Kit", "Lou")]
    juniors = start_match(as_alice, other, kids)
    assert ids(as_alice.get("/api/v1/matches/", {"club": other.pk})) == [juniors["id"]]
    assert juniors["id"] not in ids(as_alice.get("/api/v1/matches/", {"club": club.pk}))
    assert as_alice.get("/api/v1/matches/").json()["count"] == 4


def test_creation_times_are_compared_in_utc_whatever_the_offset(as_victor, matches):
    """PostgreSQL refuses offsets past 15:59 that ISO 8601 allows: the filter reads UTC."""
    later = as_victor.get("/api/v1/matches/", {"created_before": "2999-01-01T00:00:00+23:20"})
    assert later.status_code == 200
    assert later.json()["count"] == 3
    earlier = as_victor.get("/api/v1/matches/", {"created_after": "2999-01-01T00:00:00-23:20"})
    assert earlier.json()["count"] == 0


def test_a_creation_time_outside_the_calendar_in_utc_is_a_400(as_victor, matches):
    response = as_victor.get("/api/v1/matches/", {"created_after": "0001-01-01T00:00:00+01:00"})
    assert response.status_code == 400
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [
        ("invalid", "created_after")
    ]


@pytest.mark.parametrize(
    ("params", "attr"),
    [
        ({"status": "over"}, "status"),
        ({"player": "Ann"}, "player"),
        ({"player": "1.5"}, "player"),  # not read as player 1
        ({"player": str(2**63)}, "player"),  # larger than any id: a 400, not a 500
        ({"player": "0"}, "player"),
        ({"club": "abc"}, "club"),
        ({"season": "abc"}, "season"),
    ],
)
def test_an_unreadable_filter_is_a_400_whose_sentence_names_it(as_victor, matches, params, attr):
    response = as_victor.get("/api/v1/matches/", params)
    assert response.status_code == 400
    assert [e["attr"] for e in response.json()["errors"]] == [attr]
    assert response.json()["errors"][0]["detail"].startswith(f"{attr}: ")


def test_a_finished_match_reads_with_its_winner(as_victor, roster, matches):
    body = as_victor.get(f"/api/v1/matches/{matches['done']}/").json()
    assert body["status"] == "finished"
    assert body["winners"] == [roster[0].pk]
    assert body["shared_victory"] is False
    assert body["next_hand"] is None
    assert body["next_dealer"] is None
    assert body["finished_at"] is not None


def test_the_hands_of_a_match_are_listed_in_order_and_paginated(as_victor, roster, matches):
    response = as_victor.get(f"/api/v1/matches/{matches['done']}/hands/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 3
    assert [h["number"] for h in body["results"]] == [1, 2, 3]
    assert [h["dealer"] for h in body["results"]] == [roster[0].pk, roster[2].pk, roster[0].pk]
    assert [r["total"] for r in body["results"][2]["results"]] == [1020, -195]


def test_a_match_without_hands_lists_none(as_victor, matches):
    body = as_victor.get(f"/api/v1/matches/{matches['with_eve']}/hands/").json()
    assert (body["count"], body["results"]) == (0, [])


def test_a_hand_that_was_never_played_is_not_found(as_victor, matches):
    response = as_victor.get(f"/api/v1/matches/{matches['with_eve']}/hands/1/")
    assert response.status_code == 404
    assert codes(response) == [("not_found", None)]
    assert (
        as_victor.get(f"/api/v1/matches/{matches['with_eve']}/hands/1/revisions/").status_code
        == 404
    )


def test_a_match_cannot_be_edited_or_deleted_through_the_api(as_alice, matches):
    url = f"/api/v1/matches/{matches['with_eve']}/"
    assert as_alice.patch(url, {"table": "x"}, format="json").status_code == 405
    assert as_alice.delete(url).status_code == 405
    assert Match.objects.filter(pk=matches["with_eve"]).exists()


@pytest.mark.parametrize("path", ["/api/v1/matches/", "/api/v1/players/", "/api/v1/clubs/"])
def test_a_list_refuses_an_ordering_it_cannot_sort_by(as_carol, club, path):
    """DRF's own filter ignores an unknown field and answers the default order as if sorted;
    the lists answer 400 invalid_ordering, naming it, as the standings do."""
    refused = as_carol.get(path, {"ordering": "-bogus"})
    assert refused.status_code == 400
    [error] = refused.json()["errors"]
    assert (error["code"], error["attr"]) == ("invalid_ordering", "ordering")
    assert error["detail"].startswith("Cannot order by -bogus; use one of ")
    assert as_carol.get(path, {"ordering": "-created_at"}).status_code == 200
