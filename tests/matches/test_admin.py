"""The admin shows clubs, matches and hands; scores change only through the services."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from matches.models import Club, Hand, HandResult, HandRevision, Match, MatchStatus, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_with_demo() -> Client:
    call_command("seed_demo", stdout=StringIO())
    client = Client()
    client.force_login(get_user_model().objects.get(username="demo"))
    return client


@pytest.fixture
def hand() -> Hand:
    return Hand.objects.filter(match__status=MatchStatus.FINISHED).get(number=1)


@pytest.mark.parametrize("model", ["club", "match", "hand", "handrevision", "player", "season"])
def test_changelists_load(admin_client_with_demo, model):
    response = admin_client_with_demo.get(f"/admin/matches/{model}/")

    assert response.status_code == 200


def test_club_change_page_shows_memberships(admin_client_with_demo):
    club = Club.objects.get()

    response = admin_client_with_demo.get(f"/admin/matches/club/{club.pk}/change/")

    assert response.status_code == 200
    assert "owner" in response.content.decode()


def test_match_change_page_shows_seats(admin_client_with_demo):
    match = Match.objects.get(status=MatchStatus.FINISHED)

    response = admin_client_with_demo.get(f"/admin/matches/match/{match.pk}/change/")

    assert response.status_code == 200
    assert str(match.seats.get(winner=True).total) in response.content.decode()


def test_hand_change_page_shows_melds_in_notation(admin_client_with_demo, hand):
    response = admin_client_with_demo.get(f"/admin/matches/hand/{hand.pk}/change/")

    page = response.content.decode()
    assert response.status_code == 200
    assert "JS 2D=QS KS (run, 70) · 7H 7D 2C=7S (set, 15)" in page
    assert "2D 4H 8S" in page


def test_hands_cannot_be_added_changed_or_deleted(admin_client_with_demo, hand):
    before = (Hand.objects.count(), HandResult.objects.count())

    add = admin_client_with_demo.get("/admin/matches/hand/add/")
    delete = admin_client_with_demo.post(f"/admin/matches/hand/{hand.pk}/delete/", {"post": "yes"})
    change = admin_client_with_demo.post(f"/admin/matches/hand/{hand.pk}/change/", {"number": 9})

    assert (add.status_code, delete.status_code, change.status_code) == (403, 403, 403)
    assert (Hand.objects.count(), HandResult.objects.count()) == before


@pytest.mark.parametrize("model", ["handresult", "handrevision", "idempotencyrecord"])
def test_scores_cannot_be_added_in_the_admin(admin_client_with_demo, model):
    response = admin_client_with_demo.get(f"/admin/matches/{model}/add/")

    assert response.status_code in (403, 404)


def test_revisions_cannot_be_deleted(admin_client_with_demo):
    revision = HandRevision.objects.first()

    response = admin_client_with_demo.post(
        f"/admin/matches/handrevision/{revision.pk}/delete/", {"post": "yes"}
    )

    assert response.status_code == 403
    assert HandRevision.objects.filter(pk=revision.pk).exists()


def test_a_finished_match_cannot_be_deleted_behind_its_standings(admin_client_with_demo):
    match = Match.objects.get(status=MatchStatus.FINISHED)

    response = admin_client_with_demo.post(
        f"/admin/matches/match/{match.pk}/delete/", {"post": "yes"}
    )

    assert response.status_code == 403
    assert Match.objects.filter(pk=match.pk).exists()


def test_a_season_with_a_finished_match_cannot_be_deleted(admin_client_with_demo):
    finished = Match.objects.get(status=MatchStatus.FINISHED)
    counted = finished.season or Season.objects.create(club=finished.club, name="Counted")
    Match.objects.filter(pk=finished.pk).update(season=counted)
    empty = Season.objects.create(club=finished.club, name="Nothing finished")

    refused = admin_client_with_demo.post(
        f"/admin/matches/season/{counted.pk}/delete/", {"post": "yes"}
    )
    allowed = admin_client_with_demo.post(
        f"/admin/matches/season/{empty.pk}/delete/", {"post": "yes"}
    )

    assert refused.status_code == 403
    assert Season.objects.filter(pk=counted.pk).exists()
    assert allowed.status_code == 302
    assert not Season.objects.filter(pk=empty.pk).exists()


def test_matches_cannot_be_added_and_only_table_and_season_change(admin_client_with_demo):
    match = Match.objects.get(status=MatchStatus.IN_PROGRESS)
    season = match.season

    add = admin_client_with_demo.get("/admin/matches/match/add/")
    change = admin_client_with_demo.post(
        f"/admin/matches/match/{match.pk}/change/",
        {
            "table": "Table 9",
            "season": season.pk,
            "hands_played": 99,
            "status": "finished",
            "seats-TOTAL_FORMS": 0,
            "seats-INITIAL_FORMS": 0,
        },
    )

    assert add.status_code == 403
    assert change.status_code == 302
    match.refresh_from_db()
    assert (match.table, match.hands_played, match.status) == ("Table 9", 2, "in_progress")


def test_hand_changelist_runs_a_fixed_number_of_queries(
    admin_client_with_demo, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        response = admin_client_with_demo.get("/admin/matches/hand/")

    assert response.status_code == 200


def club_form(club: Club, role: str) -> dict[str, str]:
    membership = club.memberships.get()
    return {
        "name": club.name,
        "second_entry": club.second_entry,
        "memberships-TOTAL_FORMS": "1",
        "memberships-INITIAL_FORMS": "1",
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
        "memberships-0-id": str(membership.pk),
        "memberships-0-club": str(club.pk),
        "memberships-0-user": str(membership.user_id),
        "memberships-0-role": role,
    }


def test_the_admin_keeps_a_clubs_last_owner(admin_client_with_demo):
    club = Club.objects.get()
    url = f"/admin/matches/club/{club.pk}/change/"

    refused = admin_client_with_demo.post(url, club_form(club, "viewer"))
    accepted = admin_client_with_demo.post(url, club_form(club, "owner"))

    assert refused.status_code == 200  # the form again, with the error
    assert accepted.status_code == 302
    assert club.memberships.get().role == "owner"


def user_form_data(user) -> dict:
    """The admin's change form of ``user`` as it was shown, fields as the browser posts them."""
    from accounts.admin import AccountChangeForm

    shown = AccountChangeForm(instance=user)
    data = {}
    for name, field in shown.fields.items():
        value = shown.initial.get(name, field.initial)
        if name in {"groups", "user_permissions"}:
            data[name] = [getattr(item, "pk", item) for item in value or []]
        elif name in {"last_login", "date_joined"}:
            data[name] = value.strftime("%Y-%m-%d %H:%M:%S") if value else ""
        elif value not in (None, False):
            data[name] = value
    return data


