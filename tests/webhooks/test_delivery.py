"""Deliveries to a real HTTP receiver on loopback, run by the worker from the database queue."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from standardwebhooks import Webhook

from matches.models import Event
from tests.factories import record, start_match, went_out
from webhooks import sending, services
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(club, receiver):
    return Endpoint.objects.create(club=club, url=receiver.url, events=["hand.recorded"])


def play_a_hand(client, club, roster) -> dict:
    seated = [p.pk for p in roster[:3]]
    match = start_match(client, club, roster[:3])
    assert record(client, match["id"], went_out(seated[0], seated)).status_code == 201
    return match


def make_due(delivery: Delivery) -> None:
    """Bring the delivery's queued retry forward to now, as the clock would."""
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())


def test_a_delivery_is_signed_per_standard_webhooks(
    as_carol, club, roster, endpoint, receiver, run_worker
):
    match = play_a_hand(as_carol, club, roster)
    run_worker()

    [got] = receiver.requests
    payload = Webhook(endpoint.secret).verify(got.body, got.headers)
    event = Event.objects.get(type="hand.recorded")
    assert payload["type"] == "hand.recorded"
    assert payload["data"] == {**event.data, "match": match["id"], "number": 1}
    assert got.headers["webhook-id"] == f"evt_{event.pk}"
    assert got.headers["Content-Type"] == "application/json"
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("succeeded", 1, 204)
    with pytest.raises(Exception, match="No matching signature"):
        Webhook("whsec_" + "A" * 32).verify(got.body, got.headers)


def test_a_receiver_that_fails_first_gets_the_same_webhook_id_again(
    as_carol, club, roster, endpoint, receiver, run_worker
):
    receiver.answers = [503]
    play_a_hand(as_carol, club, roster)
    run_worker()

    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("pending", 1, 503)
    wait = delivery.next_attempt_at - delivery.last_attempt_at
    assert dt.timedelta(seconds=4) < wait <= dt.timedelta(seconds=10)
    assert Endpoint.objects.get().failure_count == 1
    run_worker()  # not due yet: nothing sent
    assert len(receiver.requests) == 1

    make_due(delivery)
    run_worker()

    first, second = receiver.requests
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert first.body == second.body
    Webhook(endpoint.secret).verify(second.body, second.headers)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("succeeded", 2)
    assert Endpoint.objects.get().failure_count == 0


def test_the_retries_follow_the_schedule_then_the_endpoint_is_disabled(
    as_carol, club, roster, endpoint, receiver
):
    receiver.answers = [500] * 8
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    waits = []
    for number in range(1, 9):
        services.attempt(delivery_id=delivery.pk, number=number)
        delivery.refresh_from_db()
        if delivery.next_attempt_at is not None:
            waits.append(delivery.next_attempt_at - delivery.last_attempt_at)

    assert [round(w.total_seconds()) for w in waits] == [
        5,
        5 * 60,
        30 * 60,
        2 * 3600,
        5 * 3600,
        10 * 3600,
        10 * 3600,
    ]
    assert (delivery.status, delivery.attempts) == ("failed", 8)
    assert len({r.headers["webhook-id"] for r in receiver.requests}) == 1
    disabled = Endpoint.objects.get()
    assert disabled.disabled_at is not None and disabled.failure_count == 8


def test_a_duplicate_task_sends_nothing_twice(as_carol, club, roster, endpoint, receiver):
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    services.attempt(delivery_id=delivery.pk, number=1)
    services.attempt(delivery_id=delivery.pk, number=1)
    assert len(receiver.requests) == 1


def test_only_an_excerpt_of_the_answer_is_kept(as_carol, club, roster, endpoint, receiver):
    receiver.answers, receiver.answer_body = [500], b"x" * 100_000
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    services.attempt(delivery_id=delivery.pk, number=1)
    delivery.refresh_from_db()
    assert delivery.response_excerpt == "x" * sending.EXCERPT


def test_a_receiver_too_slow_is_a_failed_attempt(
    as_carol, club, roster, endpoint, receiver, monkeypatch
):
    monkeypatch.setattr(sending, "TIMEOUT_SECONDS", 0.3)
    receiver.delay = 1.0
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    services.attempt(delivery_id=delivery.pk, number=1)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.error, delivery.response_status) == (
        "pending",
        "timeout",
        None,
    )


