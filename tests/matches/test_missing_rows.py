"""A row a service expected and did not find is a 500, not a quiet 404; a vanished hand says so.

Only the views' own lookups answer 404 (the match, hand or club in the URL). A service that
finds a hand gone under its feet (voided meanwhile) raises ``NoSuchHand``: 404 with
``not_found``. Anything else missing is a bug, and it surfaces as one.
"""

from __future__ import annotations

import pytest

import scoring
from matches import errors
from matches.models import Hand
from matches.services import corrections as correction_services
from matches.services import hands as hand_services
from tests.factories import client_for, record, start_match, went_out


def test_a_service_that_misses_a_row_is_a_server_error(carol, club, roster, monkeypatch):
    players = [p.pk for p in roster[:2]]
    match = start_match(client_for(carol), club, roster[:2])

    def missing(**kwargs: object) -> None:
        raise Hand.DoesNotExist("a bug")

    monkeypatch.setattr(hand_services, "hand_record", missing)
    client = client_for(carol)
    client.raise_request_exception = False
    response = record(client, match["id"], went_out(players[0], players))
    assert response.status_code == 500
    assert response.json()["type"] == "server_error"


def test_correcting_or_voiding_a_hand_voided_meanwhile_raises_no_such_hand(carol, club, roster):
    players = [p.pk for p in roster[:2]]
    match = start_match(client_for(carol), club, roster[:2])
    assert record(client_for(carol), match["id"], went_out(players[0], players)).status_code == 201
    correction_services.hand_void(match_id=match["id"], number=1, user=carol)
    entry = hand_services.HandEntry(
        ending=scoring.Ending.STOCK_EXHAUSTED, went_out=None, results=()
    )
    with pytest.raises(errors.NoSuchHand):
        correction_services.hand_correct(match_id=match["id"], number=1, entry=entry, user=carol)
    with pytest.raises(errors.NoSuchHand):
        correction_services.hand_void(match_id=match["id"], number=1, user=carol)


def test_no_such_hand_is_answered_404_not_found(as_carol, club, roster, monkeypatch):
    players = [p.pk for p in roster[:2]]
    match = start_match(as_carol, club, roster[:2])
    assert record(as_carol, match["id"], went_out(players[0], players)).status_code == 201

    def voided_meanwhile(**kwargs: object) -> None:
        raise errors.NoSuchHand(number=1)

    monkeypatch.setattr(correction_services, "hand_void", voided_meanwhile)
    response = as_carol.delete(f"/api/v1/matches/{match['id']}/hands/1/")
    assert response.status_code == 404
    assert [e["code"] for e in response.json()["errors"]] == ["not_found"]


@pytest.mark.django_db
def test_every_write_of_a_match_deleted_meanwhile_says_not_found(carol, club, roster):
    """A club night's round undone deletes its matches: a write that waited for one's lock
    then finds it gone, and answers 404 ``not_found``, whichever write it is."""
    from matches import drafts, live

    match = start_match(client_for(carol), club, roster[:3])
    gone = match["id"] + 1000
    writes = [
        lambda: hand_services.hand_record(
            match_id=gone,
            user=carol,
            entry=None,  # type: ignore[arg-type]
        ),
        lambda: drafts.draft_part_save(
            match_id=gone, number=1, player_id=None, data={}, expected_version=0, user=carol
        ),
        lambda: drafts.draft_discard(match_id=gone, number=1, user=carol),
        lambda: live.live_start(match_id=gone, turned_up=scoring.Card.parse("7H"), user=carol),
        lambda: correction_services.hand_void(match_id=gone, number=1, user=carol),
    ]
    for write in writes:
        with pytest.raises(errors.NoSuchMatch) as refused:
            write()
        assert (refused.value.status, refused.value.code) == (404, "not_found")
