"""What the server sends beside the body: Location on creation, a 406 for a format not offered."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import record, start_match, went_out


def test_creating_a_club_answers_its_location(as_bob):
    response = as_bob.post("/api/v1/clubs/", {"name": "Thursday Table"}, format="json")
    assert response.status_code == 201
    assert response["Location"] == f"http://testserver/api/v1/clubs/{response.json()['id']}/"
    assert as_bob.get(response["Location"]).status_code == 200


def test_creating_a_player_and_a_season_answers_their_locations(as_alice, club):
    player = as_alice.post("/api/v1/players/", {"club": club.pk, "name": "Zed"}, format="json")
    assert player["Location"].endswith(f"/api/v1/players/{player.json()['id']}/")
    assert as_alice.get(player["Location"]).json()["name"] == "Zed"
    season = as_alice.post(
        "/api/v1/seasons/",
        {"club": club.pk, "name": "Autumn", "starts_on": str(dt.date(2025, 9, 1))},
        format="json",
    )
    assert season["Location"].endswith(f"/api/v1/seasons/{season.json()['id']}/")


def test_starting_a_match_and_recording_a_hand_answer_their_locations(as_carol, club, roster):
    match = as_carol.post(
        "/api/v1/matches/", {"club": club.pk, "players": [p.pk for p in roster[:3]]}, format="json"
    )
    assert match["Location"].endswith(f"/api/v1/matches/{match.json()['id']}/")
    seated = [p.pk for p in roster[:3]]
    hand = record(as_carol, match.json()["id"], went_out(seated[0], seated))
    assert hand["Location"].endswith(f"/api/v1/matches/{match.json()['id']}/hands/1/")
    assert as_carol.get(hand["Location"]).json()["number"] == 1


def test_a_confirmation_and_a_live_start_answer_their_locations(as_carol, as_alice, club, roster):
    seated = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    record(as_carol, match["id"], went_out(seated[0], seated))
    confirmed = as_alice.post(f"/api/v1/matches/{match['id']}/hands/1/confirmations/")
    assert confirmed.status_code == 201
    assert confirmed["Location"] == f"http://testserver/api/v1/matches/{match['id']}/hands/1/"
    assert as_alice.get(confirmed["Location"]).json()["confirmations"]
    live = as_carol.post(f"/api/v1/matches/{match['id']}/live/", {"turned_up": "7H"}, format="json")
    assert live.status_code == 201, live.json()
    assert live["Location"] == f"http://testserver/api/v1/matches/{match['id']}/live/"
    assert as_carol.get(live["Location"])["ETag"] == live["ETag"]


@pytest.mark.parametrize(
    "url", ["/api/v1/clubs/{club}/standings/", "/api/v1/clubs/", "/api/v1/clubs/{club}/"]
)
def test_a_format_that_is_not_offered_is_a_406_that_says_so(as_victor, club, url):
    response = as_victor.get(url.format(club=club.pk), {"format": "xml"})
    assert response.status_code == 406
    assert response["Content-Type"] == "application/json"
    assert [e["code"] for e in response.json()["errors"]] == ["not_acceptable"]
    assert response.json()["errors"][0]["attr"] == "format"


@pytest.mark.parametrize("format", ["json", "xml"])
@pytest.mark.parametrize(
    "url", ["/api/v1/clubs/{club}/standings/csv/", "/api/v1/seasons/{season}/standings/csv/"]
)
def test_a_csv_url_asked_for_another_format_is_a_406_in_json(as_victor, club, url, format):
    from matches.models import Season

    season = Season.objects.create(club=club, name="Spring", starts_on=dt.date(2026, 3, 1))
    response = as_victor.get(url.format(club=club.pk, season=season.pk), {"format": format})
    assert response.status_code == 406
    assert response["Content-Type"] == "application/json"
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [
        ("not_acceptable", "format")
    ]
    assert "csv" in response.json()["errors"][0]["detail"]
    assert "Content-Disposition" not in response
    named = as_victor.get(url.format(club=club.pk, season=season.pk), {"format": "csv"})
    assert named.status_code == 200
    assert named["Content-Type"] == "text/csv; charset=utf-8"


def test_a_replayed_hand_answers_the_same_location(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:3])
    seated = [p.pk for p in roster[:3]]
    body = went_out(seated[0], seated)
    first = record(as_carol, match["id"], body, HTTP_IDEMPOTENCY_KEY="k1")
    again = record(as_carol, match["id"], body, HTTP_IDEMPOTENCY_KEY="k1")
    assert again["Idempotent-Replayed"] == "true"
    assert again["Location"] == first["Location"]


def test_the_csv_route_answers_text_and_its_errors_in_json(as_victor, as_bob, club):
    url = f"/api/v1/clubs/{club.pk}/standings/csv/"
    table = as_victor.get(url, HTTP_ACCEPT="application/json")
    assert table.status_code == 200
    assert table["Content-Type"] == "text/csv; charset=utf-8"
    assert table.content.decode("utf-8-sig").splitlines()[0].startswith("rank,player,name,")
    refused = as_victor.get(url, {"ordering": "nonsense"})
    assert refused.status_code == 400
    assert refused["Content-Type"] == "application/json"
    assert [e["code"] for e in refused.json()["errors"]] == ["invalid_ordering"]
    hidden = as_bob.get(url)
    assert hidden.status_code == 404
    assert [e["code"] for e in hidden.json()["errors"]] == ["not_found"]


def test_every_standings_csv_is_a_download_named_after_the_club_and_the_day(as_victor, club):
    from matches.models import Season

    season = Season.objects.create(club=club, name="Spring", starts_on=dt.date(2025, 3, 1))
    today = dt.datetime.now(dt.UTC).date().isoformat()
    club_wide = as_victor.get(f"/api/v1/clubs/{club.pk}/standings/csv/")
    assert club_wide["Content-Disposition"] == (
        f'attachment; filename="arlington-card-club-standings-{today}.csv"'
    )
    for url in (
        f"/api/v1/seasons/{season.pk}/standings/csv/",
        f"/api/v1/clubs/{club.pk}/standings/?season={season.pk}&format=csv",
    ):
        response = as_victor.get(url)
        assert response["Content-Type"] == "text/csv; charset=utf-8", url
        assert response["Content-Disposition"] == (
            f'attachment; filename="arlington-card-club-spring-standings-{today}.csv"'
        ), url
    # another game's table is another file: its name says which game
    for url in (
        f"/api/v1/clubs/{club.pk}/standings/csv/?ruleset=rummy",
        f"/api/v1/seasons/{season.pk}/standings/csv/?ruleset=rummy",
    ):
        rummy = as_victor.get(url)
        assert rummy.status_code == 200, url
        assert "-rummy-standings-" in rummy["Content-Disposition"], url
    as_json = as_victor.get(f"/api/v1/clubs/{club.pk}/standings/")
    assert "Content-Disposition" not in as_json
    refused = as_victor.get(f"/api/v1/clubs/{club.pk}/standings/csv/", {"ordering": "nonsense"})
    assert "Content-Disposition" not in refused


def test_every_list_that_declares_an_ordering_refuses_an_unknown_one(
    openapi_schema, as_victor, club
):
    """A list whose description offers ``?ordering=`` orders by it, and refuses a field it
    cannot order by; a list that does not order (a club's members) does not offer it."""
    from matches.models import Season

    season = Season.objects.create(club=club, name="Spring", starts_on=dt.date(2026, 3, 1))
    ids = {"clubs": club.pk, "seasons": season.pk}
    declared = [
        path
        for path, operations in openapi_schema["paths"].items()
        if any(p.get("name") == "ordering" for p in operations.get("get", {}).get("parameters", []))
    ]
    assert "/api/v1/clubs/{id}/members/" not in declared
    assert "/api/v1/clubs/{id}/standings/" in declared
    for path in declared:
        url = path.replace("{id}", str(ids.get(path.split("/")[3])))
        refused = as_victor.get(url, {"ordering": "bogus"})
        assert refused.status_code == 400, path
        assert [e["code"] for e in refused.json()["errors"]] == ["invalid_ordering"], path


def test_every_read_refused_to_a_viewer_declares_its_403(openapi_schema, as_alice, as_victor, club):
    """A club's reads that only owners may make (its invitations, its public links, its
    webhooks) are refused to a viewer with 403, and their description says so."""
    invitation = as_alice.post(
        f"/api/v1/clubs/{club.pk}/invitations/", {"role": "viewer"}, format="json"
    ).json()
    ids = {"{id}": club.pk, "{invitation}": invitation["id"]}
    refused = []
    for path, operations in openapi_schema["paths"].items():
        if "get" not in operations or not path.startswith("/api/v1/clubs/{id}/"):
            continue
        url = path
        for name, value in ids.items():
            url = url.replace(name, str(value))
        if "{" in url:
            continue  # a path of objects this test does not make
        if as_victor.get(url).status_code == 403:
            refused.append(path)
            assert "403" in operations["get"]["responses"], path
    assert {
        "/api/v1/clubs/{id}/invitations/",
        "/api/v1/clubs/{id}/invitations/{invitation}/",
        "/api/v1/clubs/{id}/public-links/",
        "/api/v1/clubs/{id}/webhooks/",
    } <= set(refused)
