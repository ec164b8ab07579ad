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
from webhooks import sending, tasks
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
    # the event's place in the club's feed, to put messages back in order and resume from
    assert (payload["id"], payload["position"]) == (event.pk, event.position)
    feed = as_carol.get(f"/api/v1/clubs/{club.pk}/events/").json()["results"]
    assert [(e["id"], e["position"]) for e in feed if e["type"] == "hand.recorded"] == [
        (payload["id"], payload["position"])
    ]
    # the event's time, in UTC, written as the API writes its times
    assert json.loads(got.body)["timestamp"].endswith("Z")
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
        tasks.attempt(delivery_id=delivery.pk, number=number)
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
    tasks.attempt(delivery_id=delivery.pk, number=1)
    tasks.attempt(delivery_id=delivery.pk, number=1)
    assert len(receiver.requests) == 1


def test_only_an_excerpt_of_the_answer_is_kept(as_carol, club, roster, endpoint, receiver):
    receiver.answers, receiver.answer_body = [500], b"x" * 100_000
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    tasks.attempt(delivery_id=delivery.pk, number=1)
    delivery.refresh_from_db()
    assert delivery.response_excerpt == "x" * sending.EXCERPT


def test_a_receiver_too_slow_is_a_failed_attempt(
    as_carol, club, roster, endpoint, receiver, settings
):
    settings.WEBHOOKS_TIMEOUT_SECONDS = 0.3
    receiver.delay = 1.0
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    tasks.attempt(delivery_id=delivery.pk, number=1)
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
    tasks.attempt(delivery_id=delivery.pk, number=1)
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
    tasks.attempt(delivery_id=delivery.pk, number=1)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.error) == ("pending", "webhook_target_private")
    assert receiver.requests == []


def test_a_url_of_another_scheme_kept_from_before_is_never_sent_to(
    as_carol, club, roster, endpoint, receiver
):
    play_a_hand(as_carol, club, roster)
    ftp = receiver.url.replace("http://", "ftp://")  # the receiver would answer it as HTTP
    Endpoint.objects.filter(pk=endpoint.pk).update(url=ftp)
    delivery = Delivery.objects.get()
    tasks.attempt(delivery_id=delivery.pk, number=1)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.error) == ("pending", "webhook_url_scheme")
    assert receiver.requests == []


def test_a_redirect_is_not_followed(as_carol, club, roster, endpoint, receiver):
    receiver.answers = [302]
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    tasks.attempt(delivery_id=delivery.pk, number=1)
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
    assert (again.json()["status"], again.json()["attempts"]) == ("pending", 1)
    run_worker()

    test, first, second = receiver.requests
    assert json.loads(test.body)["type"] == "webhook.test"
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == log[0]["webhook_id"]
    Webhook(endpoint.secret).verify(second.body, second.headers)


def test_a_redelivery_keeps_every_attempt_and_starts_the_schedule_over(
    as_alice, as_carol, club, roster, endpoint, receiver, run_worker
):
    receiver.answers = [500] * 8
    receiver.answer_body = b"down for maintenance"
    play_a_hand(as_carol, club, roster)
    for _ in range(8):
        make_due(Delivery.objects.get())
        run_worker()
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("failed", 8)
    Endpoint.objects.update(disabled_at=None, failure_count=0)

    url = f"/api/v1/clubs/{club.pk}/webhooks/{endpoint.pk}/deliveries/"
    assert as_alice.post(f"{url}{delivery.pk}/redeliver/").status_code == 202
    run_worker()

    [logged] = as_alice.get(url).json()["results"]
    assert (logged["status"], logged["attempts"]) == ("succeeded", 9)
    history = logged["history"]
    assert [a["number"] for a in history] == list(range(1, 10))
    assert [a["response_status"] for a in history] == [500] * 8 + [204]
    assert history[0]["response_excerpt"] == "down for maintenance"
    assert all(a["duration_ms"] >= 0 and a["at"] for a in history)


def test_a_redelivered_delivery_that_fails_is_retried_on_the_schedule(
    as_alice, as_carol, club, roster, endpoint, receiver, run_worker
):
    receiver.answers = [500, 500]
    play_a_hand(as_carol, club, roster)
    run_worker()
    delivery = Delivery.objects.get()
    Delivery.objects.update(status="failed", next_attempt_at=None)
    DBTaskResult.objects.filter(status="READY").delete()

    url = f"/api/v1/clubs/{club.pk}/webhooks/{endpoint.pk}/deliveries/{delivery.pk}/redeliver/"
    as_alice.post(url)
    run_worker()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("pending", 2)
    wait = delivery.next_attempt_at - delivery.last_attempt_at
    assert wait <= dt.timedelta(seconds=10)  # the schedule's first delay, not its second


