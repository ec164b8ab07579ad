"""Every change the services commit writes its event in the same transaction, and only then."""

from __future__ import annotations

import pytest
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from matches import confirmations
from matches.api.serializers.hands import HandInputSerializer
from matches.models import Event
from matches.services import hands as hand_services
from matches.services import matches as match_services
from tests.factories import client_for, record, start_match, went_out
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db

ALL = ["hand.recorded", "hand.corrected", "hand.voided", "hand.confirmed", "match.started"]


@pytest.fixture
def endpoint(club, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    return Endpoint.objects.create(
        club=club, url="http://127.0.0.1:18859/", events=[*ALL, "match.finished"]
    )


def entry_of(body: dict) -> hand_services.HandEntry:
    """A hand as the service takes it, read from its JSON as the API reads it."""
    incoming = HandInputSerializer(data=body)
    assert incoming.is_valid(), incoming.errors
    return incoming.to_entry()


def types(club) -> list[str]:
    return list(Event.objects.filter(club=club).values_list("type", flat=True))


def test_starting_a_match_and_recording_a_hand_write_their_events(as_carol, club, roster):
    seated = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    answer = record(as_carol, match["id"], went_out(seated[0], seated)).json()

    started, recorded = Event.objects.filter(club=club)
    assert (started.type, recorded.type) == ("match.started", "hand.recorded")
    assert started.data["match"] == match["id"]
    assert [s["player"] for s in started.data["state"]["seats"]] == seated
    assert recorded.data["number"] == 1
    assert recorded.data["hand"]["results"] == answer["results"]
    assert recorded.pk > started.pk


@pytest.mark.parametrize("second_entry", ["off", "required"])
def test_a_started_match_is_written_as_its_own_answer_gives_it(
    as_carol, club, roster, second_entry
):
    """``match.started``'s state is the match as ``GET matches/{id}/`` answers it, its marks
    (``unconfirmed_hands``: ``[]`` where the club asks for a second entry, else null) too."""
    club.second_entry = second_entry
    club.save()
    match = start_match(as_carol, club, roster[:3])
    (started,) = Event.objects.filter(club=club)
    answered = as_carol.get(f"/api/v1/matches/{match['id']}/").json()
    assert started.data["state"] == answered
    assert "unconfirmed_hands" in started.data["state"]


def test_a_refused_hand_writes_no_event_and_no_delivery(as_carol, club, roster, endpoint):
    match = start_match(as_carol, club, roster[:3])
    before = Event.objects.count(), Delivery.objects.count(), DBTaskResult.objects.count()
    seated = [p.pk for p in roster[:3]]
    refused = went_out(seated[0], seated)
    refused["results"][0]["melds"][0] = ["AS", "KH", "2D"]  # not a meld

    assert record(as_carol, match["id"], refused).status_code == 400
    assert (Event.objects.count(), Delivery.objects.count(), DBTaskResult.objects.count()) == before


def test_the_event_its_deliveries_and_their_tasks_roll_back_with_the_hand(
    carol, club, roster, endpoint
):
    match = match_services.match_create(club=club, players=[p.pk for p in roster[:3]], user=carol)
    seated = [p.pk for p in roster[:3]]
    with transaction.atomic():
        hand_services.hand_record(
            match_id=match.pk, user=carol, entry=entry_of(went_out(seated[0], seated))
        )
        assert types(club) == ["match.started", "hand.recorded"]
        assert Delivery.objects.filter(endpoint=endpoint).count() == 2
        transaction.set_rollback(True)

    assert types(club) == ["match.started"]
    assert list(Delivery.objects.values_list("type", flat=True)) == ["match.started"]
    assert DBTaskResult.objects.count() == 1


def test_a_correction_carries_its_impact(as_carol, alices_world):
    world = alices_world
    ann, ben, cleo = world.seated
    corrected = went_out(ben, world.seated)
    url = f"/api/v1/matches/{world.match}/hands/1/"
    tag = as_carol.get(url)["ETag"]
    assert as_carol.put(url, corrected, format="json", HTTP_IF_MATCH=tag).status_code == 200

    event = Event.objects.filter(type="hand.corrected").get()
    impact = event.data["impact"]
    assert impact["totals_before"] == {str(ann): 340, str(ben): -65, str(cleo): -65}
    assert impact["totals_after"] == {str(ann): -65, str(ben): 340, str(cleo): -65}
    assert event.data["hand"]["went_out"] == ben


def test_a_void_and_a_confirmation_write_theirs(as_carol, victor, alices_world):
    world = alices_world
    confirmed = client_for(victor).post(
        f"/api/v1/matches/{world.match}/hands/1/confirmations/", {}, format="json"
    )
    assert confirmed.status_code == 201, confirmed.json()
    url = f"/api/v1/matches/{world.match}/hands/1/"
    tag = as_carol.get(url)["ETag"]
    assert as_carol.delete(url, HTTP_IF_MATCH=tag).status_code == 204

    confirmation, voided = Event.objects.filter(type__in=["hand.confirmed", "hand.voided"])
    assert confirmation.data == {
        **confirmation.data,
        "match": world.match,
        "number": 1,
        "by": "victor",
        "at": confirmed.json()["confirmations"][-1]["at"],  # as the API writes it, with Z
    }
    assert voided.data["number"] == 1
    assert [s["total"] for s in voided.data["state"]["seats"]] == [0, 0, 0]


def test_the_hand_that_finishes_a_match_announces_the_finish(as_carol, club, roster):
    seated = [p.pk for p in roster[:2]]
    match = start_match(as_carol, club, roster[:2])
    for _ in range(3):  # 340 a hand: the third passes 1,000
        assert record(as_carol, match["id"], went_out(seated[0], seated)).status_code == 201

    assert types(club)[-2:] == ["hand.recorded", "match.finished"]
    finished = Event.objects.get(type="match.finished")
    assert finished.data["state"]["winners"] == [seated[0]]


@pytest.mark.parametrize("second_entry", ["off", "required"])
def test_a_finish_and_a_void_carry_the_match_as_its_own_answer_gives_it(
    as_carol, club, roster, second_entry
):
    """``match.finished``'s and ``hand.voided``'s state is the match as ``GET matches/{id}/``
    answers it at that moment, its marks (``unconfirmed_hands``) too."""
    club.second_entry = second_entry
    club.save()
    seated = [p.pk for p in roster[:2]]
    match = start_match(as_carol, club, roster[:2])
    url = f"/api/v1/matches/{match['id']}/"
    for _ in range(3):
        assert record(as_carol, match["id"], went_out(seated[0], seated)).status_code == 201
    finished = Event.objects.get(type="match.finished")
    assert finished.data["state"] == as_carol.get(url).json()

    tag = as_carol.get(f"{url}hands/3/")["ETag"]
    assert as_carol.delete(f"{url}hands/3/", HTTP_IF_MATCH=tag).status_code == 204
    voided = Event.objects.get(type="hand.voided")
    assert voided.data["state"] == as_carol.get(url).json()
    assert voided.data["state"]["unconfirmed_hands"] == (
        [1, 2] if second_entry == "required" else None
    )


def test_only_the_first_confirmation_of_a_version_is_announced(carol, victor, alices_world):
    from matches.models import Hand

    hand = Hand.objects.get(match_id=alices_world.match, number=1)
    with transaction.atomic():
        assert confirmations.confirmation_add(hand=hand, user=victor, device="phone")
        assert not confirmations.confirmation_add(hand=hand, user=victor, device="phone")
    assert Event.objects.filter(type="hand.confirmed").count() == 1


def test_a_hand_reaches_the_enabled_endpoints_of_its_club_that_want_it(
    as_carol, club, bobs_club, roster, settings
):
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    url = "http://127.0.0.1:18859/"
    wanting = [Endpoint.objects.create(club=club, url=url, events=ALL) for _ in range(2)]
    Endpoint.objects.create(club=club, url=url, events=["match.started"])  # not this type
    Endpoint.objects.create(club=club, url=url, events=ALL, disabled_at="2026-01-01T00:00:00Z")
    Endpoint.objects.create(club=bobs_club, url=url, events=ALL)  # another club's
    seated = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    assert record(as_carol, match["id"], went_out(seated[0], seated)).status_code == 201

    recorded = Event.objects.get(club=club, type="hand.recorded")
    deliveries = Delivery.objects.filter(event=recorded).order_by("endpoint_id")
    assert [d.endpoint_id for d in deliveries] == [e.pk for e in wanting]
    assert {d.message_id for d in deliveries} == {f"evt_{recorded.pk}"}
    assert deliveries[0].payload["data"] == recorded.data


def test_an_event_inserted_by_its_statement_reads_back_as_the_orm_writes_it(club):
    data = {"match": 1, "text": "Zoë's 2♦=Q♠", "nested": {"nets": [-65, 340]}, "none": None}
    with transaction.atomic():
        written = Event.insert(club_id=club.pk, position=7, type="hand.recorded", data=data)
        made = Event.objects.create(club=club, position=8, type="hand.recorded", data=data)
    assert not written._state.adding
    read, other = Event.objects.get(pk=written.pk), Event.objects.get(pk=made.pk)
    assert (read.club_id, read.position, read.type) == (club.pk, 7, "hand.recorded")
    assert read.data == data
    assert read.data == other.data and read.created_at == written.created_at
    assert read.created_at.tzinfo is not None
