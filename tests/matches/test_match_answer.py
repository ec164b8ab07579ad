"""A match's answer has one producer, its state's type (``matches.state.MatchState``).

The list, the detail, the 201 of its creation and the match carried by a hand's answer are all
``MatchState.to_json``: they agree on every member they share, ``unconfirmed_hands`` included,
and the state is built once per match answered.
"""

from __future__ import annotations

import pytest

from matches import state
from matches.models import SecondEntry
from tests.factories import record, start_match, went_out


def confirm(client, match_id: int, number: int):
    url = f"/api/v1/matches/{match_id}/hands/{number}/confirmations/"
    return client.post(url, {}, format="json")


def test_the_list_and_the_detail_agree_on_every_member_unconfirmed_hands_included(
    as_carol, as_victor, club, roster
):
    club.second_entry = SecondEntry.REQUIRED
    club.save(update_fields=["second_entry"])
    players = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    for number in (1, 2):
        body = {**went_out(players[0], players), "number": number}
        assert record(as_carol, match["id"], body).status_code == 201
    assert confirm(as_victor, match["id"], 1).status_code == 201

    detail = as_carol.get(f"/api/v1/matches/{match['id']}/").json()
    listed = as_carol.get("/api/v1/matches/").json()["results"]
    (row,) = [m for m in listed if m["id"] == match["id"]]
    assert detail["unconfirmed_hands"] == [2]
    assert row == detail


def test_a_new_match_answers_as_its_detail_does(as_carol, club, roster):
    created = start_match(as_carol, club, roster[:2])
    assert created["unconfirmed_hands"] is None
    assert as_carol.get(f"/api/v1/matches/{created['id']}/").json() == created


def test_a_hands_match_is_the_match_without_its_marks(as_carol, club, roster):
    club.second_entry = SecondEntry.REQUIRED
    club.save(update_fields=["second_entry"])
    players = [p.pk for p in roster[:2]]
    match = start_match(as_carol, club, roster[:2])
    recorded = record(as_carol, match["id"], went_out(players[1], players)).json()

    detail = as_carol.get(f"/api/v1/matches/{match['id']}/").json()
    assert detail["unconfirmed_hands"] == [1]
    assert recorded["match"] == {k: v for k, v in detail.items() if k != "unconfirmed_hands"}


@pytest.mark.parametrize("count", [1, 4])
def test_the_list_builds_each_matchs_state_once(as_carol, club, roster, monkeypatch, count):
    for _ in range(count):
        start_match(as_carol, club, roster[:3])
    built = []
    real = state.match_state

    def counting(*args, **kwargs):
        built.append(args[0].pk)
        return real(*args, **kwargs)

    monkeypatch.setattr(state, "match_state", counting)
    answered = as_carol.get("/api/v1/matches/").json()["results"]
    assert len(answered) == count
    assert sorted(built) == sorted(m["id"] for m in answered)