def test_the_log_filters_by_status(as_alice, as_carol, club, roster, endpoint, receiver):
    play_a_hand(as_carol, club, roster)
    play_a_hand(as_carol, club, roster)
    first, second = Delivery.objects.order_by("pk")
    Delivery.objects.filter(pk=first.pk).update(status="succeeded")
    url = f"/api/v1/clubs/{club.pk}/webhooks/{endpoint.pk}/deliveries/"

    def ids(**query) -> list[int]:
        return [d["id"] for d in as_alice.get(url, query).json()["results"]]

    assert ids(status="pending") == [second.pk]
    assert ids(status="succeeded") == [first.pk]
    assert ids(status="failed") == []
    assert ids() == [second.pk, first.pk]
    refused = as_alice.get(url, {"status": "lost"})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["attr"] == "status"
    twice = as_alice.get(f"{url}?status=pending&status=failed")  # not the last one, silently
    assert twice.status_code == 400
    error = twice.json()["errors"][0]
    assert (error["attr"], error["code"]) == ("status", "repeated")
    assert error["detail"] == "status is given 2 times: give it once."


def test_after_a_rotation_both_secrets_sign_until_the_overlap_ends(
    as_alice, as_carol, club, roster, endpoint, receiver, run_worker
):
    old = endpoint.secret
    url = f"/api/v1/clubs/{club.pk}/webhooks/{endpoint.pk}/rotate-secret/"
    rotated = as_alice.post(url).json()
    new = rotated["secret"]
    until = dt.datetime.fromisoformat(rotated["previous_secret_until"])
    assert dt.timedelta(hours=23, minutes=59) < until - timezone.now() <= dt.timedelta(hours=24)
    play_a_hand(as_carol, club, roster)
    run_worker()

    [got] = receiver.requests
    assert len(got.headers["webhook-signature"].split(" ")) == 2
    Webhook(old).verify(got.body, got.headers)
    Webhook(new).verify(got.body, got.headers)

    Endpoint.objects.update(previous_secret_until=timezone.now())
    play_a_hand(as_carol, club, roster)
    run_worker()
    later = receiver.requests[1]
    Webhook(new).verify(later.body, later.headers)
    with pytest.raises(Exception, match="No matching signature"):
        Webhook(old).verify(later.body, later.headers)


def test_a_rotation_without_overlap_stops_the_old_secret_at_once(
    as_alice, as_carol, club, roster, endpoint, receiver, run_worker
):
    old = endpoint.secret
    url = f"/api/v1/clubs/{club.pk}/webhooks/{endpoint.pk}/rotate-secret/"
    new = as_alice.post(url, {"overlap_seconds": 0}, format="json").json()["secret"]
    play_a_hand(as_carol, club, roster)
    run_worker()
    [got] = receiver.requests
    Webhook(new).verify(got.body, got.headers)
    with pytest.raises(Exception, match="No matching signature"):
        Webhook(old).verify(got.body, got.headers)
    too_long = as_alice.post(url, {"overlap_seconds": 8 * 24 * 3600}, format="json")
    assert (too_long.status_code, too_long.json()["errors"][0]["attr"]) == (
        400,
        "overlap_seconds",
    )


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
    an_hour_ago = timezone.now() - dt.timedelta(hours=1)
    Delivery.objects.update(next_attempt_at=an_hour_ago, queued_for=an_hour_ago)
    run_worker()
    assert len(receiver.requests) == 1
    assert Delivery.objects.get().status == "succeeded"


def test_a_retry_a_worker_of_the_release_before_scheduled_is_not_taken_for_lost(
    as_carol, club, roster, endpoint
):
    """During an upgrade a worker still running the release before schedules a retry five
    minutes on without writing queued_for, left as it was when the first attempt was queued:
    the sweep goes by the later of the two, and leaves the retry to its time."""
    play_a_hand(as_carol, club, roster)
    an_hour_ago = timezone.now() - dt.timedelta(hours=1)
    retry_at = timezone.now() + dt.timedelta(minutes=5)
    Delivery.objects.update(queued_for=an_hour_ago, next_attempt_at=retry_at, attempts=1)
    queued = Delivery.objects.get().task_id
    assert tasks.requeue_overdue() == 0
    assert Delivery.objects.get().task_id == queued


@pytest.mark.django_db(transaction=True)
def test_the_worker_delivers_what_was_committed(alice, club, roster, receiver):
    """No test transaction here: the hand commits, then the worker, as run, reads the queue."""
    from tests.factories import client_for, work

    hook = Endpoint.objects.create(club=club, url=receiver.url, events=["hand.recorded"])
    play_a_hand(client_for(alice), club, roster)
    work()
    [got] = receiver.requests
    assert Webhook(hook.secret).verify(got.body, got.headers)["type"] == "hand.recorded"


