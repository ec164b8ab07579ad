"""Matches of classic Rummy: created with their ruleset and options, kept apart from Arlington."""

from __future__ import annotations

import pytest

from matches.models import Match, Player


def codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


def create(client, club, players, **extra):
    return client.post(
        "/api/v1/matches/",
        {"club": club.pk, "players": [p.pk for p in players], **extra},
        format="json",
    )


@pytest.fixture
def six(club, roster) -> list[Player]:
    return [*roster, Player.objects.create(club=club, name="Fay")]


def test_a_match_is_arlington_unless_told_otherwise(as_carol, club, roster):
    body = create(as_carol, club, roster[:2]).json()
    assert (body["ruleset"], body["options"]) == ("arlington", {})
    assert Match.objects.get(pk=body["id"]).ruleset == "arlington"


def test_a_rummy_match_keeps_its_options_with_their_defaults(as_carol, club, roster):
    response = create(as_carol, club, roster[:3], ruleset="rummy")
    assert response.status_code == 201
    assert response.json()["ruleset"] == "rummy"
    assert response.json()["options"] == {"target": 100, "ace": "low"}
    chosen = create(
        as_carol, club, roster[:3], ruleset="rummy", options={"target": 250, "ace": "high_or_low"}
    ).json()
    assert chosen["options"] == {"target": 250, "ace": "high_or_low"}
    stored = Match.objects.get(pk=chosen["id"])
    assert (stored.ruleset, stored.options) == ("rummy", {"target": 250, "ace": "high_or_low"})
    assert as_carol.get(f"/api/v1/matches/{chosen['id']}/").json()["options"]["target"] == 250


def test_rummy_seats_six_where_arlington_seats_five(as_carol, club, six):
    assert create(as_carol, club, six, ruleset="rummy").status_code == 201
    refused = create(as_carol, club, six)
    assert refused.status_code == 400
    assert codes(refused) == [("seat_count", "players")]


def test_rummy_seats_at_least_two(as_carol, club, roster):
    response = create(as_carol, club, roster[:1], ruleset="rummy")
    assert response.status_code == 400
    assert codes(response) == [("seat_count", "players")]
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"ruleset": "poker"}, [("invalid_choice", "ruleset")]),
        ({"ruleset": "rummy", "options": {"targte": 100}}, [("unknown_option", "options.targte")]),
        ({"ruleset": "rummy", "options": {"ace": "high"}}, [("invalid_choice", "options.ace")]),
        ({"ruleset": "rummy", "options": {"target": 0}}, [("min_value", "options.target")]),
        ({"ruleset": "rummy", "options": {"target": "lots"}}, [("invalid", "options.target")]),
        ({"options": {"target": 100}}, [("unknown_option", "options.target")]),
        ({"ruleset": "rummy", "options": [1]}, [("not_a_dict", "options")]),
    ],
)
def test_an_unknown_ruleset_or_option_is_a_400_naming_it(as_carol, club, roster, extra, expected):
    response = create(as_carol, club, roster[:3], **extra)
    assert response.status_code == 400
    assert codes(response) == expected
    assert not Match.objects.exists()


def test_an_option_of_a_game_that_has_none_says_so(as_carol, club, roster):
    response = create(as_carol, club, roster[:3], options={"target": 100})
    assert response.json()["errors"][0]["detail"] == (
        "target is not an option of arlington, which has none."
    )
