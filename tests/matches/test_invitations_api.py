"""Invitations: owners invite by link; people sign up or accept; owners list and revoke."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from matches.models import Club, Invitation, Membership, Player
from tests.factories import client_for, make_user

STRONG = "a-long-pass-phrase-9"


def invitations_url(club: Club) -> str:
    return f"/api/v1/clubs/{club.pk}/invitations/"


def codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


def invite(client: APIClient, club: Club, **body) -> dict:
    response = client.post(invitations_url(club), {"role": "viewer", **body}, format="json")
    assert response.status_code == 201, response.content
    return {**response.json(), "location": response["Location"]}


def roles(club: Club) -> dict[str, str]:
    return dict(Membership.objects.filter(club=club).values_list("user__username", "role"))


def test_an_owner_creates_an_invitation_with_sensible_defaults(as_alice, club):
    before = timezone.now()
    made = invite(as_alice, club, role="scorekeeper")
    assert {"id", "code", "url", "role", "expires_at", "uses", "max_uses"} <= set(made)
    assert made["role"] == "scorekeeper"
    assert made["uses"] == 0 and made["max_uses"] is None  # unlimited unless given
    expires = dt.datetime.fromisoformat(made["expires_at"])
    assert before + dt.timedelta(days=7) <= expires <= timezone.now() + dt.timedelta(days=7)
    assert made["url"] == f"http://testserver/join/{made['code']}"
    assert made["location"] == f"http://testserver{invitations_url(club)}{made['id']}/"


def test_codes_are_long_random_and_distinct(as_alice, club):
    found = {invite(as_alice, club)["code"] for _ in range(5)}
    assert len(found) == 5
    for code in found:
        assert len(code) >= 32
        assert code.replace("-", "").replace("_", "").isalnum()


def test_an_owner_sets_the_expiry_and_the_number_of_uses(as_alice, club):
    when = timezone.now() + dt.timedelta(days=2)
    made = invite(as_alice, club, expires_at=when.isoformat(), max_uses=3)
    assert dt.datetime.fromisoformat(made["expires_at"]) == when
    assert made["max_uses"] == 3


@pytest.mark.parametrize(
    ("body", "code", "attr"),
    [
        ({"role": "emperor"}, "invalid_choice", "role"),
        ({}, "required", "role"),
        ({"role": "viewer", "max_uses": 0}, "min_value", "max_uses"),
        ({"role": "viewer", "expires_at": "2001-01-01T00:00:00Z"}, "expires_in_past", "expires_at"),
    ],
)
def test_a_bad_invitation_is_a_400_and_creates_nothing(as_alice, club, body, code, attr):
    response = as_alice.post(invitations_url(club), body, format="json")
    assert response.status_code == 400
    assert codes(response) == [(code, attr)]
    assert not Invitation.objects.exists()


@pytest.mark.parametrize(
    ("client", "status"), [("as_carol", 403), ("as_victor", 403), ("as_bob", 404)]
)
def test_only_owners_create_list_and_revoke(request, as_alice, club, client, status):
    made = invite(as_alice, club)
    caller = request.getfixturevalue(client)
    assert (
        caller.post(invitations_url(club), {"role": "owner"}, format="json").status_code == status
    )
    assert caller.get(invitations_url(club)).status_code == status
    assert caller.delete(made["location"]).status_code == status
    assert Invitation.objects.count() == 1
    assert Invitation.objects.get().revoked_at is None


def test_anonymous_callers_cannot_manage_invitations(club):
    assert APIClient().get(invitations_url(club)).status_code == 401


def test_the_owner_lists_the_clubs_invitations_only(as_alice, as_bob, club, bobs_club):
    mine = invite(as_alice, club)
    invite(as_bob, bobs_club)
    response = as_alice.get(invitations_url(club))
    assert response.status_code == 200
    assert [row["code"] for row in response.json()["results"]] == [mine["code"]]


def test_anyone_may_read_an_invitation_but_only_its_club_name_and_role(as_alice, club):
    made = invite(as_alice, club, role="scorekeeper")
    response = APIClient().get(f"/api/v1/invitations/{made['code']}/")
    assert response.status_code == 200
    assert response.json() == {"club": "Arlington Card Club", "role": "scorekeeper", "player": None}


def test_an_unknown_code_is_not_found(db):
    for method, suffix in (("get", ""), ("post", "accept/"), ("post", "signup/")):
        client = client_for(make_user("dora")) if suffix == "accept/" else APIClient()
        body = {"username": "eve", "password": STRONG} if suffix == "signup/" else None
        response = getattr(client, method)(
            f"/api/v1/invitations/not-a-code/{suffix}", body, format="json"
        )
        assert response.status_code == 404, (method, suffix)
        assert codes(response) == [("not_found", None)]


def test_a_signed_in_user_accepts_and_gets_the_role(as_alice, as_bob, bob, club):
    made = invite(as_alice, club, role="scorekeeper")
    response = as_bob.post(f"/api/v1/invitations/{made['code']}/accept/")
    assert response.status_code == 201
    assert response.json() == {"club": club.pk, "club_name": club.name, "role": "scorekeeper"}
    assert response["Location"] == f"http://testserver/api/v1/clubs/{club.pk}/"
    assert roles(club)["bob"] == "scorekeeper"
    assert as_bob.get(f"/api/v1/clubs/{club.pk}/").json()["role"] == "scorekeeper"
    assert Invitation.objects.get().uses == 1


def test_accepting_needs_a_login(as_alice, club):
    made = invite(as_alice, club)
    assert APIClient().post(f"/api/v1/invitations/{made['code']}/accept/").status_code == 401


def test_a_member_who_accepts_again_is_told_so_and_keeps_their_role(as_alice, as_victor, club):
    made = invite(as_alice, club, role="owner")
    response = as_victor.post(f"/api/v1/invitations/{made['code']}/accept/")
    assert response.status_code == 409
    assert codes(response) == [("already_a_member", None)]
    assert roles(club)["victor"] == "viewer"
    assert Invitation.objects.get().uses == 0


def test_a_revoked_invitation_is_gone(as_alice, as_bob, club):
    made = invite(as_alice, club)
    assert as_alice.delete(made["location"]).status_code == 204
    for response in (
        APIClient().get(f"/api/v1/invitations/{made['code']}/"),
        as_bob.post(f"/api/v1/invitations/{made['code']}/accept/"),
    ):
        assert response.status_code == 410
        assert codes(response) == [("invitation_revoked", None)]
    assert "bob" not in roles(club)
    listed = as_alice.get(invitations_url(club)).json()["results"]
    assert [row["state"] for row in listed] == ["revoked"]


def test_an_expired_invitation_is_gone(as_alice, as_bob, club):
    made = invite(as_alice, club)
    Invitation.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    signup = APIClient().post(
        f"/api/v1/invitations/{made['code']}/signup/",
        {"username": "dora", "password": STRONG},
        format="json",
    )
    for response in (
        APIClient().get(f"/api/v1/invitations/{made['code']}/"),
        as_bob.post(f"/api/v1/invitations/{made['code']}/accept/"),
        signup,
    ):
        assert response.status_code == 410
        assert codes(response) == [("invitation_expired", None)]
    assert not get_user_model().objects.filter(username="dora").exists()


def test_a_used_up_invitation_is_gone(as_alice, as_bob, club):
    made = invite(as_alice, club, max_uses=1)
    assert as_bob.post(f"/api/v1/invitations/{made['code']}/accept/").status_code == 201
    late = client_for(make_user("dora")).post(f"/api/v1/invitations/{made['code']}/accept/")
    assert late.status_code == 410
    assert codes(late) == [("invitation_used_up", None)]
    assert "dora" not in roles(club)


def test_an_invitation_from_another_club_cannot_be_revoked_through_mine(
    as_alice, as_bob, club, bobs_club
):
    theirs = invite(as_bob, bobs_club)
    assert as_alice.delete(f"{invitations_url(club)}{theirs['id']}/").status_code == 404
    assert Invitation.objects.get().revoked_at is None


def test_a_newcomer_signs_up_and_is_signed_in_with_the_role(as_alice, club):
    made = invite(as_alice, club, role="scorekeeper")
    response = APIClient().post(
        f"/api/v1/invitations/{made['code']}/signup/",
        {"username": "dora", "password": STRONG},
        format="json",
    )
    assert response.status_code == 201
    assert {"token", "expiry", "name"} <= set(response.json())
    dora = get_user_model().objects.get(username="dora")
    assert dora.check_password(STRONG)
    assert roles(club)["dora"] == "scorekeeper"
    caller = APIClient()
    caller.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert [c["role"] for c in caller.get("/api/v1/clubs/").json()["results"]] == ["scorekeeper"]


def test_a_taken_username_is_a_400_and_changes_nothing(as_alice, bob, club):
    made = invite(as_alice, club)
    response = APIClient().post(
        f"/api/v1/invitations/{made['code']}/signup/",
        {"username": "BOB", "password": STRONG},
        format="json",
    )
    assert response.status_code == 400
    assert codes(response) == [("username_taken", "username")]
    assert "bob" not in roles(club) and Invitation.objects.get().uses == 0


@pytest.mark.parametrize("taken", ["ÉMILE7X", "émile7x", "Ωmega7", "ωMEGA7"])
def test_a_username_taken_in_another_case_beyond_ascii_is_a_400(as_alice, club, taken):
    """Case is ignored beyond ASCII's letters too (the embedded-database test asks SQLite)."""
    first = "Émile7x" if "mile" in taken.lower() else "Ωmega7"
    code = invite(as_alice, club)["code"]
    signup = f"/api/v1/invitations/{code}/signup/"
    made = APIClient().post(signup, {"username": first, "password": STRONG}, format="json")
    assert made.status_code == 201
    again = APIClient().post(signup, {"username": taken, "password": STRONG}, format="json")
    assert again.status_code == 400
    assert codes(again) == [("username_taken", "username")]


