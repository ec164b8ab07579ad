"""Clubs and their members: /api/v1/clubs/, clubs/{id}/members/ and members/{username}/."""

from __future__ import annotations

import pytest

from matches import errors
from matches.models import Club, Membership, Role
from matches.services import clubs as club_services
from tests.factories import client_for, make_user


def members_url(club: Club) -> str:
    return f"/api/v1/clubs/{club.pk}/members/"


def codes(response) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]


def roles(club: Club) -> dict[str, str]:
    return dict(Membership.objects.filter(club=club).values_list("user__username", "role"))


def test_the_creator_of_a_club_becomes_its_owner(as_bob, bob):
    response = as_bob.post("/api/v1/clubs/", {"name": "Thursday Table"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Thursday Table"
    assert body["role"] == "owner"
    club = Club.objects.get(pk=body["id"])
    assert club.created_by == bob
    assert roles(club) == {"bob": "owner"}


@pytest.mark.parametrize(
    ("body", "code"),
    [({}, "required"), ({"name": ""}, "blank"), ({"name": "x" * 101}, "max_length")],
)
def test_a_club_needs_a_name(as_bob, body, code):
    response = as_bob.post("/api/v1/clubs/", body, format="json")
    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [(code, "name")]
    assert not Club.objects.exists()


def test_the_list_shows_only_my_clubs_with_my_role(as_victor, club, bobs_club):
    response = as_victor.get("/api/v1/clubs/")
    assert response.status_code == 200
    assert set(response.json()) == {"count", "next", "previous", "results"}
    assert [(c["id"], c["role"]) for c in response.json()["results"]] == [(club.pk, "viewer")]


def test_a_club_i_do_not_belong_to_is_not_found(as_bob, club):
    assert as_bob.get(f"/api/v1/clubs/{club.pk}/").status_code == 404


def test_any_member_lists_the_members(as_victor, club):
    response = as_victor.get(members_url(club))
    assert response.status_code == 200
    assert {(m["user"], m["role"]) for m in response.json()["results"]} == {
        ("alice", "owner"),
        ("carol", "scorekeeper"),
        ("victor", "viewer"),
    }


def test_the_owner_adds_a_member_who_accepts_and_then_sees_the_club(as_alice, as_bob, club):
    response = as_alice.post(members_url(club), {"user": "bob", "role": "viewer"}, format="json")
    assert response.status_code == 202
    assert response.json() == {"role": "viewer", "status": "invited"}
    (invitation,) = as_bob.get("/api/v1/invitations/").json()["results"]
    assert as_bob.post(f"/api/v1/invitations/{invitation['code']}/accept/").status_code == 201
    assert roles(club)["bob"] == "viewer"
    assert as_bob.get(f"/api/v1/clubs/{club.pk}/").json()["role"] == "viewer"


@pytest.mark.parametrize("client", ["as_carol", "as_victor"])
def test_only_an_owner_adds_members(client, request, bob, club):
    response = request.getfixturevalue(client).post(
        members_url(club), {"user": "bob", "role": "owner"}, format="json"
    )
    assert response.status_code == 403
    assert codes(response) == ["permission_denied"]
    assert "bob" not in roles(club)


@pytest.mark.parametrize(
    ("body", "code", "attr"),
    [
        ({"user": "bob", "role": "emperor"}, "invalid_choice", "role"),
        ({"role": "viewer"}, "required", "user"),
        ({"user": "bob"}, "required", "role"),
    ],
)
def test_a_missing_user_or_an_unknown_role_is_a_400(as_alice, bob, club, body, code, attr):
    response = as_alice.post(members_url(club), body, format="json")
    assert response.status_code == 400
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [(code, attr)]
    assert "bob" not in roles(club)


def test_posting_an_existing_member_changes_their_role(as_alice, as_carol, club):
    response = as_alice.post(members_url(club), {"user": "carol", "role": "owner"}, format="json")
    assert response.status_code == 200
    assert response.json()["role"] == "owner"
    assert roles(club)["carol"] == "owner"
    assert Membership.objects.filter(club=club, user__username="carol").count() == 1
    assert (
        as_carol.patch(f"/api/v1/clubs/{club.pk}/", {"name": "Renamed"}, format="json").status_code
        == 200
    )


def test_the_only_owner_cannot_step_down(as_alice, club):
    response = as_alice.post(members_url(club), {"user": "alice", "role": "viewer"}, format="json")
    assert response.status_code == 400
    assert codes(response) == ["last_owner"]
    assert roles(club)["alice"] == "owner"


def test_the_owner_removes_a_member_who_then_loses_the_club(as_alice, as_victor, club):
    response = as_alice.delete(f"{members_url(club)}victor/")
    assert response.status_code == 204
    assert "victor" not in roles(club)
    assert as_victor.get(f"/api/v1/clubs/{club.pk}/").status_code == 404
    assert as_victor.get("/api/v1/clubs/").json()["count"] == 0


@pytest.mark.parametrize("client", ["as_carol", "as_victor"])
def test_only_an_owner_removes_members(client, request, club):
    response = request.getfixturevalue(client).delete(f"{members_url(club)}alice/")
    assert response.status_code == 403
    assert codes(response) == ["permission_denied"]
    assert roles(club)["alice"] == "owner"


def test_removing_someone_who_is_not_a_member_is_not_found(as_alice, bob, club):
    assert as_alice.delete(f"{members_url(club)}bob/").status_code == 404
    assert as_alice.delete(f"{members_url(club)}nobody/").status_code == 404


def test_a_club_keeps_at_least_one_owner(as_alice, club):
    response = as_alice.delete(f"{members_url(club)}alice/")
    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert codes(response) == ["last_owner"]
    assert roles(club)["alice"] == "owner"


def test_one_of_two_owners_may_leave(as_alice, club):
    second = make_user("olga")
    Membership.objects.create(club=club, user=second, role=Role.OWNER)
    assert as_alice.delete(f"{members_url(club)}alice/").status_code == 204
    assert roles(club) == {"carol": "scorekeeper", "victor": "viewer", "olga": "owner"}
    olga = client_for(second)
    [error] = olga.delete(f"{members_url(club)}olga/").json()["errors"]
    # a removal sends no body: the refusal is about the request, not a "role" field
    assert (error["code"], error["attr"]) == ("last_owner", None)


def test_a_removal_reads_the_members_role_once_the_club_is_locked(club):
    """Olga's removal was read while she was a scorekeeper; before it was carried out she was
    made an owner and Alice stepped down. The removal must see her as the club's last owner
    now, not as the scorekeeper it read: the club is never left without an owner."""
    olga = make_user("olga")
    read_before = Membership.objects.create(club=club, user=olga, role=Role.SCOREKEEPER)
    alice = Membership.objects.get(club=club, role=Role.OWNER).user
    club_services.membership_set(club=club, user=olga, role=Role.OWNER)
    club_services.membership_set(club=club, user=alice, role=Role.VIEWER)

    with pytest.raises(errors.InvalidSetup):
        club_services.membership_remove(membership=read_before, by=olga)
    assert roles(club)["olga"] == "owner"


def test_the_owner_renames_the_club(as_alice, club):
    response = as_alice.patch(
        f"/api/v1/clubs/{club.pk}/", {"name": "Arlington Club"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["name"] == "Arlington Club"
    club.refresh_from_db()
    assert club.name == "Arlington Club"


@pytest.mark.parametrize("client", ["as_carol", "as_victor"])
def test_only_the_owner_renames_the_club(client, request, club):
    response = request.getfixturevalue(client).patch(
        f"/api/v1/clubs/{club.pk}/", {"name": "Mine now"}, format="json"
    )
    assert response.status_code == 403
    assert codes(response) == ["permission_denied"]
    club.refresh_from_db()
    assert club.name == "Arlington Card Club"


def test_a_club_cannot_be_deleted_through_the_api(as_alice, club):
    assert as_alice.delete(f"/api/v1/clubs/{club.pk}/").status_code == 405
    assert Club.objects.filter(pk=club.pk).exists()


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/api/v1/clubs/abc/"),
        ("get", "/api/v1/clubs/abc/members/"),
        ("post", "/api/v1/clubs/abc/members/"),
        ("delete", "/api/v1/clubs/abc/members/alice/"),
        ("get", "/api/v1/players/abc/"),
        ("get", "/api/v1/seasons/abc/"),
        ("get", "/api/v1/matches/abc/"),
    ],
)
def test_an_id_that_is_not_a_number_is_not_found_never_a_500(as_alice, club, method, url):
    response = getattr(as_alice, method)(url, {"user": "carol", "role": "owner"}, format="json")
    assert response.status_code == 404
    assert codes(response) == ["not_found"]


def test_a_removed_member_is_no_longer_a_players_login(as_alice, victor, club):
    from matches.models import Player

    linked = Player.objects.create(club=club, name="Vic", user=victor)
    elsewhere = Club.objects.create(name="Elsewhere", created_by=victor)
    Membership.objects.create(club=elsewhere, user=victor, role=Role.OWNER)
    kept = Player.objects.create(club=elsewhere, name="Vic", user=victor)
    assert as_alice.delete(f"{members_url(club)}victor/").status_code == 204
    linked.refresh_from_db(), kept.refresh_from_db()
    assert linked.user is None  # a player's login is a member's
    assert kept.user == victor  # another club's link stays
    echoed = as_alice.put(
        f"/api/v1/players/{linked.pk}/", {"club": club.pk, "name": "Vic"}, format="json"
    )
    assert echoed.status_code == 200 and echoed.json()["user"] is None


def test_a_member_is_named_in_any_case(as_alice, club):
    changed = as_alice.post(
        members_url(club), {"user": "VICTOR", "role": "scorekeeper"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["user"] == "victor"
    assert roles(club)["victor"] == "scorekeeper"
    assert as_alice.delete(f"{members_url(club)}Victor/").status_code == 204
    assert "victor" not in roles(club)
