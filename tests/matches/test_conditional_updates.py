"""Clubs, players and seasons carry an ETag; a change sent with a stale If-Match is refused.

PATCH and PUT apply to the row as it is when the change is made (read under a row lock), so a
change never undoes one it has not seen (tests/matches/test_lost_updates.py races them); a
client that must not overwrite a change to the *same* field sends If-Match, as with hands.
"""

from __future__ import annotations

import pytest

from matches.models import Club, Membership, Player, Season
from tests.factories import record, went_out

RESOURCES = ["clubs", "players", "seasons"]


@pytest.fixture
def objects(alices_world):
    return {
        "clubs": alices_world.club,
        "players": alices_world.player,
        "seasons": alices_world.season,
    }


def url(objects, kind: str) -> str:
    return f"/api/v1/{kind}/{objects[kind].pk}/"


@pytest.mark.parametrize("kind", RESOURCES)
def test_a_read_carries_a_strong_etag_that_a_change_moves_on(as_alice, objects, kind):
    first = as_alice.get(url(objects, kind))
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert as_alice.get(url(objects, kind))["ETag"] == etag
    changed = as_alice.patch(
        url(objects, kind), {"name": "Renamed"}, format="json", HTTP_IF_MATCH=etag
    )
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    read = as_alice.get(url(objects, kind))["ETag"]
    if kind == "players":  # a read adds the record: the same first part, another answer
        assert read.split(".")[0] == changed["ETag"].split(".")[0]
    else:
        assert read == changed["ETag"]


@pytest.mark.parametrize("kind", RESOURCES)
@pytest.mark.parametrize("method", ["patch", "put"])
def test_a_change_with_a_stale_etag_is_refused_and_changes_nothing(as_alice, objects, kind, method):
    etag = as_alice.get(url(objects, kind))["ETag"]
    assert as_alice.patch(url(objects, kind), {"name": "First"}, format="json").status_code == 200
    body = {"name": "Second"}
    if kind != "clubs" and method == "put":
        body["club"] = objects["clubs"].pk
    stale = getattr(as_alice, method)(url(objects, kind), body, format="json", HTTP_IF_MATCH=etag)
    assert stale.status_code == 412
    assert stale.json()["errors"][0]["code"] == "precondition_failed"
    model = {"clubs": Club, "players": Player, "seasons": Season}[kind]
    assert model.objects.get(pk=objects[kind].pk).name == "First"


@pytest.mark.parametrize("kind", RESOURCES)
@pytest.mark.parametrize("if_match", ["*", "current", '"x", current'])
def test_a_change_with_the_current_etag_or_a_star_is_made(as_alice, objects, kind, if_match):
    etag = as_alice.get(url(objects, kind))["ETag"]
    header = if_match.replace("current", etag)
    response = as_alice.patch(
        url(objects, kind), {"name": "Third"}, format="json", HTTP_IF_MATCH=header
    )
    assert response.status_code == 200


@pytest.mark.parametrize("kind", RESOURCES)
def test_an_etag_must_be_sent_as_served(as_alice, objects, kind):
    etag = as_alice.get(url(objects, kind))["ETag"]
    other = '"' + ("1" if etag[1] == "0" else "0") + etag[2:]  # another first part
    for header in [etag.strip('"'), "W/" + etag, other]:
        response = as_alice.patch(
            url(objects, kind), {"name": "Fourth"}, format="json", HTTP_IF_MATCH=header
        )
        assert response.status_code in {400, 412}
    unquoted = as_alice.patch(
        url(objects, kind), {"name": "Fourth"}, format="json", HTTP_IF_MATCH=etag.strip('"')
    )
    assert unquoted.json()["errors"][0]["code"] == "invalid_if_match"


def test_a_change_without_if_match_is_still_made(as_alice, objects):
    response = as_alice.patch(url(objects, "players"), {"name": "Plain"}, format="json")
    assert response.status_code == 200
    assert response.has_header("ETag")


def test_a_viewers_change_is_refused_without_an_etag(as_victor, objects):
    response = as_victor.patch(url(objects, "seasons"), {"name": "Nope"}, format="json")
    assert response.status_code == 403
    assert not response.has_header("ETag")


def test_a_clubs_etag_covers_its_second_entry(as_alice, objects):
    etag = as_alice.get(url(objects, "clubs"))["ETag"]
    changed = as_alice.patch(url(objects, "clubs"), {"second_entry": "required"}, format="json")
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert as_alice.get(url(objects, "clubs"), HTTP_IF_NONE_MATCH=etag).status_code == 200
    stale = as_alice.patch(
        url(objects, "clubs"), {"second_entry": "off"}, format="json", HTTP_IF_MATCH=etag
    )
    assert stale.status_code == 412  # the other owner's change is not undone unseen
    assert Club.objects.get(pk=objects["clubs"].pk).second_entry == "required"


def test_a_read_is_304_only_while_its_whole_answer_is_the_same(
    as_alice, as_victor, as_carol, objects, alices_world
):
    club = as_victor.get(url(objects, "clubs"))
    assert as_victor.get(url(objects, "clubs"), HTTP_IF_NONE_MATCH=club["ETag"]).status_code == 304
    Membership.objects.filter(club=objects["clubs"], user__username="victor").update(
        role="scorekeeper"
    )
    again = as_victor.get(url(objects, "clubs"), HTTP_IF_NONE_MATCH=club["ETag"])
    assert again.status_code == 200 and again.json()["role"] == "scorekeeper"

    player = as_alice.get(url(objects, "players"))
    seated = alices_world.seated
    for _ in range(2):  # Ann goes out twice more: 1,020, the match is finished
        assert record(as_carol, alices_world.match, went_out(seated[0], seated)).status_code == 201
    read = as_alice.get(url(objects, "players"), HTTP_IF_NONE_MATCH=player["ETag"])
    assert read.status_code == 200  # its record moved on
    assert read.json()["record"] != player.json()["record"]
    # a hand recorded since is no conflict for a rename made from the older read
    renamed = as_alice.patch(
        url(objects, "players"), {"name": "Ann B."}, format="json", HTTP_IF_MATCH=player["ETag"]
    )
    assert renamed.status_code == 200