def test_an_owners_invitation_is_for_one_person_unless_said_otherwise(as_alice, club):
    once = invite(as_alice, club, role="owner")
    assert once["max_uses"] == 1
    made = as_alice.post(
        invitations_url(club), {"role": "owner", "max_uses": 3}, format="json"
    ).json()
    assert made["max_uses"] == 3
    assert invite(as_alice, club, role="scorekeeper")["max_uses"] is None


def test_a_username_is_kept_as_the_sign_in_form_reads_it(as_alice, club):
    """Full-width letters and the Kelvin sign are kept as their plain letters (NFKC), as the
    sign-in form reads them: the account can sign in there, and no look-alike name is made."""
    signed_up = APIClient().post(
        f"/api/v1/invitations/{invite(as_alice, club)['code']}/signup/",
        {"username": "\uff4belvin7", "password": STRONG},
        format="json",
    )
    assert signed_up.status_code == 201
    assert "kelvin7" in roles(club)
    look_alike = APIClient().post(
        f"/api/v1/invitations/{invite(as_alice, club)['code']}/signup/",
        {"username": "\u212aelvin7", "password": STRONG},
        format="json",
    )
    assert look_alike.status_code == 400
    assert codes(look_alike) == [("username_taken", "username")]
    assert get_user_model().objects.filter(username__iexact="kelvin7").count() == 1


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("short1!", "password_too_short"),
        ("password123", "password_too_common"),
        ("83920174659", "password_entirely_numeric"),
    ],
)
def test_a_weak_password_is_refused_by_djangos_validators(as_alice, club, password, code):
    made = invite(as_alice, club)
    response = APIClient().post(
        f"/api/v1/invitations/{made['code']}/signup/",
        {"username": "dora", "password": password},
        format="json",
    )
    assert response.status_code == 400
    assert (code, "password") in codes(response)
    assert not get_user_model().objects.filter(username="dora").exists()


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("pt", "Esta palavra-passe é demasiado curta. Deve ter pelo menos 8 caracteres."),
        ("fr", "Ce mot de passe est trop court. Il doit contenir au minimum 8 caractères."),
    ],
)
def test_a_short_password_is_refused_in_the_language_of_the_request(
    as_alice, club, language, sentence
):
    """Django's own Portuguese catalogue leaves this sentence untranslated: the project's has it."""
    made = invite(as_alice, club)
    response = APIClient().post(
        f"/api/v1/invitations/{made['code']}/signup/",
        {"username": "dora", "password": "x7#"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    details = [e["detail"] for e in response.json()["errors"] if e["code"] == "password_too_short"]
    assert details == [sentence]


@pytest.mark.parametrize(
    ("body", "code", "attr"),
    [
        ({"password": STRONG}, "required", "username"),
        ({"username": "dora"}, "required", "password"),
        ({"username": "no spaces allowed", "password": STRONG}, "invalid", "username"),
    ],
)
def test_a_signup_without_a_good_username_or_password_is_a_400(as_alice, club, body, code, attr):
    made = invite(as_alice, club)
    response = APIClient().post(f"/api/v1/invitations/{made['code']}/signup/", body, format="json")
    assert response.status_code == 400
    assert codes(response) == [(code, attr)]


def test_errors_speak_the_callers_language(as_alice, club):
    made = invite(as_alice, club)
    Invitation.objects.update(revoked_at=timezone.now())
    url = f"/api/v1/invitations/{made['code']}/"
    english = APIClient().get(url).json()["errors"][0]["detail"]
    for language in ("pt", "fr"):
        answer = APIClient().get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert answer["Content-Language"] == language
        assert codes(answer) == [("invitation_revoked", None)]
        assert answer.json()["errors"][0]["detail"] != english


def test_using_codes_is_throttled(as_alice, club, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"invitations": "2/min"})
    made = invite(as_alice, club)
    statuses = [
        APIClient().get(f"/api/v1/invitations/{guess}/").status_code
        for guess in (made["code"], "guess-1", "guess-2")
    ]
    assert statuses == [200, 404, 429]


@pytest.mark.parametrize("code", ["%00", "a%00b", "x" * 65, "caf%C3%A9", "%ED%A0%80"])
def test_a_code_that_cannot_be_one_is_a_plain_404(as_bob, code):
    for response in (
        APIClient().get(f"/api/v1/invitations/{code}/"),
        as_bob.post(f"/api/v1/invitations/{code}/accept/"),
    ):
        assert response.status_code == 404
        assert codes(response) == [("not_found", None)]


def test_a_nul_byte_in_a_username_to_invite_is_a_400(as_alice, club):
    response = as_alice.post(
        f"/api/v1/clubs/{club.pk}/members/", {"user": "bob\u0000", "role": "viewer"}, format="json"
    )
    assert response.status_code == 400
    assert codes(response) == [("null_characters_not_allowed", "user")]


# --- an invitation for one of the roster's players ------------------------------------------


@pytest.fixture
def cleo(club) -> Player:
    return Player.objects.create(club=club, name="Cleo")


def test_an_invitation_naming_a_player_links_the_newcomer_who_signs_up(as_alice, club, cleo):
    made = invite(as_alice, club, player=cleo.pk)
    assert made["player"] == cleo.pk and made["max_uses"] == 1  # one person is Cleo
    preview = APIClient().get(f"/api/v1/invitations/{made['code']}/").json()
    assert preview == {"club": club.name, "role": "viewer", "player": "Cleo"}
    signup = APIClient().post(
        f"/api/v1/invitations/{made['code']}/signup/",
        {"username": "cleo", "password": STRONG},
        format="json",
    )
    assert signup.status_code == 201, signup.content
    cleo.refresh_from_db()
    assert cleo.user is not None and cleo.user.username == "cleo"
    assert roles(club)["cleo"] == "viewer"


def test_an_invitation_naming_a_player_links_a_user_who_accepts(as_alice, as_bob, bob, club, cleo):
    made = invite(as_alice, club, player=cleo.pk, max_uses=5)
    assert made["max_uses"] == 5
    assert as_bob.post(f"/api/v1/invitations/{made['code']}/accept/").status_code == 201
    cleo.refresh_from_db()
    assert cleo.user == bob


def test_a_player_who_got_a_login_meanwhile_keeps_it(as_alice, as_bob, club, cleo, victor):
    made = invite(as_alice, club, player=cleo.pk)
    cleo.user = victor
    cleo.save()
    preview = APIClient().get(f"/api/v1/invitations/{made['code']}/").json()
    assert preview["player"] is None  # the newcomer would not become Cleo: not promised
    assert as_bob.post(f"/api/v1/invitations/{made['code']}/accept/").status_code == 201
    cleo.refresh_from_db()
    assert cleo.user == victor


def test_a_login_that_is_another_player_already_is_not_made_the_named_one_too(
    as_alice, as_bob, bob, club, cleo
):
    """A login is one player's. Bob, no member but still Ann (a link that a removal raced past
    before links were decided under the club's lock), joins by an invitation naming Cleo: he
    is not made Cleo as well."""
    ann = Player.objects.create(club=club, name="Ann", user=bob)
    made = invite(as_alice, club, player=cleo.pk)
    assert as_bob.post(f"/api/v1/invitations/{made['code']}/accept/").status_code == 201
    cleo.refresh_from_db()
    ann.refresh_from_db()
    assert (cleo.user, ann.user) == (None, bob)


def test_an_invitation_for_a_player_who_has_a_login_is_refused(as_alice, club, cleo, victor):
    cleo.user = victor
    cleo.save()
    response = as_alice.post(
        invitations_url(club), {"role": "viewer", "player": cleo.pk}, format="json"
    )
    assert response.status_code == 400
    assert codes(response) == [("player_has_login", "player")]
    assert response.json()["errors"][0]["detail"].startswith("Cleo already has a login")
    assert not Invitation.objects.exists()


def test_only_a_player_of_the_club_can_be_named(as_alice, club, bobs_club):
    stranger = Player.objects.create(club=bobs_club, name="Stranger")
    for player in (stranger.pk, 10**9, "abc"):
        response = as_alice.post(
            invitations_url(club), {"role": "viewer", "player": player}, format="json"
        )
        assert response.status_code == 400
        assert [attr for _, attr in codes(response)] == ["player"]
    assert not Invitation.objects.exists()
