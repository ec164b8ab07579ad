"""Adding a member by username invites them: the answer never tells whether the account exists,
and nobody joins a club without accepting."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matches.models import Club, Invitation, Membership
from tests.factories import client_for, make_user


def members_url(club: Club) -> str:
    return f"/api/v1/clubs/{club.pk}/members/"


def roles(club: Club) -> dict[str, str]:
    return dict(Membership.objects.filter(club=club).values_list("user__username", "role"))


def answer(response) -> tuple[int, bytes, dict[str, str]]:
    """Status, body and headers, but the date, the rate-limit count (one more request) and the
    request's own id."""
    headers = {
        name: value
        for name, value in response.headers.items()
        if name not in {"Date", "RateLimit-Remaining", "RateLimit-Reset", "X-Request-ID"}
    }
    return response.status_code, response.content, headers


def test_a_known_and_an_unknown_username_get_byte_identical_answers(as_alice, bob, club):
    known = as_alice.post(members_url(club), {"user": "bob", "role": "viewer"}, format="json")
    unknown = as_alice.post(members_url(club), {"user": "bobby", "role": "viewer"}, format="json")
    assert known.status_code == 202
    assert answer(known) == answer(unknown)
    assert known.json() == {"role": "viewer", "status": "invited"}


def test_the_same_name_known_or_not_answers_the_same_bytes(as_alice, club):
    before = as_alice.post(members_url(club), {"user": "zoe", "role": "scorekeeper"}, format="json")
    make_user("zoe")
    after = as_alice.post(members_url(club), {"user": "zoe", "role": "scorekeeper"}, format="json")
    assert answer(before) == answer(after)


def test_nobody_joins_until_they_accept(as_alice, as_bob, bob, club):
    as_alice.post(members_url(club), {"user": "bob", "role": "scorekeeper"}, format="json")
    assert "bob" not in roles(club)
    assert as_bob.get(f"/api/v1/clubs/{club.pk}/").status_code == 404
    mine = as_bob.get("/api/v1/invitations/")
    assert mine.status_code == 200
    (invitation,) = mine.json()["results"]
    assert invitation["club_name"] == club.name and invitation["role"] == "scorekeeper"
    assert invitation["invited_by"] == "alice"
    accepted = as_bob.post(f"/api/v1/invitations/{invitation['code']}/accept/")
    assert accepted.status_code == 201
    assert roles(club)["bob"] == "scorekeeper"
    assert as_bob.get("/api/v1/invitations/").json()["results"] == []


def test_only_the_named_user_sees_or_accepts_a_personal_invitation(as_alice, bob, club):
    as_alice.post(members_url(club), {"user": "bob", "role": "owner"}, format="json")
    code = Invitation.objects.get(invitee=bob).code
    dora = client_for(make_user("dora"))
    assert dora.get("/api/v1/invitations/").json()["results"] == []
    for response in (
        dora.get(f"/api/v1/invitations/{code}/"),
        dora.post(f"/api/v1/invitations/{code}/accept/"),
        APIClient().get(f"/api/v1/invitations/{code}/"),
        APIClient().post(
            f"/api/v1/invitations/{code}/signup/",
            {"username": "eve", "password": "a-long-pass-phrase-9"},
            format="json",
        ),
    ):
        assert response.status_code == 404
    assert set(roles(club)) == {"alice", "carol", "victor"}


def test_personal_invitations_stay_out_of_the_owners_list(as_alice, bob, club):
    as_alice.post(members_url(club), {"user": "bob", "role": "viewer"}, format="json")
    assert as_alice.get(f"/api/v1/clubs/{club.pk}/invitations/").json()["results"] == []


def test_inviting_someone_twice_renews_one_invitation(as_alice, bob, club):
    for role in ("viewer", "scorekeeper"):
        as_alice.post(members_url(club), {"user": "bob", "role": role}, format="json")
    assert list(Invitation.objects.filter(invitee=bob).values_list("role", flat=True)) == [
        "scorekeeper"
    ]


def test_posting_an_existing_member_changes_their_role_at_once(as_alice, club):
    response = as_alice.post(
        members_url(club), {"user": "victor", "role": "scorekeeper"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["role"] == "scorekeeper"
    assert roles(club)["victor"] == "scorekeeper"
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("client", ["as_carol", "as_victor"])
def test_only_owners_invite_by_username(request, bob, club, client):
    response = request.getfixturevalue(client).post(
        members_url(club), {"user": "bob", "role": "viewer"}, format="json"
    )
    assert response.status_code == 403
    assert not Invitation.objects.exists()


def test_the_schema_documents_the_invitation_answer(openapi_schema):
    responses = openapi_schema["paths"]["/api/v1/clubs/{id}/members/"]["post"]["responses"]
    assert {"200", "202"} <= set(responses)
    assert "201" not in responses


def test_the_invitee_may_decline_and_nobody_else_can(as_alice, as_bob, bob, club):
    as_alice.post(members_url(club), {"user": "bob", "role": "viewer"}, format="json")
    code = Invitation.objects.get(invitee=bob).code
    dora = client_for(make_user("dora"))
    assert dora.delete(f"/api/v1/invitations/{code}/").status_code == 404
    assert APIClient().delete(f"/api/v1/invitations/{code}/").status_code == 401
    assert as_bob.delete(f"/api/v1/invitations/{code}/").status_code == 204
    assert as_bob.get("/api/v1/invitations/").json()["results"] == []
    refused = as_bob.post(f"/api/v1/invitations/{code}/accept/")
    assert refused.status_code == 410
    assert [e["code"] for e in refused.json()["errors"]] == ["invitation_revoked"]
    assert "bob" not in roles(club)


def test_a_link_invitation_is_revoked_by_the_owners_not_declined(as_alice, as_bob, club):
    made = as_alice.post(
        f"/api/v1/clubs/{club.pk}/invitations/", {"role": "viewer"}, format="json"
    ).json()
    assert as_bob.delete(f"/api/v1/invitations/{made['code']}/").status_code == 403
    assert Invitation.objects.get().revoked_at is None


def test_a_username_in_another_case_invites_that_account(as_alice, bob, club):
    answer = as_alice.post(members_url(club), {"user": "BOB", "role": "viewer"}, format="json")
    assert answer.status_code == 202
    assert Invitation.objects.get(invitee=bob).role == "viewer"
