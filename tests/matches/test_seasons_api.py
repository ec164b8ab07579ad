"""A club's seasons: /api/v1/seasons/ (members read; only owners create and edit)."""

from __future__ import annotations

import datetime as dt

import pytest

from matches.models import Season
from matches.services import clubs as club_services


def codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


@pytest.fixture
def spring(club) -> Season:
    return Season.objects.create(
        club=club, name="Spring", starts_on=dt.date(2025, 3, 1), ends_on=dt.date(2025, 5, 31)
    )


def test_the_owner_creates_a_season(as_alice, club):
    response = as_alice.post(
        "/api/v1/seasons/",
        {
            "club": club.pk,
            "name": "Summer",
            "starts_on": "2025-06-01",
            "ends_on": "2025-08-31",
        },
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["club"], body["name"], body["starts_on"], body["ends_on"]) == (
        club.pk,
        "Summer",
        "2025-06-01",
        "2025-08-31",
    )
    assert Season.objects.get(pk=body["id"]).club == club


def test_a_season_may_be_open_ended(as_alice, club):
    response = as_alice.post(
        "/api/v1/seasons/", {"club": club.pk, "name": "Forever"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["starts_on"] is None
    assert response.json()["ends_on"] is None


@pytest.mark.parametrize("client", ["as_carol", "as_victor"])
def test_only_an_owner_creates_seasons(client, request, club):
    response = request.getfixturevalue(client).post(
        "/api/v1/seasons/", {"club": club.pk, "name": "Summer"}, format="json"
    )
    assert response.status_code == 403
    assert codes(response) == [("permission_denied", None)]
    assert not Season.objects.exists()


@pytest.mark.parametrize("client", ["as_carol", "as_victor"])
def test_only_an_owner_edits_seasons(client, request, spring):
    response = request.getfixturevalue(client).patch(
        f"/api/v1/seasons/{spring.pk}/", {"name": "Mine"}, format="json"
    )
    assert response.status_code == 403
    spring.refresh_from_db()
    assert spring.name == "Spring"


def test_every_member_reads_the_seasons(as_victor, club, spring, bobs_club):
    Season.objects.create(club=bobs_club, name="Bob's season")
    response = as_victor.get("/api/v1/seasons/")
    assert response.status_code == 200
    assert [s["id"] for s in response.json()["results"]] == [spring.pk]
    assert as_victor.get(f"/api/v1/seasons/{spring.pk}/").json()["name"] == "Spring"


def test_seasons_are_filtered_by_club(as_alice, club, spring):
    other = club_services.club_create(name="Juniors", user=club.created_by)
    juniors = Season.objects.create(club=other, name="Juniors 2025")
    listed = as_alice.get("/api/v1/seasons/", {"club": other.pk}).json()["results"]
    assert [s["id"] for s in listed] == [juniors.pk]
    listed = as_alice.get("/api/v1/seasons/", {"club": club.pk}).json()["results"]
    assert [s["id"] for s in listed] == [spring.pk]


def test_a_season_cannot_end_before_it_starts(as_alice, club):
    response = as_alice.post(
        "/api/v1/seasons/",
        {
            "club": club.pk,
            "name": "Backwards",
            "starts_on": "2025-06-01",
            "ends_on": "2025-05-31",
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert codes(response) == [("ends_before_start", "ends_on")]
    assert not Season.objects.exists()


def test_an_edit_cannot_make_a_season_end_before_it_starts(as_alice, spring):
    response = as_alice.patch(
        f"/api/v1/seasons/{spring.pk}/", {"ends_on": "2025-02-28"}, format="json"
    )
    assert response.status_code == 400
    assert codes(response) == [("ends_before_start", "ends_on")]
    spring.refresh_from_db()
    assert spring.ends_on == dt.date(2025, 5, 31)


def test_the_owner_edits_a_season(as_alice, spring):
    response = as_alice.patch(
        f"/api/v1/seasons/{spring.pk}/", {"ends_on": "2025-06-15"}, format="json"
    )
    assert response.status_code == 200
    spring.refresh_from_db()
    assert spring.ends_on == dt.date(2025, 6, 15)


def test_a_season_name_is_unique_within_a_club(as_alice, club, spring):
    response = as_alice.post("/api/v1/seasons/", {"club": club.pk, "name": "Spring"}, format="json")
    assert response.status_code == 400
    assert codes(response) == [("unique", "name")]
    assert Season.objects.filter(club=club).count() == 1


@pytest.mark.parametrize(
    ("body", "code", "attr"),
    [
        ({"starts_on": "1 March"}, "invalid", "starts_on"),
        ({"name": ""}, "blank", "name"),
        ({"club": None}, "null", "club"),
    ],
)
def test_an_unreadable_season_is_a_400(as_alice, club, body, code, attr):
    response = as_alice.post(
        "/api/v1/seasons/", {"club": club.pk, "name": "S", **body}, format="json"
    )
    assert response.status_code == 400
    assert (code, attr) in codes(response)
    assert not Season.objects.exists()
