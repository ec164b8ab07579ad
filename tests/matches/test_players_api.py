"""A club's roster: /api/v1/players/ (a player need not be a user)."""

from __future__ import annotations

import pytest

from matches.models import Player
from matches.services import clubs as club_services


def codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


@pytest.fixture
def second_club(alice):
    """Another club of Alice's, with its own roster."""
    other = club_services.club_create(name="Arlington Juniors", user=alice)
    Player.objects.create(club=other, name="Zoe")
    return other


def names(response) -> list[str]:
    return [p["name"] for p in response.json()["results"]]


def test_the_roster_lists_the_players_of_my_clubs(as_alice, roster, second_club, bobs_club):
    Player.objects.create(club=bobs_club, name="Bo")
    response = as_alice.get("/api/v1/players/")
    assert response.status_code == 200
    assert set(response.json()) == {"count", "next", "previous", "results"}
    assert sorted(names(response)) == ["Ann", "Ben", "Cleo", "Dev", "Eve", "Zoe"]


def test_the_roster_is_filtered_by_club(as_alice, club, roster, second_club):
    assert names(as_alice.get("/api/v1/players/", {"club": second_club.pk})) == ["Zoe"]
    assert names(as_alice.get("/api/v1/players/", {"club": club.pk})) == [
        "Ann",
        "Ben",
        "Cleo",
        "Dev",
        "Eve",
    ]


def test_the_roster_is_filtered_by_part_of_a_name(as_alice, roster, second_club):
    assert names(as_alice.get("/api/v1/players/", {"name": "EV"})) == ["Dev", "Eve"]
    assert names(as_alice.get("/api/v1/players/", {"name": "zo"})) == ["Zoe"]


def test_a_player_reads_with_the_club_and_login(as_victor, club, carol):
    player = Player.objects.create(club=club, name="Carol", user=carol)
    response = as_victor.get(f"/api/v1/players/{player.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["club"], body["name"], body["user"]) == (
        player.pk,
        club.pk,
        "Carol",
        "carol",
    )