def test_a_target_private_at_delivery_time_is_a_failed_attempt(
    as_carol, club, roster, endpoint, receiver, settings
):
    play_a_hand(as_carol, club, roster)
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = False
    delivery = Delivery.objects.get()
    services.attempt(delivery_id=delivery.pk, number=1)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.error) == ("pending", "webhook_target_private")
    assert receiver.requests == []


def test_a_target_wrapping_a_private_address_is_refused_at_the_attempt(
    as_carol, club, roster, endpoint, receiver, settings
):
    play_a_hand(as_carol, club, roster)
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = False
    Endpoint.objects.filter(pk=endpoint.pk).update(url="http://[64:ff9b::7f00:1]/hooks")
    delivery = Delivery.objects.get()
    services.attempt(delivery_id=delivery.pk, number=1)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.error) == ("pending", "webhook_target_private")
    assert receiver.requests == []


def test_a_redirect_is_not_followed(as_carol, club, roster, endpoint, receiver):
    receiver.answers = [302]
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    services.attempt(delivery_id=delivery.pk, number=1)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.response_status) == ("pending", 302)
    assert len(receiver.requests) == 1


def test_an_event_type_the_endpoint_did_not_ask_for_is_not_sent(
    as_carol, club, roster, endpoint, receiver, run_worker
):
    start_match(as_carol, club, roster[:3])  # match.started
    run_worker()
    assert receiver.requests == [] and not Delivery.objects.exists()


def test_a_test_message_and_a_redelivery_through_the_api(
    as_alice, as_carol, club, roster, endpoint, receiver, run_worker
):
    url = f"/api/v1/clubs/{club.pk}/webhooks/{endpoint.pk}/"
    queued = as_alice.post(f"{url}test/")
    assert queued.status_code == 202
    assert queued.json()["type"] == "webhook.test"
    play_a_hand(as_carol, club, roster)
    run_worker()

    log = as_alice.get(f"{url}deliveries/").json()["results"]
    assert [(d["type"], d["status"], d["attempts"]) for d in log] == [
        ("hand.recorded", "succeeded", 1),
        ("webhook.test", "succeeded", 1),
    ]
    again = as_alice.post(f"{url}deliveries/{log[0]['id']}/redeliver/")
    assert again.status_code == 202
    assert (again.json()["status"], again.json()["attempts"]) == ("pending", 0)
    run_worker()

    test, first, second = receiver.requests
    assert json.loads(test.body)["type"] == "webhook.test"
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == log[0]["webhook_id"]
    Webhook(endpoint.secret).verify(second.body, second.headers)


def test_a_delivery_of_another_webhook_is_not_found(
    as_alice, as_carol, club, roster, endpoint, receiver
):
    other = Endpoint.objects.create(club=club, url=receiver.url, events=["hand.recorded"])
    play_a_hand(as_carol, club, roster)
    theirs = Delivery.objects.get(endpoint=other)
    url = f"/api/v1/clubs/{club.pk}/webhooks/{endpoint.pk}/deliveries/{theirs.pk}/redeliver/"
    assert as_alice.post(url).status_code == 404


def test_the_worker_queues_again_a_delivery_left_overdue(
    as_carol, club, roster, endpoint, receiver, run_worker
):
    play_a_hand(as_carol, club, roster)
    DBTaskResult.objects.all().delete()  # as if the worker had died holding the task
    Delivery.objects.update(next_attempt_at=timezone.now() - dt.timedelta(hours=1))
    run_worker()
    assert len(receiver.requests) == 1
    assert Delivery.objects.get().status == "succeeded"


@pytest.mark.django_db(transaction=True)
def test_the_worker_delivers_what_was_committed(alice, club, roster, receiver):
    """No test transaction here: the hand commits, then the worker, as run, reads the queue."""
    from tests.factories import client_for, work

    hook = Endpoint.objects.create(club=club, url=receiver.url, events=["hand.recorded"])
    play_a_hand(client_for(alice), club, roster)
    work()
    [got] = receiver.requests
    assert Webhook(hook.secret).verify(got.body, got.headers)["type"] == "hand.recorded"