def test_an_answer_with_a_nul_byte_is_kept_and_its_status_counts(
    as_carol, club, roster, endpoint, receiver, run_worker
):
    """PostgreSQL keeps no NUL in a text column: writing the excerpt failed, the outcome was
    never written, and the attempt was made again and again outside its retry schedule."""
    receiver.answers = [500]
    receiver.answer_body = b"error\x00detail"
    play_a_hand(as_carol, club, roster)
    run_worker()
    delivery = Delivery.objects.get()
    assert (delivery.attempts, delivery.status, delivery.response_status) == (1, "pending", 500)
    assert delivery.response_excerpt == "error\ufffddetail"
    assert list(delivery.history.values_list("response_status", "error")) == [(500, "")]


def test_a_webhook_path_written_in_other_than_ascii_is_sent_percent_encoded(
    as_alice, as_carol, club, roster, receiver, run_worker
):
    url = receiver.url.replace("/hooks?", "/r/café?")
    made = as_alice.post(
        f"/api/v1/clubs/{club.pk}/webhooks/",
        {"url": url, "events": ["hand.recorded"]},
        format="json",
    )
    assert made.status_code == 201
    play_a_hand(as_carol, club, roster)
    run_worker()
    assert [r.path for r in receiver.requests] == ["/r/caf%C3%A9?app=1"]
    assert Delivery.objects.get().status == "succeeded"


def test_an_attempt_cut_off_every_time_backs_off_and_ends(
    as_carol, club, roster, endpoint, receiver
):
    """An attempt whose worker stops every time (a message that kills it) is not made again
    at once for ever: each cut-off counts in the retry schedule, and the schedule ends."""
    play_a_hand(as_carol, club, roster)
    delivery = Delivery.objects.get()
    for cut in range(1, len(tasks.RETRY_DELAYS) + 2):
        now = timezone.now()
        Delivery.objects.filter(pk=delivery.pk).update(
            leased_until=now - dt.timedelta(seconds=1),
            next_attempt_at=now - dt.timedelta(hours=1),
        )
        before = timezone.now()
        tasks.requeue_overdue()
        delivery.refresh_from_db()
        assert delivery.attempts == cut and delivery.error == "worker_stopped"
        if cut <= len(tasks.RETRY_DELAYS):
            assert delivery.status == "pending"
            wait = delivery.next_attempt_at - before
            assert (
                tasks.RETRY_DELAYS[cut - 1]
                <= wait
                < tasks.RETRY_DELAYS[cut - 1] + dt.timedelta(seconds=5)
            )
    assert delivery.status == "failed"
    assert delivery.history.count() == len(tasks.RETRY_DELAYS) + 1
    assert Endpoint.objects.get().failure_count == 0  # not the receiver's failures


@pytest.mark.django_db(transaction=True)
def test_a_place_a_queued_delivery_cannot_take_goes_to_one_that_can(club):
    """An untried webhook's attempt is running (its receiver hangs) and a new event comes:
    its delivery to the untried webhook is queued, the one to a webhook known to answer waits
    behind it (the club's places' worth is on the queue). The untried one's task finds the
    untried place taken and waits too: the free place goes to the known webhook's delivery at
    once, not at the next sweep."""
    from matches import events
    from matches.models import EventType

    now = timezone.now()
    untried = Endpoint.objects.create(club=club, url="https://u.example/", events=["match.started"])
    known = Endpoint.objects.create(
        club=club, url="https://k.example/", events=["match.started"], succeeded_at=now
    )
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 1})
    hanging = Delivery.objects.get(endpoint=untried)
    Delivery.objects.filter(pk=hanging.pk).update(leased_until=now + dt.timedelta(seconds=30))
    Delivery.objects.filter(endpoint=known).update(status="succeeded", task_id="")
    events.write(club_id=club.pk, type=EventType.MATCH_STARTED, data={"match": 2})
    queued = Delivery.objects.exclude(pk=hanging.pk).get(endpoint=untried)
    waiting = Delivery.objects.get(endpoint=known, status="pending")
    assert waiting.task_id == tasks.WAITING

    tasks.attempt(delivery_id=queued.pk, number=1, task_id=queued.task_id)

    queued.refresh_from_db()
    waiting.refresh_from_db()
    assert queued.task_id == tasks.WAITING  # the untried place is taken
    assert waiting.task_id not in ("", tasks.WAITING)  # queued for the free place