@pytest.mark.parametrize("client", ["as_alice", "as_carol"])
def test_scorekeepers_and_owners_add_players(client, request, club):
    response = request.getfixturevalue(client).post(
        "/api/v1/players/", {"club": club.pk, "name": "Fay"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["name"] == "Fay"
    assert response.json()["club"] == club.pk
    assert response.json()["user"] is None
    assert Player.objects.get(pk=response.json()["id"]).club == club


def test_a_player_may_be_linked_to_a_login(as_alice, club, victor):
    response = as_alice.post(
        "/api/v1/players/", {"club": club.pk, "name": "Vic", "user": "victor"}, format="json"
    )
    assert response.status_code == 201
    assert Player.objects.get(pk=response.json()["id"]).user == victor


@pytest.mark.parametrize("typed", ["VICTOR", "Victor", "ｖｉｃｔｏｒ"])
def test_a_login_is_named_in_any_case_or_width_as_it_signs_in(as_alice, roster, victor, typed):
    response = as_alice.patch(f"/api/v1/players/{roster[0].pk}/", {"user": typed}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["user"] == "victor"
    roster[0].refresh_from_db()
    assert roster[0].user == victor


def test_only_an_owner_links_a_player_to_a_login(as_carol, club, roster):
    """Whose login a player is decides who enters their part: the owners' choice."""
    url = f"/api/v1/players/{roster[0].pk}/"
    refused = as_carol.patch(url, {"user": "victor"}, format="json")
    assert refused.status_code == 403 and codes(refused) == [("permission_denied", None)]
    assert "Only the club's owners link a player" in refused.json()["errors"][0]["detail"]
    created = as_carol.post(
        "/api/v1/players/", {"club": club.pk, "name": "Vic", "user": "victor"}, format="json"
    )
    assert created.status_code == 403
    unlinked = as_carol.post(  # a client sending every field, the login left empty
        "/api/v1/players/", {"club": club.pk, "name": "Vi", "user": None}, format="json"
    )
    assert unlinked.status_code == 201, unlinked.json()
    assert as_carol.patch(url, {"name": "Annie", "user": None}, format="json").status_code == 200
    roster[0].refresh_from_db()
    assert (roster[0].name, roster[0].user) == ("Annie", None)


def test_a_login_is_one_players_only(as_alice, club, roster, victor):
    first = as_alice.patch(f"/api/v1/players/{roster[0].pk}/", {"user": "victor"}, format="json")
    assert first.status_code == 200
    again = as_alice.patch(f"/api/v1/players/{roster[1].pk}/", {"user": "victor"}, format="json")
    assert again.status_code == 400 and codes(again) == [("login_taken", "user")]
    assert again.json()["errors"][0]["detail"] == (
        f"victor is already {roster[0].name} on this club's roster: unlink them there first."
    )
    same = as_alice.patch(f"/api/v1/players/{roster[0].pk}/", {"user": "victor"}, format="json")
    assert same.status_code == 200  # linking the same player again changes nothing
    assert list(Player.objects.filter(user=victor)) == [roster[0]]


def test_a_viewer_cannot_add_players(as_victor, club, roster):
    response = as_victor.post("/api/v1/players/", {"club": club.pk, "name": "Fay"}, format="json")
    assert response.status_code == 403
    assert codes(response) == [("permission_denied", None)]
    assert Player.objects.filter(club=club).count() == 5


def test_a_viewer_cannot_rename_players(as_victor, roster):
    response = as_victor.patch(f"/api/v1/players/{roster[0].pk}/", {"name": "X"}, format="json")
    assert response.status_code == 403
    roster[0].refresh_from_db()
    assert roster[0].name == "Ann"


def test_a_name_is_unique_within_a_club(as_carol, club, roster):
    response = as_carol.post("/api/v1/players/", {"club": club.pk, "name": "Ann"}, format="json")
    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert codes(response) == [("unique", "name")]
    assert Player.objects.filter(club=club, name="Ann").count() == 1


def test_a_rename_onto_a_taken_name_is_refused(as_carol, roster):
    response = as_carol.patch(f"/api/v1/players/{roster[0].pk}/", {"name": "Ben"}, format="json")
    assert response.status_code == 400
    assert codes(response) == [("unique", "name")]
    roster[0].refresh_from_db()
    assert roster[0].name == "Ann"


def test_the_same_name_may_play_in_two_clubs(as_alice, roster, second_club):
    response = as_alice.post(
        "/api/v1/players/", {"club": second_club.pk, "name": "Ann"}, format="json"
    )
    assert response.status_code == 201


def test_a_player_cannot_move_to_another_club(as_alice, roster, second_club):
    response = as_alice.patch(
        f"/api/v1/players/{roster[0].pk}/", {"club": second_club.pk}, format="json"
    )
    assert response.status_code == 200
    roster[0].refresh_from_db()
    assert roster[0].club_id != second_club.pk


@pytest.mark.parametrize(
    ("body", "code", "attr"),
    [
        ({"name": "Fay"}, "required", "club"),
        ({"club": None, "name": "Fay"}, "null", "club"),
        ({"club": "first", "name": "Fay"}, "incorrect_type", "club"),
        ({"club": "<club>"}, "required", "name"),
        ({"club": "<club>", "name": ""}, "blank", "name"),
        ({"club": "<club>", "name": "x" * 101}, "max_length", "name"),
        ({"club": "<club>", "name": "Fay", "user": "nobody"}, "does_not_exist", "user"),
    ],
)
def test_an_unreadable_player_is_a_400(as_carol, club, body, code, attr):
    body = {k: club.pk if v == "<club>" else v for k, v in body.items()}
    response = as_carol.post("/api/v1/players/", body, format="json")
    assert response.status_code == 400
    assert (code, attr) in codes(response)
    error = next(e for e in response.json()["errors"] if e["attr"] == attr)
    assert error["detail"].startswith(f"{attr}: "), error  # the sentence names its field
    assert not Player.objects.exists()


def test_a_players_login_must_be_a_member_and_other_names_read_as_unknown(as_alice, club, bob):
    body = {"club": club.pk, "name": "Bobby"}
    stranger = as_alice.post("/api/v1/players/", {**body, "user": bob.username}, format="json")
    nobody = as_alice.post("/api/v1/players/", {**body, "user": "no-such-user"}, format="json")
    member = as_alice.post("/api/v1/players/", {**body, "user": "victor"}, format="json")
    assert stranger.status_code == nobody.status_code == 400
    assert stranger.json()["errors"][0]["code"] == nobody.json()["errors"][0]["code"]
    assert member.status_code == 201


def test_a_name_is_taken_in_any_case(as_carol, club, roster):
    taken = roster[0].name
    for name in (taken.lower(), taken.upper()):
        response = as_carol.post("/api/v1/players/", {"club": club.pk, "name": name}, format="json")
        assert response.status_code == 400
        assert codes(response) == [("unique", "name")]
    renamed = as_carol.patch(
        f"/api/v1/players/{roster[1].pk}/", {"name": taken.swapcase()}, format="json"
    )
    assert renamed.status_code == 400 and codes(renamed) == [("unique", "name")]
    assert Player.objects.filter(club=club, name__iexact=taken).count() == 1


@pytest.mark.parametrize(
    ("taken", "again"),
    [
        ("Ünïcödé", "ÜNÏCÖDÉ"),
        ("Ωmega", "ωMEGA"),
        ("Straße", "STRASSE"),
        ("Zé", "Ze\u0301"),  # the same letters, composed or not
        ("Zed", "Zed\u200b"),  # a zero-width space is not a letter
        ("Ann Marie", "ann  marie"),
    ],
)
def test_a_name_is_the_same_name_in_any_case_script_or_spelling(as_carol, club, taken, again):
    first = as_carol.post("/api/v1/players/", {"club": club.pk, "name": taken}, format="json")
    assert first.status_code == 201, first.json()
    response = as_carol.post("/api/v1/players/", {"club": club.pk, "name": again}, format="json")
    assert response.status_code == 400
    assert codes(response) == [("unique", "name")]


def test_a_name_is_kept_composed_without_invisible_characters(as_carol, club):
    made = as_carol.post(
        "/api/v1/players/", {"club": club.pk, "name": "Ze\u0301\u200b  Dee"}, format="json"
    )
    assert made.json()["name"] == "Zé Dee"
    invisible = as_carol.post(
        "/api/v1/players/", {"club": club.pk, "name": "\u200b"}, format="json"
    )
    assert codes(invisible) == [("blank", "name")]


def test_a_name_sorts_by_its_letters_in_any_case_and_without_accents():
    from matches.models import sorting_name

    names = ["Zoé", "adam", "Éloïse", "Bruno", "eve", "Ève"]
    assert sorted(names, key=sorting_name) == ["adam", "Bruno", "Éloïse", "eve", "Ève", "Zoé"]
    # a letter that is its own letter with an accent goes with the letter it is read as
    names = ["Zoe", "Łukasz", "Mia", "Lara", "Øyvind", "Strauß", "Strauss", "Dan", "Đorđe"]
    assert sorted(names, key=sorting_name) == [
        "Dan",
        "Đorđe",
        "Lara",
        "Łukasz",
        "Mia",
        "Øyvind",
        "Strauss",
        "Strauß",
        "Zoe",
    ]