def test_the_admin_refuses_a_username_another_account_has_in_another_case(db):
    """As sign-up does: `ÉMILE` beside `émile`, whether a new account or one renamed, would
    make a third spelling typed at sign-in name neither. An account keeps its own name in
    another case."""
    from accounts.admin import AccountChangeForm, AccountCreationForm

    users = get_user_model().objects
    users.create_user("émile")
    bob = users.create_user("bob")
    phrase = "a long enough Passphrase 7"
    password = {"password1": phrase, "password2": phrase}
    created = AccountCreationForm(data={"username": "ÉMILE", "usable_password": "true", **password})
    assert not created.is_valid()
    assert [e.code for e in created.errors.as_data()["username"]] == ["unique"]

    renamed = AccountChangeForm(instance=bob, data={**user_form_data(bob), "username": "ÉMILE"})
    assert not renamed.is_valid()
    assert [e.code for e in renamed.errors.as_data()["username"]] == ["unique"]

    bob.refresh_from_db()
    own = AccountChangeForm(instance=bob, data={**user_form_data(bob), "username": "BOB"})
    assert own.is_valid(), own.errors
    own.save()
    assert users.filter(username="BOB").exists()


def test_the_admin_still_edits_accounts_made_before_the_rule_that_differ_in_case(db):
    """Two accounts made before sign-up refused names that differ only in case: each can still
    be changed in the admin, its name kept as it is."""
    from accounts.admin import AccountChangeForm

    users = get_user_model().objects
    users.create_user("legacy")
    other = users.create_user("LEGACY")
    kept = AccountChangeForm(instance=other, data={**user_form_data(other), "is_staff": True})
    assert kept.is_valid(), kept.errors
    kept.save()
    assert users.get(pk=other.pk).is_staff


def test_the_admin_pages_of_users_use_the_case_rule(admin_client_with_demo):
    from accounts.admin import AccountAdmin

    assert isinstance(admin.site._registry[get_user_model()], AccountAdmin)
    assert admin_client_with_demo.get("/admin/auth/user/add/").status_code == 200
