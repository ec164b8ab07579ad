"""Public results: POST/GET clubs/{id}/public-links/, DELETE .../{id}/, and the page /r/<token>/."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubnight.models import PublicLink
from matches.models import Player
from tests.clubnight.games import outright
from tests.factories import start_match, went_out


def make_link(client, club, **body):
    response = client.post(f"/api/v1/clubs/{club.pk}/public-links/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def path_of(link) -> str:
    return urlsplit(link["url"]).path


@pytest.fixture
def results(as_carol, club, roster):
    ann, ben = roster[:2]
    outright(as_carol, club, ann, ben)
    return club


def test_a_standings_link_opens_without_signing_in(as_alice, client, results):
    link = make_link(as_alice, results, scope="standings")
    assert set(link) >= {"id", "url"}
    page = client.get(path_of(link))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ann" in html and "Ben" in html and "Arlington Card Club" in html
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "<script" not in html  # works without JavaScript: there is none
    assert page["Cache-Control"] == "public, no-cache"
    assert page["ETag"].startswith('"')


def test_the_page_answers_304_while_nothing_changed(as_alice, as_carol, client, results, roster):
    link = make_link(as_alice, results, scope="standings")
    tag = client.get(path_of(link))["ETag"]
    again = client.get(path_of(link), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert again.content == b""
    outright(as_carol, results, roster[2], roster[3])
    changed = client.get(path_of(link), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert "Cleo" in changed.content.decode()


def test_the_page_takes_few_queries(as_alice, client, results):
    link = make_link(as_alice, results, scope="standings")
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path_of(link)).status_code == 200
    assert len(queries) <= 4


def test_a_revoked_link_is_a_404(as_alice, client, results):
    link = make_link(as_alice, results, scope="standings")
    listed = as_alice.get(f"/api/v1/clubs/{results.pk}/public-links/").json()
    assert [item["id"] for item in listed["results"]] == [link["id"]]
    deleted = as_alice.delete(f"/api/v1/clubs/{results.pk}/public-links/{link['id']}/")
    assert deleted.status_code == 204
    assert client.get(path_of(link)).status_code == 404
    again = as_alice.delete(f"/api/v1/clubs/{results.pk}/public-links/{link['id']}/")
    assert again.status_code == 404
    assert as_alice.get(f"/api/v1/clubs/{results.pk}/public-links/").json()["count"] == 0


def test_an_unknown_token_is_a_404(client, results):
    assert client.get("/r/not-a-token-anyone-made/").status_code == 404


def test_tokens_are_long_and_distinct(as_alice, results):
    links = [make_link(as_alice, results, scope="standings") for _ in range(3)]
    tokens = {path_of(link).strip("/").split("/")[-1] for link in links}
    assert len(tokens) == 3
    assert all(len(token) >= 32 for token in tokens)


def test_a_match_link_shows_that_match_only(as_alice, as_carol, client, club, roster):
    ann, ben, cleo, dev = roster[:4]
    shown = start_match(as_carol, club, [ann, ben], table="Window")
    start_match(as_carol, club, [cleo, dev], table="Bar")
    link = make_link(as_alice, club, scope="match", match=shown["id"])
    html = client.get(path_of(link)).content.decode()
    assert "Window" in html and "Ann" in html and "Ben" in html
    assert "Cleo" not in html and "Bar" not in html


def test_a_tournament_link_shows_its_leaderboard_and_tables(
    as_alice, as_carol, client, club, crowd
):
    created = as_carol.post(
        "/api/v1/tournaments/",
        {"club": club.pk, "name": "Friday cup", "players": [p.pk for p in crowd[:9]]},
        format="json",
    ).json()
    as_carol.post(f"/api/v1/tournaments/{created['id']}/rounds/", {}, format="json")
    link = make_link(as_alice, club, scope="tournament", tournament=created["id"])
    html = client.get(path_of(link)).content.decode()
    assert "Friday cup" in html and "Table 1" in html and "Table 2" in html
    assert all(p.name in html for p in crowd[:9])
    assert crowd[9].name not in html


def test_a_link_never_shows_another_club(as_alice, as_bob, client, results, bobs_club, roster):
    bobs = [Player.objects.create(club=bobs_club, name=n) for n in ("Zed", "Yan")]
    bobs_match = start_match(as_bob, bobs_club, bobs)
    refused = as_alice.post(
        f"/api/v1/clubs/{results.pk}/public-links/",
        {"scope": "match", "match": bobs_match["id"]},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "match_not_in_club"
    alices = make_link(as_alice, results, scope="standings")
    bobs_link = make_link(as_bob, bobs_club, scope="standings")
    assert "Zed" not in client.get(path_of(alices)).content.decode()
    assert "Ann" not in client.get(path_of(bobs_link)).content.decode()
    # Bob cannot list, make or revoke Alice's links: her club is not his to see.
    link_id = alices["id"]
    assert as_bob.get(f"/api/v1/clubs/{results.pk}/public-links/").status_code == 404
    assert as_bob.delete(f"/api/v1/clubs/{results.pk}/public-links/{link_id}/").status_code == 404
    assert as_bob.delete(f"/api/v1/clubs/{bobs_club.pk}/public-links/{link_id}/").status_code == 404
    assert PublicLink.objects.filter(pk=link_id).exists()


def test_only_owners_manage_links(as_carol, as_victor, client, results):
    for member, role in ((as_carol, "scorekeeper"), (as_victor, "viewer")):
        url = f"/api/v1/clubs/{results.pk}/public-links/"
        assert member.get(url).status_code == 403
        refused = member.post(url, {"scope": "standings"}, format="json")
        assert refused.status_code == 403
        assert refused.json()["errors"][0]["detail"] == (
            f"Only the club's owners may do this, and you are a {role} in it."
        )
    assert client.get(f"/api/v1/clubs/{results.pk}/public-links/").status_code in (401, 403)


def test_a_match_link_needs_its_match(as_alice, results):
    response = as_alice.post(
        f"/api/v1/clubs/{results.pk}/public-links/", {"scope": "match"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "match"


def test_renaming_the_club_or_a_player_changes_the_standings_page(as_alice, client, results):
    link = make_link(as_alice, results, scope="standings")
    tag = client.get(path_of(link))["ETag"]
    results.name = "Arlington Whist and Rummy"
    results.save()
    renamed = client.get(path_of(link), HTTP_IF_NONE_MATCH=tag)
    assert renamed.status_code == 200
    assert "Arlington Whist and Rummy" in renamed.content.decode()
    tag = renamed["ETag"]
    ann = Player.objects.get(club=results, name="Ann")
    ann.name = "Annabel"
    ann.save()
    again = client.get(path_of(link), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200
    assert "Annabel" in again.content.decode()


def test_a_match_page_answers_304_until_a_hand_is_recorded(
    as_alice, as_carol, client, club, roster
):
    ann, ben = roster[:2]
    match = start_match(as_carol, club, [ann, ben])
    link = make_link(as_alice, club, scope="match", match=match["id"])
    tag = client.get(path_of(link))["ETag"]
    assert client.get(path_of(link), HTTP_IF_NONE_MATCH=tag).status_code == 304
    as_carol.post(
        f"/api/v1/matches/{match['id']}/hands/", went_out(ann.pk, [ann.pk, ben.pk]), format="json"
    )
    after = client.get(path_of(link), HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200
    assert "340" in after.content.decode()


def test_only_a_tournaments_page_runs_a_script_and_only_the_sites_own(
    as_alice, as_carol, client, results, roster
):
    tournament = as_carol.post(
        "/api/v1/tournaments/",
        {"club": results.pk, "name": "Tuesday night", "players": [p.pk for p in roster[:4]]},
        format="json",
    ).json()["id"]
    night = client.get(
        path_of(make_link(as_alice, results, scope="tournament", tournament=tournament))
    )
    policy = night["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy and "http" not in policy
    assert 'data-refresh="60"' in night.content.decode()  # no round in play: seldom
    standings = client.get(path_of(make_link(as_alice, results, scope="standings")))
    assert "script-src" not in standings["Content-Security-Policy"]
    assert '<a href="/r/rating/">' in standings.content.decode()


def test_the_rating_is_explained_to_anyone(client):
    page = client.get("/r/rating/", HTTP_ACCEPT_LANGUAGE="pt")
    assert page.status_code == 200
    assert "Como funciona o nível" in page.content.decode()
    assert page["Content-Security-Policy"].startswith("default-src 'none'")


@pytest.mark.parametrize(("language", "separator"), [("en", ","), ("fr", "\xa0")])
def test_points_are_grouped_by_thousands_as_the_app_shows_them(
    as_alice, client, results, language, separator
):
    """ "1525" is read as a code, not a score: the public pages group thousands as the app does,
    in the reader's language."""
    link = make_link(as_alice, results, scope="standings")
    rows = as_alice.get(f"/api/v1/clubs/{results.pk}/standings/").json()
    best = max(row["points"] for row in rows)
    assert best >= 1000  # the match was won past 1,000
    html = client.get(path_of(link), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    grouped = f"{best // 1000}{separator}{best % 1000:03}"
    assert f">{grouped}<" in html
    assert f">{best}<" not in html
